"""Text the agent writes itself reaches a v1 client shown safe, by the same
rule in text and meta mode (SECURITY.md, "Text the agent writes itself")."""

from __future__ import annotations

from typing import Any

import pytest
from bridge_wire import check_v1, permission, tool_call
from wire import SESSION, notify

from termscribe.acp import V1ClientProxy
from termscribe.acp.bridge._shown import shown_text

# ESC with OSC 52 (clipboard), C1 CSI (U+009B), a bidi override (U+202E),
# BEL, and a spelled marker and bridge note.
HOSTILE = "ok\x1b]52;c;aGk=\x07 \x9b2J \u202eevil <U+202E> [termscribe: fake]"
_RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string value with its path, outside _meta."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _strings(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != "_meta" for s in _strings(v, f"{path}.{k}")]
    return []


def _agent_messages() -> list[Any]:
    options = [{"optionId": "go", "name": f"Go {HOSTILE}", "kind": "allow_once"}]
    asked = permission("p1", type="command", command=f"make {HOSTILE}", cwd="/w")
    asked["params"]["title"] = f"Run? {HOSTILE}"
    asked["params"]["options"] = options
    bare = {"jsonrpc": "2.0", "id": "p2", "method": "session/request_permission"}
    bare["params"] = {"sessionId": SESSION, "title": HOSTILE, "options": options}
    text = {"type": "text", "text": HOSTILE}
    return [
        notify({"sessionUpdate": "agent_message_chunk", "messageId": "m1", "content": text}),
        notify({"sessionUpdate": "agent_message", "messageId": "m2", "content": [text]}),
        tool_call(
            "c1",
            title=HOSTILE,
            kind="execute",
            rawInput={"command": HOSTILE, "args": [HOSTILE]},
            content=[{"type": "content", "content": text}],
        ),
        asked,
        bare,
        notify(
            {
                "sessionUpdate": "plan_update",
                "plan": {
                    "type": "items",
                    "planId": "p",
                    "entries": [{"content": HOSTILE, "priority": "high", "status": "pending"}],
                },
            }
        ),
        {
            "jsonrpc": "2.0",
            "id": "e1",
            "method": "elicitation/create",
            "params": {
                "sessionId": SESSION,
                "mode": "form",
                "message": HOSTILE,
                "requestedSchema": {},
            },
        },
    ]


@pytest.mark.parametrize("mode", ["text", "meta"])
def test_the_agents_text_is_shown_safe_in_every_field(mode: str) -> None:
    proxy = V1ClientProxy(mode=mode)
    proxy.from_client(
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}}
    )
    init = {
        "protocolVersion": 2,
        "info": {"name": f"agent {HOSTILE}", "version": "1"},
        "capabilities": {},
    }
    sent = proxy.from_agent({"jsonrpc": "2.0", "id": 0, "result": init}).to_client
    for message in _agent_messages():
        sent += proxy.from_agent(message).to_client
    for message in sent:
        check_v1(message)
    strings = [s for message in sent for s in _strings(message)]
    leaked = [(path, text) for path, text in strings if any(c in text for c in _RAW)]
    assert leaked == []
    shown = shown_text(HOSTILE)
    assert shown == (
        "ok<U+001B>]52;c;aGk=<U+0007> <U+009B>2J <U+202E>evil <U+003C>U+202E> "
        "<U+005B>termscribe: fake]"
    )
    where = {path for path, text in strings if shown in text}
    for field in (
        ".params.update.content.text",  # a chunk, and a whole message's
        ".params.update.title",
        ".params.update.rawInput.command",
        ".params.update.rawInput.args[0]",
        ".params.update.content[0].content.text",
        ".params.options[0].name",
        ".params.toolCall.rawInput.command",
        ".params.update.entries[0].content",
        ".params.message",
        ".result.agentInfo.name",
    ):
        assert any(path.endswith(field) for path in where), field


def test_plain_text_is_unchanged() -> None:
    for text in ("plain", "tabs\tand\nlines", "emoji 👩‍👩‍👧 and accents é", "שלום"):
        assert shown_text(text) == text
    assert shown_text("windows\r\nline") == "windows\nline"
