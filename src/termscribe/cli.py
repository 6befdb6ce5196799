"""The command line: the only module that does I/O.

``termscribe render`` reads a byte stream in chunks and writes its transcript,
streaming committed lines out as it goes, so a huge log needs little memory.
Bad usage and unreadable input give a one-line message on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import BinaryIO, TextIO

from . import cli_acp, cli_bridge
from ._budget import styled_within
from ._cli_args import at_least
from ._cli_progress import Progress
from ._line import Line
from ._render_ansi import ansi_lines
from ._render_html import html_end, html_lines, html_start
from ._render_text import render_lines_text
from ._transcript import ALT_SCREEN, MAX_ROWS, MODES, Transcript

__all__ = ["main"]

CHUNK_SIZE = 64 * 1024


class UsageError(Exception):
    """Bad command-line usage or unreadable input: exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


_positive = at_least(1)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="termscribe",
        description="Turn terminal byte streams into safe transcripts.",
    )
    parser.add_argument("--version", action="version", version="termscribe 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    render = sub.add_parser("render", help="render a terminal byte stream as a transcript")
    render.add_argument(
        "--format", choices=["text", "html", "ansi"], default="text", help="output format"
    )
    render.add_argument(
        "--standalone",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="html: a complete page with its stylesheet (default: when OUT ends in .html)",
    )
    render.add_argument(
        "--hyperlinks", action="store_true", help="ansi: keep http(s) links as OSC 8"
    )
    render.add_argument("--mode", choices=list(MODES), default="lines", help="interpretation")
    render.add_argument(
        "--columns",
        type=_positive,
        default=None,
        help="wrap at N columns (screen: width, default 80)",
    )
    render.add_argument("--rows", type=_positive, default=24, help="window height (default 24)")
    render.add_argument(
        "--alt-screen",
        choices=list(ALT_SCREEN),
        default="off",
        help="snapshot: append the last frame of the alternate screen (vim, less, htop)",
    )
    render.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    render.add_argument("input", nargs="?", default="-", metavar="FILE", help="input (- = stdin)")
    render.set_defaults(func=_render)
    cli_acp.register(sub)  # type: ignore[arg-type]  # _Parser is an ArgumentParser
    cli_bridge.register(sub)  # type: ignore[arg-type]
    return parser


def _open_input(path: str, stdin: BinaryIO) -> BinaryIO:
    if path == "-":
        return stdin
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _render(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    if args.rows > MAX_ROWS:
        raise UsageError(f"--rows must be at most {MAX_ROWS}")
    try:
        transcript = Transcript(
            mode=args.mode,
            columns=args.columns,
            rows=args.rows,
            max_lines=None,
            styled=args.format != "text",  # text drops styles: skip tracking them
            alt_screen=args.alt_screen,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    render_lines, start, end = _renderer(args)
    source = _open_input(args.input, stdin)
    progress = Progress(stderr, "termscribe render")
    try:
        out = _open_output(args.output, stdout)
        try:
            if start:
                out.write(start.encode("utf-8"))
            # Output stays within the transcript's limit for the bytes read
            # so far: past it, lines are written unstyled (see _budget).
            written = len(start)

            def write(lines: list[Line], after: str) -> None:
                nonlocal written
                limit = transcript.output_limit() - written
                body = styled_within(lines, limit, render_lines, len(after)) + after
                written += len(body)
                out.write(body.encode("utf-8"))

            while True:
                try:
                    chunk = source.read(CHUNK_SIZE)
                except OSError as exc:
                    raise UsageError(f"cannot read {args.input}: {exc.strerror or exc}") from exc
                if not chunk:
                    break
                transcript.feed(chunk)
                committed = transcript.take_lines()
                if committed:
                    write(committed, "\n")
                progress.update(source)
            transcript.finish()
            write(transcript.lines(), end)
            out.flush()
        finally:
            progress.clear()
            if out is not stdout:
                out.close()
    finally:
        if source is not stdin:
            source.close()
    return 0


def _renderer(args: argparse.Namespace) -> tuple[Callable[[Iterable[Line]], str], str, str]:
    """(lines renderer, text before the lines, text after them) for --format."""
    if args.format != "html":
        if args.standalone is not None:
            raise UsageError("--standalone applies to --format html only")
        if args.format == "ansi":
            return partial(ansi_lines, hyperlinks=args.hyperlinks), "", ""
        return render_lines_text, "", ""
    standalone = args.standalone
    if standalone is None:
        standalone = str(args.output or "").lower().endswith((".html", ".htm"))
    title = "Terminal transcript"
    if args.input != "-":
        title += ": " + os.path.basename(args.input)
    return (
        html_lines,
        html_start(standalone=standalone, title=title),
        html_end(standalone=standalone),
    )


def _open_output(path: str | None, stdout: BinaryIO) -> BinaryIO:
    if path is None or path == "-":
        return stdout
    try:
        return open(path, "wb")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.func(args, stdin, stdout, stderr))
    except UsageError as exc:
        print(f"termscribe: {exc}", file=stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, like cat.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
