"""JSON messages for the ACP harnesses: decoded NDJSON or built by the fuzzer.

No termscribe import here, so ``run.py`` can use the templates for seeds.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Iterator
from typing import Any

import atheris

__all__ = ["TEMPLATES", "JsonBuilder", "decoded_lines", "fuzzed_messages", "json_depth"]

#: Paths considered for one mutation of a template.
MAX_PATHS = 64


def json_depth(value: object, limit: int = 1 << 30) -> int:
    """Nesting depth of a JSON value (at most a little over `limit`), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


# Keys and string values of the ACP messages the store and the bridge read,
# so that fuzzer-built JSON often gets past the first checks.
_KEY_WORDS = """
jsonrpc method params id result error sessionId update sessionUpdate terminalId toolCallId
content type data output command cwd exitStatus exitCode signal _meta title kind status
options optionId name subject text truncated rawInput rawOutput messageId locations path
toolCall terminal_info terminal_output terminal_exit terminal_id exit_code uri mimeType
"""
_STRING_WORDS = """
2.0 session/update session/request_permission session/prompt terminal/create
terminal_update terminal_output_chunk tool_call tool_call_update tool_call_content_chunk
agent_message_chunk user_message_chunk plan usage_update terminal text diff content command
allow_once reject_once execute in_progress completed failed cancelled sess_1 sess_2 term_1
term_2 call_1 call_2 / /tmp relative G1szMW1yZWQbWzBtCg== SGVsbG8= = A
"""
KEYS = _KEY_WORDS.split()
STRINGS = [*_STRING_WORDS.split(), "", "\x00", "\u202e", "\ud800", "a" * 300]
TEMPLATES: list[Any] = [
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "call_1",
                "title": "make",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": "term_1"}],
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "terminal_update",
                "terminalId": "term_1",
                "command": "make test",
                "cwd": "/tmp",
                "output": {"data": "G1szMW1yZWQbWzBtDQo=", "truncated": False},
                "exitStatus": {"exitCode": 0, "signal": None},
                "_meta": {"x": 1},
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "term_1",
                "data": "aGVsbG8NCg==",
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "call_1",
                "status": "completed",
                "content": [
                    {"type": "content", "content": {"type": "text", "text": "done"}},
                    {"type": "terminal", "terminalId": "term_2"},
                ],
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "tool_call_content_chunk",
                "toolCallId": "call_2",
                "content": {"type": "terminal", "terminalId": "term_1"},
            },
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "session/request_permission",
        "params": {
            "sessionId": "sess_1",
            "title": "Run it?",
            "toolCall": {"toolCallId": "call_1"},
            "subject": {
                "type": "command",
                "command": "rm -rf /",
                "cwd": "/",
                "terminalId": "term_1",
                "toolCallId": "call_1",
            },
            "options": [{"optionId": "ok", "name": "Allow", "kind": "allow_once"}],
        },
    },
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "sess_1",
            "update": {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": "hi"},
            },
        },
    },
    {"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "end_turn"}},
    {
        "sessionUpdate": "terminal_output_chunk",
        "terminalId": "term_2",
        "data": "G10wO3RpdGxlBw==",
    },
]


class JsonBuilder:
    """JSON values chosen by the fuzzer, biased towards ACP messages."""

    def __init__(self, fdp: atheris.FuzzedDataProvider) -> None:
        self.fdp = fdp

    def choice(self, options: Any) -> Any:
        return options[self.fdp.ConsumeIntInRange(0, len(options) - 1)]

    def string(self) -> str:
        how = self.fdp.ConsumeIntInRange(0, 5)
        if how <= 2:
            return str(self.choice(STRINGS))
        if how == 3:
            raw = self.fdp.ConsumeBytes(self.fdp.ConsumeIntInRange(0, 48))
            return base64.b64encode(raw).decode("ascii")
        if how == 4:
            return str(self.fdp.ConsumeUnicodeNoSurrogates(self.fdp.ConsumeIntInRange(0, 24)))
        return str(self.fdp.ConsumeUnicode(self.fdp.ConsumeIntInRange(0, 24)))

    def scalar(self) -> Any:
        how = self.fdp.ConsumeIntInRange(0, 6)
        if how == 0:
            return None
        if how == 1:
            return self.fdp.ConsumeBool()
        if how == 2:
            return self.fdp.ConsumeIntInRange(-2, 300)
        if how == 3:
            return self.fdp.ConsumeInt(self.fdp.ConsumeIntInRange(1, 12))
        if how == 4:
            return self.fdp.ConsumeRegularFloat()
        return self.string()

    def value(self, depth: int = 0) -> Any:
        how = self.fdp.ConsumeIntInRange(0, 9)
        if depth > 6 or how <= 4:
            return self.scalar()
        if how <= 6:
            return {str(self.key()): self.value(depth + 1) for _ in range(self.count())}
        if how == 7:
            return [self.value(depth + 1) for _ in range(self.count())]
        if how == 8:
            return self.deep(self.value(depth + 1))
        return self.template()

    def key(self) -> str:
        return str(self.choice(KEYS)) if self.fdp.ConsumeIntInRange(0, 7) else self.string()

    def count(self) -> int:
        return int(self.fdp.ConsumeIntInRange(0, 4))

    def deep(self, inner: Any) -> Any:
        """`inner` wrapped in many arrays or objects (hundreds to thousands deep)."""
        levels = self.fdp.ConsumeIntInRange(1, 3000)
        in_objects = self.fdp.ConsumeBool()
        for _ in range(levels):
            inner = {"_meta": inner} if in_objects else [inner]
        return inner

    def template(self) -> Any:
        return json.loads(json.dumps(self.choice(TEMPLATES)))

    def mutated_template(self) -> Any:
        """A valid message with a few values replaced, removed or added."""
        message = self.template()
        for _ in range(self.fdp.ConsumeIntInRange(0, 3)):
            paths = list(itertools.islice(_paths(message), MAX_PATHS))
            parent, key = self.choice(paths)
            action = self.fdp.ConsumeIntInRange(0, 3)
            if action == 0 and isinstance(parent, dict):
                del parent[key]
            elif action == 1 and isinstance(parent, dict):
                parent[self.key()] = self.value(1)
            else:
                parent[key] = self.value(1)
        return message

    def message(self) -> Any:
        how = self.fdp.ConsumeIntInRange(0, 9)
        if how <= 5:
            return self.mutated_template()
        if how <= 7:
            return [self.mutated_template() for _ in range(self.count())]
        return self.value()

    def messages(self) -> list[Any]:
        return [self.message() for _ in range(self.fdp.ConsumeIntInRange(1, 8))]


def _paths(value: Any) -> Iterator[tuple[Any, Any]]:
    """(container, key) of every value inside `value`."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                yield item, key
                stack.append(inner)
        elif isinstance(item, list):
            for index, inner in enumerate(item):
                yield item, index
                stack.append(inner)


def decoded_lines(data: bytes) -> list[Any]:
    """The JSON values of the NDJSON lines of `data` (lines that are not JSON skipped)."""
    values = []
    for line in data.split(b"\n"):
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError):
            continue
    return values


def fuzzed_messages(data: bytes) -> list[Any]:
    """The messages of one fuzz input.

    First byte even: the rest is NDJSON (as in a session log), each line
    decoded with ``json.loads``.  Odd: the rest drives a `JsonBuilder`.
    """
    if not data:
        return []
    if data[0] % 2 == 0:
        return decoded_lines(data[1:])
    return JsonBuilder(atheris.FuzzedDataProvider(data[1:])).messages()
