"""Bulk forms of the ``screen`` model's operations, around pyte's own path.

``ScreenRuns`` is the part of ``ScreenModel`` that does them, a mixin that
takes the model as a ``ScreenHost``, like the edits of ``_edit``:

* ``print_with_sgr``: printable text with SGR sequences inside. What it
  does is a function of the text and of the style before it: the texts it
  prints, each in its style, and the style it ends with. That plan is made
  once (``RunCache.plan``) and, for short runs (the pieces a full-screen
  program redraws, such as ncurses' labels after ``ESC ( B ESC [ m``),
  remembered; the plans are the model's own (its ``RunCache``). pyte's
  cursor gets the attributes of a style only where text follows or the
  run ends: they are read only when a cell is written or erased, which
  nothing between two SGR sequences does.
* ``line_feeds``: LFs in a row, each as ``execute("\\n")`` does it
  (``ScreenModel._line_feed``), at once: the cursor moves down to the
  bottom margin and the region scrolls once for each LF left
  (``scroll_up``: pyte's ``index`` with the cursor on the bottom margin,
  ``count`` times at once), or from below the region it moves down to the
  last row.
"""

from __future__ import annotations

from ._host import ScreenHost

__all__ = ["ScreenRuns"]


class ScreenRuns:
    """The bulk forms for the screen model (see the module docstring): a
    mixin of ScreenModel, never used alone."""

    # Set by ScreenModel (see there); line feeds update them.
    _held: tuple[int, int] | None
    _wrote: tuple[int, int] | None

    def print_with_sgr(self: ScreenHost, text: str) -> None:
        """Printable text with SGR sequences among it: the prints and SGRs
        of its plan (see the module docstring)."""
        _, first, steps, end = self._runs.plan(self.style, text)
        if first:
            self.print(first)
        for style, part in steps:
            self._set_style(style)
            self.print(part)
        if end is not None:
            self._set_style(end)

    def line_feeds(self: ScreenHost, count: int) -> None:
        """``count`` LFs at once (see the module docstring)."""
        self._wrote = None
        self._held = None
        self._last = ""
        self._end_wrap()
        cursor = self.screen.cursor
        if self.lf_returns or self.lnm:
            cursor.x = 0
        y = cursor.y
        bottom = self._region()[1]
        if y <= bottom:
            steps = min(count, bottom - y)
            cursor.y = y + steps
            if count > steps:
                self.scroll_up(count - steps)
        else:
            cursor.y = min(y + count, self.height - 1)

    def scroll_up(self: ScreenHost, count: int) -> None:
        """pyte's ``index`` ``count`` times with the cursor on the bottom
        margin, at once: each row of the scroll region takes the row ``count``
        below it (made if missing, as pyte's reads of the buffer make it), or a
        new blank row past the bottom margin; the bottom margin's row is
        removed. Rows outside the region stay."""
        screen = self.screen
        buffer = screen.buffer
        top, bottom = self._region()
        screen.dirty.update(range(self.height))
        for y in range(top, bottom):
            source = y + count
            if source <= bottom:
                buffer[y] = buffer[source]
            else:
                buffer.pop(y, None)
                buffer[y] = buffer[y]  # a new row, from the buffer's default
        buffer.pop(bottom, None)
