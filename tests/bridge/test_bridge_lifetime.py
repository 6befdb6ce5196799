"""The proxy's process handling: notes never block, every request is answered
once the agent has gone, and nothing of the agent outlives the proxy.

The official SDK starts the proxy with ``stderr=PIPE`` and never reads it;
it stops it by closing stdin, then SIGTERM 2 s later, then SIGKILL.  The
bounds asserted here are the issue's (answers within 1 s of the agent's
exit, everything gone within 3 s of the proxy's end), each with slack.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError, spawn_agent_process, text_block
from acp.schema import Implementation
from proxy_client import AGENT, TIMEOUT_S, RecordingClient, within

LIFETIME_AGENT = Path(__file__).parent / "lifetime_agent.py"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
BRIDGE = [sys.executable, "-m", "termscribe", "bridge"]
#: The issue's bounds with slack: 1 s to answer after the agent exits, 3 s
#: for every process of the agent to be gone.
ANSWER_S = 2.0
GONE_S = 3.0


def _alive(pid: int) -> bool:
    """True while `pid` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The pids still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while True:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def _pids(pidfile: Path) -> list[int]:
    deadline = time.monotonic() + TIMEOUT_S
    while not pidfile.exists():
        assert time.monotonic() < deadline, "the agent never started"
        time.sleep(0.02)
    return [int(pid) for pid in pidfile.read_text().split()]


def _kill(pids: list[int]) -> None:
    for pid in pids:  # tidy up after a failure
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _proxy(mode: str, pidfile: Path) -> subprocess.Popen[bytes]:
    """``termscribe bridge`` over the lifetime agent in ``mode``, its pids
    written to ``pidfile``, spoken to through pipes."""
    return subprocess.Popen(
        [*BRIDGE, "--", sys.executable, str(LIFETIME_AGENT), mode, str(pidfile)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=ENV,
    )


def _send_initialize(proxy: subprocess.Popen[bytes]) -> None:
    """A v1 client's ``initialize``, written to the proxy's stdin."""
    assert proxy.stdin is not None
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": 1},
    }
    proxy.stdin.write(json.dumps(request).encode() + b"\n")
    proxy.stdin.flush()


async def _initialize(conn: Any) -> Any:
    return await within(
        conn.initialize(protocol_version=1, client_info=Implementation(name="t", version="1"))
    )


# The SDK never reads the stderr pipe it made, so its transport cannot see the
# pipe's end and is collected after its event loop closed: its own warning.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_turn_of_unbridgeable_updates_ends_with_stderr_unread(tmp_path: Path) -> None:
    # 2,000 notes (about 240 KB) and 256 KiB of the agent's own stderr, into a
    # pipe nobody reads: the SDK's default.
    client = RecordingClient()

    async def main() -> Any:
        async with spawn_agent_process(
            client, *BRIDGE, "--", sys.executable, str(AGENT), env=ENV
        ) as (conn, _):
            await _initialize(conn)
            session = await within(conn.new_session(cwd="/work", mcp_servers=[]))
            return await within(
                conn.prompt(session_id=session.session_id, prompt=[text_block("flood")])
            )

    assert asyncio.run(main()).stop_reason == "end_turn"
    texts = [u.content.text for u in client.updates if u.session_update == "agent_message_chunk"]
    assert texts == ["flooded"]


def test_notes_go_to_the_log_file_and_quiet_silences_them(tmp_path: Path) -> None:
    for options, expect_notes in (
        (["--log", str(tmp_path / "log.txt")], True),
        (["--quiet"], False),
    ):
        client = RecordingClient()

        async def main(options: list[str] = options, client: RecordingClient = client) -> bytes:
            async with spawn_agent_process(
                client, *BRIDGE, *options, "--", sys.executable, str(AGENT), env=ENV
            ) as (conn, _):
                await _initialize(conn)
                session = await within(conn.new_session(cwd="/work", mcp_servers=[]))
                await within(
                    conn.prompt(session_id=session.session_id, prompt=[text_block("flood")])
                )
                return b""

        asyncio.run(main())
        if expect_notes:
            log = (tmp_path / "log.txt").read_bytes()
            assert b"termscribe bridge: agent: not bridged: session/update _example_unknown" in log
            assert b"e" * 1023 + b"\n" in log  # the agent's stderr, passed on
            assert b"log lines dropped" not in log  # a file keeps up


