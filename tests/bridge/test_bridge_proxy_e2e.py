"""End to end: the official Python SDK as a v1 client, ``termscribe bridge -- AGENT``
in the middle, a scripted v2 agent (``v2_agent.py``) at the other end.

Every message the client receives is checked as it arrives (v1 schema and
SDK models, see `proxy_client.check_received`), and every message the agent
received is checked against the v2 schema afterwards.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError, text_block
from acp.schema import ClientCapabilities, Implementation
from bridge_wire import block_parts, last_blocks
from proxy_client import AGENT, TIMEOUT_S, RecordingClient, Wire, agent_log, run_proxy, within
from zed_client import ZedClient

from termscribe.cli import main

CWD = "/work/project"


async def _start(conn: Any, *, meta: bool = False) -> Any:
    capabilities = ClientCapabilities(field_meta={"terminal_output": True} if meta else None)
    return await within(
        conn.initialize(
            protocol_version=1,
            client_capabilities=capabilities,
            client_info=Implementation(name="sdk-test-client", version="1"),
        )
    )


async def _prompt(conn: Any, session_id: str, text: str) -> Any:
    return await within(conn.prompt(session_id=session_id, prompt=[text_block(text)]))


def _updates_between(wire: Wire, start: int, end: int) -> list[dict[str, Any]]:
    return [
        m["params"]["update"]
        for m in wire.received[start:end]
        if m.get("method") == "session/update"
    ]


def _texts(updates: list[dict[str, Any]]) -> list[str]:
    return [u["content"]["text"] for u in updates if u["sessionUpdate"] == "agent_message_chunk"]


def _statuses(updates: list[dict[str, Any]], tool_call_id: str) -> list[str]:
    return [u["status"] for u in updates if u.get("toolCallId") == tool_call_id and "status" in u]


def test_text_mode_turns(tmp_path: Path) -> None:
    client = RecordingClient()
    turns: dict[str, tuple[str, list[dict[str, Any]]]] = {}

    async def main() -> int | None:
        async with run_proxy(client, tmp_path) as (conn, process, wire):
            init = await _start(conn)
            assert init.protocol_version == 1
            assert init.agent_capabilities.load_session is True
            assert init.agent_capabilities.prompt_capabilities.image is True
            assert init.agent_info.name == "scripted-v2-agent"
            assert [m.id for m in init.auth_methods] == ["token"]
            await within(conn.authenticate(method_id="token"))
            session = await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            (commands,) = [
                m["params"]["update"]
                for m in wire.received
                if m.get("method") == "session/update"
                and m["params"]["update"]["sessionUpdate"] == "available_commands_update"
            ]
            assert commands["availableCommands"][0]["input"] == {"hint": "q"}
            for script in ("terminals", "batch", "snapshot", "signal", "permission", "unsupported"):
                start = len(wire.received)
                response = await _prompt(conn, session.session_id, script)
                end = wire.response_index(wire.last_request_id("session/prompt"))
                # The v1 prompt response ends the turn: everything of it came first.
                assert end == len(wire.received) - 1
                turns[script] = (response.stop_reason, _updates_between(wire, start, end))
        return process.returncode

    returncode = asyncio.run(main())
    assert returncode == 0  # the client closed stdin: the agent and the proxy ended cleanly

    stop, updates = turns["terminals"]
    assert stop == "end_turn"
    blocks = last_blocks({"method": "session/update", "params": {"update": u}} for u in updates)
    header, text, status = block_parts(blocks["call_1"])
    assert header == f"Command `printf café` in `{CWD}`"
    assert text == "café green\ndone\n"  # split UTF-8 and split escape sequence joined
    assert status == "Status: exit code 0"
    assert _statuses(updates, "call_1") == ["in_progress", "completed"]
    assert _texts(updates) == ["printed"]

    stop, updates = turns["batch"]
    blocks = last_blocks({"method": "session/update", "params": {"update": u}} for u in updates)
    header, text, status = block_parts(blocks["call_2"])
    assert (header, text, status) == (
        f"Command `make` in `{CWD}`",
        "built\n",
        "Status: exit code 2",
    )
    assert _statuses(updates, "call_2") == ["in_progress", "failed"]

    stop, updates = turns["snapshot"]
    blocks = last_blocks({"method": "session/update", "params": {"update": u}} for u in updates)
    _, text, status = block_parts(blocks["call_3"])
    assert (text, status) == ("new line\ntail\n", "Status: exit code 0")

    stop, updates = turns["signal"]
    blocks = last_blocks({"method": "session/update", "params": {"update": u}} for u in updates)
    _, text, status = block_parts(blocks["call_4"])
    assert (text, status) == ("started\n", "Status: killed by `SIGTERM`")
    assert _statuses(updates, "call_4") == ["in_progress", "failed"]  # v2 cancelled

    stop, updates = turns["permission"]
    (asked,) = client.permissions
    assert asked["toolCall"]["toolCallId"] == "call_5"
    assert asked["toolCall"]["title"] == "rm -rf build"
    assert asked["toolCall"]["rawInput"] == {"command": "rm -rf build", "cwd": CWD}
    assert [o["optionId"] for o in asked["options"]] == ["opt_allow_once", "opt_reject_once"]
    assert _texts(updates) == ["allowed and run"]
    blocks = last_blocks({"method": "session/update", "params": {"update": u}} for u in updates)
    _, text, status = block_parts(blocks["call_5"])
    assert (text, status) == ("removed\n", "Status: exit code 0")

    stop, updates = turns["unsupported"]
    # an unknown method, a relative cwd, no option v1 knows, an elicitation
    assert _texts(updates) == ["errors: -32601 -32602 -32602 -32601"]
    assert len(client.permissions) == 1  # none of those reached the client

    received = agent_log(tmp_path)
    methods = [m.get("method") for m in received if "method" in m]
    assert methods[:3] == ["initialize", "auth/login", "session/new"]
    init = received[0]["params"]
    assert init["protocolVersion"] == 2 and init["info"]["name"] == "sdk-test-client"
    permission_answer = next(m for m in received if m.get("id") == "agent-1")
    assert permission_answer["result"]["outcome"] == {
        "outcome": "selected",
        "optionId": "opt_allow_once",
    }
    notes = (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    assert "'_example/custom' has no v1 translation" in notes
    assert "not absolute" in notes


def test_meta_mode_chosen_from_client_capabilities(tmp_path: Path) -> None:
    client = RecordingClient()

    async def main() -> tuple[Wire, Any]:
        options = ("--mode", "auto", "--meta-output", "ansi")
        async with run_proxy(client, tmp_path, *options) as (conn, _, wire):
            await _start(conn, meta=True)
            session = await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            response = await _prompt(conn, session.session_id, "terminals")
        return wire, response

    wire, response = asyncio.run(main())
    assert response.stop_reason == "end_turn"
    zed = ZedClient()
    zed.receive(wire.received)  # Zed's three rules (see test_bridge_zed)
    assert zed.failed == [] and zed.ignored == []
    terminal = zed.terminals["term_1"]
    assert terminal["cwd"] == CWD
    assert terminal["output"] == "café \x1b[0;32mgreen\x1b[0m\ndone\n"  # safe SGR kept
    assert terminal["exit"] == {"terminal_id": "term_1", "exit_code": 0, "signal": None}
    assert zed.calls["call_1"]["content"] == [{"type": "terminal", "terminalId": "term_1"}]


def test_load_and_cancel(tmp_path: Path) -> None:
    client = RecordingClient(wait_for="waiting")

    async def main() -> tuple[Wire, Any]:
        async with run_proxy(client, tmp_path, "--mode", "text") as (conn, _, wire):
            await _start(conn)
            await within(conn.load_session(cwd=CWD, session_id="sess_1", mcp_servers=[]))
            turn = asyncio.ensure_future(_prompt(conn, "sess_1", "wait"))
            await within(client.seen_text.wait())
            await within(conn.cancel(session_id="sess_1"))
            response = await turn
        return wire, response

    wire, response = asyncio.run(main())
    assert response.stop_reason == "cancelled"
    load = wire.response_index(wire.last_request_id("session/load"))
    # v1 load replays before it answers; the agent's resume did the same
    assert _texts(_updates_between(wire, 0, load)) == ["replayed"]
    received = agent_log(tmp_path)
    resume = next(m for m in received if m.get("method") == "session/resume")
    assert resume["params"]["replayFrom"] == {"type": "start"}
    assert any(m.get("method") == "session/cancel" for m in received)


def test_agent_exit_answers_the_open_prompt(tmp_path: Path) -> None:
    client = RecordingClient()

    async def main() -> tuple[Wire, Any, int | None]:
        async with run_proxy(client, tmp_path) as (conn, process, wire):
            await _start(conn)
            session = await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            with pytest.raises(RequestError) as caught:
                await _prompt(conn, session.session_id, "crash")
            await within(process.wait())
        return wire, caught.value, process.returncode

    wire, error, returncode = asyncio.run(main())
    assert error.code == -32603
    assert "exit status 3" in str(error.data or error)
    assert returncode == 3  # the proxy ends with the agent's status
    blocks = last_blocks(wire.received)
    _, text, status = block_parts(blocks["call_6"])
    assert (text, status) == ("about to crash\n", "Status: no exit status reported")


def test_signal_to_the_proxy_ends_the_agent(tmp_path: Path) -> None:
    client = RecordingClient(wait_for="waiting")

    async def main() -> tuple[Any, int | None]:
        async with run_proxy(client, tmp_path) as (conn, process, _):
            await _start(conn)
            session = await within(conn.new_session(cwd=CWD, mcp_servers=[]))
            turn = asyncio.ensure_future(_prompt(conn, session.session_id, "wait"))
            await within(client.seen_text.wait())
            process.send_signal(signal.SIGTERM)
            with pytest.raises(RequestError) as caught:
                await turn
            await within(process.wait())
        return caught.value, process.returncode

    error, returncode = asyncio.run(main())
    assert error.code == -32603
    assert "signal 15" in str(error.data or error)
    assert returncode == 128 + signal.SIGTERM


def _proxy_lines(data: bytes, *command: str) -> tuple[int, list[dict[str, Any]], str]:
    """Run the proxy with `data` on stdin (then end of input); its v1 output and stderr."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "termscribe", "bridge", "--", *command],
        input=data,
        capture_output=True,
        env=env,
        timeout=TIMEOUT_S,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, lines, done.stderr.decode()


