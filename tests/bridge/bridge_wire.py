"""v2 message builders and v1 checks shared by the tests in tests/bridge."""

from __future__ import annotations

import json
import re
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


def block_parts(block: str) -> tuple[str, str, str]:
    """(command line, output, status line) of a text-mode terminal block.

    The output is what the ``console`` fences hold, each with a final
    newline; when the text was capped, the two fenced parts with the
    bridge's omission line between them.  Asserts the shape: every
    statement of the bridge outside a fence, the output inside one."""
    paragraphs = _markdown_parts(block)
    header, *middle, status = paragraphs
    assert header[0] == "text" and header[1].startswith("Command "), header
    assert status[0] == "text" and status[1].startswith("Status: "), status
    text = ""
    for kind, body in middle:
        if kind == "console":
            text += body + "\n"
        else:
            assert kind == "text" and re.fullmatch(r"termscribe: \d+ characters omitted", body)
            text += f"[{body}]\n"
    return header[1], text, status[1]


def _markdown_parts(block: str) -> list[tuple[str, str]]:
    """The block's parts: ("text", a paragraph) or (info string, fenced body)."""
    parts: list[tuple[str, str]] = []
    lines = block.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"(`{3,})(\w*)$", line)
        if fence:
            end = lines.index(fence[1], i + 1)  # the same run closes it
            body = "\n".join(lines[i + 1 : end])
            if parts and parts[-1][0] == "text" and parts[-1][1].endswith(":") and fence[2] == "sh":
                parts[-1] = ("text", parts[-1][1] + "\n" + body)  # a multi-line command
            else:
                parts.append((fence[2], body))
            i = end + 1
        elif line:
            parts.append(("text", line))
            i += 1
        else:
            i += 1
    return parts


def last_blocks(messages: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The last text block sent per tool call (text items holding a console fence)."""
    blocks: dict[str, str] = {}
    for update in updates(messages):
        if update["sessionUpdate"] not in ("tool_call", "tool_call_update"):
            continue
        for item in update.get("content") or []:
            text = item.get("content", {}).get("text", "")
            if item.get("type") == "content" and "```console\n" in text:
                blocks[update["toolCallId"]] = text
    return blocks
