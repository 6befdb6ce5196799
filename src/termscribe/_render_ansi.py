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

Removing the SGR and OSC 8 sequences gives exactly the text transcript.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._line import Line
from ._style import BLINK, BOLD, DIM, INVERSE, ITALIC, OVERLINE, RGB_FLAG, STRIKE, Link, Style
from ._urls import safe_url

__all__ = ["ansi_lines"]

RESET = "\x1b[0m"
_OSC8_END = "\x1b]8;;\x1b\\"

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
    out: list[str] = []
    append = out.append
    # Per call, never shared (DESIGN.md invariant 8): distinct styles and
    # link targets in one call are few, and bounded by the runs rendered.
    sgrs: dict[Style, str] = {}
    urls: dict[Link, str | None] = {}
    for line in lines:
        styled = False
        link: str | None = None
        for text, style in line.runs:
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
    params = [code for flag, code in _FLAG_CODES if style.flags & flag]
    if style.underline:
        params.append("4" if style.underline == 1 else f"4:{style.underline}")
    if style.fg is not None:
        params.append(_colour(style.fg, 30, 90, "38"))
    if style.bg is not None:
        params.append(_colour(style.bg, 40, 100, "48"))
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
