"""`BridgedAgent` and `AgentProcess` (termscribe.acp.runner) on their own: the
embedding API an editor runs in its own event loop."""

from __future__ import annotations

import asyncio
import signal
import sys

from proxy_client import TIMEOUT_S

from termscribe.acp.runner import BridgedAgent

# Reads its input to the end, then waits; SIGTERM ends it with 5, SIGINT with 7;
# says something on stderr first.
_AGENT = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, lambda *a: sys.exit(5))\n"
    "signal.signal(signal.SIGINT, lambda *a: sys.exit(7))\n"
    "sys.stderr.write('starting\\n'); sys.stderr.flush()\n"
    'print(\'{"jsonrpc": "2.0", "method": "_x/ready"}\', flush=True)\n'
    "sys.stdin.read()\n"
    "time.sleep(60)\n"
)


async def _start(**options: object) -> BridgedAgent:
    return await BridgedAgent.start([sys.executable, "-c", _AGENT], **options)  # type: ignore[arg-type]


def test_closing_twice_gives_the_agent_its_grace_once() -> None:
    lines: list[bytes] = []
    notes: list[str] = []

    async def main() -> tuple[int, int, object, object]:
        agent = await _start(on_stderr=lines.append, on_note=notes.append)
        while not notes:  # the agent's first message is a notification v1 has not
            await asyncio.sleep(0.01)
        first, second = await asyncio.wait_for(
            asyncio.gather(agent.close(), agent.close()), TIMEOUT_S
        )
        await agent.send({"jsonrpc": "2.0", "id": 1, "method": "initialize"})  # after the end
        return first, second, await agent.receive(), await agent.receive()

    first, second, end, again = asyncio.run(main())
    assert (first, second) == (5, 5)  # SIGTERM after the grace, not SIGKILL at once
    assert (end, again) == (None, None)
    assert lines == [b"starting\n"]
    assert any("_x/ready" in note for note in notes)


def test_stop_passes_the_signal_on() -> None:
    notes: list[str] = []

    async def main() -> int:
        agent = await _start(on_note=notes.append)
        while not notes:  # its handlers are in place
            await asyncio.sleep(0.01)
        agent.stop(signal.SIGINT)
        return await asyncio.wait_for(agent.wait(), TIMEOUT_S)

    assert asyncio.run(main()) == 7
