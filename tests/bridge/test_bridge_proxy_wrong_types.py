"""`V1ClientProxy` for any JSON value from either side: it never raises, what it
sends is writable JSON, every message for the client is valid v1, and a
request gets exactly one answer (translated onward, or a JSON-RPC error).

The messages are valid ones with one value anywhere replaced by a value of
another JSON type, or removed (see tests/wrongjson.py).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proxy_client import check_received
from wrongjson import V2_MESSAGES, broken, json_depth

from termscribe.acp import V1ClientProxy
from termscribe.acp._validate import MAX_JSON_DEPTH

FUZZ = settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SESSION = "sess_1"

V1_REQUESTS: list[Any] = [
    {
        "jsonrpc": "2.0",
        "id": 10,
        "method": "initialize",
        "params": {
            "protocolVersion": 1,
            "clientCapabilities": {
                "fs": {"readTextFile": True},
                "_meta": {"terminal_output": True},
            },
            "clientInfo": {"name": "c", "version": "1"},
        },
    },
    {
        "jsonrpc": "2.0",
        "id": 11,
        "method": "session/new",
        "params": {
            "cwd": "/w",
            "mcpServers": [{"name": "m", "command": "/bin/m", "args": ["-x"], "env": []}],
        },
    },
    {
        "jsonrpc": "2.0",
        "id": "p",
        "method": "session/prompt",
        "params": {"sessionId": SESSION, "prompt": [{"type": "text", "text": "hi"}]},
    },
    {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": SESSION}},
    {"jsonrpc": "2.0", "id": 3, "result": {"outcome": {"outcome": "selected", "optionId": "a"}}},
    {"jsonrpc": "2.0", "id": 12, "method": "authenticate", "params": {"methodId": "m"}},
]
V2_RESPONSES: list[Any] = [
    {
        "jsonrpc": "2.0",
        "id": 10,
        "result": {
            "protocolVersion": 2,
            "info": {"name": "a", "version": "1"},
            "capabilities": {"session": {"prompt": {"image": {}}, "mcp": {"http": {}}}},
            "authMethods": [{"methodId": "m", "name": "M", "type": "agent"}],
        },
    },
    {"jsonrpc": "2.0", "id": 11, "result": {"sessionId": SESSION, "_meta": {"k": 1}}},
    {"jsonrpc": "2.0", "id": "p", "result": {}},
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": SESSION,
            "update": {"sessionUpdate": "state_update", "state": "idle", "stopReason": "refusal"},
        },
    },
    {"jsonrpc": "2.0", "id": 12, "error": {"code": -32000, "message": "no"}},
]


def _request_key(message: Any) -> str | None:
    """A request's id as a key: only strings and integers name one (JSON-RPC ids
    of other types are answered with a null id)."""
    if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" in message:
        request_id = message["id"]
        valid = isinstance(request_id, (str, int)) and not isinstance(request_id, bool)
        return json.dumps(request_id) if valid else "null"
    return None


def _answered(messages: list[Any]) -> list[str]:
    return [json.dumps(m.get("id")) for m in messages if "method" not in m and "id" in m]


def _writable(messages: list[Any]) -> None:
    for message in messages:
        json.dumps(message, allow_nan=False)
        assert json_depth(message) <= MAX_JSON_DEPTH + 8


class Run:
    def __init__(self) -> None:
        self.proxy = V1ClientProxy(max_text_chars=256)
        self.methods: dict[Any, str] = {}
        self.to_client: list[Any] = []
        self.to_agent: list[Any] = []

    def client(self, message: Any) -> None:
        key = _request_key(message)
        if key is not None and key != "null":
            self.methods.setdefault(json.loads(key), message["method"])
        routed = self.proxy.from_client(message)
        self.record(routed)
        key = _request_key(message)
        if key is not None:  # one answer now (an error) or a request to the agent
            answered = _answered(routed.to_client).count(key)
            forwarded = sum(_request_key(m) == key for m in routed.to_agent)
            assert answered + forwarded == 1, (message, routed)

    def agent(self, message: Any) -> None:
        routed = self.proxy.from_agent(message)
        self.record(routed)
        key = _request_key(message)
        if key is not None:  # an error back to the agent, or a request to the client
            answered = _answered(routed.to_agent).count(key)
            forwarded = sum(_request_key(m) == key for m in routed.to_client)
            assert answered + forwarded == 1, (message, routed)

    def record(self, routed: Any) -> None:
        _writable(routed.to_client)
        _writable(routed.to_agent)
        for message in routed.to_client:
            if "method" in message or "error" in message or message.get("id") in self.methods:
                check_received(message, self.methods)
        self.to_client += routed.to_client
        self.to_agent += routed.to_agent


@FUZZ
@given(st.data())
def test_a_broken_client_message_gets_an_answer_or_a_note(data: st.DataObject) -> None:
    run = Run()
    run.client(V1_REQUESTS[0])
    run.agent(V2_RESPONSES[0])
    run.client(data.draw(broken(V1_REQUESTS)))
    for message in V2_RESPONSES[1:]:
        run.agent(message)


@FUZZ
@given(st.data())
def test_a_broken_agent_message_never_breaks_the_proxy(data: st.DataObject) -> None:
    run = Run()
    for request, response in zip(V1_REQUESTS[:3], V2_RESPONSES[:3], strict=True):
        run.client(request)
        run.agent(response)
    run.agent(data.draw(broken(V2_MESSAGES + V2_RESPONSES)))
    for message in V2_MESSAGES[:4]:
        run.agent(message)
    run.agent(V2_RESPONSES[3])  # idle: the prompt is answered, whatever came before
    assert "p" not in [json.loads(k) for k in _open(run)]
    run.record(run.proxy.agent_closed("exit status 0"))


def _open(run: Run) -> list[str]:
    answered = set(_answered(run.to_client))
    return [json.dumps(i) for i in run.methods if json.dumps(i) not in answered]
