"""``termscribe bridge [OPTIONS] -- AGENT_COMMAND [ARGS...]``: the two-way proxy.

`BridgedAgent` (``termscribe.acp.runner``) runs the v2 agent and does the
translation; this module connects it to our own stdin and stdout (the v1
client: NDJSON both ways, one message per line, stdout flushed after each)
and to the log:

* client line → JSON (a bad line gets a JSON-RPC parse error back) →
  `BridgedAgent.send`; every message `BridgedAgent.receive` gives → stdout;
* the client ends (our stdin closes): `BridgedAgent.close` (the agent's stdin
  closes; SIGTERM to its process group after 0.75 s, SIGKILL 0.75 s later);
* SIGINT, SIGTERM or SIGHUP to the proxy: passed to the agent's group,
  SIGKILL 0.75 s later; the proxy ends when the agent has;
* the agent ends: its last output, an error for every open client request
  (within `EXIT_DRAIN_S` of its exit, whoever holds its stdout), then the
  proxy exits with the agent's status (128 + N when signal N ended it).

Notes (what was not translated, and why) and the agent's own stderr lines go
to a `NoteSink`: our stderr by default, ``--log FILE`` instead, nothing of
the proxy's own with ``--quiet``.  A sink never blocks the protocol: lines
wait in a buffer of at most `MAX_PENDING_NOTE_BYTES` while a thread writes
them, and what does not fit is dropped and counted (a client that starts
the proxy with ``stderr=PIPE`` and never reads it must not hang it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import stat
import threading
from collections import deque
from typing import Any, BinaryIO, Final, TextIO

from .._json import JSONError, parse_json
from ..acp import display_text
from ..acp.runner import BridgedAgent, encode_message, skip_line
from ._args import MAX_LINE_BYTES

__all__ = ["MAX_PENDING_NOTE_BYTES", "NoteSink", "run_proxy"]

#: Bytes of notes and agent stderr that may wait for a slow (or absent) reader.
MAX_PENDING_NOTE_BYTES: Final = 64 * 1024
#: Longest agent stderr line passed on (longer ones are cut, marked).
MAX_STDERR_LINE: Final = 4096
_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PARSE_ERROR: Final = -32700


class NoteSink:
    """Lines for a log that never block the caller (see the module docstring)."""

    def __init__(self, target: TextIO | BinaryIO | None) -> None:
        self._target = target
        self._fd: int | None = None
        self._pending: deque[bytes] = deque()
        self._size = 0
        self.dropped = 0
        self._ready = threading.Condition()
        self._regular = False
        if target is None:
            return
        try:
            fd = target.fileno()
        except (AttributeError, OSError, ValueError):
            return  # an in-memory stream: written at once, it cannot block
        with contextlib.suppress(AttributeError, OSError, ValueError):
            target.flush()
        self._fd = fd
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.fstat(fd).st_mode):
                self._regular = True  # a file never keeps a write waiting
                return
        threading.Thread(target=self._write_loop, name="termscribe-notes", daemon=True).start()

    def line(self, text: str | bytes) -> None:
        """Queue one line (a newline is added when missing)."""
        if self._target is None:
            return
        data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
        if not data.endswith(b"\n"):
            data += b"\n"
        if self._fd is None:
            self._write_direct(data)
            return
        if self._regular:
            with contextlib.suppress(OSError):
                os.write(self._fd, data)
            return
        with self._ready:
            if self._size + len(data) > MAX_PENDING_NOTE_BYTES:
                self.dropped += 1
                return
            self._pending.append(data)
            self._size += len(data)
            self._ready.notify()

    def _write_direct(self, data: bytes) -> None:
        target: Any = self._target
        with contextlib.suppress(OSError, ValueError):
            try:
                target.write(data.decode("utf-8", "replace"))
            except TypeError:  # a binary stream
                target.write(data)

    def _write_loop(self) -> None:
        assert self._fd is not None
        reported = 0
        while True:
            with self._ready:
                while not self._pending:
                    self._ready.wait()
                data = self._pending.popleft()
                self._size -= len(data)
                dropped = self.dropped - reported
            if dropped:
                reported += dropped
                data = f"termscribe bridge: {dropped} log lines dropped\n".encode() + data
            try:
                while data:
                    data = data[os.write(self._fd, data) :]
            except OSError:
                return  # the log is gone: the rest is dropped with it


def run_proxy(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    log: TextIO | BinaryIO | None = stderr
    log_file = None
    if args.log is not None:
        try:
            log = log_file = open(args.log, "ab")  # noqa: SIM115 - closed below
        except OSError as exc:
            print(f"termscribe bridge: cannot open {display_text(args.log)}: {exc}", file=stderr)
            return 2
    try:
        sink = NoteSink(log)
        session = _Session(args, stdin, stdout, stderr, sink)
        return asyncio.run(session.run())
    finally:
        if log_file is not None:
            log_file.close()


class _Session:
    def __init__(
        self,
        args: argparse.Namespace,
        stdin: BinaryIO,
        stdout: BinaryIO,
        stderr: TextIO,
        sink: NoteSink,
    ) -> None:
        self.args = args
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.sink = sink
        self.client_open = True
        self.agent: BridgedAgent | None = None
        self.closing: asyncio.Future[int] | None = None

    def _note(self, text: str) -> None:
        if not self.args.quiet:
            self.sink.line(f"termscribe bridge: {display_text(text)}")

    def _stderr_line(self, line: bytes) -> None:
        if len(line) > MAX_STDERR_LINE:
            line = line[:MAX_STDERR_LINE] + b" [termscribe: line cut]\n"
        self.sink.line(line)

    async def run(self) -> int:
        args = self.args
        try:
            agent = await BridgedAgent.start(
                list(args.command),
                mode=args.mode,
                flush_ms=args.flush_ms,
                stderr=args.agent_stderr,
                on_note=self._note,
                on_stderr=self._stderr_line,
                max_text_chars=args.max_text_chars,
                meta_output=args.meta_output,
            )
        except ValueError as exc:
            print(f"termscribe bridge: {exc}", file=self.stderr)
            return 2
        except OSError as exc:
            name = display_text(args.command[0])
            print(
                f"termscribe bridge: cannot start {name}: {exc.strerror or exc}", file=self.stderr
            )
            return 127 if isinstance(exc, FileNotFoundError) else 126
        self.agent = agent
        loop = asyncio.get_running_loop()
        handled = self._catch_signals(loop, agent)
        reader = asyncio.ensure_future(self._read_client(loop, agent))
        try:
            async for message in agent:
                self._to_client(message)
            return await agent.wait()
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
            reader.cancel()
            if agent.returncode is None:  # only when something failed
                agent.stop(signal.SIGKILL)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(agent.wait(), 5)

    def _to_client(self, message: object) -> None:
        if not self.client_open:
            return
        try:
            self.stdout.write(encode_message(message))
            self.stdout.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            self.client_open = False
            if self.agent is not None:
                self.closing = asyncio.ensure_future(self.agent.close())

    async def _read_client(self, loop: asyncio.AbstractEventLoop, agent: BridgedAgent) -> None:
        lines: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=64)
        feeder = asyncio.ensure_future(_feed_lines(loop, self.stdin, lines, self._note))
        try:
            while (line := await lines.get()) is not None:
                await self._from_client(line, agent)
        finally:
            feeder.cancel()
        await agent.close()

    async def _from_client(self, line: bytes, agent: BridgedAgent) -> None:
        if not line.strip():
            return
        try:
            message = parse_json(line)
        except JSONError as exc:
            self._note(f"client: {exc}")
            error = {"code": _PARSE_ERROR, "message": "termscribe bridge: not valid JSON"}
            self._to_client({"jsonrpc": "2.0", "id": None, "error": error})
            return
        await agent.send(message)

    def _catch_signals(self, loop: asyncio.AbstractEventLoop, agent: BridgedAgent) -> list[int]:
        handled: list[int] = []
        for sig in _SIGNALS:
            try:
                loop.add_signal_handler(sig, agent.stop, sig)
            except (ValueError, RuntimeError, NotImplementedError):
                continue  # not the main thread, or not supported here
            handled.append(sig)
        return handled


async def _feed_lines(
    loop: asyncio.AbstractEventLoop,
    source: BinaryIO,
    lines: asyncio.Queue[bytes | None],
    note: object,
) -> None:
    """Put `source`'s lines in `lines`, then None at its end."""
    reader = await _pipe_reader(loop, source)
    if reader is None:
        _read_in_thread(loop, source, lines)
        return
    while True:
        try:
            line = await reader.readline()
        except ValueError:
            assert callable(note)
            note(f"client: line longer than {MAX_LINE_BYTES} bytes skipped")
            await skip_line(reader)
            continue
        if not line:
            break
        await lines.put(line)
    await lines.put(None)


def _read_in_thread(
    loop: asyncio.AbstractEventLoop, source: BinaryIO, lines: asyncio.Queue[bytes | None]
) -> None:
    """For a stdin that is not a pipe (a file, a test's buffer)."""

    def read() -> None:
        while True:
            line = source.readline(MAX_LINE_BYTES + 1)
            try:
                future = asyncio.run_coroutine_threadsafe(lines.put(line or None), loop)
                future.result()
            except (RuntimeError, asyncio.CancelledError, Exception):
                return  # the proxy has ended
            if not line:
                return

    threading.Thread(target=read, name="termscribe-bridge-stdin", daemon=True).start()


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
