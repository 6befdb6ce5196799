"""The ``render`` subcommand: a terminal byte stream in, a transcript out.

The input is read as it arrives (``read1``: whatever a pipe holds, never
waiting for a full block), and the lines that became final are written and
flushed after each read, so lines show as they scroll out of the window
(LOG_ROWS high unless told), and a huge log needs little memory.  With
``--follow`` (the default on a terminal, see _follow) the lines above the
window's last are written when the input pauses too, so that
``make | termscribe render`` shows the build as it goes.
Text and ANSI output end with a newline.  HTML is a whole page unless
``--fragment`` asks for the bare ``<pre>``.
"""

# Annotations are evaluated here (no ``from __future__ import annotations``):
# ``NamedTuple`` would compile each of RenderOptions' string annotations at
# import, more than a millisecond of every start.

import argparse
import os
import stat
from functools import partial
from typing import BinaryIO, Final, NamedTuple, TextIO

from .._budget import OUTPUT_PER_BYTE, output_constant
from .._lines import MAX_REACH
from .._render import THEMES
from .._rows import MAX_LINE_CELLS, Line
from .._transcript import ALT_SCREEN, MAX_ROWS, MODES, Transcript
from ._args import Subcommands, UsageError, at_least
from ._inputs import INPUT_KINDS, Input, Resize, open_input_stream
from ._output import Sink, is_same_file, open_sink
from ._progress import Progress
from ._writer import LineWriter, Writer

__all__ = ["CHUNK_SIZE", "RenderOptions", "register", "render_file", "run_render"]

#: --sections choices (_ci.SECTION_CHOICES says what each finds).
SECTION_CHOICES: Final = ["auto", "github", "gitlab", "buildkite", "off"]
#: Most bytes taken from the input at a time.
CHUNK_SIZE: Final = 64 * 1024
#: The window's height in lines mode when neither --rows nor a recording
#: gives one: the height of a CI runner's terminal (terminal-to-html's
#: default too), so that a redraw of up to this many lines, such as
#: ``docker compose pull``'s progress, comes out once, as the terminal
#: showed it. Lines become final when they scroll out of it (or, with
#: --follow, when the input pauses).
LOG_ROWS: Final = 100

_positive = at_least(1)


def register(subparsers: Subcommands) -> None:
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
        "--theme",
        choices=list(THEMES),
        default=None,
        help="html page: the viewer's light or dark theme (auto, the default), or a fixed one",
    )
    render.add_argument(
        "--wrap", action="store_true", help="html page: wrap long lines to the window's width"
    )
    render.add_argument(
        "--sections",
        choices=SECTION_CHOICES,
        default=None,
        help="html page: CI log sections and annotations as their CI shows them: GitHub's "
        "::group:: and ::error::, GitLab's section_start (auto, the default, and github or "
        "gitlab), with Buildkite's ---/+++/~~~ headers when the log carries Buildkite's "
        "timestamps (auto) or always (buildkite), or none (off)",
    )
    render.add_argument(
        "--timestamps",
        action="store_true",
        help="show Buildkite's timestamps (ESC _bk;t=MS BEL) as [HH:MM:SS] (UTC) where they are",
    )
    render.add_argument(
        "--line-anchors",
        action="store_true",
        help="html page: number the lines as the text output's, each linkable as PAGE#LN "
        "(no script)",
    )
    follow = render.add_mutually_exclusive_group()
    follow.add_argument(
        "--follow",
        dest="follow",
        action="store_const",
        const=True,
        default=None,
        help="when the input pauses, write the lines above the last one at once "
        "(a later cursor-up cannot change them any more); the default when stdout is a "
        "terminal and the input is not a file",
    )
    follow.add_argument(
        "--no-follow",
        dest="follow",
        action="store_const",
        const=False,
        help="write lines only once they are final: the same output for any timing",
    )
    render.add_argument(
        "--hyperlinks", action="store_true", help="ansi: keep http(s) links as OSC 8"
    )
    render.add_argument(
        "--pairs",
        choices=["truecolor", "terminal"],
        default=None,
        help="ansi: a colour on a colour as 24-bit colours made readable (truecolor, the "
        "default), or as the terminal's own default colours (terminal: for 16 or 256 colours)",
    )
    render.add_argument("--mode", choices=list(MODES), default="lines", help="interpretation")
    render.add_argument(
        "--columns",
        type=_positive,
        default=None,
        metavar="N",
        help="the terminal's width: longer lines wrap there as on the terminal, and the "
        "wrapped rows are joined back into one line in lines mode (default: the recording's, "
        "else unlimited; screen: the screen's width, default 80)",
    )
    render.add_argument(
        "--rows",
        type=_positive,
        default=None,
        metavar="N",
        help="the terminal's height, which cursor-up can reach: redraws taller than it repeat "
        f"(default: the recording's, else {LOG_ROWS}; screen: 24)",
    )
    render.add_argument(
        "--input-format",
        choices=list(INPUT_KINDS),
        default="auto",
        help="auto (default) tells asciinema recordings and script typescripts by content; "
        "raw takes the bytes as they are (keeps script's header lines)",
    )
    render.add_argument(
        "--alt-screen",
        choices=list(ALT_SCREEN),
        default="off",
        help="snapshot: append the last frame of the alternate screen (vim, less, htop)",
    )
    render.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    render.add_argument(
        "--out-dir",
        metavar="DIR",
        help="render every FILE to DIR/NAME.txt (.html, .ansi), NAME without its extension",
    )
    render.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        metavar="N",
        help="with --out-dir: N files at a time in worker processes "
        "(default: one per CPU when the inputs total over 4 MiB)",
    )
    render.add_argument(
        "inputs", nargs="*", metavar="FILE", help="input (- or none = stdin; several: --out-dir)"
    )
    render.set_defaults(func=run_render)


