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
* Readable whatever the viewer's palette (DESIGN.md invariant 7; the rule
  and its reason are in SECURITY.md, "palette pairs"): a foreground and a
  background that are both set never reach the terminal as palette
  indices, whose colours are the viewer's own (SGR 35;103 is 1.02:1 in
  Solarized Dark).  ``pairs="truecolor"`` (the default) emits the pair as
  24-bit colours, the ones xterm's palette gives them (``XTERM_16``; 16-255
  are xterm's cube and grey ramp), which every terminal draws as they are
  (bold does not brighten them); when they make a pair under
  ``_contrast.MIN_RATIO`` (3:1) as drawn (after SGR 7 and faint), the
  background is kept and the foreground moved toward lighter or darker as
  xterm.js's ``minimumContrastRatio`` does (faint is then folded into that
  colour).  ``pairs="terminal"``, for terminals without 24-bit colour,
  emits neither colour: the text takes the terminal's own default
  foreground and background, the one pair every palette makes readable,
  at normal intensity (faint dropped; bold, SGR 7 and the rest kept).
  When one side is the terminal's default colour, only the viewer's
  terminal knows the pair: the renderer leaves it as the program sent it,
  in both modes (no colour is unreadable on both a dark and a light
  default background, and terminals with a minimum-contrast setting apply
  it there).

Removing the SGR and OSC 8 sequences gives exactly the text transcript.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._rows import Line, Run
from .._style import BLINK, BOLD, DIM, INVERSE, ITALIC, OVERLINE, RGB_FLAG, STRIKE, Link, Style
from ._contrast import MIN_RATIO, blend, contrast, ensure_contrast
from ._theme import palette_rgb
from ._urls import safe_url

__all__ = ["PAIRS", "ansi_lines", "ansi_pairs", "check_pairs", "readable_pair"]

#: How a set foreground on a set background is emitted (see the module
#: docstring): "truecolor" (the default) or "terminal".
PAIRS = ("truecolor", "terminal")

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


def ansi_lines(lines: Iterable[Line], *, hyperlinks: bool = False, pairs: str = "truecolor") -> str:
    """The ANSI of lines, joined with ``\\n`` (no trailing newline); ``pairs``
    is how a set foreground on a set background is emitted (``PAIRS``)."""
    return ansi_pairs(
        [(line.text, line.runs) for line in lines], hyperlinks=hyperlinks, pairs=pairs
    )


def ansi_pairs(
    lines: Iterable[tuple[str, Iterable[Run]]],
    *,
    hyperlinks: bool = False,
    pairs: str = "truecolor",
) -> str:
    """ansi_lines of lines given as their text and runs."""
    check_pairs(pairs)
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
                sgr = sgrs[style] = _build_sgr(style, pairs)
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


def check_pairs(pairs: str) -> None:
    """ValueError unless ``pairs`` is one of ``PAIRS``."""
    if pairs not in PAIRS:
        raise ValueError(f"pairs must be one of {', '.join(PAIRS)}, not {pairs!r}")


def _build_sgr(style: Style, pairs: str) -> str:
    """``CSI 0;...m`` for a style, or "" when it looks like the default."""
    fg: int | None
    bg: int | None
    fg, bg, flags = style.fg, style.bg, style.flags
    if fg is not None and bg is not None:
        fg, bg, flags = readable_pair(fg, bg, flags, pairs)
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


def readable_pair(fg: int, bg: int, flags: int, pairs: str) -> tuple[int | None, int | None, int]:
    """(fg, bg, flags) to emit for a set foreground on a set background (see
    the module docstring): a 24-bit pair that keeps MIN_RATIO as a terminal
    draws it, or with ``pairs="terminal"`` no colour and no faint."""
    if pairs == "terminal":
        return None, None, flags & ~DIM
    front, back = _rgb(fg), _rgb(bg)  # 24-bit: bold never brightens them
    if flags & INVERSE:
        front, back = back, front
    if flags & DIM:
        faint = blend(front, back, DIM_ALPHA)
        if contrast(faint, back) >= MIN_RATIO:
            return _as_emitted(front, back, flags)
        front, flags = faint, flags & ~DIM  # folded into the colour
    return _as_emitted(ensure_contrast(front, back), back, flags)


def _as_emitted(front: int, back: int, flags: int) -> tuple[int, int, int]:
    """The 24-bit (fg, bg) that draw ``front`` on ``back`` under ``flags``."""
    if flags & INVERSE:
        return RGB_FLAG | back, RGB_FLAG | front, flags
    return RGB_FLAG | front, RGB_FLAG | back, flags


def _rgb(value: int) -> int:
    if value & RGB_FLAG:
        return value & 0xFFFFFF
    return XTERM_16[value] if value < 16 else palette_rgb(value)
