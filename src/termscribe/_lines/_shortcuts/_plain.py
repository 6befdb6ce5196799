"""A long run of plain lines in the ``lines`` model, without splitting it.

The body of an application log is one ``LINES`` run (see ``Performer.run``) of lines of plain
ASCII text. Done as other whole lines are (``_grouped.text_lines``),
the run is split into a string per line only for those strings to be
joined again into blocks of committed lines. Here the lines that scroll
through the window are committed as slices of the run instead
(``CommittedLines.extend_plain``).

Under its precondition (see the package docstring; ``plain_lines`` checks
it and does nothing otherwise) the run is printable ASCII and line ends (a
LINES run holds printable text, SGR and line ends only), and each line is
one run of single cells in the default style, committed as its text, as a
row of it would be.

The run is done in three parts, each of whole lines, which is the same as
doing it at once (every grouped event is the same as its lines one by
one):

1. The first ``rows`` lines as other whole lines: afterwards the cursor is
   on a fresh bottom row at column 0 (the last of them scrolled the window
   up), or the rest is done that way too.
2. The lines that follow but the last ``rows`` - 1: one by one, each would
   be printed on the bottom row and scroll the window up, which commits
   the rows above the cursor, then these lines in turn. So the window
   scrolls up ``rows`` - 1 times first (line feeds on the bottom row,
   which commit the rows above the cursor as they always do), the cursor
   goes to the top of the now blank window, and the lines are committed
   as slices of the run.
3. The last ``rows`` - 1 lines as other whole lines, from the top row of
   the blank window down to the bottom row, where lines done one by one
   would have left them.
"""

from __future__ import annotations

from ..._rows import MAX_LINE_CELLS, Line
from .._host import LinesHost
from ._grouped import split_lines, text_lines

__all__ = ["PLAIN_MIN_CHARS", "lines_fit", "plain_lines"]

#: Runs shorter than this are done as other whole lines: the shortcut pays
#: for its fixed work only on long runs.
PLAIN_MIN_CHARS = 32768


def plain_lines(m: LinesHost, run: str) -> bool:
    """Do a LINES run as the module docstring says, if its
    precondition holds; else do nothing and return False."""
    screen = m._screen
    if not (
        len(run) >= PLAIN_MIN_CHARS
        and m._code in (None, "\x00")
        and screen is m._normal
        and not screen.top
        and screen.bottom == m.height - 1
        and m.width is None
        and not m.insert
        and not m._translate
        and "\x1b" not in run
        and "\t" not in run
        and run.isascii()
    ):
        return False
    if "\r" in run:
        run = run.replace("\r", "")  # CRs before LF do nothing here LF does not
    if Line.needs_seal(run) or not lines_fit(run, MAX_LINE_CELLS):
        return False
    # 1. The first lines.
    rows = m.height
    head = _after_lines(run, rows)
    if head < 0:
        text_lines(m, *split_lines(m, run))
        return True
    text_lines(m, *split_lines(m, run[:head]))
    # The start of the last rows - 1 lines (the run ends with LF).
    tail = len(run) - 1
    for _ in range(rows - 1):
        tail = run.rfind("\n", head, tail)
        if tail < 0:
            break
    cursor = m._rows[m.y]
    if tail < head or m.y != screen.bottom or m.x or cursor.text or cursor.omitted:
        text_lines(m, *split_lines(m, run[head:]))
        return True
    # 2. The lines that scroll through the window.
    for _ in range(rows - 1):
        m._index()
    m.y = screen.top
    m.committed.extend_plain(run, head, tail)
    # 3. The last lines.
    if tail + 1 < len(run):
        text_lines(m, *split_lines(m, run[tail + 1 :]))
    return True


def _after_lines(run: str, count: int) -> int:
    """Where the ``count`` first lines of ``run`` end (after their LFs), or
    -1 if it has no more lines than that."""
    end = 0
    for _ in range(count):
        end = run.find("\n", end) + 1
        if not end:
            return -1
    return end if end < len(run) else -1


def lines_fit(text: str, limit: int) -> bool:
    """Whether every line of ``text`` (lines joined with ``\\n``) has at
    most ``limit`` code points: from each position, the last LF within
    ``limit`` + 1 code points is found by a search backwards, which stops
    at once in lines shorter than that, and the next search starts after
    it."""
    start = 0
    while len(text) - start > limit:
        end = text.rfind("\n", start, start + limit + 1)
        if end < 0:
            return False
        start = end + 1
    return True
