"""The ``render`` subcommand: a terminal byte stream in, a transcript out.

The input is read as it arrives (``read1``: whatever a pipe holds, never
waiting for a full block), and the lines that became final are written and
flushed after each read, so ``make | termscribe render`` shows lines as they
scroll out of the ``--rows`` window, and a huge log needs little memory.
Text and ANSI output end with a newline.  HTML is a whole page unless
``--fragment`` asks for the bare ``<pre>``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from functools import partial
from typing import BinaryIO, Final, TextIO

from ._cli_args import UsageError, at_least
from ._cli_output import Sink, is_same_file, open_sink
from ._cli_progress import Progress
from ._line import MAX_LINE_CELLS, Line
from ._transcript import ALT_SCREEN, MAX_ROWS, MODES, Transcript

__all__ = ["CHUNK_SIZE", "register", "run_render"]

#: Most bytes taken from the input at a time.
CHUNK_SIZE: Final = 64 * 1024

_positive = at_least(1)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``render`` subcommand to the main parser."""
    render = subparsers.add_parser(
        "render",
        help="render a terminal byte stream as a transcript",
        description="Render a terminal byte stream (a file or stdin) as a safe transcript.",
    )
    render.add_argument(
        "--format", choices=["text", "html", "ansi"], default="text", help="output format"
    )
    render.add_argument(
        "--fragment",
        dest="fragment",
        action="store_const",
        const=True,
        default=None,
        help="html: only the <pre> element, without the page and its stylesheet",
    )
    # Before --fragment, a page was asked for with --standalone.
    render.add_argument(
        "--standalone", dest="fragment", action="store_const", const=False, help=argparse.SUPPRESS
    )
    render.add_argument(
        "--no-standalone", dest="fragment", action="store_const", const=True, help=argparse.SUPPRESS
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
    render.set_defaults(func=run_render)


def run_render(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    transcript = _transcript(args)
    render_lines, start, end = _renderer(args)
    if is_same_file(args.output, args.input, stdin):
        raise UsageError(f"-o {args.output} is the input: choose another output file")
    source = _open_input(args.input, stdin)
    progress = Progress(stderr, "termscribe render")
    try:
        with open_sink(args.output, stdout) as out:
            try:
                _stream(transcript, source, args.input, out, progress, render_lines, start, end)
            finally:
                progress.clear()
    finally:
        if source is not stdin:
            source.close()
    return 0


def _stream(
    transcript: Transcript,
    source: BinaryIO,
    name: str,
    out: Sink,
    progress: Progress,
    render_lines: Callable[[Iterable[Line]], str],
    start: str,
    end: str,
) -> None:
    read = getattr(source, "read1", source.read)
    if start:
        out.write(start.encode("utf-8"))
    while True:
        try:
            chunk = read(CHUNK_SIZE)
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from exc
        if not chunk:
            break
        transcript.feed(chunk)
        committed = transcript.take_lines()
        if committed:
            out.write((render_lines(committed) + "\n").encode("utf-8"))
            out.flush()
        progress.update(source)
    transcript.finish()
    rest = render_lines(transcript.lines()) + end
    if rest and not rest.endswith("\n"):
        rest += "\n"  # a text file ends with a newline, whatever the mode
    out.write(rest.encode("utf-8"))
    out.flush()


def _transcript(args: argparse.Namespace) -> Transcript:
    """The transcript the options ask for; bad values name their flag."""
    if args.alt_screen != "off" and args.mode == "strip":
        raise UsageError("--alt-screen applies to --mode lines and screen")
    if args.rows > MAX_ROWS:
        raise UsageError(f"--rows must be at most {MAX_ROWS}")
    if args.columns is not None and args.columns > MAX_LINE_CELLS:
        raise UsageError(f"--columns must be at most {MAX_LINE_CELLS}")
    if args.mode == "screen":
        from ._screen import MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS

        if args.columns is not None and args.columns > MAX_SCREEN_COLUMNS:
            raise UsageError(f"--columns must be at most {MAX_SCREEN_COLUMNS} with --mode screen")
        if args.rows > MAX_SCREEN_ROWS:
            raise UsageError(f"--rows must be at most {MAX_SCREEN_ROWS} with --mode screen")
    return Transcript(
        mode=args.mode,
        columns=args.columns,
        rows=args.rows,
        max_lines=None,
        styled=args.format != "text",  # text drops styles: skip tracking them
        alt_screen=args.alt_screen,
    )


def _renderer(args: argparse.Namespace) -> tuple[Callable[[Iterable[Line]], str], str, str]:
    """(lines renderer, text before the lines, text after them) for --format."""
    if args.hyperlinks and args.format != "ansi":
        raise UsageError("--hyperlinks applies to --format ansi only")
    if args.format == "ansi":
        from ._render_ansi import ansi_lines

        _no_fragment(args)
        return partial(ansi_lines, hyperlinks=args.hyperlinks), "", ""
    if args.format == "text":
        from ._render_text import render_lines_text

        _no_fragment(args)
        return render_lines_text, "", ""
    from ._render_html import html_end, html_lines, html_start

    standalone = not args.fragment
    title = "Terminal transcript"
    if args.input != "-":
        title += ": " + os.path.basename(args.input)
    return (
        html_lines,
        html_start(standalone=standalone, title=title),
        html_end(standalone=standalone) + ("" if standalone else "\n"),
    )


def _no_fragment(args: argparse.Namespace) -> None:
    if args.fragment is not None:
        raise UsageError("--fragment and --standalone apply to --format html only")


def _open_input(path: str, stdin: BinaryIO) -> BinaryIO:
    if path == "-":
        return stdin
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
