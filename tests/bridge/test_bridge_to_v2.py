"""The v1 → v2 direction (`V1ToV2Bridge`, ``termscribe bridge --to v2``): today's
v1-convention agents (codex-acp's real traffic, claude-agent-acp's whole
output at completion) shown to a v2 client; every message validates against
the v2 schema, and the terminal the v2 client rebuilds is the one the v1
convention described."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import pytest
from bridge_wire import DATA, load_fixture
from proxy_client import v2_valid

from termscribe.acp import TerminalStore, V1ToV2Bridge, terminal_updates
from termscribe.cli import main

FIXTURES = sorted(p.name for p in (DATA / "legacy-v1-meta").glob("*.json"))


def _notification(params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "session/update", "params": params}


def _run(messages: list[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    bridge = V1ToV2Bridge()
    out: list[dict[str, Any]] = []
    notes: list[str] = []
    for message in messages:
        result = bridge.apply(message)
        out += result.messages
        notes += [str(n) for n in result.not_bridged]
    out += bridge.finish()
    for message in out:
        if message.get("method") == "session/update":
            v2_valid("UpdateSessionNotification", message["params"])
    return out, notes


def _v2_store(messages: list[dict[str, Any]]) -> TerminalStore:
    """What a v2 client builds from the bridge's messages (no legacy reading)."""
    store = TerminalStore(legacy=False)
    for message in messages:
        store.apply(message)
    store.finish()
    return store


@pytest.mark.parametrize("name", FIXTURES)
def test_codex_traffic_becomes_valid_v2_with_the_same_terminals(name: str) -> None:
    v1 = [_notification(n) for n in load_fixture(name)]
    out, _ = _run(v1)
    legacy = TerminalStore(legacy=True)  # how a v1 client reads the convention
    for message in v1:
        legacy.apply(message)
    legacy.finish()
    v2 = _v2_store(out)
    assert [t.key for t in v2] == [t.key for t in legacy]
    for theirs in legacy:
        ours = v2.get(*theirs.key)
        assert ours is not None
        assert (ours.command, ours.cwd, ours.exit_status) == (
            theirs.command,
            theirs.cwd,
            theirs.exit_status,
        )
        assert ours.text() == theirs.text()
        assert ours.tool_call_ids == theirs.tool_call_ids
    for message in out:  # the convention's keys are not v2's
        update = message["params"]["update"]
        assert not set(update.get("_meta") or {}) & {"terminal_info", "terminal_output"}


def test_the_full_flow_in_order() -> None:
    out, notes = _run([_notification(n) for n in load_fixture("terminal-full-flow.json")])
    kinds = [m["params"]["update"]["sessionUpdate"] for m in out]
    assert kinds[:2] == ["tool_call_update", "terminal_update"]
    first = out[0]["params"]["update"]
    assert first["content"] == [{"type": "terminal", "terminalId": "command-flow"}]
    assert out[1]["params"]["update"] == {
        "sessionUpdate": "terminal_update",
        "terminalId": "command-flow",
        "command": "echo hello",
        "cwd": "/test/project",
    }
    chunks = [
        m["params"]["update"]
        for m in out
        if m["params"]["update"]["sessionUpdate"] == "terminal_output_chunk"
    ]
    assert b"".join(base64.b64decode(c["data"]) for c in chunks) == b"hello\n"
    exits = [
        m["params"]["update"].get("exitStatus")
        for m in out
        if "exitStatus" in m["params"]["update"]
    ]
    assert exits == [{"exitCode": 0}]
    assert notes == []


