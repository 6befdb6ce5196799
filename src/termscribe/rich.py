"""Transcripts in Rich and Textual: `Line` to ``rich.text.Text``.

Needs the ``rich`` package (``pip install termscribe[rich]``); nothing else
in termscribe imports this module except when Rich renders a `Transcript`
or an ACP ``TerminalState`` (``console.print(transcript)``), so importing
termscribe never imports rich.

Rich draws on a terminal, so a line gets what the safe-ANSI renderer
(`_render._ansi`) would write, as Rich styles:

* Colours are the Style's validated integers: 0-15 as Rich's standard
  colours, 16-255 as 8-bit colours, truecolor as RGB; bold, dim, italic,
  underline (double underline as Rich's ``underline2``; curly, dotted and
  dashed as a plain underline: Rich has no other), blink, reverse, strike
  and overline as they are.  The underline colour is dropped (Rich has none).
* Nothing is hidden: concealed text (SGR 8) is shown, and a set
  foreground on a set background is what the ANSI renderer emits for it
  (``_render._ansi.readable_pair``, SECURITY.md's "palette pairs"): with
  ``pairs="truecolor"`` 24-bit colours of at least 3:1, never palette
  indices whose colours are the viewer's; with ``pairs="terminal"`` no
  colour (the terminal's own default pair) and no faint.  `LinesView`, and
  a `Transcript` printed as it is, choose by the console's colour system
  (``pairs=None``): "truecolor" for a console of 24-bit colour or of none
  (recording for ``export_html``, say); for one of 256 colours, the
  24-bit pair where Rich's rounding of it into xterm's colour cube and grey
  ramp still keeps 3:1, else "terminal"; "terminal" for 16 colours, where
  Rich would round the pair into the viewer's palette.  Where one side is
  the terminal's default colour, the pair is left as the program sent it.
* Links only with ``hyperlinks=True`` (as ``Transcript.ansi``), and only to
  the URL `termscribe.safe_url` rebuilds (http, https, mailto): printable
  ASCII with quotes and ``<>`` percent-encoded, so Rich's terminal output
  and its ``export_html`` (which writes the URL unescaped) stay safe.
* Text is appended as plain text: never read as console markup or emoji
  codes.  Markers termscribe made (``<U+202E>``, ``[termscribe: …]``) carry
  the named style ``termscribe.marker`` as well, which has no look unless
  the console's theme gives it one (``Theme({"termscribe.marker":
  "italic"})``), as the HTML renderer's ``ts-marker`` class.

`LinesView` shows lines one row each, folded at the console's width as a
terminal wraps them: never cropped nor wrapped at words, so every character
and space stays and the rows of a line, joined, are the line's text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.cells import cell_len
from rich.color import Color, ColorSystem
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text

from termscribe._render._ansi import DIM_ALPHA, check_pairs, readable_pair
from termscribe._render._contrast import MIN_RATIO, blend, contrast, ensure_contrast
from termscribe._render._theme import palette_rgb
from termscribe._render._urls import safe_url
from termscribe._rows import MARKERS, Line
from termscribe._style import (
    BLINK,
    BOLD,
    DIM,
    INVERSE,
    ITALIC,
    OVERLINE,
    RGB_FLAG,
    STRIKE,
    Style,
)

__all__ = ["MARKER_STYLE", "LinesView", "fold", "line_text", "rich_style"]

#: The named style of markers termscribe made (see the module docstring).
MARKER_STYLE = "termscribe.marker"


class _Converter:
    """Each distinct style converted once per call (its link checked once): a
    call's distinct styles are few, and nothing is shared between calls
    (DESIGN.md invariant 8)."""

    __slots__ = ("hyperlinks", "pairs", "styles")

    def __init__(self, hyperlinks: bool, pairs: str) -> None:
        self.hyperlinks = hyperlinks
        self.pairs = pairs
        self.styles: dict[Style, RichStyle | None] = {}

    def text(self, line: Line) -> Text:
        text = Text()
        styles = self.styles
        for run_text, style in line.runs:
            if not run_text:
                continue
            if style in styles:
                rich = styles[style]
            else:
                rich = styles[style] = _rich_style(style, self.hyperlinks, self.pairs)
            text.append(run_text, rich)
        if "<U+" in line.text or "[termscribe:" in line.text:
            for match in MARKERS.finditer(line.text):
                text.stylize(MARKER_STYLE, match.start(), match.end())
        return text


def rich_style(
    style: Style, *, hyperlinks: bool = False, pairs: str = "truecolor"
) -> RichStyle | None:
    """The Rich style of a termscribe `Style` (see the module docstring), or None
    for one that looks like the default.  Attributes that are off are None, so
    a surrounding Rich style (a panel's) shows through as the default;
    ``hyperlinks`` keeps a link whose target `safe_url` accepts, as its URL;
    ``pairs`` is how a set foreground on a set background is drawn."""
    check_pairs(pairs)
    return _rich_style(style, hyperlinks, pairs)


def _console_pairs(console: Console) -> str:
    """The ``pairs`` for what ``console`` writes (see the module docstring);
    "256" is "truecolor" where Rich's rounding keeps 3:1."""
    system = console.color_system
    if system in (None, "truecolor"):
        return "truecolor"
    return "256" if system == "256" else "terminal"


def _rich_style(style: Style, hyperlinks: bool, pairs: str) -> RichStyle | None:
    if style.is_default:
        return None
    link = None
    if hyperlinks and style.link is not None:
        link = safe_url(style.link.uri)
    fg: int | None
    bg: int | None
    fg, bg, flags = style.fg, style.bg, style.flags
    if fg is not None and bg is not None:
        pair = readable_pair(fg, bg, flags, "terminal" if pairs == "terminal" else "truecolor")
        if pairs == "256":
            pair = _eight_bit(*pair) or readable_pair(fg, bg, flags, "terminal")
        fg, bg, flags = pair
    underline = style.underline
    if fg is None and bg is None and not flags and not underline and link is None:
        return None
    return RichStyle(
        color=_colour(fg),
        bgcolor=_colour(bg),
        bold=_on(flags & BOLD),
        dim=_on(flags & DIM),
        italic=_on(flags & ITALIC),
        underline=_on(underline and underline != 2),
        underline2=_on(underline == 2),
        blink=_on(flags & BLINK),
        reverse=_on(flags & INVERSE),
        strike=_on(flags & STRIKE),
        overline=_on(flags & OVERLINE),
        link=link,
    )


def _eight_bit(fg: int | None, bg: int | None, flags: int) -> tuple[int, int, int] | None:
    """A 24-bit pair as colours 16-255 (xterm's cube and grey ramp, which
    Rich rounds 24-bit colours into for a console of 256 colours) that keep
    MIN_RATIO, or None: the background rounded, the foreground moved from
    it further than 3:1 when rounding would lose the ratio."""
    assert fg is not None and bg is not None
    front, back = (bg, fg) if flags & INVERSE else (fg, bg)
    back_index = _nearest(back & 0xFFFFFF)
    drawn_back = palette_rgb(back_index)
    for ratio in (MIN_RATIO, 3.5, 4.5):
        front_index = _nearest(ensure_contrast(front & 0xFFFFFF, drawn_back, ratio))
        shown = palette_rgb(front_index)
        if flags & DIM:
            shown = blend(shown, drawn_back, DIM_ALPHA)
        if contrast(shown, drawn_back) >= MIN_RATIO:
            if flags & INVERSE:
                return back_index, front_index, flags
            return front_index, back_index, flags
    return None


def _nearest(rgb: int) -> int:
    """The colour 16-255 Rich rounds 24-bit ``rgb`` to."""
    colour = Color.from_rgb(rgb >> 16, rgb >> 8 & 0xFF, rgb & 0xFF)
    number = colour.downgrade(ColorSystem.EIGHT_BIT).number
    assert number is not None and number >= 16
    return number


def _on(value: int | bool) -> bool | None:
    return True if value else None


def _colour(value: int | None) -> Color | None:
    if value is None:
        return None
    if value & RGB_FLAG:
        return Color.from_rgb(value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    return Color.from_ansi(value)


def line_text(line: Line, *, hyperlinks: bool = False, pairs: str = "truecolor") -> Text:
    """`line` as a Rich ``Text`` (see the module docstring for what each style
    becomes); ``hyperlinks`` links the text of safe http(s) and mailto links;
    ``pairs`` is how a set foreground on a set background is drawn."""
    check_pairs(pairs)
    return _Converter(hyperlinks, pairs).text(line)


class LinesView:
    """A Rich renderable of lines: one row each, folded at the console's width.

    ``console.print(LinesView(transcript.lines(), hyperlinks=True))``; a
    `Transcript` or ``TerminalState`` printed as it is shows the same
    without links.  ``pairs`` (None: chosen by the console's colour system)
    is how a set foreground on a set background is drawn.
    """

    def __init__(
        self, lines: Iterable[Line], *, hyperlinks: bool = False, pairs: str | None = None
    ) -> None:
        if pairs is not None:
            check_pairs(pairs)
        self.lines = list(lines)
        self.hyperlinks = hyperlinks
        self.pairs = pairs

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        pairs = self.pairs if self.pairs is not None else _console_pairs(console)
        convert = _Converter(self.hyperlinks, pairs)
        width = max(options.max_width, 1)
        newline = Segment.line()
        for line in self.lines:
            for row in fold(convert.text(line), width):
                yield from row.render(console)
                yield newline

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(line.text) for line in self.lines), default=0)
        return Measurement(min(widest, 2), widest)


def fold(text: Text, width: int) -> list[Text]:
    """`text` cut into rows of at most `width` cells, as a terminal wraps: at any
    character, never at words; a combining mark stays with its character.

    Rows are filled by each character's width, then checked with Rich's
    measure of the whole row, which may read a sequence as one wider
    character (a base and VS16).  A row of one character is kept whatever
    its width: nothing is dropped."""
    plain = text.plain
    if cell_len(plain) <= width:
        return [text]
    if plain.isascii():  # transcripts hold printable text only: one cell each
        return list(text.divide(range(width, len(plain), width)))
    sizes = [cell_len(char) for char in plain]
    cuts: list[int] = []
    start = 0
    end = len(plain)
    while start < end:
        stop = start + 1
        used = sizes[start]
        while stop < end and (not sizes[stop] or used + sizes[stop] <= width):  # marks stay
            used += sizes[stop]
            stop += 1
        while cell_len(plain[start:stop]) > width:  # give back a character and its marks
            back = stop - 1
            while back > start and sizes[back] == 0:
                back -= 1
            if back == start:
                break
            stop = back
        if stop < end:
            cuts.append(stop)
        start = stop
    return list(text.divide(cuts))
