"""Running a v2 agent for a v1 client inside an asyncio program: `BridgedAgent`.

This is the one module outside the command line that starts a process and
does I/O.  Everything else in `termscribe.acp` is pure: `V1ClientProxy`
translates messages and this module moves them.  ``termscribe bridge --
AGENT`` is `BridgedAgent` with stdin and stdout as the client; an editor or a
Textual app runs it in its own event loop::

    agent = await BridgedAgent.start(["my-v2-agent", "--stdio"])
    await agent.send(v1_request)          # any message the v1 client sends
    message = await agent.receive()       # the next v1 message for it (None: the end)
    status = await agent.close()          # the client is done

Receiving and sending are independent: read with `receive` (or ``async for``)
in one task while other tasks send.  `receive` returns None once the agent
has gone and everything it said has been handed over.

The agent's process, its lifetime bounded on every path (`AgentProcess`):

* it runs in a process group of its own (a new session), so that the bridge
  can stop everything it started, grandchildren included, and so that a
  terminal's Ctrl-C reaches it only through the bridge;
* on Linux it gets SIGKILL when the thread that started it dies
  (``prctl(PR_SET_PDEATHSIG)``, set between fork and exec); on every
  platform a small guard process (``python -S -c``, `_GUARD`), which holds
  the read end of a pipe only the bridge writes to, kills the whole group
  with SIGKILL when that pipe closes without the word ``done``: when the
  bridge dies by any signal, SIGKILL included;
* the agent's exit is noticed when the process exits, not when its stdout
  closes (a grandchild may hold it open for ever): its output is then read
  for at most `EXIT_DRAIN_S` more, every open client request is answered with
  an error, and whatever is left of its group is killed;
* `close` (the client is gone) closes the agent's stdin, sends SIGTERM to its
  group after `STDIN_GRACE_S` and SIGKILL `TERM_GRACE_S` later; `stop`
  (a signal to the bridge) passes the signal on and sends SIGKILL
  `TERM_GRACE_S` later.  Both fit in the 2 s the official SDKs give an agent
  before they escalate themselves.

The agent's stderr is read and handed to ``on_stderr`` line by line (never
left to block the agent), or inherited or discarded if asked.  Notes (what
was not translated, and why) go to ``on_note``.  Neither callback may block.
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
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

from .._json import JSONError, parse_json
from ._proxy import V1ClientProxy
from ._validate import JsonObject
from .bridge import FlushTimer
from .bridge._policy import DEFAULT_FLUSH_MS

__all__ = [
    "AGENT_STDERR_MODES",
    "EXIT_DRAIN_S",
    "MAX_MESSAGE_BYTES",
    "MAX_QUEUED_MESSAGES",
    "STDIN_GRACE_S",
    "TERM_GRACE_S",
    "AgentProcess",
    "BridgedAgent",
    "skip_line",
]

#: Seconds the agent's output is still read after the agent exited (a
#: grandchild may hold its stdout open); Zed waits 250 ms too.
EXIT_DRAIN_S: Final = 0.25
#: Seconds the agent gets to exit once its stdin closed, before SIGTERM.
STDIN_GRACE_S: Final = 0.75
#: Seconds between SIGTERM (or a signal passed on) and SIGKILL.
TERM_GRACE_S: Final = 0.75
#: Longest line (one JSON-RPC message) read from the agent (a base64
#: snapshot of 64 MiB is about 86 MiB).
MAX_MESSAGE_BYTES: Final = 256 * 1024 * 1024
#: Messages for the client that may wait in `BridgedAgent` before reading
#: the agent pauses (the agent then waits on its stdout).
MAX_QUEUED_MESSAGES: Final = 1024
#: What becomes of the agent's stderr: read and handed to ``on_stderr``,
#: inherited from this process, or discarded.
AGENT_STDERR_MODES: Final = ("pipe", "inherit", "discard")

_PR_SET_PDEATHSIG: Final = 1
# The guard: reads its stdin to the end; unless the bridge wrote "done",
# the bridge died, and the agent's whole process group goes.
_GUARD: Final = (
    "import os, signal, sys\n"
    "for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "data = sys.stdin.buffer.read()\n"
    "if not data.endswith(b'done'):\n"
    "    try:\n"
    "        os.killpg(int(sys.argv[1]), signal.SIGKILL)\n"
    "    except OSError:\n"
    "        pass\n"
)


class _Protocol(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's subprocess protocol, telling when the process itself exits.

    (Python 3.11's ``Process.wait`` also waits for every pipe to close, which
    a grandchild holding the agent's stdout can delay for ever.)
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


def _parent_death_signal() -> Callable[[], None] | None:
    """A preexec function asking Linux for SIGKILL when the parent dies, or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


