"""End to end with the official SDK as the v1 client: whole messages and plans
reach it, every request v2 shares with v1 is answered, a synthetic tool call
ends.  Every message the client receives is checked as it arrives (v1 schema
and SDK models), and everything the agent received against the v2 schema."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError, text_block
from acp.schema import (
    AcceptElicitationResponse,
    ClientCapabilities,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
    Implementation,
)
from proxy_client import RecordingClient, Wire, agent_log, run_proxy, within

CWD = "/work/project"


class ElicitingClient(RecordingClient):
    async def create_elicitation(self, message: str, mode: Any, **kwargs: Any) -> Any:
        self.permissions.append({"elicitation": message})
        return AcceptElicitationResponse(action="accept", content={"name": "Ada"})


async def _start(conn: Any) -> Any:
    capabilities = ClientCapabilities(
        elicitation=ElicitationCapabilities(form=ElicitationFormCapabilities())
    )
    return await within(
        conn.initialize(
            protocol_version=1,
            client_capabilities=capabilities,
            client_info=Implementation(name="sdk-test-client", version="1"),
        )
    )


def _updates(wire: Wire, start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
    return [
        m["params"]["update"]
        for m in wire.received[start:end]
        if m.get("method") == "session/update"
    ]


def _chunks(updates: list[dict[str, Any]]) -> list[tuple[str, str | None, str]]:
    return [
        (u["sessionUpdate"], u.get("messageId"), u["content"]["text"])
        for u in updates
        if u["sessionUpdate"].endswith("_chunk")
    ]


def _said(updates: list[dict[str, Any]], prefix: str) -> str:
    (text,) = [t for kind, _, t in _chunks(updates) if t.startswith(prefix)]
    return text.removeprefix(prefix)


def test_replayed_and_whole_messages_and_plans(tmp_path: Path) -> None:
    client = RecordingClient()

    async def main() -> tuple[Wire, int]:
        async with run_proxy(client, tmp_path) as (conn, _, wire):
            await _start(conn)
            await within(conn.load_session(cwd=CWD, session_id="sess_1", mcp_servers=[]))
            loaded = len(wire.received)
            done = await within(conn.prompt(session_id="sess_1", prompt=[text_block("messages")]))
            assert done.stop_reason == "end_turn"
        return wire, loaded

    wire, loaded = asyncio.run(main())
    replay = _updates(wire, 0, loaded)
    assert _chunks(replay) == [
        ("user_message_chunk", "u0", "hello"),
        ("agent_message_chunk", "a0", "replayed"),
    ]
    plans = [u["entries"] for u in replay if u["sessionUpdate"] == "plan"]
    assert plans == [[{"content": "replayed step", "priority": "high", "status": "completed"}]]

    turn = _updates(wire, loaded)
    replaced = "[termscribe: the agent replaced this message; its new content follows]"
    cleared = "[termscribe: the agent cleared this message]"
    assert _chunks(turn) == [
        ("agent_message_chunk", "m1", "A"),  # a new whole message: one chunk a block
        ("agent_message_chunk", "m1", "B"),
        ("agent_message_chunk", "m2", "x"),
        ("agent_message_chunk", "m2", replaced),  # v1 cannot replace: said, then the new
        ("agent_message_chunk", "m2", "y"),
        ("agent_message_chunk", "m2", cleared),
        ("agent_thought_chunk", "t1", "thinking"),
        ("agent_message_chunk", "m3", ""),  # _meta only: what v1 can carry of it
    ]
    meta_only = [u for u in turn if u.get("messageId") == "m3"]
    assert meta_only[0]["_meta"] == {"source": "replay"}
    plans = [[e["content"] for e in u["entries"]] for u in turn if u["sessionUpdate"] == "plan"]
    # every live plan of the session, in the order they first came: the
    # replayed "main", then p1 (replaced in place), then p2
    assert plans == [
        ["replayed step", "step 1", "step 2 [status 'cancelled']"],
        ["replayed step", "step 1", "step 2 [status 'cancelled']", "other"],
        ["replayed step", "step 1", "other"],
    ]
    cancelled = next(u for u in turn if u["sessionUpdate"] == "plan")["entries"][2]
    assert cancelled["status"] == "completed"  # ended; v1 has no cancelled
    agent_log(tmp_path)


def test_requests_v2_shares_with_v1_are_answered(tmp_path: Path) -> None:
    client = ElicitingClient()

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with run_proxy(client, tmp_path, unstable=True) as (conn, _, wire):
            init = await _start(conn)
            out["capabilities"] = init.agent_capabilities
            session = await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            out["config"] = session.config_options
            changed = await within(
                conn.set_config_option(config_id="model", session_id="sess_1", value="slow")
            )
            out["changed"] = changed.config_options
            listed = await within(conn.list_sessions(cwd=CWD))
            out["listed"] = listed
            out["resumed"] = await within(
                conn.resume_session(cwd=CWD, session_id="sess_1", mcp_servers=[])
            )
            raw = conn._conn  # the SDK has no helper for these two v1 methods
            out["deleted"] = await within(raw.send_request("session/delete", {"sessionId": "x"}))
            out["logout"] = await within(raw.send_request("logout", {}))
            done = await within(conn.prompt(session_id="sess_1", prompt=[text_block("elicit")]))
            out["elicit"] = (done.stop_reason, _said(_updates(wire), "elicited: "))
            out["wire"] = wire
        return out

    out = asyncio.run(main())
    capabilities = out["capabilities"]
    assert capabilities.session_capabilities.list is not None
    assert capabilities.session_capabilities.resume is not None
    assert [o.id for o in out["config"]] == ["model"]  # a type v1 lacks is left out
    assert out["config"][0].current_value == "fast"
    assert out["changed"][0].current_value == "slow"
    assert [s.session_id for s in out["listed"].sessions] == ["sess_1"]
    assert out["listed"].next_cursor == "c2"
    assert out["deleted"] == {} and out["logout"] == {}
    stop, answer = out["elicit"]
    assert stop == "end_turn"
    assert json.loads(answer) == {"action": "accept", "content": {"name": "Ada"}}
    updates = _updates(out["wire"])
    (config_update,) = [u for u in updates if u["sessionUpdate"] == "config_option_update"]
    assert [o["id"] for o in config_update["configOptions"]] == ["model"]
    received = agent_log(tmp_path)
    methods = [m.get("method") for m in received if "method" in m]
    for method in (
        "session/set_config_option",
        "session/list",
        "session/resume",
        "session/delete",
        "auth/logout",
    ):
        assert method in methods
    resume = next(m for m in received if m.get("method") == "session/resume")
    assert "replayFrom" not in resume["params"]  # v1 resume does not replay
    setting = next(m for m in received if m.get("method") == "session/set_config_option")
    assert setting["params"]["type"] == "id" and setting["params"]["value"] == "slow"


def test_cancel_request_of_a_prompt_ends_the_turn_with_32800(tmp_path: Path) -> None:
    client = RecordingClient(wait_for="waiting")

    async def main() -> RequestError:
        async with run_proxy(client, tmp_path) as (conn, _, wire):
            await _start(conn)
            await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            turn = asyncio.ensure_future(
                conn.prompt(session_id="sess_1", prompt=[text_block("cancelme")])
            )
            await within(client.seen_text.wait())
            prompt_id = wire.last_request_id("session/prompt")
            await conn._conn.send_notification("$/cancel_request", {"requestId": prompt_id})
            with pytest.raises(RequestError) as caught:
                await within(turn)
        return caught.value

    error = asyncio.run(main())
    assert error.code == -32800
    received = agent_log(tmp_path)
    assert {"sessionId": "sess_1"} in [
        m["params"] for m in received if m.get("method") == "session/cancel"
    ]


def test_a_synthetic_tool_call_completes_when_answered(tmp_path: Path) -> None:
    client = RecordingClient(choice="go")

    async def main() -> Wire:
        async with run_proxy(client, tmp_path, "--mode", "text") as (conn, _, wire):
            await _start(conn)
            await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            await within(conn.prompt(session_id="sess_1", prompt=[text_block("ask")]))
        return wire

    wire = asyncio.run(main())
    (asked,) = client.permissions
    call_id = asked["toolCall"]["toolCallId"]
    assert call_id.startswith("termscribe-permission-")
    statuses = [u.get("status") for u in _updates(wire) if u.get("toolCallId") == call_id]
    assert statuses == ["pending", "completed"]
