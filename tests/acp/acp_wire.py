"""Builders of ACP wire messages and helpers shared by the tests in tests/acp."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from wire import SESSION, notify
from wire import b64 as b64  # re-exported for the tests
from wire import chunk as chunk
from wire import snapshot as snapshot
from wire import terminal_update as terminal_update
from wrongjson import store_state

DATA = Path(__file__).parent / "data"


def anchor(
    tool_call_id: str,
    terminal_id: str,
    session: str = SESSION,
    update_kind: str = "tool_call_update",
    **fields: Any,
) -> dict[str, Any]:
    """Terminal content in a tool call (tool_call_update, tool_call or a content chunk)."""
    content = {"type": "terminal", "terminalId": terminal_id}
    if update_kind == "tool_call_content_chunk":
        update = {"sessionUpdate": update_kind, "toolCallId": tool_call_id, "content": content}
    else:
        update = {"sessionUpdate": update_kind, "toolCallId": tool_call_id, "content": [content]}
    update.update(fields)
    return notify(update, session)


def tool_status(tool_call_id: str, status: str, session: str = SESSION) -> dict[str, Any]:
    update = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, "status": status}
    return notify(update, session)


def permission(
    command: str = "cargo test",
    cwd: str = "/workspace/project",
    session: str = SESSION,
    request_id: int = 1,
    **subject_fields: Any,
) -> dict[str, Any]:
    subject = {"type": "command", "command": command, "cwd": cwd, **subject_fields}
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/request_permission",
        "params": {
            "sessionId": session,
            "title": "Run the test suite?",
            "subject": subject,
            "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
        },
    }


#: Everything observable about a store, for before/after comparisons.
fingerprint = store_state


def load_legacy_fixture(name: str) -> list[dict[str, Any]]:
    """A codex-acp fixture (concatenated {"method": "sessionUpdate", "args": [...]}) as JSON-RPC."""
    text = (DATA / "legacy-v1-meta" / name).read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    messages, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return messages
        obj, pos = decoder.raw_decode(text, pos)
        assert obj["method"] == "sessionUpdate"
        (params,) = obj["args"]
        messages.append({"jsonrpc": "2.0", "method": "session/update", "params": params})


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (DATA / "acp-v2-schema-terminal.json").read_text(encoding="utf-8")
    )
    return schema


def validate(instance: Any, definition: str) -> None:
    """Validate against one $defs entry of the official v2 schema (raises on failure)."""
    schema = dict(_schema())
    schema["$ref"] = f"#/$defs/{definition}"
    jsonschema.Draft202012Validator(schema).validate(instance)