def test_whole_output_at_completion_and_message_ids() -> None:
    # claude-agent-acp: terminal_info first, the whole output and the exit at the end;
    # v1 chunks without a messageId get one (v2 requires it).
    call = {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Bash", "kind": "execute"}
    call["rawInput"] = {"command": ["ls", "-la"]}
    call["_meta"] = {"terminal_info": {"terminal_id": "t1", "cwd": "/w"}, "claudeCode": {"x": 1}}
    done = {"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed"}
    done["_meta"] = {
        "terminal_output": {"terminal_id": "t1", "data": "a\nb\n"},
        "terminal_exit": {"terminal_id": "t1", "exit_code": 0, "signal": None},
    }
    text = {"type": "text", "text": "hi"}
    messages = [
        _notification(
            {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk", "content": text}}
        ),
        _notification(
            {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk", "content": text}}
        ),
        _notification({"sessionId": "s", "update": call}),
        _notification(
            {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk", "content": text}}
        ),
        _notification({"sessionId": "s", "update": done}),
        _notification({"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}),
    ]
    out, _ = _run(messages)
    updates = [m["params"]["update"] for m in out]
    ids = [u["messageId"] for u in updates if u["sessionUpdate"] == "agent_message_chunk"]
    assert ids[0] == ids[1] != ids[2]  # one message, then another after the tool call
    (announce,) = [u for u in updates if u["sessionUpdate"] == "tool_call_update" and "title" in u]
    assert announce["_meta"] == {"claudeCode": {"x": 1}}
    (content,) = [u for u in updates if u["sessionUpdate"] == "tool_call_content_chunk"]
    assert content["content"] == {"type": "terminal", "terminalId": "t1"}
    v2 = _v2_store(out)
    terminal = v2.get("s", "t1")
    assert terminal is not None and terminal.command == "ls -la" and terminal.text() == "a\nb\n"
    assert updates[-1] == {
        "sessionUpdate": "plan_update",
        "plan": {"type": "items", "planId": "main", "entries": []},
    }


def test_a_client_terminal_and_client_methods_are_not_bridged() -> None:
    call = {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Run"}
    call["content"] = [{"type": "terminal", "terminalId": "client-term"}]
    out, notes = _run(
        [
            _notification({"sessionId": "s", "update": call}),
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "terminal/create",
                "params": {"sessionId": "s", "command": "ls"},
            },
        ]
    )
    assert out[0]["params"]["update"]["content"] == []
    assert any("Client-created terminal" in n for n in notes)
    assert any(n.startswith("terminal/create") for n in notes)


def test_terminal_updates_recreate_a_stored_terminal() -> None:
    store = TerminalStore()
    store.apply(
        _notification(
            {
                "sessionId": "s",
                "update": {
                    "sessionUpdate": "terminal_update",
                    "terminalId": "t",
                    "command": "make",
                    "cwd": "/w",
                    "exitStatus": {"exitCode": 2},
                },
            }
        )
    )
    store.apply(
        _notification(
            {
                "sessionId": "s",
                "update": {
                    "sessionUpdate": "terminal_output_chunk",
                    "terminalId": "t",
                    "data": base64.b64encode(b"\x1b[31mred\x1b[0m\n").decode(),
                },
            }
        )
    )
    (update,) = terminal_updates(store.get("s", "t"))  # type: ignore[arg-type]
    v2_valid("UpdateSessionNotification", {"sessionId": "s", "update": update})
    copy = _v2_store([_notification({"sessionId": "s", "update": update})])
    assert copy.get("s", "t").text() == "red\n"  # type: ignore[union-attr]
    assert copy.get("s", "t").exit_status.exit_code == 2  # type: ignore[union-attr]


def test_the_cli_filter(tmp_path: Path) -> None:
    lines = b"".join(
        json.dumps(_notification(n)).encode() + b"\n"
        for n in load_fixture("terminal-full-flow.json")
    )
    out, err = io.BytesIO(), io.StringIO()
    assert main(["bridge", "--to", "v2"], stdin=io.BytesIO(lines), stdout=out, stderr=err) == 0
    messages = [json.loads(line) for line in out.getvalue().splitlines()]
    assert messages == _run([_notification(n) for n in load_fixture("terminal-full-flow.json")])[0]
    assert (
        main(["bridge", "--to", "v2", "--", "agent"], stdin=io.BytesIO(), stdout=out, stderr=err)
        == 2
    )
