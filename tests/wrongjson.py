"""Valid ACP messages, and Hypothesis strategies that break one field of them.

`V2_MESSAGES` holds a valid message of every shape the ACP layer reads (each
validated against the official v2 schema by the tests), with every field of
those shapes present.  `broken()` takes one of them and replaces one value,
at any depth (the whole message included), with a JSON value of another
type: an object, an array, a string, a number (huge, negative, fractional,
infinite or NaN, as ``json.loads`` can return), a boolean, null, or a value
nested deeper than the interpreter can recurse; or it removes one key.
"""

from __future__ import annotations

import base64
import copy
import math
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

SESSION = "sess_1"
Path = tuple[str | int, ...]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _notify(update: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": SESSION, "update": update, **params},
    }


def _permission(subject: dict[str, Any] | None, request_id: Any = 3) -> dict[str, Any]:
    params: dict[str, Any] = {
        "sessionId": SESSION,
        "title": "Run it?",
        "description": "The agent wants to run a command.",
        "options": [
            {"optionId": "allow", "name": "Allow", "kind": "allow_once", "_meta": {"k": 1}},
            {"optionId": "deny", "name": "Deny", "kind": "reject_always"},
        ],
        "_meta": {"trace": "x"},
    }
    if subject is not None:
        params["subject"] = subject
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/request_permission",
        "params": params,
    }


TEXT_BLOCK = {"type": "text", "text": "hello", "annotations": {"priority": 0.5}, "_meta": {}}
TOOL_CALL_UPDATE = {
    "sessionUpdate": "tool_call_update",
    "toolCallId": "call_1",
    "title": "Run tests",
    "kind": "execute",
    "status": "in_progress",
    "content": [
        {"type": "terminal", "terminalId": "term_1", "_meta": {"a": [1, 2]}},
        {"type": "content", "content": TEXT_BLOCK, "_meta": None},
        {
            "type": "diff",
            "changes": [{"operation": "add", "path": "/w/a.txt", "newText": "x\n"}],
            "_meta": {},
        },
    ],
    "locations": [{"path": "/w/a.txt", "line": 3, "_meta": {}}],
    "rawInput": {"command": ["cargo", "test"], "cwd": "/w"},
    "rawOutput": {"stdout": "ok", "n": 1.5},
    "_meta": {"x": {"y": None}},
}

V2_MESSAGES: list[dict[str, Any]] = [
    _notify(
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "term_1",
            "command": "cargo test",
            "cwd": "/workspace",
            "output": {"data": _b64(b"snapshot\r\n\x1b[31mred\x1b[0m\n"), "_meta": {"o": 1}},
            "exitStatus": {"exitCode": 1, "signal": "SIGTERM", "_meta": {"e": True}},
            "_meta": {"m": "v"},
        },
        _meta={"p": 1},
    ),
    _notify(
        {
            "sessionUpdate": "terminal_output_chunk",
            "terminalId": "term_1",
            "data": _b64(b"more output\n"),
            "_meta": {"seq": 2},
        }
    ),
    _notify(TOOL_CALL_UPDATE),
    _notify(
        {
            "sessionUpdate": "tool_call_content_chunk",
            "toolCallId": "call_1",
            "content": {"type": "terminal", "terminalId": "term_2"},
            "_meta": {},
        }
    ),
    _notify(
        {
            "sessionUpdate": "tool_call_content_chunk",
            "toolCallId": "call_1",
            "content": {"type": "content", "content": TEXT_BLOCK},
        }
    ),
    _permission(
        {
            "type": "command",
            "command": "rm -rf build",
            "cwd": "/workspace",
            "toolCallId": "call_1",
            "terminalId": "term_1",
            "_meta": {"why": "clean"},
        }
    ),
    _permission({"type": "tool_call", "toolCall": copy.deepcopy(TOOL_CALL_UPDATE)}, "req-7"),
    _permission(None, None),
    _notify(
        {
            "sessionUpdate": "agent_message_chunk",
            "messageId": "msg_1",
            "content": TEXT_BLOCK,
            "_meta": {},
        }
    ),
    _notify({"sessionUpdate": "session_info_update", "title": "Session", "_meta": {}}),
    _notify({"sessionUpdate": "usage_update", "used": 10, "size": 100}),
    # The v1 _meta.terminal_* convention, which the store also reads.
    _notify(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "call_2",
            "rawInput": {"command": ["ls", "-l"]},
            "_meta": {
                "terminal_info": {"terminal_id": "legacy", "cwd": "/w"},
                "terminal_output": {"terminal_id": "legacy", "data": "line\n"},
                "terminal_exit": {"terminal_id": "legacy", "exit_code": 0, "signal": None},
            },
        }
    ),
    # Bare session notification and session update, a response, an error
    # response, another method.
    {
        "sessionId": SESSION,
        "update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "eA=="},
    },
    {"sessionUpdate": "terminal_update", "terminalId": "term_1", "command": "ls"},
    {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": SESSION, "modes": [{"id": "a"}]}},
    {"jsonrpc": "2.0", "id": 2, "error": {"code": -32600, "message": "bad", "data": [1]}},
    {"jsonrpc": "2.0", "id": 5, "method": "fs/read_text_file", "params": {"path": "/w/a"}},
]