class AgentProcess:
    """A child process in a process group of its own, with its stdin and stdout
    as pipes (see the module docstring for how its lifetime is bounded)."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        protocol: _Protocol,
        transport: asyncio.SubprocessTransport,
        guard: subprocess.Popen[bytes] | None,
    ) -> None:
        self.process = process
        self._protocol = protocol
        self._transport = transport
        self._guard = guard
        self.pid = process.pid
        self._escalation: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        stderr: str = "pipe",
    ) -> AgentProcess:
        """Start `command`; raises `OSError` when it cannot be run."""
        if stderr not in AGENT_STDERR_MODES:
            raise ValueError(f"stderr must be one of {', '.join(AGENT_STDERR_MODES)}")
        loop = asyncio.get_running_loop()
        err = {"pipe": subprocess.PIPE, "inherit": None, "discard": subprocess.DEVNULL}[stderr]
        transport, protocol = await loop.subprocess_exec(
            lambda: _Protocol(MAX_MESSAGE_BYTES, loop),
            *command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            env=env,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_parent_death_signal(),
        )
        process = asyncio.subprocess.Process(transport, protocol, loop)
        return cls(process, protocol, transport, _start_guard(process.pid))

    @property
    def stdout(self) -> asyncio.StreamReader:
        assert self.process.stdout is not None
        return self.process.stdout

    @property
    def stderr(self) -> asyncio.StreamReader | None:
        return self.process.stderr

    @property
    def returncode(self) -> int | None:
        """The exit status (negative: the signal), once the process exited."""
        return self._transport.get_returncode()

    async def wait_exit(self) -> int:
        """The exit status, as soon as the process exits (pipes may stay open)."""
        await self._protocol.exited.wait()
        status = self.returncode
        assert status is not None
        return status

    def write(self, data: bytes) -> None:
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            return
        with contextlib.suppress(OSError, RuntimeError):
            stdin.write(data)

    async def drain(self) -> None:
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            return
        with contextlib.suppress(OSError, RuntimeError):
            await stdin.drain()

    def close_stdin(self) -> None:
        stdin = self.process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                stdin.close()

    def signal_group(self, sig: int) -> None:
        """Send `sig` to every process of the agent's group."""
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass  # the group is gone
        except AttributeError:  # no process groups here
            if self.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.send_signal(sig)

    def stop(self, sig: int = signal.SIGTERM, *, first_grace_s: float = 0.0) -> None:
        """Stop the agent's group: `sig` (after `first_grace_s`), SIGKILL
        `TERM_GRACE_S` later, unless the agent exits first."""
        if self._escalation is None or self._escalation.done():
            self._escalation = asyncio.ensure_future(self._escalate(sig, first_grace_s))
        else:  # a second request while stopping: no more grace
            self.signal_group(signal.SIGKILL)

    async def _escalate(self, sig: int, first_grace_s: float) -> None:
        for step, grace in ((sig, first_grace_s), (signal.SIGKILL, TERM_GRACE_S)):
            if grace > 0:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._protocol.exited.wait(), grace)
            if self._protocol.exited.is_set():
                return
            self.signal_group(step)

    def close(self) -> None:
        """The end: kill what is left of the group, close the pipes, release the guard."""
        if self._escalation is not None:
            self._escalation.cancel()
        self.signal_group(signal.SIGKILL)
        self._transport.close()
        guard, self._guard = self._guard, None
        if guard is not None and guard.stdin is not None:
            with contextlib.suppress(OSError):
                guard.stdin.write(b"done")
                guard.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                guard.wait(1.0)


