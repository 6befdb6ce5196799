"""The public facade: bytes in, transcripts out.

``Transcript`` wires the layers together (decoder → parser → interpreter) and
hands the interpreter's lines to the renderers. It does no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypedDict

from ._budget import OUTPUT_PER_BYTE, output_constant, styled_within
from ._changes import ChangePosition, Changes, changes_since
from ._decoder import Utf8Decoder
from ._lines import MAX_REACH, Frozen, LinesModel, Resting, StripModel, rest
from ._parser import Parser
from ._performer import ONE_BY_ONE
from ._render._text import render_lines_text
from ._rich_hooks import RichLines
from ._rows import MAX_LINE_CELLS, Line, Run

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._screen._model import ScreenModel
    from ._screen._snapshot import AltScreenSnapshot

__all__ = [
    "ALT_SCREEN",
    "DEFAULT_MAX_LINES",
    "MAX_ROWS",
    "MODES",
    "NEWLINES",
    "Transcript",
    "render_ansi",
    "render_html",
    "render_text",
]

#: Modes a Transcript can interpret a stream in.
MODES = ("lines", "strip", "screen")
#: What to do with the alternate screen (vim, less, htop): "off" leaves it
#: out of a ``lines`` transcript (``screen`` shows it only if it is active at
#: the end); "snapshot" appends the frame it last showed as a marked block.
ALT_SCREEN = ("off", "snapshot")
#: What a bare line feed (LF, and VT and FF) does: "crlf" also returns to
#: column 0, as in a log captured through a pipe (no terminal turned LF into
#: CR LF); "lf" only moves down, as a terminal does with a PTY stream (the
#: PTY already sent CR LF for each line end; a raw LF is a program moving
#: the cursor down); "auto" decides by the stream's first LF: "lf" if a CR
#: comes right before it, else "crlf" (VT and FF before it only move down).
#: The first LF is in a prefix of the stream, so every chunking decides the
#: same way.
NEWLINES = ("auto", "crlf", "lf")
# What decides the "auto" line feed policy.
_LINE_END = re.compile("\n")
#: Screen size in ``screen`` mode when ``columns`` is None.
DEFAULT_SCREEN_COLUMNS = 80
#: Committed lines a Transcript keeps by default; older ones are dropped and
#: replaced by one visible marker line (SECURITY.md "output growth"). Use
#: ``take_lines()`` to stream lines out instead of holding them.
DEFAULT_MAX_LINES = 100_000
#: Largest window height accepted.
MAX_ROWS = 10_000
#: A ``hold_bytes`` for a source of many small chunks that is read less
#: often than it is fed, such as the output chunks of ACP terminals
#: (``termscribe.acp.TerminalStore``): many lines of a log at a time, and
#: little to hold for each of many terminals.
HOLD_BYTES = 16 * 1024


class TranscriptOptions(TypedDict, total=False):
    """The keyword arguments of Transcript, which render_text, render_html
    and render_ansi pass on."""

    mode: str
    columns: int | None
    rows: int
    max_lines: int | None
    styled: bool
    alt_screen: str
    newline: str


class Transcript(RichLines):
    """A safe transcript of one terminal byte stream.

    ``feed`` any chunking of the bytes, then ``finish``; the output is the
    same for every chunking. ``text()`` may be called at any time (before
    ``finish`` it shows the state so far, without a split code point or an
    unfinished escape sequence).

    ``styled=False`` skips colours, attributes and links (SGR and OSC 8 are
    still parsed, then dropped): the text is identical and comes faster;
    ``html()`` and ``ansi()`` then show plain text.

    Rich shows it (``console.print(transcript)``, with ``termscribe[rich]``)
    as ``termscribe.rich.LinesView`` does.

    ``newline`` is the line feed policy (see NEWLINES and docs/modes.md):
    ``"auto"`` (the default) treats a stream whose first LF comes after a CR
    as a PTY stream, where a bare LF only moves down (``"lf"``), and any
    other as a log from a pipe, where a bare LF also returns to column 0
    (``"crlf"``). It applies to ``lines`` and ``screen``; in ``strip`` mode
    every line end starts a new line anyway.

    ``hold_bytes`` (0, the default: none) lets ``feed`` hold chunks smaller
    than it and interpret them together once that many bytes wait, or as
    soon as anything reads the transcript (``text``, ``lines``,
    ``take_lines``, ``changes``, ``html``, ``ansi``, ``finish``): for a
    source of many small chunks read less often than it is fed (see
    HOLD_BYTES). Each interpretation costs something however small its
    input, and lines that arrive together are taken at once. Any chunking
    gives the same output, so holding moves work and never changes what is
    read.
    """

    def __init__(
        self,
        *,
        mode: str = "lines",
        columns: int | None = None,
        rows: int = 24,
        max_lines: int | None = DEFAULT_MAX_LINES,
        styled: bool = True,
        alt_screen: str = "off",
        newline: str = "auto",
        hold_bytes: int = 0,
        _one_by_one: bool = ONE_BY_ONE,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if alt_screen not in ALT_SCREEN:
            raise ValueError(
                f"alt_screen must be one of {', '.join(ALT_SCREEN)}, not {alt_screen!r}"
            )
        if newline not in NEWLINES:
            raise ValueError(f"newline must be one of {', '.join(NEWLINES)}, not {newline!r}")
        if alt_screen != "off" and mode == "strip":
            raise ValueError("alt_screen applies to modes lines and screen")
        if columns is not None and (
            not isinstance(columns, int) or isinstance(columns, bool) or columns < 1
        ):
            raise ValueError(f"columns must be a positive integer or None, not {columns!r}")
        if columns is not None and columns > MAX_LINE_CELLS:
            raise ValueError(f"columns must be at most {MAX_LINE_CELLS}, not {columns}")
        if not isinstance(rows, int) or isinstance(rows, bool) or not 1 <= rows <= MAX_ROWS:
            raise ValueError(f"rows must be an integer from 1 to {MAX_ROWS}, not {rows!r}")
        if max_lines is not None and (
            not isinstance(max_lines, int) or isinstance(max_lines, bool) or max_lines < 0
        ):
            raise ValueError(f"max_lines must be a non-negative integer or None, not {max_lines!r}")
        if not isinstance(hold_bytes, int) or isinstance(hold_bytes, bool) or hold_bytes < 0:
            raise ValueError(f"hold_bytes must be a non-negative integer, not {hold_bytes!r}")
        self.mode = mode
        self.columns = columns
        self.rows = rows
        self.newline = newline
        self._max_lines = max_lines
        self._styled = styled
        self._alt_screen = alt_screen
        self._hold = hold_bytes
        # Every batch replayed event by event (see _performer.ONE_BY_ONE):
        # the oracle the tests hold the batch executors to.
        self._one_by_one = _one_by_one
        self._held: list[bytes] | None = None  # fed, not yet interpreted
        self._held_bytes = 0
        # The interpreter is made when the first bytes are interpreted (at
        # once in screen mode), and put to rest by compact and finish (see
        # _lines._rest): until then (and from then) these are None, and the
        # model too or one at rest.
        self._decoder: Utf8Decoder | None = None
        self._parser: Parser | None = None
        self._model: LinesModel | ScreenModel | AltScreenSnapshot | Resting | Frozen | None = None
        # Whether the "auto" line feed policy is still to be decided, and
        # while it is, the live model whose line feeds it sets.
        self._deciding = newline == "auto" and mode != "strip"
        self._line_feeds: LinesModel | ScreenModel | None = None
        self._before = ""  # the last character fed, while "auto" decides
        if alt_screen == "snapshot":
            from ._screen import _snapshot  # noqa: F401  # pyte: loaded for these modes only
        self._finished = False
        # Identifies this transcript's change positions (see changes).
        self._token = object()
        # Output is bounded by input (see _budget): the bytes fed so far, and
        # the constant, from the window the model can fill without input
        # (twice with a snapshot of the alternate screen).
        self._bytes = 0
        if mode == "screen":
            self._wake()  # pyte is loaded now, and the screen's own limits checked

    def _new_model(
        self,
    ) -> tuple[LinesModel | ScreenModel | AltScreenSnapshot, LinesModel | ScreenModel | None]:
        """A new model for the options, and the model whose line feeds the
        policy sets (None in strip mode)."""
        mode = self.mode
        if mode == "strip":
            return StripModel(self._max_lines, styled=self._styled), None
        if mode == "screen":
            from ._screen._model import ScreenModel

            screen = ScreenModel(
                self.columns or DEFAULT_SCREEN_COLUMNS,
                self.rows,
                snapshot=self._alt_screen == "snapshot",
                styled=self._styled,
            )
            return screen, screen
        lines = LinesModel(self.columns, self.rows, self._max_lines, styled=self._styled)
        if self._alt_screen == "snapshot":
            from ._screen._snapshot import AltScreenSnapshot

            return AltScreenSnapshot(lines), lines
        return lines, lines

    def _wake(self) -> Utf8Decoder:
        """Make the interpreter: new, or from the model at rest."""
        model, line_feeds = self._new_model()
        resting = self._model
        if isinstance(resting, Resting):
            assert isinstance(model, LinesModel)
            self._parser, decoder = resting.wake(model, one_by_one=self._one_by_one)
        else:
            assert resting is None
            if line_feeds is not None:
                line_feeds.lf_returns = self.newline == "crlf"
            self._parser = Parser(model, one_by_one=self._one_by_one)
            decoder = Utf8Decoder()
        self._model = model
        self._decoder = decoder
        if self._deciding:
            self._line_feeds = line_feeds
        return decoder

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        """Add bytes of the stream. Never raises on any byte content.

        With ``hold_bytes``, a smaller feed may be interpreted later, with
        others; every method that reads the transcript sees all bytes fed."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"feed() takes bytes, not {type(data).__name__}")
        if self._finished:
            raise RuntimeError("feed() after finish()")
        if isinstance(data, memoryview):
            data = bytes(data)
        size = len(data)
        self._bytes += size
        if size >= self._hold:
            if self._held:
                self._release()
            if size:
                self._decode(data)
        elif size:
            held = self._held
            if held is None:
                held = self._held = []
            # A copy of a bytearray: its owner may change it after this call.
            held.append(data if isinstance(data, bytes) else bytes(data))
            self._held_bytes += size
            if self._held_bytes >= self._hold:
                self._release()

    def _release(self) -> None:
        """Interpret the bytes held."""
        held = self._held
        assert held is not None
        data = held[0] if len(held) == 1 else b"".join(held)
        self._held = None
        self._held_bytes = 0
        self._decode(data)

    def _decode(self, data: bytes | bytearray) -> None:
        decoder = self._decoder
        if decoder is None:
            decoder = self._wake()
        text = decoder.feed(data)
        if text:
            self._interpret(text)

    def _settled(self) -> LinesModel | ScreenModel | AltScreenSnapshot | Resting | Frozen:
        """The model, with every byte fed interpreted: what readers read (a
        new one, not kept, before any byte is)."""
        if self._held:
            self._release()
        model = self._model
        return self._new_model()[0] if model is None else model

    def compact(self) -> None:
        """Hold only what reading needs until the next ``feed``: for a
        transcript that may stay idle long, one of many (a
        ``termscribe.acp.TerminalStore`` does it for its terminals). Every
        read gives what it gave; the next ``feed`` makes the interpreter
        again, which costs about what making a Transcript does.

        It applies to a ``lines`` transcript without ``alt_screen``
        snapshots while the normal screen shows (it does nothing
        otherwise). A finished transcript is compact in every mode."""
        if self._held:
            self._release()
        model = self._model
        if not isinstance(model, LinesModel):
            return
        assert self._parser is not None and self._decoder is not None
        resting = rest(model, self._parser, self._decoder)
        if resting is not None:
            self._model = resting
            self._parser = self._decoder = self._line_feeds = None

    def finish(self) -> None:
        """End of stream: a split code point becomes U+FFFD and an open
        escape sequence is dropped. Calling it again does nothing."""
        if self._finished:
            return
        self._finished = True
        if self._held:
            self._release()
        model = self._model
        if model is None or (isinstance(model, Resting) and model.clean):
            return  # nothing to finish (reads make a new model for None)
        decoder = self._decoder or self._wake()
        text = decoder.finish()
        if text:
            self._interpret(text)
        model = self._model
        parser = self._parser
        assert parser is not None and model is not None
        parser.finish()
        # Never fed again: what reading needs is kept.
        resting = rest(model, parser, decoder) if isinstance(model, LinesModel) else None
        self._model = resting or Frozen(model.committed, model.window_lines())
        self._parser = self._decoder = self._line_feeds = None

    def _interpret(self, text: str) -> None:
        """Hand decoded text to the parser. While the "auto" line feed
        policy is undecided (see NEWLINES), what comes before the
        stream's first LF is interpreted undecided, then the policy is
        decided and the rest interpreted: every chunking decides at the
        same point."""
        parser = self._parser
        assert parser is not None
        model = self._line_feeds
        if model is not None:
            end = _LINE_END.search(text)
            if end is None:
                self._before = text[-1]
            else:
                start = end.start()
                before = text[start - 1] if start else self._before
                if start:
                    parser.feed(text[:start])
                    text = text[start:]
                model.lf_returns = before != "\r"
                self._line_feeds = None
                self._deciding = False
        parser.feed(text)

    @property
    def finished(self) -> bool:
        return self._finished

    def lines(self) -> list[Line]:
        """The transcript as lines, oldest first (lines taken out by
        ``take_lines`` are no longer included)."""
        return self._settled().lines()

    def take_lines(self) -> list[Line]:
        """Remove and return the lines that are final (committed) so far.

        For streaming huge logs in bounded memory: write these out after each
        ``feed``; at the end, ``lines()`` (or ``text()``) gives the rest.
        """
        return self._settled().take_committed()

    def changes(self, since: ChangePosition | None = None, *, window: bool = True) -> Changes:
        """What changed since ``since`` (a ``Changes.position`` of an earlier
        call; None for everything): the lines committed since, and the live
        window (``window=False`` leaves it out, empty, for a reader that
        takes only committed lines). See ``_changes`` for the client loop;
        the cost of a call is what changed, not the transcript's length."""
        model = self._settled()
        lines = model.window_lines() if window else []
        return changes_since(self._token, model.committed, lines, since)

    def output_limit(self) -> int:
        """The most characters ``text()``, ``html()`` or ``ansi()`` returns
        for the bytes fed so far: OUTPUT_PER_BYTE per byte, plus a constant
        that depends only on the options (SECURITY.md, "output
        amplification"). Past it, HTML and ANSI drop styles (see _budget)."""
        if self.mode == "screen":
            reach = self.columns or DEFAULT_SCREEN_COLUMNS
        else:  # the model's reach (see LinesModel; strip mode has no width)
            width = self.columns if self.columns is not None and self.mode == "lines" else None
            reach = min(MAX_LINE_CELLS if width is None else width, MAX_REACH)
        window_rows = 1 if self.mode == "strip" else self.rows
        if self._alt_screen == "snapshot":
            window_rows *= 2
        return OUTPUT_PER_BYTE * self._bytes + output_constant(reach, window_rows)

    def text(self) -> str:
        """The plain-text transcript (lines joined with ``\\n``)."""
        # render_lines_text(self.lines()), from the committed lines' stored
        # text without making them Line objects again.
        model = self._settled()
        committed = model.committed
        marker = committed.marker()
        pieces = [marker.text] if marker is not None else []
        pieces.extend(committed.texts())
        window = model.window_lines()
        if window:
            pieces.append(render_lines_text(window))
        return "\n".join(pieces)

    def html(self, *, standalone: bool = False, title: str = "Terminal transcript") -> str:
        """The HTML transcript: a ``<pre class="termscribe">`` fragment, or
        with ``standalone`` a complete UTF-8 document with its stylesheet."""
        from ._render._html import html_end, html_lines, html_pieces, html_start  # not for text

        start = html_start(standalone=standalone, title=title)
        end = html_end(standalone=standalone)
        pieces = html_pieces(self._pairs())
        pieces.insert(0, start)
        pieces.append(end)
        out = "".join(pieces)
        if len(out) > self.output_limit():
            frame = len(start) + len(end)
            body = out[len(start) : len(out) - len(end)]
            body = styled_within(self.lines(), self.output_limit(), html_lines, frame, body)
            return start + body + end
        return out

    def ansi(self, *, hyperlinks: bool = False, pairs: str = "truecolor") -> str:
        """The transcript with styles rebuilt as SGR, safe for a terminal;
        ``hyperlinks`` adds OSC 8 for http(s) and mailto links; ``pairs``
        is how a set foreground on a set background is written: as 24-bit
        colours of at least 3:1 ("truecolor"), or as the terminal's default
        colours ("terminal", for terminals of 16 or 256 colours)."""
        from ._render._ansi import ansi_lines, ansi_pairs  # not loaded for text

        out = ansi_pairs(self._pairs(), hyperlinks=hyperlinks, pairs=pairs)
        if len(out) > self.output_limit():
            out = styled_within(
                self.lines(),
                self.output_limit(),
                lambda lines: ansi_lines(lines, hyperlinks=hyperlinks, pairs=pairs),
                0,
                out,
            )
        return out

    def _pairs(self) -> Iterator[tuple[str, Iterable[Run]]]:
        """The lines of ``lines()`` as text and runs, the committed ones
        without making them Line objects again (for renderers)."""
        model = self._settled()
        committed = model.committed
        marker = committed.marker()
        if marker is not None:
            yield marker.text, marker.runs
        yield from committed.pairs()
        for line in model.window_lines():
            yield line.text, line.runs


def render_text(data: bytes, **options: Unpack[TranscriptOptions]) -> str:
    """The text transcript of ``data`` in one call (options as Transcript;
    styles are not tracked unless ``styled=True`` is passed)."""
    return _whole(data, {"styled": False, **options}).text()


def render_html(
    data: bytes,
    *,
    standalone: bool = False,
    title: str = "Terminal transcript",
    **options: Unpack[TranscriptOptions],
) -> str:
    """The HTML transcript of ``data`` in one call (options as Transcript)."""
    return _whole(data, options).html(standalone=standalone, title=title)


def render_ansi(
    data: bytes,
    *,
    hyperlinks: bool = False,
    pairs: str = "truecolor",
    **options: Unpack[TranscriptOptions],
) -> str:
    """The safe-ANSI transcript of ``data`` in one call (options as Transcript)."""
    return _whole(data, options).ansi(hyperlinks=hyperlinks, pairs=pairs)


def _whole(data: bytes, options: TranscriptOptions) -> Transcript:
    transcript = Transcript(**options)
    transcript.feed(data)
    transcript.finish()
    return transcript