def test_half_closed_client_still_gets_the_answers() -> None:
    data = b"\n".join(
        [
            b"{not json",
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "session/set_mode"}).encode(),
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "initialize",
                    "params": {"protocolVersion": 1},
                }
            ).encode(),
            b"",
        ]
    )
    status, lines, _ = _proxy_lines(data, sys.executable, str(AGENT))
    assert status == 0
    assert [(m.get("id"), m.get("error", {}).get("code")) for m in lines] == [
        (None, -32700),
        (1, -32601),
        (2, None),
    ]
    assert lines[2]["result"]["protocolVersion"] == 1


def test_an_agent_that_cannot_start() -> None:
    status, lines, stderr = _proxy_lines(b"", "/nonexistent/agent")
    assert (status, lines) == (127, [])
    assert "cannot start /nonexistent/agent" in stderr


def test_an_agent_that_ignores_the_end_of_input_is_stopped() -> None:
    # In process: the client's input ends at once, the agent sleeps on;
    # SIGTERM after the grace ends it, and the proxy with it.
    out, err = io.BytesIO(), io.StringIO()
    agent = [sys.executable, "-c", "import time; time.sleep(60)"]
    started = time.monotonic()
    status = main(["bridge", "--", *agent], stdin=io.BytesIO(b""), stdout=out, stderr=err)
    assert status == 128 + signal.SIGTERM
    assert time.monotonic() - started < TIMEOUT_S
    assert out.getvalue() == b""