# v1 session updates, for the v1 → v2 helpers.
V1_UPDATES: list[dict[str, Any]] = [
    {
        "sessionUpdate": "tool_call",
        "toolCallId": "call_1",
        "title": "Read",
        "kind": "read",
        "status": "pending",
        "content": [{"type": "content", "content": {"type": "text", "text": "x"}}],
        "locations": [{"path": "/w/a", "line": 1}],
        "rawInput": {"path": "/w/a"},
        "rawOutput": None,
        "_meta": {},
    },
    {
        "sessionUpdate": "agent_message_chunk",
        "messageId": "m",
        "content": {"type": "text", "text": "hi"},
    },
    {"sessionUpdate": "session_info_update", "title": "t"},
]


def nested(depth: int, kind: str) -> Any:
    """A list (or object) nested `depth` levels deep, built without recursion."""
    value: Any = 0
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


# Deeper than MAX_JSON_DEPTH, than json.dumps can write from a deep stack,
# and than the interpreter's recursion limit.
_DEEP = [(depth, kind) for depth in (65, 990, 5000) for kind in ("list", "dict")]
DEEP_VALUES = [nested(depth, kind) for depth, kind in _DEEP]

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 2**32, 2**64, 10**300, -(10**4000), 1.5, -0.0, 1e308]),
    st.sampled_from([math.inf, -math.inf, math.nan]),
    st.text(max_size=8),
    st.sampled_from(["", "terminal", "command", "tool_call", "content", "text", "/abs", "a\0b"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
WRONG_VALUES = st.one_of(
    _VALUES,
    # drawn as (depth, kind) and built: Hypothesis would repr a sampled one
    st.sampled_from(_DEEP).map(lambda spec: nested(*spec)),
    st.sampled_from([{}, [], {"type": {}}, [[]], {"kind": []}]),
)


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__  # str, list, dict


def paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Every position in a (shallow, valid) JSON value, the root first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def get(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def replaced(message: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(message)
    get(out, path[:-1])[path[-1]] = new
    return out


def removed(message: Any, path: Path) -> Any:
    out = copy.deepcopy(message)
    parent = get(out, path[:-1])
    del parent[path[-1]]
    return out


@st.composite
def broken(draw: st.DrawFn, messages: list[Any] = V2_MESSAGES) -> Any:
    """A valid message with one value replaced by one of another JSON type (or removed)."""
    message = draw(st.sampled_from(messages))
    path = draw(st.sampled_from(list(paths(message))))
    current = get(message, path)
    if path and isinstance(get(message, path[:-1]), dict) and draw(st.integers(0, 7)) == 0:
        return removed(message, path)
    new = draw(WRONG_VALUES.filter(lambda v: json_type(v) != json_type(current)))
    return replaced(message, path, new)


def json_depth(value: Any) -> int:
    """Nesting depth of a JSON value, without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def schema_properties(schema: dict[str, Any], names: list[str]) -> set[str]:
    """Property names declared by these $defs, in their inline variants too
    (references to other definitions are not followed)."""
    found: set[str] = set()
    stack: list[Any] = [schema["$defs"][name] for name in names]
    while stack:
        node = stack.pop()
        found.update(node.get("properties", {}))
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend(node.get(key, []))
    return found


def keys_in(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def store_state(store: Any) -> Any:
    """Everything observable about a TerminalStore, for before/after comparisons."""
    terminals = [
        (
            t.key,
            t.command,
            t.cwd,
            None if t.exit_status is None else t.exit_status.to_wire(),
            t.meta,
            t.output_meta,
            t.tool_call_ids,
            t.raw_bytes,
            t.raw_truncated,
            t.bytes_received,
            t.text(),
            t.version,
            t.snapshot_generation,
        )
        for t in store
    ]
    calls = sorted(
        {(t.session_id, c) for t in store for c in t.tool_call_ids}, key=lambda k: str(k)
    )
    tool_calls = [store.tool_call(s, c) for s, c in calls]
    return terminals, tool_calls, store.permissions(), store.revision
