"""Output bounded by input (DESIGN.md invariant 6; SECURITY.md, "output
amplification").

A transcript of ``n`` input bytes is at most ``OUTPUT_PER_BYTE * n`` plus a
constant that depends only on the options (``output_constant``: the window
and, for HTML, the document around it) characters long, in every mode and
format. Two mechanisms keep it there:

* Cells: the interpreters make a bounded number of cells per byte
  (``_lines._csi``: cursor movements reach at most MAX_REACH columns, ICH,
  CHT and DECALN are limited the same way, REP repeats at most MAX_REPEAT
  output characters). The worst stream (``x ESC D`` repeated, each row
  padded up to the last column within reach) makes about 54 characters of
  text per byte; a screen holds at most its size.
* Markup: HTML and ANSI write a style's markup again for every run and line
  it covers, however few bytes paid for it: a 2 000-character OSC 8 link once,
  then ``x LF`` repeated, costs two bytes and 4 000 characters of HTML per
  line. ``styled_within`` renders as usual and, only when that exceeds the
  limit, again with the lines from the first one whose markup would pass the
  limit on shown unstyled (their text unchanged: the visible text still
  equals the text transcript; styles and links are dropped).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ._rows import EMPTY_LINE, Line
from ._style import DEFAULT

__all__ = ["OUTPUT_PER_BYTE", "output_constant", "styled_within"]

#: Output characters a transcript may have per input byte (beyond the constant).
OUTPUT_PER_BYTE = 64

# The constant: a document head (the standalone HTML stylesheet is a few KB)
# and marker lines, plus, per cell of the window a model can fill without
# input (the screen, the alternate screen's frame), the characters it may
# cost: itself, an escape or its share of a run's markup.
_FIXED = 16_384
_PER_WINDOW_CELL = 16


def output_constant(columns: int, rows: int) -> int:
    """The constant of a transcript whose cursor movements reach ``columns``
    columns of ``rows`` rows."""
    return _FIXED + _PER_WINDOW_CELL * rows * (columns + 1)


def _plain(line: Line) -> Line:
    if len(line.runs) == 1 and line.runs[0][1] is DEFAULT:
        return line
    return Line(((line.text, DEFAULT),), line.text) if line.text else EMPTY_LINE


def styled_within(
    lines: Sequence[Line],
    limit: int,
    render: Callable[[list[Line]], str],
    frame: int,
    rendered: str | None = None,
) -> str:
    """``render(lines)`` if it is at most ``limit - frame`` characters (``frame``:
    what goes around the lines); else the lines rendered with styles up to
    the first line whose markup would take the output past the limit, and
    the rest unstyled. ``rendered``: ``render(lines)``, if the caller has it."""
    out = render(list(lines)) if rendered is None else rendered
    if len(out) + frame <= limit:
        return out
    plain = [_plain(line) for line in lines]
    # Each line's HTML (or ANSI) is its own (see html_lines), joined by "\n".
    room = limit - frame - len(render(plain))
    kept: list[Line] = []
    for index, line in enumerate(lines):
        if line is not plain[index]:
            extra = len(render([line])) - len(render([plain[index]]))
            if extra > room:
                kept.extend(plain[index:])
                break
            room -= extra
        kept.append(line)
    return render(kept)
