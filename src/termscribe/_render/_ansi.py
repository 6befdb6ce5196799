"""The safe-ANSI renderer: the transcript re-emitted for a real terminal.

Nothing from the input stream is passed through. Every escape sequence in the
output is built here from a Style's validated integers, so the output can be
shown with ``cat`` or ``less -R`` without the terminal acting on it.

* Each run starts with a complete SGR (``CSI 0;...m``) rather than a diff from
  the previous one, so no state leaks between runs; a line that used any style
  ends with ``CSI 0m``, so no line colours the next one.
* Concealment (SGR 8) is not re-emitted: a transcript never hides text.
* Underline styles and the underline colour use the colon forms
  (``4:3``, ``58:2::r:g:b``): a terminal that does not know them ignores the
  parameter, whereas ``58;5;n`` would read as "blink" there.
* Hyperlinks (``hyperlinks=True``) are OSC 8, ended with ST, for targets that
  ``_urls.safe_url`` accepts, with its rebuilt printable-ASCII URL.
* Readable (DESIGN.md invariant 7): a foreground and background that are
  both emitted never make a pair under ``_contrast.MIN_RATIO`` (3:1) as the
  terminal draws it (after SGR 7, faint, and bold drawn bright). Such a pair
  is re-emitted as exact truecolor: the background as xterm shows it, the
  foreground moved toward lighter or darker as xterm.js's
  ``minimumContrastRatio`` does (faint is then folded into that colour).
  The palette assumed for colours 0-15 is xterm's default (``XTERM_16``);
  16-255 are xterm's cube and grey ramp. When one side is the terminal's
  default colour, only the viewer's terminal knows the pair: the renderer
  leaves it as the program sent it (no colour is unreadable on both a dark
  and a light default background, and terminals with a minimum-contrast
  setting apply it there).

Removing the SGR and OSC 8 sequences gives exactly the text transcript.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._rows import Line, Run
from .._style import BLINK, BOLD, DIM, INVERSE, ITALIC, OVERLINE, RGB_FLAG, STRIKE, Link, Style
from ._contrast import MIN_RATIO, blend, contrast, ensure_contrast
from ._theme import palette_rgb
from ._urls import safe_url

__all__ = ["ansi_lines", "ansi_pairs"]

RESET = "\x1b[0m"
_OSC8_END = "\x1b]8;;\x1b\\"

#: xterm's default colours 0-15 (XTerm-col.ad), as the contrast rule
#: assumes a terminal draws 30-37, 90-97, 40-47 and 100-107.
XTERM_16 = (
    0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
    0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
)  # fmt: skip
#: Faint text as xterm, xterm.js and iTerm2 draw it: the foreground at half
#: opacity over the background.
DIM_ALPHA = 0.5

_FLAG_CODES = (
    (BOLD, "1"),
    (DIM, "2"),
    (ITALIC, "3"),
    (BLINK, "5"),
    (INVERSE, "7"),
    (STRIKE, "9"),
    (OVERLINE, "53"),
)


def ansi_lines(lines: Iterable[Line], *, hyperlinks: bool = False) -> str:
    """The ANSI of lines, joined with ``\\n`` (no trailing newline)."""
    return ansi_pairs([(line.text, line.runs) for line in lines], hyperlinks=hyperlinks)


def ansi_pairs(lines: Iterable[tuple[str, Iterable[Run]]], *, hyperlinks: bool = False) -> str:
    """ansi_lines of lines given as their text and runs."""
    out: list[str] = []
    append = out.append
    # Per call, never shared (DESIGN.md invariant 8): distinct styles and
    # link targets in one call are few, and bounded by the runs rendered.
    sgrs: dict[Style, str] = {}
    urls: dict[Link, str | None] = {}
    for _, runs in lines:
        styled = False
        link: str | None = None
        for text, style in runs:
            if not text:
                continue
            if hyperlinks:
                url = None
                if style.link is not None:
                    if style.link in urls:
                        url = urls[style.link]
                    else:
                        url = urls[style.link] = safe_url(style.link.uri)
                if url != link:
                    append(f"\x1b]8;;{url}\x1b\\" if url is not None else _OSC8_END)
                    link = url
            sgr = sgrs.get(style)
            if sgr is None:
                sgr = sgrs[style] = _build_sgr(style)
            if sgr:
                append(sgr)
                styled = True
            elif styled:
                append(RESET)
                styled = False
            append(text)
        if link is not None:
            append(_OSC8_END)
        if styled:
            append(RESET)
        append("\n")
    if out:
        out.pop()
    return "".join(out)


def _build_sgr(style: Style) -> str:
    """``CSI 0;...m`` for a style, or "" when it looks like the default."""
    fg, bg, flags = style.fg, style.bg, style.flags
    if fg is not None and bg is not None:
        fg, bg, flags = _readable(fg, bg, flags)
    params = [code for flag, code in _FLAG_CODES if flags & flag]
    if style.underline:
        params.append("4" if style.underline == 1 else f"4:{style.underline}")
    if fg is not None:
        params.append(_colour(fg, 30, 90, "38"))
    if bg is not None:
        params.append(_colour(bg, 40, 100, "48"))
    if style.ul_color is not None and style.underline:
        params.append(_extended("58", style.ul_color, ":"))
    if not params:
        return ""
    return "\x1b[0;" + ";".join(params) + "m"


def _colour(value: int, base: int, bright: int, head: str) -> str:
    """An fg (30/90/38) or bg (40/100/48) colour parameter."""
    if value < 8:
        return str(base + value)
    if value < 16:
        return str(bright + value - 8)
    return _extended(head, value, ";")


def _extended(head: str, value: int, sep: str) -> str:
    """``head;5;n`` / ``head;2;r;g;b``, or with colons ``head:5:n`` /
    ``head:2::r:g:b`` (empty colour-space id, as ITU T.416 places it)."""
    if value & RGB_FLAG:
        r, g, b = value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF
        if sep == ":":
            return f"{head}:2::{r}:{g}:{b}"
        return f"{head};2;{r};{g};{b}"
    return f"{head}{sep}5{sep}{value}"


def _readable(fg: int, bg: int, flags: int) -> tuple[int, int, int]:
    """(fg, bg, flags) to emit for an explicit pair: as they are if every
    way a terminal may draw them keeps MIN_RATIO, else a truecolor pair that
    does (see the module docstring)."""
    if not flags & (BOLD | DIM) and contrast(_rgb(fg), _rgb(bg)) >= MIN_RATIO:
        return fg, bg, flags  # the common case: one way to draw it, readable
    fgs = _drawn(fg, bool(flags & BOLD))
    bgs = (_rgb(bg),)
    fronts, backs = (bgs, fgs) if flags & INVERSE else (fgs, bgs)
    dim = bool(flags & DIM)
    if all(
        contrast(blend(front, back, DIM_ALPHA) if dim else front, back) >= MIN_RATIO
        for front in fronts
        for back in backs
    ):
        return fg, bg, flags
    back = backs[0]
    front = blend(fronts[0], back, DIM_ALPHA) if dim else fronts[0]
    front = ensure_contrast(front, back)
    if flags & INVERSE:
        return RGB_FLAG | back, RGB_FLAG | front, flags & ~DIM
    return RGB_FLAG | front, RGB_FLAG | back, flags & ~DIM


def _drawn(value: int, bold: bool) -> tuple[int, ...]:
    """The colours a foreground may be drawn in: 30-37 with bold may be
    drawn in the bright colour (xterm's and xterm.js's default)."""
    if bold and value < 8:
        return XTERM_16[value], XTERM_16[value + 8]
    return (_rgb(value),)


def _rgb(value: int) -> int:
    if value & RGB_FLAG:
        return value & 0xFFFFFF
    return XTERM_16[value] if value < 16 else palette_rgb(value)