class RenderOptions(NamedTuple):
    """What ``render`` does to each input (picklable, for worker processes)."""

    format: str = "text"
    fragment: bool = False
    hyperlinks: bool = False
    pairs: str = "truecolor"
    mode: str = "lines"
    columns: int | None = None
    rows: int | None = None
    alt_screen: str = "off"
    input_format: str = "auto"
    theme: str = "auto"
    wrap: bool = False
    sections: str = "auto"
    anchors: bool = False
    timestamps: bool = False
    follow: bool = False

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "RenderOptions":
        """The options of the command line, checked: bad values name their flag."""
        if args.hyperlinks and args.format != "ansi":
            raise UsageError("--hyperlinks applies to --format ansi only")
        if args.pairs is not None and args.format != "ansi":
            raise UsageError("--pairs applies to --format ansi only")
        if args.fragment is not None and args.format != "html":
            raise UsageError("--fragment and --standalone apply to --format html only")
        for flag, given in (
            ("--theme", args.theme is not None),
            ("--wrap", args.wrap),
            ("--line-anchors", args.line_anchors),
            ("--sections", args.sections is not None),
        ):
            if given and (args.format != "html" or args.fragment):
                raise UsageError(f"{flag} applies to --format html pages (not --fragment)")
        if args.follow and args.mode != "lines":
            raise UsageError("--follow applies to --mode lines")
        if args.alt_screen != "off" and args.mode == "strip":
            raise UsageError("--alt-screen applies to --mode lines and screen")
        if args.rows is not None and args.rows > MAX_ROWS:
            raise UsageError(f"--rows must be at most {MAX_ROWS}")
        if args.columns is not None and args.columns > MAX_LINE_CELLS:
            raise UsageError(f"--columns must be at most {MAX_LINE_CELLS}")
        if args.mode == "screen":
            from .._screen._model import MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS

            if args.columns is not None and args.columns > MAX_SCREEN_COLUMNS:
                raise UsageError(
                    f"--columns must be at most {MAX_SCREEN_COLUMNS} with --mode screen"
                )
            if args.rows is not None and args.rows > MAX_SCREEN_ROWS:
                raise UsageError(f"--rows must be at most {MAX_SCREEN_ROWS} with --mode screen")
        return cls(
            format=args.format,
            fragment=bool(args.fragment),
            hyperlinks=args.hyperlinks,
            pairs=args.pairs or "truecolor",
            mode=args.mode,
            columns=args.columns,
            rows=args.rows,
            alt_screen=args.alt_screen,
            input_format=args.input_format,
            theme=args.theme or "auto",
            wrap=args.wrap,
            sections=args.sections or "auto",
            anchors=args.line_anchors,
            timestamps=args.timestamps,
            follow=bool(args.follow),
        )

    @property
    def page_sections(self) -> bool:
        """Whether an HTML page's lines are read for CI sections (and so
        GitLab's section markers are kept for it)."""
        return self.format == "html" and not self.fragment and self.sections != "off"

    @property
    def extension(self) -> str:
        """The file name extension of this format's output."""
        return {"text": "txt", "html": "html", "ansi": "ansi"}[self.format]

    def size(self, columns: int | None = None, rows: int | None = None) -> tuple[int | None, int]:
        """The transcript's size: ``columns`` and ``rows`` (a recording's,
        clamped to the limits) where no option is set."""
        max_columns, max_rows = MAX_LINE_CELLS, MAX_ROWS
        if self.mode == "screen":
            from .._screen._model import MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS

            max_columns, max_rows = MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS
        if self.columns is not None or columns is None:
            columns = self.columns
        else:
            columns = min(columns, max_columns)
        default = LOG_ROWS if self.mode == "lines" else 24
        return columns, self.rows if self.rows is not None else min(rows or default, max_rows)

    def window_cost(self, columns: int | None, rows: int) -> int:
        """What a transcript of this size adds to the output limit for its
        window (its constant less the part every transcript has): the
        output a few bytes can make by filling the window."""
        if self.mode == "screen":
            from .._transcript import DEFAULT_SCREEN_COLUMNS

            reach = columns or DEFAULT_SCREEN_COLUMNS
        else:
            reach = min(columns or MAX_LINE_CELLS, MAX_REACH)
        window_rows = rows * (2 if self.alt_screen == "snapshot" else 1)
        return output_constant(reach, window_rows) - output_constant(0, 0)

    def transcript(self, columns: int | None = None, rows: int | None = None) -> Transcript:
        """A transcript for these options, of ``size(columns, rows)``."""
        columns, rows = self.size(columns, rows)
        return Transcript(
            mode=self.mode,
            columns=columns,
            rows=rows,
            max_lines=None,
            styled=self.format != "text",  # text drops styles: skip tracking them
            alt_screen=self.alt_screen,
        )

    def renderer(self, input_path: str) -> tuple[Writer, str, str]:
        """(how lines are written, text before the lines, text after them)."""
        if self.format == "ansi":
            from .._render._ansi import ansi_lines

            return (
                LineWriter(partial(ansi_lines, hyperlinks=self.hyperlinks, pairs=self.pairs)),
                "",
                "",
            )
        if self.format == "text":
            from .._render._text import render_lines_text

            return LineWriter(render_lines_text), "", ""
        from .._render._html import html_end, html_lines, html_start

        if self.fragment:
            return LineWriter(html_lines), html_start(), html_end() + "\n"
        from ._ci import syntaxes_for
        from ._sections import SECTIONS_CSS, PageWriter

        title = "Terminal transcript"
        if input_path != "-":
            title += ": " + os.path.basename(input_path)
        writer = PageWriter(
            html_lines,
            syntaxes_for(self.sections),
            self.anchors,
            framed=self.page_sections,
            hold=not self.follow,
        )
        start = html_start(
            standalone=True,
            title=title,
            theme=self.theme,
            wrap=self.wrap,
            anchors=self.anchors,
            pre=False,
            css=SECTIONS_CSS if self.page_sections else "",
        )
        return writer, start, html_end(standalone=True, pre=False)


