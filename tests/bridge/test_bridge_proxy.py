"""`V1ClientProxy` without processes: each rule of the two-way translation.

Every message meant for the v1 client is checked like the end-to-end test
does (v1 schema and SDK models); requests meant for the v2 agent are checked
against the v2 schema.
"""

from __future__ import annotations

from typing import Any

import pytest
from bridge_wire import block_parts, chunk, last_blocks, permission, terminal_update, tool_call
from proxy_client import check_received, v2_valid
from wire import SESSION, notify

from termscribe.acp._proxy import V1ClientProxy

CWD = "/work/project"
_V2_PARAMS = {
    "initialize": "InitializeRequest",
    "session/new": "NewSessionRequest",
    "session/resume": "ResumeSessionRequest",
    "session/prompt": "PromptRequest",
    "auth/login": "LoginAuthRequest",
}


class Harness:
    """A proxy and the v1 request methods by id, checking everything it emits."""

    def __init__(self, mode: str = "auto") -> None:
        self.proxy = V1ClientProxy(mode=mode)
        self.methods: dict[Any, str] = {}

    def client(self, message: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if isinstance(message, dict) and "method" in message and "id" in message:
            self.methods[message["id"]] = message["method"]
        routed = self.proxy.from_client(message)
        return self._checked(routed)

    def agent(self, message: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return self._checked(self.proxy.from_agent(message))

    def _checked(self, routed: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        for message in routed.to_client:
            check_received(message, self.methods)
        for message in routed.to_agent:
            if message.get("method") in _V2_PARAMS:
                v2_valid(_V2_PARAMS[message["method"]], message["params"])
        return routed.to_client, routed.to_agent

    def start(self, capabilities: dict[str, Any] | None = None) -> None:
        params: dict[str, Any] = {"protocolVersion": 1}
        if capabilities is not None:
            params["clientCapabilities"] = capabilities
        self.client(request(0, "initialize", params))
        self.agent(result(0, INIT_RESULT))
        self.client(request(1, "session/new", {"cwd": CWD, "mcpServers": []}))
        self.agent(result(1, {"sessionId": SESSION}))


INIT_RESULT = {"protocolVersion": 2, "info": {"name": "agent", "version": "1"}, "capabilities": {}}


def request(request_id: Any, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def result(request_id: Any, value: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def idle(stop_reason: Any = "end_turn") -> dict[str, Any]:
    body = {"sessionUpdate": "state_update", "state": "idle"}
    if stop_reason is not None:
        body["stopReason"] = stop_reason
    return notify(body)


def prompt(request_id: Any = 5) -> dict[str, Any]:
    params = {"sessionId": SESSION, "prompt": [{"type": "text", "text": "go"}]}
    return request(request_id, "session/prompt", params)


def error_code(messages: list[dict[str, Any]]) -> int:
    (message,) = messages
    code: int = message["error"]["code"]
    return code


# -- initialize ---------------------------------------------------------------------


def test_initialize_both_ways() -> None:
    h = Harness()
    capabilities = {"fs": {"readTextFile": True}, "terminal": True, "_meta": {"x": 1}}
    params = {"protocolVersion": 1, "clientCapabilities": capabilities}
    _, to_agent = h.client(request(0, "initialize", params))
    assert to_agent == [
        request(
            0,
            "initialize",
            {
                "protocolVersion": 2,
                "info": {"name": "unknown v1 client", "version": ""},
                "capabilities": {"_meta": {"x": 1}},  # fs and terminal are not v2's
            },
        )
    ]
    v2_result = {
        "protocolVersion": 2,
        "info": {"name": "agent", "title": "Agent", "version": "1"},
        "capabilities": {
            "session": {"prompt": {"image": {}, "audio": None}, "mcp": {"http": {}}},
        },
        "authMethods": [
            {"methodId": "login", "name": "Log in", "type": "agent"},
            {"methodId": "tui", "name": "Terminal", "type": "terminal"},
        ],
    }
    to_client, _ = h.agent(result(0, v2_result))
    assert to_client == [
        result(
            0,
            {
                "protocolVersion": 1,
                "agentCapabilities": {
                    "loadSession": True,
                    "promptCapabilities": {"image": True, "audio": False, "embeddedContext": False},
                    "mcpCapabilities": {"http": True, "sse": False},
                    "sessionCapabilities": {"list": {}, "resume": {}, "close": {}},
                    "auth": {"logout": {}},
                },
                "authMethods": [{"id": "login", "name": "Log in"}],
                "agentInfo": {"name": "agent", "title": "Agent", "version": "1"},
            },
        )
    ]


def test_auto_mode_follows_the_client() -> None:
    meta = Harness()
    meta.start({"_meta": {"terminal_output": True}})
    assert meta.proxy.bridge.mode == "meta"
    text = Harness()
    text.start({"_meta": {"terminal_output": "yes"}})
    assert text.proxy.bridge.mode == "text"
    fixed = Harness(mode="text")
    fixed.start({"_meta": {"terminal_output": True}})
    assert fixed.proxy.bridge.mode == "text"


def test_a_v1_agent_is_passed_straight_through() -> None:
    h = Harness()
    h.client(request(0, "initialize", {"protocolVersion": 1}))
    answer = result(0, {"protocolVersion": 1, "agentCapabilities": {"loadSession": True}})
    to_client, _ = h.agent(answer)
    assert to_client == [answer]
    # from then on both sides speak v1: every message passes as it is
    asked = request(1, "session/set_mode", {"sessionId": SESSION, "modeId": "ask"})
    assert h.client(asked) == ([], [asked])
    chunk = {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": SESSION, "update": {"sessionUpdate": "plan", "entries": []}},
    }
    assert h.agent(chunk) == ([chunk], [])
    assert h.proxy.open_requests() == 1
    assert h.agent(result(1, {}))[0] == [result(1, {})]
    assert h.proxy.open_requests() == 0


# -- sessions -----------------------------------------------------------------------


def test_load_becomes_resume_replaying_from_the_start() -> None:
    h = Harness()
    h.start()
    params = {"sessionId": SESSION, "cwd": CWD, "mcpServers": []}
    _, to_agent = h.client(request(2, "session/load", params))
    assert to_agent[0]["method"] == "session/resume"
    assert to_agent[0]["params"]["replayFrom"] == {"type": "start"}
    to_client, _ = h.agent(result(2, {"configOptions": [], "_meta": {"k": "v"}}))
    assert to_client == [result(2, {"configOptions": [], "_meta": {"k": "v"}})]


def test_mcp_servers() -> None:
    h = Harness()
    h.start()
    stdio = {"name": "fs", "command": "/usr/bin/mcp", "args": [], "env": []}
    http = {"type": "http", "name": "web", "url": "https://example.com/mcp", "headers": []}
    _, to_agent = h.client(request(2, "session/new", {"cwd": CWD, "mcpServers": [stdio, http]}))
    assert to_agent[0]["params"]["mcpServers"] == [{**stdio, "type": "stdio"}, http]
    sse = {"type": "sse", "name": "old", "url": "https://example.com/sse", "headers": []}
    to_client, to_agent = h.client(request(3, "session/new", {"cwd": CWD, "mcpServers": [sse]}))
    assert to_agent == [] and error_code(to_client) == -32602
    relative = {**stdio, "command": "mcp"}
    to_client, to_agent = h.client(
        request(4, "session/new", {"cwd": CWD, "mcpServers": [relative]})
    )
    assert to_agent == [] and error_code(to_client) == -32602


def test_relative_cwd_is_refused() -> None:
    h = Harness()
    to_client, to_agent = h.client(request(1, "session/new", {"cwd": "work", "mcpServers": []}))
    assert to_agent == []
    assert error_code(to_client) == -32602
    assert "absolute" in to_client[0]["error"]["message"]


# -- prompts ------------------------------------------------------------------------


def test_prompt_answered_when_the_agent_is_idle() -> None:
    h = Harness()
    h.start()
    _, to_agent = h.client(prompt())
    assert to_agent == [prompt()]
    to_client, _ = h.agent(result(5, {}))  # v2: accepted, not finished
    assert to_client == []
    h.agent(notify({"sessionUpdate": "state_update", "state": "running"}))
    to_client, _ = h.agent(idle("max_tokens"))
    assert to_client == [result(5, {"stopReason": "max_tokens"})]
    assert h.proxy.open_requests() == 0


def test_idle_before_the_acceptance_still_ends_the_turn() -> None:
    h = Harness()
    h.start()
    h.client(prompt("p"))
    assert h.agent(idle(None))[0] == []
    to_client, _ = h.agent(result("p", {}))
    assert to_client == [result("p", {"stopReason": "end_turn"})]


def test_idle_without_a_prompt_changes_nothing() -> None:
    h = Harness()
    h.start()
    assert h.agent(idle()) == ([], [])


def test_unknown_stop_reason_ends_the_turn() -> None:
    h = Harness()
    h.start()
    h.client(prompt())
    h.agent(result(5, {}))
    to_client, _ = h.agent(idle("_vendor_reason"))
    assert to_client == [result(5, {"stopReason": "end_turn"})]


def test_terminal_output_is_sent_before_the_prompt_response() -> None:
    h = Harness(mode="text")
    h.start()
    h.client(prompt())
    h.agent(result(5, {}))
    h.agent(tool_call("call_1", "term_1", title="Run"))
    h.agent(terminal_update("term_1", command="make", cwd=CWD))
    h.agent(chunk("term_1", b"one\n"))
    h.agent(chunk("term_1", b"two\n"))
    to_client, _ = h.agent(idle())
    assert to_client[-1] == result(5, {"stopReason": "end_turn"})
    _, text, _ = block_parts(last_blocks(to_client)["call_1"])
    assert text == "one\ntwo\n"


def test_a_prompt_error_passes_to_the_client() -> None:
    h = Harness()
    h.start()
    h.client(prompt())
    error = {"jsonrpc": "2.0", "id": 5, "error": {"code": -32000, "message": "auth required"}}
    to_client, _ = h.agent(error)
    assert to_client == [error]
    assert h.proxy.open_requests() == 0


def test_cancel_passes_to_the_agent() -> None:
    h = Harness()
    h.start()
    cancel = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": SESSION}}
    assert h.client(cancel) == ([], [cancel])
    routed = h.proxy.from_client({"jsonrpc": "2.0", "method": "_x/unknown", "params": {}})
    assert routed.to_agent == [] and routed.to_client == [] and routed.notes


# -- what cannot be translated ----------------------------------------------------------


@pytest.mark.parametrize("method", ["session/set_mode", "fs/read_text_file", "terminal/create"])
def test_untranslated_client_requests_get_an_error(method: str) -> None:
    h = Harness()
    to_client, to_agent = h.client(request(9, method, {"sessionId": SESSION}))
    assert to_agent == [] and error_code(to_client) == -32601


@pytest.mark.parametrize("message", [[], 3, {"jsonrpc": "1.0", "id": 1, "method": "initialize"}])
def test_not_json_rpc_from_the_client(message: Any) -> None:
    to_client, to_agent = Harness().client(message)
    assert to_agent == [] and error_code(to_client) == -32600


def test_a_request_id_in_use_is_refused() -> None:
    h = Harness()
    h.client(prompt())
    to_client, to_agent = h.client(prompt())
    assert to_agent == [] and error_code(to_client) == -32600


def test_untranslated_agent_requests_get_an_error() -> None:
    h = Harness()
    h.start()
    to_client, to_agent = h.agent(request("a1", "fs/read_text_file", {"sessionId": SESSION}))
    assert to_client == [] and error_code(to_agent) == -32601


def test_permission_round_trip() -> None:
    h = Harness()
    h.start()
    asked = permission("a1", type="command", command="make", cwd=CWD, toolCallId="call_1")
    to_client, to_agent = h.agent(asked)
    assert to_agent == []
    assert [m.get("method") for m in to_client] == ["session/update", "session/request_permission"]
    answer = {"outcome": {"outcome": "selected", "optionId": "allow"}}
    to_client, to_agent = h.client(result("a1", answer))
    assert to_agent == [result("a1", answer)]
    v2_valid("RequestPermissionResponse", to_agent[0]["result"])
    # answered once: a second answer is not forwarded
    assert h.client(result("a1", answer))[1] == []


def test_permission_the_client_cannot_take_is_answered() -> None:
    h = Harness()
    h.start()
    relative = permission("a1", type="command", command="make", cwd="build")
    to_client, to_agent = h.agent(relative)
    assert to_client == [] and error_code(to_agent) == -32602
    no_option = permission("a2", type="command", command="make", cwd=CWD)
    no_option["params"]["options"] = [{"optionId": "s", "name": "Session", "kind": "allow_session"}]
    to_client, to_agent = h.agent(no_option)
    assert to_client == [] and error_code(to_agent) == -32602
    assert "no option v1 can offer" in to_agent[0]["error"]["message"]


def test_a_client_answer_v2_cannot_take_is_an_error_for_the_agent() -> None:
    h = Harness()
    h.start()
    h.agent(permission("a1", type="command", command="make", cwd=CWD))
    to_client, to_agent = h.client(result("a1", {"outcome": {"outcome": "maybe"}}))
    assert error_code(to_agent) == -32603
    # the tool call the bridge made for the request ends with it
    assert [m["params"]["update"]["status"] for m in to_client] == ["failed"]
    h.agent(permission("a2", type="command", command="make", cwd=CWD))
    refusal = {"jsonrpc": "2.0", "id": "a2", "error": {"code": -32000, "message": "no"}}
    to_client, to_agent = h.client(refusal)
    assert to_agent == [refusal]
    assert [m["params"]["update"]["status"] for m in to_client] == ["failed"]


def test_agent_batch_splits_updates_and_requests() -> None:
    h = Harness(mode="text")
    h.start()
    h.client(prompt())
    batch = [
        tool_call("call_1", "term_1", title="Run"),
        permission("a1", type="command", command="make", cwd=CWD, toolCallId="call_1"),
        terminal_update("term_1", command="make", cwd=CWD),
        result(5, {}),
        request("a2", "_x/custom", {}),
    ]
    to_client, to_agent = h.agent(batch)
    methods = [m.get("method") for m in to_client]
    assert methods.count("session/request_permission") == 1
    assert error_code(to_agent) == -32601
    assert h.proxy.open_requests() == 1  # the prompt: accepted, not idle


def test_agent_gone_answers_every_open_request() -> None:
    h = Harness(mode="text")
    h.start()
    h.client(prompt())
    h.agent(result(5, {}))
    h.agent(tool_call("call_1", "term_1", title="Run"))
    h.agent(chunk("term_1", b"partial"))
    h.client(request(6, "session/close", {"sessionId": SESSION}))
    routed = h.proxy.agent_closed("exit status 1")
    for message in routed.to_client:
        check_received(message, h.methods)
    errors = [m for m in routed.to_client if "error" in m]
    assert [m["id"] for m in errors] == [5, 6]
    assert all("exit status 1" in m["error"]["message"] for m in errors)
    _, text, status = block_parts(last_blocks(routed.to_client)["call_1"])
    assert (text, status) == ("partial\n", "Status: no exit status reported")
    assert h.proxy.from_agent(chunk("term_1", b"late")).to_client == []


def test_bad_options_fail_at_once() -> None:
    with pytest.raises(ValueError):
        V1ClientProxy(mode="emulate")
    with pytest.raises(ValueError):
        V1ClientProxy(max_text_chars=-1)