def _start_guard(pgid: int) -> subprocess.Popen[bytes] | None:
    """The guard process (see the module docstring); None where it cannot run."""
    if not hasattr(os, "killpg") or not sys.executable:
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-S", "-c", _GUARD, str(pgid)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None


class BridgedAgent:
    """A v2 agent, run as a child process, speaking v1 to its caller.

    Make one with `start`; see the module docstring.
    """

    def __init__(
        self,
        proxy: V1ClientProxy,
        process: AgentProcess,
        *,
        flush_ms: float,
        on_note: Callable[[str], None] | None,
        on_stderr: Callable[[bytes], None] | None,
    ) -> None:
        self.proxy = proxy
        self.process = process
        self._timer = FlushTimer(flush_ms)
        self._on_note = on_note
        self._on_stderr = on_stderr
        self._out: deque[JsonObject | None] = deque()
        self._readable = asyncio.Event()  # something in _out
        self._room = asyncio.Event()  # _out below MAX_QUEUED_MESSAGES
        self._room.set()
        self._wake = asyncio.Event()  # the flush timer should look again
        self._ended = False
        self._closing = False
        self.returncode: int | None = None
        self._tasks = [
            asyncio.ensure_future(self._read_agent()),
            asyncio.ensure_future(self._flush_loop()),
        ]
        if process.stderr is not None:
            self._tasks.append(asyncio.ensure_future(self._read_stderr(process.stderr)))
        self._done = asyncio.ensure_future(self._watch_exit())

    @classmethod
    async def start(
        cls,
        command: Sequence[str],
        *,
        mode: str = "auto",
        flush_ms: float = DEFAULT_FLUSH_MS,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        stderr: str = "pipe",
        on_note: Callable[[str], None] | None = None,
        on_stderr: Callable[[bytes], None] | None = None,
        **bridge_options: Any,
    ) -> BridgedAgent:
        """Start the v2 agent `command`.

        `mode` and `bridge_options` are `V1ClientProxy`'s (``max_text_chars``,
        ``meta_output``…); `stderr` is one of `AGENT_STDERR_MODES` (``pipe``:
        lines go to `on_stderr`, or nowhere without it).  Raises `ValueError`
        for bad options and `OSError` when the command cannot be run.
        """
        proxy = V1ClientProxy(mode=mode, **bridge_options)
        FlushTimer(flush_ms)  # fail on a bad interval before starting anything
        process = await AgentProcess.start(command, env=env, cwd=cwd, stderr=stderr)
        return cls(proxy, process, flush_ms=flush_ms, on_note=on_note, on_stderr=on_stderr)

    async def __aenter__(self) -> BridgedAgent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the client's side -----------------------------------------------------------

    async def send(self, message: object) -> None:
        """One message (or batch) from the v1 client, as parsed JSON."""
        if self._ended:
            return
        routed = self.proxy.from_client(message)
        self._notes(routed.notes, "client")
        self._emit(routed.to_client)
        for item in routed.to_agent:
            self.process.write(_encode(item))
        await self.process.drain()

    async def receive(self) -> JsonObject | None:
        """The next v1 message for the client; None once the agent is gone
        and everything has been received."""
        while not self._out:
            self._readable.clear()
            await self._readable.wait()
        message = self._out[0]
        if message is None:  # the end stays the end
            return None
        self._out.popleft()
        if len(self._out) < MAX_QUEUED_MESSAGES:
            self._room.set()
        return message

    def __aiter__(self) -> AsyncIterator[JsonObject]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[JsonObject]:
        while (message := await self.receive()) is not None:
            yield message

    async def close(self) -> int:
        """The client is done: close the agent's stdin and stop it within
        `STDIN_GRACE_S` + `TERM_GRACE_S`; the agent's exit status."""
        if not self._done.done() and not self._closing:
            self._closing = True  # a second close waits for the first
            self.proxy.client_closed()
            self.process.close_stdin()
            self.process.stop(signal.SIGTERM, first_grace_s=STDIN_GRACE_S)
        return await self.wait()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Pass `sig` to the agent's group now, SIGKILL `TERM_GRACE_S` later."""
        if not self._done.done():
            self.process.stop(sig)

    async def wait(self) -> int:
        """Wait for the end (the agent exited and its last output was handled);
        its exit status, 128 + N when signal N ended it."""
        await asyncio.shield(self._done)
        assert self.returncode is not None
        return self.returncode

    # -- the agent's side ---------------------------------------------------------------

    async def _read_agent(self) -> None:
        reader = self.process.stdout
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # longer than MAX_MESSAGE_BYTES: skip it
                self._note(f"agent: line longer than {MAX_MESSAGE_BYTES} bytes skipped")
                await skip_line(reader)
                continue
            if not line:
                return
            message = self._parse(line)
            if message is None:
                continue
            routed = self.proxy.from_agent(message)
            self._notes(routed.notes, "agent")
            await self._room.wait()
            self._emit(routed.to_client)
            for item in routed.to_agent:
                self.process.write(_encode(item))
            await self.process.drain()
            self._wake.set()

    async def _read_stderr(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await reader.readline()
            except ValueError:
                line = b"[termscribe: an overlong stderr line was left out]\n"
                await skip_line(reader)
            if not line:
                return
            if self._on_stderr is not None:
                self._on_stderr(line)

    async def _flush_loop(self) -> None:
        while True:
            wait = self._timer.wait_ms(_now_ms(), self.proxy.pending)
            self._wake.clear()
            if wait is None or wait > 0:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), None if wait is None else wait / 1000)
            now = _now_ms()
            if self._timer.due(now, self.proxy.pending):
                self._emit(self.proxy.flush(now_ms=now))
                self._timer.flushed(now)

    async def _watch_exit(self) -> None:
        try:
            status = await self.process.wait_exit()
            reader = self._tasks[0]
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(reader), EXIT_DRAIN_S)
            reason = f"exit status {status}" if status >= 0 else f"signal {-status}"
            routed = self.proxy.agent_closed(reason)
            self._notes(routed.notes, "agent")
            self._emit(routed.to_client)
            self.returncode = status if status >= 0 else 128 - status
        finally:
            self._ended = True
            for task in self._tasks:
                task.cancel()
            self.process.close()
            if self.returncode is None:
                self.returncode = 128 + int(signal.SIGKILL)
            self._out.append(None)
            self._readable.set()

    # -- helpers ------------------------------------------------------------------------

    def _emit(self, messages: list[JsonObject]) -> None:
        if not messages or self._ended:
            return
        self._out.extend(messages)
        self._readable.set()
        if len(self._out) >= MAX_QUEUED_MESSAGES:
            self._room.clear()

    def _parse(self, line: bytes) -> Any:
        if not line.strip():
            return None
        try:
            return parse_json(line)
        except JSONError as exc:
            self._note(f"agent: {exc}")
        return None

    def _notes(self, notes: list[str], side: str) -> None:
        for note in notes:
            self._note(f"{side}: {note}")

    def _note(self, text: str) -> None:
        if self._on_note is not None:
            self._on_note(text)


async def skip_line(reader: asyncio.StreamReader) -> None:
    """Drop the rest of an overlong line from ``reader`` (one that overran
    its limit), up to and with its line feed."""
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as exc:
            await reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError:
            return


def encode_message(message: object) -> bytes:
    """One NDJSON line: compact JSON, UTF-8 (a lone surrogate escaped), newline."""
    try:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        data = json.dumps(message, separators=(",", ":")).encode()
    return data + b"\n"


_encode = encode_message


def _now_ms() -> float:
    return time.monotonic() * 1000
