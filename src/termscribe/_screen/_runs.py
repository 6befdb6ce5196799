"""Runs the parser hands the ``screen`` model at once, done at once.

The parser hands some runs of events over at once (``Performer.run``,
see ``_performer``); by default a model takes them one by one. The screen
model takes two kinds whole, as shortcuts (``ScreenModel.shortcuts``;
``tests/test_screen_shortcuts.py`` compares each with the events one by
one on generated streams):

* ``TEXT_WITH_SGR``: printable text with SGR sequences inside. What such
  a run does is a function of the run and of the style before it: the
  texts it prints, each in its style, and the style it ends with. That
  plan is made once (``RunCache.plan``) and, for short runs (the pieces a
  full-screen program redraws, such as ncurses' labels after ``ESC ( B
  ESC [ m``), remembered. pyte's cursor gets the attributes of a style
  only where text follows or the run ends: they are read only when a cell
  is written or erased, which nothing between two SGR sequences does.
* ``LINE_ENDS``: CRs and LFs in a row. The cursor ends in column 0 if a
  CR is among them, else as one LF leaves it; the LFs move it down to the
  bottom margin and scroll the region once for each left, all at once
  (``scroll_up``), or, from below the region, move it down to the last row.

The functions take the model as a ``ScreenHost``, like the edits of
``_edit``; the plans are the model's own (its ``RunCache``).
"""

from __future__ import annotations

from ._host import ScreenHost

__all__ = ["line_feed_run", "print_run", "scroll_up"]


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


def line_feed_run(m: ScreenHost, run: str) -> None:
    """``execute`` of each CR and LF of ``run``, at once (see the module
    docstring)."""
    m._wrote = None
    m._held = None
    m._last = ""
    cursor = m.screen.cursor
    feeds = run.count("\n")
    if feeds:
        m._end_wrap()
        if m.lf_returns or m.lnm:
            cursor.x = 0
        y = cursor.y
        bottom = m._region()[1]
        if y <= bottom:
            steps = min(feeds, bottom - y)
            cursor.y = y + steps
            if feeds > steps:
                scroll_up(m, feeds - steps)
        else:
            cursor.y = min(y + feeds, m.height - 1)
    if feeds < len(run):
        cursor.x = 0


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
