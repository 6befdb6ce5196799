"""The ``acp`` and ``demo`` subcommands: ACP session logs in, reports out.

``termscribe acp [--format text|html|json] [--terminal ID] [-o OUT] LOG|-``
reads newline-delimited JSON-RPC (one message or batch per line, as ACP's
stdio transport sends them) line by line, so memory follows the terminals'
transcripts, not the log size.  A line that cannot be applied is reported
(in the JSON ``errors``, on stderr otherwise) and the export goes on.

Exit status: 0; 1 when lines were rejected or ``--terminal`` matched nothing
(the report is still written); 2 for bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Iterator
from importlib import resources
from typing import IO, BinaryIO, Final, TextIO

from . import MODES
from .acp import (
    SessionLog,
    TerminalStore,
    display_text,
    dumps_json,
    export_html,
    export_json,
    export_text,
)

__all__ = ["DEMO_HTML", "MAX_LINE_BYTES", "register", "run_acp", "run_demo"]

# One NDJSON line at most: a base64 snapshot of the store's 64 MiB retention
# cap is about 86 MiB, so this leaves room while bounding a runaway line.
MAX_LINE_BYTES: Final = 256 * 1024 * 1024
# Errors listed one by one on stderr before the rest are only counted.
MAX_ERRORS_SHOWN: Final = 20
DEMO_HTML: Final = "termscribe-demo.html"
_PROGRESS_AFTER: Final = 1.0  # seconds before a progress line appears
_PROGRESS_EVERY: Final = 0.25

_Out = TextIO | BinaryIO


class _Failure(Exception):
    """Bad usage or unreadable input: a one-line message and exit status 2."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``acp`` and ``demo`` subcommands to the main parser."""
    acp = subparsers.add_parser(
        "acp",
        help="export the terminals of an ACP session log",
        description="Read an ACP JSON-RPC session log (NDJSON) and export its terminals.",
    )
    acp.add_argument("--format", choices=["text", "html", "json"], default="text")
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
    try:
        log = SessionLog(TerminalStore(mode=args.mode, max_retained_bytes=0))
        if args.log == "-":
            _replay(log, stdin, "stdin", err)
        else:
            try:
                source = open(args.log, "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                raise _Failure(f"cannot read {args.log}: {exc.strerror or exc}") from exc
            with source:
                _replay(log, source, args.log, err)
        log.finish()
        if args.format == "json":
            report = dumps_json(export_json(log, args.terminal))
        elif args.format == "html":
            report = export_html(log, args.terminal)
        else:
            report = export_text(log, args.terminal)
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
    log = SessionLog(TerminalStore(max_retained_bytes=0))
    demo = resources.files("termscribe").joinpath("data").joinpath("demo-session.ndjson")
    try:
        with demo.open("rb") as source:
            _replay(log, source, "the demo session", err)
        log.finish()
        html = export_html(log, title="termscribe demo: an ACP v2 session")
        if args.output == "-":
            _emit(html, None, stdout)
        else:
            _emit(html, args.output, None)
            _emit(export_text(log), None, stdout)
    except (_Failure, OSError) as exc:
        print(f"termscribe demo: {exc}", file=err)
        return 2
    if args.output != "-":
        print(f"termscribe demo: wrote the HTML report to {args.output}", file=err)
    return _report_issues(log, "text", err, "termscribe demo")


def _replay(log: SessionLog, source: IO[bytes], name: str, err: TextIO) -> None:
    progress = _Progress(err)
    try:
        for number, line in _lines(source):
            if line is None:
                log.add_error(number, f"line longer than {MAX_LINE_BYTES} bytes")
                continue
            log.feed_line(line, number)
            progress.update(number, source)
    except OSError as exc:
        raise _Failure(f"cannot read {name}: {exc.strerror or exc}") from exc
    finally:
        progress.clear()


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


def _emit(text: str, path: str | None, stdout: _Out | None) -> None:
    if path is not None and path != "-":
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except OSError as exc:
            raise _Failure(f"cannot write {path}: {exc.strerror or exc}") from exc
        return
    assert stdout is not None
    if isinstance(stdout, io.TextIOBase):
        encoding = stdout.encoding or "utf-8"
        stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))
    else:
        stdout.write(text.encode("utf-8"))  # type: ignore[arg-type]
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


class _Progress:
    """A progress line on stderr for long replays, only when stderr is a terminal."""

    def __init__(self, err: TextIO) -> None:
        self._err = err
        self._enabled = err.isatty()
        self._start = time.monotonic()
        self._next = self._start + _PROGRESS_AFTER
        self._shown = False

    def update(self, lines: int, source: IO[bytes]) -> None:
        if not self._enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + _PROGRESS_EVERY
        try:
            mib = source.tell() / (1024 * 1024)
        except (OSError, ValueError):
            mib = 0.0
        size = f", {mib:.0f} MiB" if mib else ""
        self._err.write(f"\rtermscribe acp: {lines} lines{size}")
        self._err.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self._err.write("\r\x1b[K")
            self._err.flush()
            self._shown = False
