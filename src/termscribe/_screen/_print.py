"""Printing in the ``screen`` model: text into the cells of its pyte screen.

``ScreenPrinting`` is the part of ``ScreenModel`` that draws printed text,
as xterm does: single cells through pyte's ``draw`` (wrapping at the right
margin, or overwriting the last column with autowrap off), wide characters
two cells each (wrapping early), combining marks and joiners onto the cell
last written, markers in the cells the terminal gives their code point (a
zero-width one decorates a cell, as in the lines model: see ``_rows``), and
DEC line drawing. It takes the model as a ``ScreenHost``: a mixin of
ScreenModel, never used alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lines import DEC_SPECIAL_GRAPHICS
from .._rows import LEAD, MARK_TAG
from .._unicode import CONTEXT, MARK, MAX_COMBINING, char_info, joins, zero_width_marked_run
from ._cells import MAX_PLANNED_RUN

if TYPE_CHECKING:
    from ._host import Row as _Row
    from ._host import ScreenHost

__all__ = ["ScreenPrinting"]


class ScreenPrinting:
    """Printing for the screen model (see the module docstring)."""

    # Set by ScreenModel (see there); printing updates them.
    _held: tuple[int, int] | None
    _wrote: tuple[int, int] | None

    def print(self: ScreenHost, text: str) -> None:
        if self._translate:
            text = text.translate(DEC_SPECIAL_GRAPHICS)
        held = self._held
        if held is not None:
            self._held = None
            cursor = self.screen.cursor
            if held == (cursor.y, cursor.x) and self.autowrap:
                cursor.x = self.width  # the kept pending wrap happens now
        if text.isascii():
            self._draw(text)
        else:
            self._print_unicode(text)
        self._last = text[-1]

    def _print_unicode(self: ScreenHost, text: str) -> None:
        if self._shortcuts:
            # Shortcut: code points of one cell each, whatever surrounds them,
            # make one run of cells, which the loop below would draw at once.
            drawn = self._cells.drawn(text)
            if drawn is not None:
                self._draw(drawn)
                return
            if not self.insert and self._draw_marked(text):
                return
        run: list[str] = []
        # The markers of the run, in order, made once it is drawn: (index
        # in the run, the data of a marker's cell or the code points of the
        # zero-width markers after that cell, whether a cell). With autowrap off a cell past
        # the margin takes the last column: markers are then made one by one.
        fixes: list[tuple[int, str, bool]] = []
        batch = self.autowrap
        marked: list[str] = []  # zero-width markers with no cell in the run before them
        for ch in text:
            if ch < "\x80":
                if marked:
                    self._decorate("".join(marked))
                    marked = []
                run.append(ch)
                continue
            width, kind, stored = char_info(ch)
            if kind == MARK and not width:
                if run and batch:
                    index = len(run) - 1
                    if fixes and fixes[-1][0] == index and not fixes[-1][2]:
                        # More after the same cell: as many as a cell can hold.
                        if len(fixes[-1][1]) <= MAX_COMBINING // 2:
                            fixes[-1] = (index, fixes[-1][1] + ch, False)
                    else:
                        fixes.append((index, ch, False))
                    continue
                if run:
                    self._draw_run(run, fixes)
                    run = []
                    fixes = []
                marked.append(ch)
                continue
            if marked:
                self._decorate("".join(marked))
                marked = []
            if kind == CONTEXT:
                if run:
                    self._draw_run(run, fixes)
                    run = []
                    fixes = []
                if joins(self._prev_char(), ch):
                    self._combine(stored)
                else:
                    self._decorate(ch)
                continue
            if kind == MARK:
                if width == 1 and batch:
                    fixes.append((len(run), MARK_TAG + ch, True))
                    run.append(MARK_TAG)  # pyte's wcwidth gives it one cell
                    continue
                if run:
                    self._draw_run(run, fixes)
                    run = []
                    fixes = []
                self._print_marker(ch, width)
            elif width == 1:
                run.append(stored)
            else:
                if run:
                    self._draw_run(run, fixes)
                    run = []
                    fixes = []
                if width == 0:
                    self._combine(stored)
                else:
                    self._draw_wide(stored)
        if marked:
            self._decorate("".join(marked))
        if run:
            self._draw_run(run, fixes)

    def _draw_marked(self: ScreenHost, text: str) -> bool:
        """Shortcut: text of one-cell characters and markers (see
        CellCache.marked_cells) that fits in the row from the cursor, its
        zero-width markers at its start decorating what they follow (see
        _decorate): its cells are written at once, made once per
        attributes, column and text, as the loop of _print_unicode would
        write them. False, having done nothing, for any other text, or a
        longer one than a row holds (MAX_PLANNED_RUN: a flood goes through
        the loop, once)."""
        if len(text) > MAX_PLANNED_RUN:
            return False
        lead = zero_width_marked_run().match(text).end()  # type: ignore[union-attr]  # matches ""
        rest = text[lead:]
        if not rest:  # zero-width markers only (REP of one, say)
            self._decorate(text)
            return True
        cursor = self.screen.cursor
        x = cursor.x
        cells = self._cells.marked_cells(cursor.attrs, x, rest)
        if cells is None or x + len(cells) > self.width:
            return False
        if lead:
            self._decorate(text[:lead])
        self.screen.buffer[cursor.y].update(cells)
        self._drawn_to(x + len(cells))
        return True

    def _draw_run(self: ScreenHost, run: list[str], fixes: list[tuple[int, str, bool]]) -> None:
        """Draw a run of one-cell characters (see _draw), then make its
        markers in the cells they were drawn in (see _print_unicode): row by
        row, as _draw wraps (autowrap is on)."""
        text = "".join(run)
        if not fixes:
            self._draw(text)
            return
        cursor = self.screen.cursor
        width = self.width
        start = 0
        n = len(text)
        at = 0
        while start < n:
            if cursor.x + n - start <= width:
                end = n
            else:
                if cursor.x >= width:
                    self._wrap()
                end = min(n, start + width - cursor.x)
            self._put(text[start:end])
            row = self.screen.buffer[cursor.y]
            first = cursor.x - (end - start)  # the column of text[start]
            while at < len(fixes) and fixes[at][0] < end:
                index, data, whole = fixes[at]
                at += 1
                x = first + index - start
                cell = row[x]
                if whole:
                    row[x] = cell._replace(data=data)
                else:  # as _decorate does
                    room = (MAX_COMBINING + 1 - len(cell.data)) // 2
                    if room > 0:
                        tagged = "".join(map(MARK_TAG.__add__, data[:room]))
                        row[x] = cell._replace(data=cell.data + tagged)
            start = end

    def _draw(self: ScreenHost, text: str) -> None:
        """Print single-width characters, wrapping at the right margin."""
        cursor = self.screen.cursor
        width = self.width
        if cursor.x + len(text) <= width:
            self._put(text)  # it fits
            return
        if not self.autowrap:
            self._put(text)  # each cell past the margin overwrites the last column
            return
        start = 0
        n = len(text)
        while start < n:
            if cursor.x >= width:
                self._wrap()
            end = start + width - cursor.x
            self._put(text[start:end] if start or end < n else text)
            start = end

    def _draw_wide(self: ScreenHost, ch: str) -> None:
        width = self.width
        if width < 2:
            return
        cursor = self.screen.cursor
        if cursor.x >= width - 1:
            if self.autowrap:
                if cursor.x == width - 1:
                    self._put(" ")
                self._wrap()
            else:
                cursor.x = width - 2
        # Shortcut: the character fits (the cursor is before the last column
        # here) and insert mode is off: pyte's draw would write the two
        # cells its wcwidth gives (the character, then a stub) and move the
        # cursor past them; they are made once per attributes and character.
        if self._shortcuts and not self.insert:
            pair = self._cells.wide_cells(cursor.attrs, ch)
            if pair is not None:
                x = cursor.x
                row = self.screen.buffer[cursor.y]
                row[x], row[x + 1] = pair
                self._drawn_to(x + 2)
                return
        self._pyte_draw(ch)

    def _put(self: ScreenHost, text: str) -> None:
        """pyte's draw, for text that fits (or overwrites the last column).

        Shortcut: when the text fits in the row from the cursor, insert
        mode is off and pyte's own ``wcwidth`` gives each character one
        cell, pyte's draw would write one cell per character, the cursor's
        attributes with that character, and move the cursor to the column
        after the text (no wrap, no shift, nothing dropped: pyte's
        charsets are never changed from the identity). Those cells are
        written at once, made once per attributes and character
        (``CellCache.cells``), instead of pyte's per-character loop.
        """
        screen = self.screen
        cursor = screen.cursor
        x = cursor.x
        end = x + len(text)
        if end <= self.width and self._shortcuts and not self.insert:
            cells = self._cells.cells(cursor.attrs, x, text)
            if cells is not None:
                screen.buffer[cursor.y].update(cells)
                self._drawn_to(end)
                return
        self._pyte_draw(text)

    def _drawn_to(self: ScreenHost, end: int) -> None:
        """After the shortcuts wrote on the cursor row what pyte's draw
        would, up to column ``end``: the cursor there, the row dirty."""
        screen = self.screen
        cursor = screen.cursor
        cursor.x = end
        screen.dirty.add(cursor.y)
        self._wrote = (cursor.y, end)

    def _pyte_draw(self: ScreenHost, text: str) -> None:
        """pyte's draw, the row kept within the width in insert mode."""
        screen = self.screen
        screen.draw(text)
        self._wrote = (screen.cursor.y, screen.cursor.x)
        if self.insert:
            screen.buffer[screen.cursor.y].pop(self.width, None)

    def _wrap(self: ScreenHost) -> None:
        self.screen.cursor.x = 0
        self._index()

    def _prev_char(self: ScreenHost) -> str:
        """The last code point of the cell a zero-width character would join
        (see _combine); "" when it would take a cell of its own."""
        found = self._mark_cell()
        if found is None:
            return ""
        row, x = found
        data = row[x].data
        if data[-2:-1] == MARK_TAG:
            return ">"  # a marker: nothing joins it invisibly
        return data[-1] if data else ""

    def _mark_cell(self: ScreenHost) -> tuple[_Row, int] | None:
        """The row and column of the cell a zero-width character joins, as
        xterm chooses it: after printing (and HT, SGR or a string), the
        cell last written; after anything else, the cell at the cursor, if
        it was ever written or erased. None: the mark takes the cell at the
        cursor."""
        screen = self.screen
        cursor = screen.cursor
        if self._wrote is None:
            row = screen.buffer[cursor.y]
            x = min(cursor.x, self.width - 1) + 1
        else:
            row = screen.buffer[self._wrote[0]]
            x = min(self._wrote[1], self.width)
        while x > 0 and row[x - 1].data == "":  # the right half of a wide character
            x -= 1
        if x == 0 or x - 1 not in row:
            return None
        return row, x - 1

    def _combine(self: ScreenHost, mark: str) -> None:
        """Join a zero-width character to the cell _mark_cell finds; without
        one, the mark takes the cell at the cursor, shown on a space
        (sanitisation: alone, it would join the character to its left in
        the transcript), and the cursor moves on. Joiners and selectors
        reach here only when they join (see _print_unicode)."""
        found = self._mark_cell()
        if found is None:
            self._draw(" ")
            cursor = self.screen.cursor
            row, x = self.screen.buffer[cursor.y], cursor.x - 1
        else:
            row, x = found
        cell = row[x]
        if len(cell.data) <= MAX_COMBINING:
            row[x] = cell._replace(data=cell.data + mark)

    def _print_marker(self: ScreenHost, ch: str, width: int) -> None:
        """Print the marked code point ``ch`` in the ``width`` cells the
        terminal gives it, one or two (see ``_rows``): its first cell holds
        MARK_TAG and ``ch``."""
        if width == 1:
            self._draw(MARK_TAG)  # pyte's wcwidth gives it one cell
        elif self.width < 2:
            return  # no room: nothing is drawn
        else:
            self._draw_wide("\u3000")  # a wide character, then its stub
        found = self._mark_cell()  # the cell just drawn
        if found is not None:
            row, x = found
            row[x] = row[x]._replace(data=MARK_TAG + ch)

    def _decorate(self: ScreenHost, chars: str) -> None:
        """Zero-width marked code points: markers that decorate the cell
        last printed while xterm's ``char_was_written`` holds (see
        _mark_cell), else the cell left of the cursor (a blank if never
        written), or precede cell 0 at column 0 (``LEAD``), as in the lines
        model: the cell they follow. A cell holds MAX_COMBINING code points
        after its character, a marker two (MARK_TAG and its code point);
        those past that are dropped (a screen has no omission count)."""
        found = self._mark_cell() if self._wrote is not None else None
        if found is None:
            cursor = self.screen.cursor
            row = self.screen.buffer[cursor.y]
            x = min(cursor.x, self.width) - 1
            if x < 0:
                x = LEAD
            elif x not in row:
                row[x] = self.blank
            elif x and row[x].data == "" and x - 1 in row:
                x -= 1  # the right half of a wide character
        else:
            row, x = found
        cell = row[x] if x in row else self.blank._replace(data="")
        room = (MAX_COMBINING + 1 - len(cell.data)) // 2
        if room > 0:
            tagged = "".join(map(MARK_TAG.__add__, chars[:room]))
            row[x] = cell._replace(data=cell.data + tagged)
