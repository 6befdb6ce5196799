"""The ``acp`` and ``demo`` subcommands: ACP session logs in, reports out.

``termscribe acp [--format text|html|json] [--terminal ID] [-o OUT] LOG|-``
reads newline-delimited JSON-RPC (one message or batch per line, as ACP's
stdio transport sends them) line by line and spools final transcript lines
to a temporary file, so memory follows the terminals' live windows, not the
log size, and writes the report piece by piece.  A line that cannot be
applied is reported (in the JSON ``errors``, on stderr otherwise) and the
export goes on.

Exit status: 0; 1 when lines were rejected or ``--terminal`` matched nothing
(the report is still written); 2 for bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import IO, BinaryIO, Final, TextIO

from .. import MODES, html_end, html_lines, html_start
from ..acp import (
    SessionLog,
    TerminalKey,
    TerminalState,
    TerminalStore,
    display_text,
    export_html,
    export_text,
    iter_html,
    iter_json,
    iter_text,
)
from ._args import Subcommands
from ._output import WriteError, atomic_file, is_same_file
from ._progress import Progress

__all__ = ["DEMO_HTML", "MAX_LINE_BYTES", "register", "run_acp", "run_demo"]

# One NDJSON line at most: a base64 snapshot of the store's 64 MiB retention
# cap is about 86 MiB, so this leaves room while bounding a runaway line.
MAX_LINE_BYTES: Final = 256 * 1024 * 1024
# Errors listed one by one on stderr before the rest are only counted.
MAX_ERRORS_SHOWN: Final = 20
DEMO_HTML: Final = "termscribe-demo.html"
# Spooled transcripts are read back in blocks of this size.
_SPOOL_BLOCK: Final = 1024 * 1024

_Out = TextIO | BinaryIO


class _Failure(Exception):
    """Bad usage or unreadable input: a one-line message and exit status 2."""


def register(subparsers: Subcommands) -> None:
    """Add the ``acp`` and ``demo`` subcommands to the main parser."""
    acp = subparsers.add_parser(
        "acp",
        help="export the terminals of an ACP session log",
        description="Read an ACP JSON-RPC session log (NDJSON) and export its terminals.",
    )
    acp.add_argument(
        "--format",
        choices=["text", "html", "json"],
        default="text",
        help="text: each terminal's transcript under a header (default); html: one report "
        "page; json: the terminals and errors as one JSON object",
    )
    acp.add_argument("--terminal", metavar="ID", help="export only this terminalId")
    acp.add_argument("--mode", choices=list(MODES), default="lines", help="transcript mode")
    acp.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    acp.add_argument("log", metavar="LOG|-", help="session log (- = stdin)")
    acp.set_defaults(func=run_acp)

    demo = subparsers.add_parser(
        "demo",
        help="show the bundled demo ACP session",
        description="Print the bundled demo session as text and write it as an HTML report.",
    )
    demo.add_argument(
        "-o", "--output", metavar="OUT", default=DEMO_HTML, help=f"HTML file (default {DEMO_HTML})"
    )
    demo.set_defaults(func=run_demo)


def run_acp(
    args: argparse.Namespace, stdin: BinaryIO, stdout: _Out, stderr: TextIO | None = None
) -> int:
    err = stderr if stderr is not None else sys.stderr
    if is_same_file(args.output, args.log, stdin):
        print(f"termscribe acp: -o {args.output} is the input: choose another output", file=err)
        return 2
    log = SessionLog(TerminalStore(mode=args.mode, max_retained_bytes=0))
    try:
        with _Spool(html=args.format == "html", only=args.terminal) as spool:
            if args.log == "-":
                _replay(log, stdin, "stdin", err, spool)
            else:
                try:
                    source = open(args.log, "rb")  # noqa: SIM115 - closed below
                except OSError as exc:
                    raise _Failure(f"cannot read {args.log}: {exc.strerror or exc}") from exc
                with source:
                    _replay(log, source, args.log, err, spool)
            log.finish()
            if args.format == "json":
                report = iter_json(log, args.terminal, spool)
            elif args.format == "html":
                report = iter_html(log, args.terminal, spool)
            else:
                report = iter_text(log, args.terminal, spool)
            _emit(report, args.output, stdout)
    except _Failure as exc:
        print(f"termscribe acp: {exc}", file=err)
        return 2
    status = _report_issues(log, args.format, err)
    if args.terminal is not None and not log.select(args.terminal):
        print(f"termscribe acp: no terminal {display_text(args.terminal)!r} in the log", file=err)
        status = 1
    return status


def run_demo(
    args: argparse.Namespace, stdin: BinaryIO, stdout: _Out, stderr: TextIO | None = None
) -> int:
    err = stderr if stderr is not None else sys.stderr
    log = SessionLog()
    demo = resources.files("termscribe").joinpath("data").joinpath("demo-session.ndjson")
    try:
        with demo.open("rb") as source:
            _replay(log, source, "the demo session", err)
        log.finish()
        html = export_html(log, title="termscribe demo: an ACP v2 session")
        if args.output == "-":
            _emit([html], None, stdout)
        else:
            _emit([html], args.output, None)
            _emit([export_text(log)], None, stdout)
    except (_Failure, OSError) as exc:
        print(f"termscribe demo: {exc}", file=err)
        return 2
    if args.output != "-":
        page = os.path.abspath(args.output)
        print(f"termscribe demo: wrote the HTML report to {page}", file=err)
    return _report_issues(log, "text", err, "termscribe demo")


def _replay(
    log: SessionLog, source: IO[bytes], name: str, err: TextIO, spool: _Spool | None = None
) -> None:
    progress = Progress(err, "termscribe acp")
    try:
        for number, line in _lines(source):
            if line is None:
                log.add_error(number, f"line longer than {MAX_LINE_BYTES} bytes")
                continue
            log.feed_line(line, number)
            if spool is not None:
                spool.collect(log)
            progress.update(source, number)
    except OSError as exc:
        raise _Failure(f"cannot read {name}: {exc.strerror or exc}") from exc
    finally:
        progress.clear()


class _Spool:
    """Final transcript lines of every terminal, moved to one temporary file.

    After each log line, the lines that changed terminals committed are taken
    out of their transcripts (`TerminalState.take_lines`) and appended to the
    file, rendered for the output format; memory then holds only each
    terminal's live window.  A snapshot (`snapshot_generation` moved) drops
    what was spooled for the replaced output.  With `only`, lines of other
    terminals are taken and dropped.  It serves the exports as their
    `TranscriptSource`: spooled lines first, then the transcript's rest.
    """

    def __init__(self, *, html: bool, only: str | None = None) -> None:
        self._html = html
        self._only = only
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by __exit__
        self._spooled: dict[TerminalKey, tuple[int, list[tuple[int, int]]]] = {}

    def __enter__(self) -> _Spool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._file.close()

    def collect(self, log: SessionLog) -> None:
        for key in log.last_changed:
            terminal = log.store.get(*key)
            assert terminal is not None
            generation, segments = self._spooled.get(key, (terminal.snapshot_generation, []))
            if generation != terminal.snapshot_generation:
                segments = []
            self._spooled[key] = (terminal.snapshot_generation, segments)
            lines = terminal.take_lines()
            if not lines or (self._only is not None and key.terminal_id != self._only):
                continue
            rendered = html_lines(lines) if self._html else "\n".join(x.text for x in lines)
            data = (rendered + "\n").encode("utf-8")
            offset = self._file.seek(0, io.SEEK_END)
            self._file.write(data)
            if segments and sum(segments[-1]) == offset:
                segments[-1] = (segments[-1][0], segments[-1][1] + len(data))
            else:
                segments.append((offset, len(data)))

    def _read(self, terminal: TerminalState) -> Iterator[str]:
        generation, segments = self._spooled.get(terminal.key, (-1, []))
        if generation != terminal.snapshot_generation:
            return
        decoder = codecs.getincrementaldecoder("utf-8")()
        for offset, length in segments:
            while length:
                self._file.seek(offset)
                block = self._file.read(min(length, _SPOOL_BLOCK))
                offset += len(block)
                length -= len(block)
                yield decoder.decode(block)
        yield decoder.decode(b"", final=True)

    def text_lines(self, terminal: TerminalState) -> Iterator[str]:
        pending = ""
        for piece in self._read(terminal):
            *complete, pending = (pending + piece).split("\n")
            yield from complete
        yield from terminal.text().split("\n")

    def html(self, terminal: TerminalState) -> Iterator[str]:
        yield html_start()
        yield from self._read(terminal)
        yield html_lines(terminal.lines())
        yield html_end()


def _lines(source: IO[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """Numbered lines; None for one over MAX_LINE_BYTES (its rest is skipped unread)."""
    number = 0
    while True:
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while True:
                rest = source.readline(1 << 20)
                if not rest or rest.endswith(b"\n"):
                    break
            yield number, None
        else:
            yield number, line


def _emit(pieces: Iterable[str], path: str | None, stdout: _Out | None) -> None:
    if path is not None and path != "-":
        try:
            with atomic_file(path) as out:  # replaced only once complete
                for piece in pieces:
                    out.write(piece.encode("utf-8"))
        except WriteError as exc:
            raise _Failure(str(exc)) from exc
        return
    assert stdout is not None
    if isinstance(stdout, io.TextIOBase):
        encoding = stdout.encoding or "utf-8"
        for piece in pieces:
            stdout.write(piece.encode(encoding, "backslashreplace").decode(encoding))
    else:
        for piece in pieces:
            stdout.write(piece.encode("utf-8"))  # type: ignore[arg-type]
    stdout.flush()


def _report_issues(log: SessionLog, fmt: str, err: TextIO, prog: str = "termscribe acp") -> int:
    for warning in log.warnings:
        message = display_text(warning.message)
        print(f"{prog}: line {warning.line}: warning: {message}", file=err)
    if not log.errors:
        return 0
    if fmt != "json":
        for error in log.errors[:MAX_ERRORS_SHOWN]:
            print(f"{prog}: line {error.line}: {display_text(error.message)}", file=err)
    shown = 0 if fmt == "json" else min(len(log.errors), MAX_ERRORS_SHOWN)
    if len(log.errors) > shown:
        where = "listed in the JSON errors" if fmt == "json" else "not shown"
        print(f"{prog}: {len(log.errors) - shown} rejected lines {where}", file=err)
    return 1