def run_render(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO, stderr: TextIO) -> int:
    options = RenderOptions.from_args(args)
    inputs: list[str] = args.inputs or ["-"]
    if args.out_dir is not None or len(inputs) > 1:
        if args.output is not None:
            raise UsageError("-o takes one input; use --out-dir for several")
        if args.out_dir is None:
            raise UsageError("several inputs need --out-dir DIR")
        if args.follow:
            raise UsageError("--follow takes one input")
        from ._batch import run_batch

        render = partial(render_to_file, options)
        return run_batch(render, options.extension, inputs, args.out_dir, args.jobs, stderr)
    if args.jobs is not None:
        raise UsageError("-j applies to --out-dir only")
    if args.follow is None:
        options = options._replace(follow=_follows(options, inputs[0], args.output, stdin, stdout))
    progress = Progress(stderr, "termscribe render")
    _, notes = render_file(options, inputs[0], args.output, stdin, stdout, progress)
    for note in notes:
        print(f"termscribe: {note}", file=stderr)
    return 0


def render_to_file(options: RenderOptions, input_path: str, output: str) -> tuple[int, list[str]]:
    """render_file from one file to another (what --out-dir does with each)."""
    return render_file(options, input_path, output, None, None)


def render_file(
    options: RenderOptions,
    input_path: str,
    output: str | None,
    stdin: BinaryIO | None,
    stdout: BinaryIO | None,
    progress: Progress | None = None,
) -> tuple[int, list[str]]:
    """Render one input (a path, or ``-`` for stdin) to ``output`` (a path,
    or None for stdout); returns the bytes rendered and notes for stderr."""
    writer, start, end = options.renderer(input_path)
    if is_same_file(output, input_path, stdin):
        raise UsageError(f"{output} is the input: choose another output file")
    source = _open_input(input_path, stdin)
    try:
        try:
            stream = open_input_stream(source, options.input_format)
        except OSError as exc:
            raise UsageError(f"cannot read {input_path}: {exc.strerror or exc}") from exc
        with open_sink(output, stdout) as out:
            try:
                size = _stream(
                    options, stream, source, input_path, out, progress, writer, start, end
                )
            finally:
                if progress is not None:
                    progress.clear()
    finally:
        if source is not stdin:
            source.close()
    notes = []
    if stream.skipped:
        notes.append(
            f"{input_path}: {stream.skipped} lines of the recording are not events (skipped)"
        )
    return size, notes


