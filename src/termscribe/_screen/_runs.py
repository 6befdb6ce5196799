"""Bulk forms of the ``screen`` model's operations, around pyte's own path.

* ``print_run``: printable text with SGR sequences inside. What it does is
  a function of the text and of the style before it: the texts it prints,
  each in its style, and the style it ends with. That plan is made once
  (``RunCache.plan``) and, for short runs (the pieces a full-screen program
  redraws, such as ncurses' labels after ``ESC ( B ESC [ m``), remembered.
  pyte's cursor gets the attributes of a style only where text follows or
  the run ends: they are read only when a cell is written or erased, which
  nothing between two SGR sequences does.
* ``line_feeds``: LFs in a row, each as ``execute("\\n")`` does it
  (``ScreenModel._line_feed``), at once: the cursor moves down to the
  bottom margin and the region scrolls once for each LF left
  (``scroll_up``: pyte's ``index`` with the cursor on the bottom margin,
  ``count`` times at once), or from below the region it moves down to the
  last row.

The functions take the model as a ``ScreenHost``, like the edits of
``_edit``; the plans are the model's own (its ``RunCache``).
"""

from __future__ import annotations

from ._host import ScreenHost

__all__ = ["line_feeds", "print_run", "scroll_up"]


def print_run(m: ScreenHost, run: str) -> None:
    """``print_with_sgr(run)`` by its plan (see the module docstring)."""
    _, first, steps, end = m._runs.plan(m.style, run)
    if first:
        m.print(first)
    for style, text in steps:
        m._set_style(style)
        m.print(text)
    if end is not None:
        m._set_style(end)


def line_feeds(m: ScreenHost, count: int) -> None:
    """``count`` LFs at once (see the module docstring)."""
    m._wrote = None
    m._held = None
    m._last = ""
    m._end_wrap()
    cursor = m.screen.cursor
    if m.lf_returns or m.lnm:
        cursor.x = 0
    y = cursor.y
    bottom = m._region()[1]
    if y <= bottom:
        steps = min(count, bottom - y)
        cursor.y = y + steps
        if count > steps:
            scroll_up(m, count - steps)
    else:
        cursor.y = min(y + count, m.height - 1)


def scroll_up(m: ScreenHost, count: int) -> None:
    """pyte's ``index`` ``count`` times with the cursor on the bottom
    margin, at once: each row of the scroll region takes the row ``count``
    below it (made if missing, as pyte's reads of the buffer make it), or a
    new blank row past the bottom margin; the bottom margin's row is
    removed. Rows outside the region stay."""
    screen = m.screen
    buffer = screen.buffer
    top, bottom = m._region()
    screen.dirty.update(range(m.height))
    for y in range(top, bottom):
        source = y + count
        if source <= bottom:
            buffer[y] = buffer[source]
        else:
            buffer.pop(y, None)
            buffer[y] = buffer[y]  # a new row, from the buffer's default
    buffer.pop(bottom, None)