def test_the_agent_exits_mid_turn_while_a_grandchild_holds_its_stdout(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    client = RecordingClient(wait_for="exiting")
    timing: dict[str, float] = {}

    async def main() -> RequestError:
        async with spawn_agent_process(
            client,
            *BRIDGE,
            "--",
            sys.executable,
            str(LIFETIME_AGENT),
            "exit-mid-turn",
            str(pidfile),
            env=ENV,
            transport_kwargs={"shutdown_timeout": TIMEOUT_S},
        ) as (conn, process):
            await _initialize(conn)
            session = await within(conn.new_session(cwd="/work", mcp_servers=[]))
            turn = asyncio.ensure_future(
                conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
            )
            await within(client.seen_text.wait())
            timing["exiting"] = time.monotonic()
            with pytest.raises(RequestError) as caught:
                await within(turn)
            timing["answered"] = time.monotonic()
            await within(process.wait())
            timing["ended"] = time.monotonic()
            return caught.value

    try:
        error = asyncio.run(main())
        assert error.code == -32603 and "exit status 3" in str(error.data or error)
        assert timing["answered"] - timing["exiting"] < ANSWER_S
        assert _wait_gone(_pids(pidfile), GONE_S) == []
    finally:
        _kill(_pids(pidfile))


def test_the_agent_exits_at_initialize_leaving_a_grandchild(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proxy = _proxy("exit-at-init", pidfile)
    try:
        assert proxy.stdin is not None and proxy.stdout is not None
        pids = _pids(pidfile)
        _send_initialize(proxy)
        sent = time.monotonic()
        answer = json.loads(proxy.stdout.readline())
        assert time.monotonic() - sent < ANSWER_S
        assert answer["id"] == 1 and answer["error"]["code"] == -32603
        assert proxy.wait(TIMEOUT_S) == 3  # the proxy ends too, stdin still open
        assert _wait_gone(pids, GONE_S) == []
    finally:
        proxy.kill()
        proxy.wait()
        _kill(_pids(pidfile))


@pytest.mark.parametrize("end", ["eof", "sigterm", "sigint", "sigkill"])
def test_nothing_of_a_stubborn_agent_outlives_the_proxy(tmp_path: Path, end: str) -> None:
    # The agent ignores its input's end, SIGTERM, SIGINT and SIGHUP; so does
    # its grandchild.
    pidfile = tmp_path / "pids"
    proxy = _proxy("stubborn", pidfile)
    try:
        assert proxy.stdin is not None and proxy.stdout is not None
        _send_initialize(proxy)
        assert json.loads(proxy.stdout.readline())["result"]["protocolVersion"] == 1
        pids = _pids(pidfile)
        if end == "eof":
            proxy.stdin.close()
        else:
            proxy.send_signal(
                {"sigterm": signal.SIGTERM, "sigint": signal.SIGINT}.get(end, signal.SIGKILL)
            )
        assert _wait_gone(pids, GONE_S) == []
        status = proxy.wait(TIMEOUT_S)
        assert status == (-signal.SIGKILL if end == "sigkill" else 128 + signal.SIGKILL)
    finally:
        proxy.kill()
        proxy.wait()
        _kill(_pids(pidfile))


def test_the_sdk_shutdown_stops_a_stubborn_agent_in_time(tmp_path: Path) -> None:
    # spawn_agent_process's end: stdin closed, SIGTERM after 2 s, SIGKILL 2 s
    # later.  The proxy stops the agent within the first 2 s and exits itself.
    pidfile = tmp_path / "pids"
    client = RecordingClient()

    async def main() -> int | None:
        async with spawn_agent_process(
            client,
            *BRIDGE,
            "--",
            sys.executable,
            str(LIFETIME_AGENT),
            "stubborn",
            str(pidfile),
            env=ENV,
        ) as (conn, process):
            await _initialize(conn)
        return process.returncode

    try:
        returncode = asyncio.run(main())
        assert returncode == 128 + signal.SIGKILL  # its own exit, with the agent's status
        assert _wait_gone(_pids(pidfile), GONE_S) == []
    finally:
        _kill(_pids(pidfile))
