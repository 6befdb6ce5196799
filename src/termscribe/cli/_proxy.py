"""``termscribe bridge [--mode auto|text|meta] -- AGENT_COMMAND [ARGS...]``: the two-way proxy.

Starts the v2 agent as a child process (its stdin and stdout are pipes, its
stderr is ours) and speaks v1 to the client on our own stdin and stdout,
NDJSON both ways, one message per line, stdout flushed after each.  The
translation is `V1ClientProxy`'s; this module only moves lines:

* client line → JSON (a bad line gets a JSON-RPC parse error back) →
  `V1ClientProxy.from_client` → agent and client;
* agent line → `V1ClientProxy.from_agent` → client and agent (a bad line is
  reported on stderr: there is no request to answer);
* terminal output goes out when `FlushTimer` says so;
* the agent ends (its stdout closes): the proxy sends the last output and an
  error for every open client request, then exits with the agent's status
  (128 + N when signal N ended it);
* the client ends (our stdin closes): the agent's stdin is closed, and the
  agent gets `SHUTDOWN_GRACE_S` to exit before SIGTERM, then as long again
  before SIGKILL;
* SIGINT, SIGTERM or SIGHUP to the proxy is passed to the agent (a second
  one kills it); the proxy ends when the agent does.

Notes (what was not translated, and why) go to stderr, one line each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import threading
import time
from typing import Any, BinaryIO, Final, TextIO

from .._json import JSONError, parse_json
from ..acp import FlushTimer, V1ClientProxy, display_text
from ._args import MAX_LINE_BYTES

__all__ = ["SHUTDOWN_GRACE_S", "run_proxy"]

#: Seconds the agent gets to exit after its stdin closes, and again after SIGTERM.
SHUTDOWN_GRACE_S: Final = 5.0
_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PARSE_ERROR: Final = -32700


def run_proxy(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    try:
        proxy = V1ClientProxy(
            mode=args.mode, max_text_chars=args.max_text_chars, meta_output=args.meta_output
        )
    except ValueError as exc:
        print(f"termscribe bridge: {exc}", file=stderr)
        return 2
    session = _Session(proxy, list(args.command), args.flush_ms, stdin, stdout, stderr)
    return asyncio.run(session.run())


class _Session:
    def __init__(
        self,
        proxy: V1ClientProxy,
        command: list[str],
        flush_ms: float,
        stdin: BinaryIO,
        stdout: BinaryIO,
        stderr: TextIO,
    ) -> None:
        self.proxy = proxy
        self.command = command
        self.timer = FlushTimer(flush_ms)
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.process: asyncio.subprocess.Process | None = None
        self.client_open = True
        self.signals = 0

    async def run(self) -> int:
        try:
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=MAX_LINE_BYTES,
            )
        except OSError as exc:
            self._note(f"cannot start {display_text(self.command[0])}: {exc.strerror or exc}")
            return 127 if isinstance(exc, FileNotFoundError) else 126
        loop = asyncio.get_running_loop()
        handled = self._catch_signals(loop)
        tasks = [
            asyncio.create_task(self._read_agent()),
            asyncio.create_task(self._read_client(loop)),
        ]
        try:
            return await self._loop()
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
            for task in tasks:
                task.cancel()
            if self.process.returncode is None:  # only when the loop failed
                self.process.kill()
                await self.process.wait()

    async def _loop(self) -> int:
        assert self.process is not None
        deadline: float | None = None  # when the agent must be stopped harder
        while True:
            now = _now_ms()
            wait = self.timer.wait_ms(now, self.proxy.pending)
            if deadline is not None:
                until = max(0.0, deadline - time.monotonic()) * 1000
                wait = until if wait is None else min(wait, until)
            try:
                kind, value = await asyncio.wait_for(
                    self.events.get(), None if wait is None else wait / 1000
                )
            except asyncio.TimeoutError:
                kind, value = "tick", None
            if kind == "client":
                if value is None:
                    if deadline is None:
                        deadline = self._client_gone()
                else:
                    await self._from_client(value)
            elif kind == "agent":
                if value is None:
                    return await self._agent_gone()
                await self._from_agent(value)
            elif kind == "signal":
                self.signals += 1
                self._stop_agent(signal.SIGKILL if self.signals > 1 else value)
            if deadline is not None and time.monotonic() >= deadline:
                deadline = self._escalate()
            now = _now_ms()
            if self.timer.due(now, self.proxy.pending):
                self._to_client(self.proxy.flush(now_ms=now))
                self.timer.flushed(now)

    # -- the two sides -------------------------------------------------------------

    async def _from_client(self, line: bytes) -> None:
        message = self._parse(line, "client")
        if message is None:
            if line.strip():
                error = {"code": _PARSE_ERROR, "message": "termscribe bridge: not valid JSON"}
                self._to_client([{"jsonrpc": "2.0", "id": None, "error": error}])
            return
        routed = self.proxy.from_client(message)
        self._notes(routed.notes, "client")
        await self._to_agent(routed.to_agent)
        self._to_client(routed.to_client)

    async def _from_agent(self, line: bytes) -> None:
        message = self._parse(line, "agent")
        if message is None:
            return
        routed = self.proxy.from_agent(message)
        self._notes(routed.notes, "agent")
        self._to_client(routed.to_client)
        await self._to_agent(routed.to_agent)

    def _client_gone(self) -> float:
        """Our stdin closed (or stdout broke): close the agent's stdin, give it time to exit.

        The client may still read what the agent says until then.
        """
        self.proxy.client_closed()
        assert self.process is not None and self.process.stdin is not None
        with contextlib.suppress(OSError, RuntimeError):
            self.process.stdin.close()
        return time.monotonic() + SHUTDOWN_GRACE_S

    def _escalate(self) -> float | None:
        """The agent did not exit in time: SIGTERM, then SIGKILL."""
        self.signals += 1
        self._stop_agent(signal.SIGTERM if self.signals == 1 else signal.SIGKILL)
        return time.monotonic() + SHUTDOWN_GRACE_S if self.signals == 1 else None

    async def _agent_gone(self) -> int:
        """The agent's stdout closed: wait for it, answer what is open, end."""
        assert self.process is not None
        try:
            status = await asyncio.wait_for(self.process.wait(), SHUTDOWN_GRACE_S)
        except asyncio.TimeoutError:
            self._stop_agent(signal.SIGKILL)
            status = await self.process.wait()
        reason = f"exit status {status}" if status >= 0 else f"signal {-status}"
        routed = self.proxy.agent_closed(reason)
        self._notes(routed.notes, "agent")
        self._to_client(routed.to_client)
        return status if status >= 0 else 128 - status

    def _stop_agent(self, sig: int) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(sig)

    # -- I/O -----------------------------------------------------------------------

    def _to_client(self, messages: list[dict[str, Any]]) -> None:
        if not self.client_open:
            return
        try:
            for message in messages:
                self.stdout.write(_encode(message))
                self.stdout.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.client_open = False
            self.events.put_nowait(("client", None))

    async def _to_agent(self, messages: list[dict[str, Any]]) -> None:
        assert self.process is not None and self.process.stdin is not None
        if not messages or self.process.stdin.is_closing():
            return
        try:
            for message in messages:
                self.process.stdin.write(_encode(message))
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the agent is exiting: its stdout's end will say so

    async def _read_agent(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        reader = self.process.stdout
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # longer than MAX_LINE_BYTES: skip it
                self._note(f"agent: line longer than {MAX_LINE_BYTES} bytes skipped")
                await _skip_line(reader)
                continue
            if not line:
                break
            await self.events.put(("agent", line))
        await self.events.put(("agent", None))

    async def _read_client(self, loop: asyncio.AbstractEventLoop) -> None:
        reader = await _pipe_reader(loop, self.stdin)
        if reader is None:
            self._read_client_in_thread(loop)
            return
        while True:
            try:
                line = await reader.readline()
            except ValueError:
                self._note(f"client: line longer than {MAX_LINE_BYTES} bytes skipped")
                await _skip_line(reader)
                continue
            if not line:
                break
            await self.events.put(("client", line))
        await self.events.put(("client", None))

    def _read_client_in_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        """For a stdin that is not a pipe (a file, a test's buffer)."""

        def read() -> None:
            while True:
                line = self.stdin.readline(MAX_LINE_BYTES + 1)
                try:
                    loop.call_soon_threadsafe(self.events.put_nowait, ("client", line or None))
                except RuntimeError:  # the proxy has ended
                    return
                if not line:
                    return

        threading.Thread(target=read, name="termscribe-bridge-stdin", daemon=True).start()

    def _catch_signals(self, loop: asyncio.AbstractEventLoop) -> list[int]:
        handled: list[int] = []
        for sig in _SIGNALS:
            try:
                loop.add_signal_handler(sig, self.events.put_nowait, ("signal", sig))
            except (ValueError, RuntimeError, NotImplementedError):
                continue  # not the main thread, or not supported here
            handled.append(sig)
        return handled

    def _parse(self, line: bytes, side: str) -> Any:
        if not line.strip():
            return None
        try:
            return parse_json(line)
        except JSONError as exc:
            self._note(f"{side}: {exc}")
        return None

    def _notes(self, notes: list[str], side: str) -> None:
        for note in notes:
            self._note(f"{side}: {note}")

    def _note(self, text: str) -> None:
        print(f"termscribe bridge: {display_text(text)}", file=self.stderr, flush=True)


async def _pipe_reader(
    loop: asyncio.AbstractEventLoop, source: BinaryIO
) -> asyncio.StreamReader | None:
    """An asyncio reader of `source`'s descriptor, or None when it is not a pipe."""
    try:
        fd = source.fileno()
        pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
    except (AttributeError, OSError, ValueError):
        return None
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    except (OSError, ValueError):  # a regular file or a terminal's quirks
        pipe.close()
        return None
    return reader


async def _skip_line(reader: asyncio.StreamReader) -> None:
    """Drop the rest of an overlong line."""
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as exc:
            await reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError:
            return


def _encode(message: dict[str, Any]) -> bytes:
    try:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:  # a lone surrogate from the input: escape it
        data = json.dumps(message, separators=(",", ":")).encode()
    return data + b"\n"


def _now_ms() -> float:
    return time.monotonic() * 1000