def _stream(
    options: RenderOptions,
    stream: Input,
    source: BinaryIO,
    name: str,
    out: Sink,
    progress: Progress | None,
    writer: Writer,
    start: str,
    end: str,
) -> int:
    """Feed the stream to a transcript and write its lines as they become
    final; returns the bytes read.

    A recording's resize applies when output comes after it (of a burst of
    resizes, the last): the transcript at the old size ends, its window
    written as it stands (a last empty line, where the cursor waits, left
    out), and the output goes on in a transcript of the new size, so it
    never changes what was shown before, much as a terminal's resize leaves
    its scrollback. Each new window is paid for by output: the bytes since
    the last resize that applied, with the output that follows, must be
    worth its cost (window_cost, at OUTPUT_PER_BYTE; about 490 bytes for
    80 x 24); until then the size stays. So output stays within twice
    OUTPUT_PER_BYTE per byte plus the constant of the first transcript,
    however many resizes a recording has."""
    transcript = options.transcript(stream.columns, stream.rows)
    size = 0
    pending: tuple[int | None, int] | None = None  # a size not applied yet
    paid = 0  # bytes fed since the last resize that applied (or the start)
    # Output stays within the transcripts' limits for the bytes read so far.
    written = len(start)
    earlier = 0  # the limits of the transcripts that resizes ended
    if start:
        out.write(start.encode("utf-8"))
    chunks = stream.chunks
    if options.page_sections and options.sections == "auto":
        from ._ci import looks_like_buildkite, syntaxes_for
        from ._markers import first_line
        from ._sections import PageWriter

        assert isinstance(writer, PageWriter)

        try:
            head, chunks = first_line(chunks)
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from exc
        writer.syntaxes = syntaxes_for("auto", looks_like_buildkite(head))
    if options.timestamps or options.page_sections:
        from ._markers import ci_markers

        chunks = ci_markers(chunks, gitlab=options.page_sections, timestamps=options.timestamps)
    if options.follow:
        from ._follow import PAUSE, PAUSED, Ahead, Paused, Prefetch

        prefetch = Prefetch(chunks)
    ahead = Ahead() if options.follow else None  # lines written before they were final
    skip = ahead.skip if ahead is not None else _same
    while True:
        try:
            if ahead is None:
                chunk = next(chunks, b"")
            else:
                item = prefetch.get(PAUSE)
                if item is PAUSED:
                    settled = ahead.settle(transcript)
                    if settled:
                        body = writer.lines(settled, earlier + transcript.output_limit() - written)
                        written += len(body)
                        out.write(body.encode("utf-8"))
                        out.flush()
                    item = prefetch.get(None)
                assert not isinstance(item, Paused)
                chunk = item or b""
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from exc
        if isinstance(chunk, Resize):
            if options.mode != "strip":  # strip mode has no size
                pending = options.size(chunk.columns, chunk.rows)
            continue
        if not chunk:
            break
        if pending is not None and pending == (transcript.columns, transcript.rows):
            pending = None
        committed = []
        if pending is not None and (paid + len(chunk)) * OUTPUT_PER_BYTE >= options.window_cost(
            *pending
        ):
            transcript.finish()
            committed = transcript.lines()
            if committed and not committed[-1].text:
                committed.pop()
            committed = skip(committed)
            if ahead is not None:
                ahead.count = 0
            earlier += transcript.output_limit() - output_constant(0, 0)
            transcript = options.transcript(*pending)
            pending = None
            paid = 0
        size += len(chunk)
        paid += len(chunk)
        transcript.feed(chunk)
        committed += skip(transcript.take_lines())
        if committed:
            body = writer.lines(committed, earlier + transcript.output_limit() - written)
            written += len(body)
            out.write(body.encode("utf-8"))
            out.flush()
        if progress is not None:
            progress.update(source)
    transcript.finish()
    limit = earlier + transcript.output_limit() - written
    rest = writer.last(skip(transcript.lines()), limit, len(end)) + end
    if rest and not rest.endswith("\n"):
        rest += "\n"  # a text file ends with a newline, whatever the mode
    out.write(rest.encode("utf-8"))
    out.flush()
    return size


def _same(lines: list[Line]) -> list[Line]:
    return lines


def _follows(
    options: RenderOptions, path: str, output: str | None, stdin: BinaryIO, stdout: BinaryIO
) -> bool:
    """Whether ``render`` follows its input when not told: in lines mode,
    when its output is a terminal and its input may pause (not a file)."""
    if options.mode != "lines" or output is not None:
        return False
    try:
        if not stdout.isatty():
            return False
        if path != "-":
            return not stat.S_ISREG(os.stat(path).st_mode)
        return not stat.S_ISREG(os.fstat(stdin.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def _open_input(path: str, stdin: BinaryIO | None) -> BinaryIO:
    if path == "-":
        if stdin is None:
            raise UsageError("- (stdin) cannot be one of several inputs")
        return stdin
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
