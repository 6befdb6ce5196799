"""The ``bridge`` subcommand: a v2→v1 ACP proxy, or a filter for logs.

``termscribe bridge [--mode auto|text|meta] -- AGENT_COMMAND [ARGS...]`` runs
the agent and translates both ways (see `_proxy`).  Without a command,
``termscribe bridge [--mode text|meta] [--flush-ms N]`` reads the v2 messages
an agent sends (NDJSON: one JSON-RPC message or batch per line) on stdin and
writes the v1 messages for a v1 client on stdout, one per line, flushing
stdout after each, as soon as they exist: passthroughs, tool calls and
permission requests right away, terminal output when the flush timer says so
(at most every N ms, sooner when much output waits) and at end of input.
When input pauses with output pending, the timer still fires.

A bad line (not UTF-8, not JSON, or rejected by the bridge) gives a one-line
message on stderr and is skipped; so does a valid message v1 cannot carry.
Exit status: 0; 1 when lines were rejected; 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import time
from typing import BinaryIO, Final, TextIO

from .._json import JSONError, parse_json
from ..acp import (
    BRIDGE_MODES,
    DEFAULT_MAX_TEXT_CHARS,
    META_OUTPUTS,
    FlushTimer,
    InvalidMessageError,
    V1ToV2Bridge,
    V2ToV1Bridge,
    display_text,
)
from ..acp.bridge._policy import DEFAULT_FLUSH_MS
from ..acp.runner import AGENT_STDERR_MODES
from ._args import MAX_LINE_BYTES, Subcommands, at_least

__all__ = ["register", "run_bridge"]

_READ_SIZE: Final = 64 * 1024
_TIMEOUT: Final = object()
_EOF: Final = object()


def register(subparsers: Subcommands) -> None:
    """Add the ``bridge`` subcommand to the main parser."""
    bridge = subparsers.add_parser(
        "bridge",
        help="let a v1 ACP client use a v2 agent (terminals as text)",
        usage=(
            "termscribe bridge [-h] [--mode {auto,text,meta}] [--meta-output {text,ansi}] "
            "[--to {v1,v2}] [--flush-ms N] [--max-text-chars N] [--log FILE] [--quiet] "
            "[--agent-stderr {pipe,inherit,discard}] [-- AGENT_COMMAND [ARGS ...]]"
        ),
        description=(
            "With an agent command: start the ACP v2 agent and speak v1 to the client on "
            "stdin/stdout, translating both ways (initialize, sessions, prompts held until "
            "the agent is idle, cancel, permissions, session updates); what cannot be "
            "translated gets a JSON-RPC error back. Without one: read v2 agent-to-client "
            "messages (NDJSON, a log) on stdin and write v1 messages on stdout. v2 terminals "
            "become fenced text content (text mode) or the _meta.terminal_* extension (meta "
            "mode); auto picks meta when the client's initialize advertises "
            "clientCapabilities._meta.terminal_output (the filter, which sees no client, "
            "uses text)."
        ),
    )
    bridge.add_argument(
        "--mode",
        choices=["auto", *BRIDGE_MODES],
        default="auto",
        help="how terminals reach the v1 client: text (fenced text content), meta (the "
        "_meta.terminal_* extension), or auto (meta when the client advertises it, else "
        "text; the default)",
    )
    bridge.add_argument(
        "--to",
        choices=["v1", "v2"],
        default="v1",
        help="the filter's direction: v2 agent messages to v1 (the default), or v1 agent "
        "messages with the _meta.terminal_* convention (codex-acp, claude-agent-acp) to v2",
    )
    bridge.add_argument(
        "--flush-ms",
        type=_non_negative,
        default=int(DEFAULT_FLUSH_MS),
        metavar="N",
        help=f"send terminal output at most every N ms (default {int(DEFAULT_FLUSH_MS)})",
    )
    bridge.add_argument(
        "--max-text-chars",
        type=_non_negative,
        default=DEFAULT_MAX_TEXT_CHARS,
        metavar="N",
        help=f"text mode: characters of transcript per terminal (default {DEFAULT_MAX_TEXT_CHARS})",
    )
    bridge.add_argument(
        "--meta-output",
        choices=list(META_OUTPUTS),
        default="text",
        help="meta mode: terminal output as text, or as safe ANSI colours for clients "
        "that emulate a terminal (default text)",
    )
    bridge.add_argument(
        "--log",
        metavar="FILE",
        help="proxy: append notes and the agent's stderr to FILE instead of stderr",
    )
    bridge.add_argument(
        "--quiet",
        action="store_true",
        help="proxy: no notes of the bridge's own (the agent's stderr still goes to the log)",
    )
    bridge.add_argument(
        "--agent-stderr",
        choices=list(AGENT_STDERR_MODES),
        default="pipe",
        help="proxy: the agent's stderr is read and written to the log (pipe, the default), "
        "or is the bridge's own stderr (inherit), or is discarded",
    )
    bridge.add_argument(
        "command",
        nargs="*",
        metavar="AGENT_COMMAND",
        help="the v2 agent to run, after --; without it the filter reads a log on stdin",
    )
    bridge.set_defaults(func=run_bridge)


_non_negative = at_least(0)


def run_bridge(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    if args.command:
        if args.to == "v2":
            print("termscribe bridge: --to v2 is a filter for logs: no agent command", file=stderr)
            return 2
        from ._proxy import run_proxy

        return run_proxy(args, stdin, stdout, stderr)
    if args.to == "v2":
        return _to_v2(stdin, stdout, stderr)
    mode = "text" if args.mode == "auto" else args.mode
    try:
        bridge = V2ToV1Bridge(
            mode=mode, max_text_chars=args.max_text_chars, meta_output=args.meta_output
        )
    except ValueError as exc:
        print(f"termscribe bridge: {exc}", file=stderr)
        return 2
    timer = FlushTimer(args.flush_ms)
    lines = _LineReader(stdin)
    status = 0
    number = 0
    while True:
        wait = timer.wait_ms(_now_ms(), bridge.pending)
        line = lines.next(None if wait is None else wait / 1000)
        if line is _EOF:
            break
        if isinstance(line, bytes):
            number += 1
            status |= _feed(bridge, line, number, stdout, stderr)
        now = _now_ms()
        if timer.due(now, bridge.pending):
            _write(bridge.flush(now_ms=now), stdout)
            timer.flushed(now)
    _write(bridge.finish(), stdout)
    return status


def _to_v2(stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    """v1 NDJSON in, v2 NDJSON out (`V1ToV2Bridge`), each message as it comes."""
    bridge = V1ToV2Bridge()
    lines = _LineReader(stdin)
    status = 0
    number = 0
    while (line := lines.next(None)) is not _EOF:
        assert isinstance(line, bytes)
        number += 1
        status |= _feed(bridge, line, number, stdout, stderr)
    _write(bridge.finish(), stdout)
    return status


def _feed(
    bridge: V2ToV1Bridge | V1ToV2Bridge, line: bytes, number: int, out: BinaryIO, err: TextIO
) -> int:
    """Apply one input line; 1 if it was rejected."""
    if len(line) > MAX_LINE_BYTES:
        return _reject(err, number, f"line longer than {MAX_LINE_BYTES} bytes")
    if not line.strip():
        return 0
    try:
        message = parse_json(line)
    except JSONError as exc:
        return _reject(err, number, str(exc))
    try:
        result = bridge.apply(message)
    except InvalidMessageError as exc:
        return _reject(err, number, str(exc))
    _write(result.messages, out)
    for note in result.not_bridged:
        print(f"termscribe bridge: line {number}: not bridged: {display_text(str(note))}", file=err)
    return 0


def _reject(err: TextIO, number: int, message: str) -> int:
    print(f"termscribe bridge: line {number}: {display_text(message)}", file=err)
    return 1


def _write(messages: object, out: BinaryIO) -> None:
    assert isinstance(messages, (list, tuple))
    for message in messages:
        try:
            data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        except UnicodeEncodeError:  # a lone surrogate from the input: escape it
            data = json.dumps(message, separators=(",", ":")).encode()
        out.write(data + b"\n")
        out.flush()


def _now_ms() -> float:
    return time.monotonic() * 1000


class _LineReader:
    """Lines of a byte stream, with a timeout when it is a pipe or file descriptor.

    Reading the descriptor directly (not through Python's buffer) lets select()
    tell when more input is waiting.  Streams without a descriptor, or where
    select() does not work, are read line by line without a timeout.
    """

    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        # The last block read and where its unread part starts; the pieces of
        # a line that began in earlier blocks.  Each byte is looked at once
        # and copied once (by the join), however long the line: no buffer is
        # rescanned or regrown on every read.
        self._block = b""
        self._start = 0
        self._pieces: list[bytes] = []
        self._pieces_size = 0
        self._eof = False
        self._fd: int | None
        try:
            self._fd = source.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None

    def next(self, timeout: float | None) -> bytes | object:
        """The next line (newline included), `_TIMEOUT` or `_EOF`."""
        if self._fd is None:
            line = self._source.readline(MAX_LINE_BYTES + 1)
            return line if line else _EOF
        while True:
            end = self._block.find(b"\n", self._start)
            if end >= 0:
                last = self._block[self._start : end + 1]
                self._start = end + 1
                return self._line(last)
            if self._start < len(self._block):
                rest = self._block[self._start :]  # the whole block: not a copy
                self._pieces.append(rest)
                self._pieces_size += len(rest)
            self._block, self._start = b"", 0
            if self._eof:
                return self._line(b"") if self._pieces else _EOF
            if self._pieces_size > MAX_LINE_BYTES:  # hand over an overlong line whole
                return self._line(b"")
            if not self._ready(timeout):
                return _TIMEOUT
            self._block = os.read(self._fd, _READ_SIZE)
            self._eof = not self._block

    def _line(self, last: bytes) -> bytes:
        if not self._pieces:
            return last
        self._pieces.append(last)
        line = b"".join(self._pieces)
        self._pieces, self._pieces_size = [], 0
        return line

    def _ready(self, timeout: float | None) -> bool:
        assert self._fd is not None
        try:
            ready, _, _ = select.select([self._fd], [], [], timeout)
        except (OSError, ValueError):  # not selectable here (e.g. a Windows pipe)
            return True
        return bool(ready)
