"""v2 message builders and v1 checks shared by the tests in tests/bridge."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from acp import schema as sdk
from wire import SESSION, notify
from wire import b64 as b64  # re-exported for the tests
from wire import chunk as chunk
from wire import snapshot as snapshot
from wire import terminal_update as terminal_update

DATA = Path(__file__).parent / "data"


def tool_call(tool_call_id: str, *terminal_ids: str, **fields: Any) -> dict[str, Any]:
    """A v2 tool_call_update whose content shows these terminals (after `before` items)."""
    before = fields.pop("before", [])
    content = [*before, *({"type": "terminal", "terminalId": t} for t in terminal_ids)]
    update = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, **fields}
    if content or "content" not in fields:
        update["content"] = content
    return notify(update)


def text_item(text: str) -> dict[str, Any]:
    return {"type": "content", "content": {"type": "text", "text": text}}


def permission(request_id: Any = 7, **subject: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "sessionId": SESSION,
        "title": "Run the test suite?",
        "options": [
            {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
            {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
        ],
    }
    if subject:
        params["subject"] = subject
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/request_permission",
        "params": params,
    }


@cache
def _v1_validators() -> dict[str, jsonschema.protocols.Validator]:
    schema = json.loads((DATA / "acp-v1-schema-bridge.json").read_text(encoding="utf-8"))
    out = {}
    for name in (
        "SessionNotification",
        "RequestPermissionRequest",
        "CreateElicitationRequest",
        "CompleteElicitationNotification",
        "CancelRequestNotification",
    ):
        root = {**schema, "$ref": f"#/$defs/{name}"}
        cls = jsonschema.validators.validator_for(root)
        out[name] = cls(root, format_checker=cls.FORMAT_CHECKER)
    return out


def check_v1(message: dict[str, Any]) -> None:
    """Assert one emitted message is v1: JSON-RPC envelope, official schema, official SDK."""
    assert message.get("jsonrpc") == "2.0"
    json.dumps(message)  # plain JSON
    method = message.get("method")
    assert method != "terminal/create" and not str(method).startswith("terminal/")
    params = message.get("params")
    if method == "session/update":
        _v1_validators()["SessionNotification"].validate(params)
        sdk.SessionNotification.model_validate(params)
        assert "id" not in message
    elif method == "session/request_permission":
        _v1_validators()["RequestPermissionRequest"].validate(params)
        sdk.RequestPermissionRequest.model_validate(params)
        assert "id" in message
    elif method == "elicitation/create":
        _v1_validators()["CreateElicitationRequest"].validate(params)
        assert "id" in message
    elif method == "elicitation/complete":
        _v1_validators()["CompleteElicitationNotification"].validate(params)
        assert "id" not in message
    elif method == "$/cancel_request":
        _v1_validators()["CancelRequestNotification"].validate(params)
        assert "id" not in message


def updates(messages: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The session updates among messages."""
    for message in messages:
        if message.get("method") == "session/update":
            yield message["params"]["update"]


def terminal_items(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every v1 terminal content item among messages."""
    found = []
    for update in updates(messages):
        if update["sessionUpdate"] not in ("tool_call", "tool_call_update"):
            continue
        for item in update.get("content") or []:
            if item.get("type") == "terminal":
                found.append(item)
    return found


def load_fixture(name: str) -> list[dict[str, Any]]:
    """The SessionNotifications of a legacy fixture file (concatenated JSON objects)."""
    text = (DATA / "legacy-v1-meta" / name).read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    out, pos = [], 0
    while pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            break
        obj, pos = decoder.raw_decode(text, pos)
        out.append(obj["args"][0])
    return out


def block_parts(block: str) -> tuple[list[str], str, str]:
    """(header lines, text, status) of a console block whose header has a command
    line and a cwd line."""
    first, _, rest = block.partition("\n")
    fence = first.removesuffix("console")
    assert set(fence) == {"`"} and len(fence) >= 3
    assert rest.endswith("\n" + fence)
    inner = rest[: -len(fence) - 1]
    lines = inner.split("\n")
    header_size = 2 if len(lines) > 1 and lines[1].startswith("  cwd ") else 1
    body = lines[header_size:-1]
    return lines[:header_size], "".join(f"{line}\n" for line in body), lines[-1]


def last_blocks(messages: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The last text block sent per tool call (text items holding a console fence)."""
    blocks: dict[str, str] = {}
    for update in updates(messages):
        if update["sessionUpdate"] not in ("tool_call", "tool_call_update"):
            continue
        for item in update.get("content") or []:
            text = item.get("content", {}).get("text", "")
            if item.get("type") == "content" and "console\n" in text.split("\n", 1)[0] + "\n":
                blocks[update["toolCallId"]] = text
    return blocks
