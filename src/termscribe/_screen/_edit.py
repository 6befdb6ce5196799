"""Editing control sequences of the ``screen`` interpreter.

The handlers here change the cells of a :class:`ScreenModel` (see
``_model``): erasing (ED, EL, ECH and the selective DECSED, DECSEL),
inserting and deleting characters, lines and columns (ICH, DCH, IL, DL, SU,
SD, SL, SR, DECIC, DECDC), REP and tab stops. They are the methods of
``ScreenEditing``, a mixin of the model that takes it as a ``ScreenHost``;
the tables at the end hold them unbound, called with the model, the
parsed parameters and the last printed character, like the cursor
movements of ``_cursor``. Decisions (xterm, ``ctlseqs``):

* Every count is clamped to the screen (``CSI 99999 SP @`` is 80 columns at
  80 x 24) and no handler allocates in proportion to a parameter: a column
  operation touches each cell of the scroll region at most once; REP
  repeats at most MAX_REPEAT characters (fewer for a character shown as a
  marker, see ``_lines._csi.repeat_cost``).
* REP repeats the last printed character as if it were printed again:
  across the right margin it wraps (xterm; with autowrap off it overwrites
  the last column). A character that prints as cells of its own (one
  cell, U+FFFD or its marker) is printed again: printing writes the cells
  of a row at once. The cells of others (wide characters, marks) are
  copied, not drawn one by one, so a 5-byte REP costs about one printed
  character per row it reaches.
* SL and SR (``CSI n SP @``, ``CSI n SP A``) shift the rows of the scroll
  region left or right by ``n`` columns; DECIC and DECDC (``CSI n ' }``,
  ``CSI n ' ~``) insert or delete ``n`` columns at the cursor column, in the
  rows of the scroll region, when the cursor is inside it. New columns are
  blank in the erase colour. The cursor does not move.
* ED 0 and EL 0 with a pending wrap (the cursor just past the last column)
  erase the last column and end the wrap, as xterm's ``ClearRight`` does: a
  character printed next lands in the last column.
* DCH and ICH that split a wide character blank both of its halves, as
  xterm's ``DeleteChar`` and ``InsertChar`` do (``DamagedCurCells``).
* Markers are cells and decorations of cells like any other (see
  ``_rows``); the markers that precede cell 0 (``LEAD``) go when ECH, EL,
  ED or DCH reach cell 0, or DECDC deletes it, as in the lines model.
* Selective erase: DECSCA (``CSI 1 " q``) marks the characters printed next
  as protected, ``CSI 0 " q`` or ``CSI 2 " q`` as not; DECSED and DECSEL
  (``CSI ? n J``, ``CSI ? n K``) erase like ED and EL but leave protected
  characters. ED, EL and ECH erase every character, protected or not (DEC's
  rule: only the selective erases look at DECSCA). A protected cell is a
  :class:`ProtectedChar`, so the mark moves with the cell through every
  edit pyte makes.
"""

from __future__ import annotations

from pyte.screens import Char

from .._cursor import Params as _Params
from .._cursor import arg, clamp_x
from .._lines import MAX_REPEAT, repeat_cost
from .._rows import LEAD
from .._unicode import MARK, NORMAL, char_info
from ._cells import is_wide
from ._host import Row as _Row
from ._host import ScreenHost

__all__ = [
    "EDIT_HANDLERS",
    "INTERMEDIATE_HANDLERS",
    "PRIVATE_EDIT_HANDLERS",
    "ProtectedChar",
    "ScreenEditing",
]


class ProtectedChar(Char):
    """A cell printed while DECSCA protection was on. pyte copies the
    cursor's attributes with ``_replace``, which keeps this class, so every
    character drawn with it is protected and stays so when it moves."""

    __slots__ = ()


def _protect(attrs: Char, on: bool) -> Char:
    if on:
        return attrs if isinstance(attrs, ProtectedChar) else ProtectedChar(*attrs)
    return Char(*attrs) if isinstance(attrs, ProtectedChar) else attrs


class ScreenEditing:
    """The editing handlers of the screen model (see the module docstring).
    Its methods take the model as a ScreenHost: a mixin of ScreenModel,
    never used alone."""

    # Set by ScreenModel (see there); REP updates it.
    _wrote: tuple[int, int] | None

    # -- erasing -----------------------------------------------------------

    def ed(self: ScreenHost, v: _Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        y = self.screen.cursor.y
        if mode == 0:
            self._end_wrap()
            self._erase_in_row(0)
            self._blank_rows(y + 1, self.height)
        elif mode == 1:
            self._blank_rows(0, y)
            self._erase_in_row(1)
        elif mode == 2:
            self._blank_screen()
        # mode 3 erases scrollback, which a screen does not have.

    def el(self: ScreenHost, v: _Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        if mode == 0:
            self._end_wrap()
        self._erase_in_row(mode)

    def ech(self: ScreenHost, v: _Params, _last: str) -> None:
        self._restrict()
        x = self.screen.cursor.x
        count = min(arg(v, 0, 1), self.width)
        self._erase_span(x, min(x + count, self.width), self.screen.erase_characters, count)

    def decsca(self: ScreenHost, v: _Params, _last: str) -> None:
        """DECSCA: protect (1) or stop protecting (0, 2) what is printed next."""
        mode = arg(v, 0, 0) if v else 0
        if mode in (0, 1, 2):
            cursor = self.screen.cursor
            cursor.attrs = _protect(cursor.attrs, mode == 1)

    def selective_erase(self: ScreenHost, final: str, v: _Params) -> None:
        """DECSED (``CSI ? n J``) and DECSEL (``CSI ? n K``): blank the
        characters that are not protected, in the range ED or EL would erase."""
        mode = arg(v, 0, 0)
        if mode not in (0, 1, 2):
            return
        cursor = self.screen.cursor
        if mode == 0:
            self._end_wrap()
        x = min(cursor.x, self.width - 1)
        y = cursor.y
        width = self.width
        # (row, first column, end column) ranges to erase
        ranges: list[tuple[int, int, int]]
        if mode == 0:
            ranges = [(y, x, width)]
            if final == "J":
                ranges += [(row, 0, width) for row in range(y + 1, self.height)]
        elif mode == 1:
            ranges = [(y, 0, x + 1)]
            if final == "J":
                ranges += [(row, 0, width) for row in range(y)]
        else:
            rows = range(self.height) if final == "J" else range(y, y + 1)
            ranges = [(row, 0, width) for row in rows]
        buffer = self.screen.buffer
        erase = self._erase_char()
        for row_index, start, end in ranges:
            row = buffer.get(row_index)
            if not row:
                continue
            for column in [c for c in row if start <= c < end]:
                if not isinstance(row[column], ProtectedChar):
                    row[column] = erase

    def decsed(self: ScreenHost, v: _Params) -> None:
        self.selective_erase("J", v)

    def decsel(self: ScreenHost, v: _Params) -> None:
        self.selective_erase("K", v)

    # -- characters --------------------------------------------------------

    def _blank_split_wide(self: ScreenHost, row: _Row, start: int, end: int) -> None:
        """Blank a wide character cut by an edit of the columns start..end-1:
        one whose right half is at ``start``, or whose left half is at
        ``end - 1`` (xterm's DamagedCurCells). A right half left behind by a
        character printed over the left one cuts nothing (pyte leaves it; it
        reads as a blank)."""
        blank = self._erase_char()
        for right in (start, end):
            if (
                0 < right < self.width
                and right in row
                and row[right].data == ""
                and is_wide(row[right - 1].data)
            ):
                row[right - 1] = row[right] = blank

    def dch(self: ScreenHost, v: _Params, _last: str) -> None:
        self._restrict()
        screen = self.screen
        cursor = screen.cursor
        count = min(arg(v, 0, 1), self.width - cursor.x)
        if cursor.y in screen.buffer:
            row = screen.buffer[cursor.y]
            self._blank_split_wide(row, cursor.x, cursor.x + count)
            if not cursor.x:
                row.pop(LEAD, None)
        screen.delete_characters(count)

    def ich(self: ScreenHost, v: _Params, _last: str) -> None:
        self._restrict()
        screen = self.screen
        cursor = screen.cursor
        start = cursor.x
        count = min(arg(v, 0, 1), self.width - start)
        row = screen.buffer[cursor.y]
        self._blank_split_wide(row, start, start)
        screen.insert_characters(count)
        row.pop(self.width, None)
        erase = self._erase_char()
        if erase is not self.blank:
            for column in range(start, start + count):
                row[column] = erase

    # -- lines -------------------------------------------------------------

    def _in_region(self: ScreenHost) -> bool:
        top, bottom = self._region()
        return top <= self.screen.cursor.y <= bottom

    def il(self: ScreenHost, v: _Params, _last: str) -> None:
        self._restrict()
        if self._in_region():
            self.screen.insert_lines(min(arg(v, 0, 1), self.height))

    def dl(self: ScreenHost, v: _Params, _last: str) -> None:
        self._restrict()
        if self._in_region():
            self._materialise(self.screen.cursor.y)
            self.screen.delete_lines(min(arg(v, 0, 1), self.height))

    def su(self: ScreenHost, v: _Params, _last: str) -> None:
        cursor = self.screen.cursor
        x, y = cursor.x, cursor.y
        cursor.y = self._region()[0]
        self._materialise(cursor.y)
        self.screen.delete_lines(min(arg(v, 0, 1), self.height))
        cursor.x, cursor.y = x, y

    def sd(self: ScreenHost, v: _Params, _last: str) -> None:
        cursor = self.screen.cursor
        x, y = cursor.x, cursor.y
        cursor.y = self._region()[0]
        self.screen.insert_lines(min(arg(v, 0, 1), self.height))
        cursor.x, cursor.y = x, y

    # -- columns -----------------------------------------------------------

    def _shift_columns(self: ScreenHost, start: int, count: int, insert: bool) -> None:
        """In each row of the scroll region: insert ``count`` blank columns at
        ``start`` (cells pushed past the right margin are lost) or delete
        ``count`` columns there (blank columns come in at the right margin).
        The markers that precede cell 0 stay unless cell 0 is deleted."""
        width = self.width
        count = min(count, width - start)
        if count <= 0:
            return
        top, bottom = self._region()
        buffer = self.screen.buffer
        erase = self._erase_char()
        blank_row = self._cells.full_row(erase, width)
        shift = _Shift(start, count, insert, self._shortcuts, blank_row, erase)
        for y in range(top, bottom + 1):
            row = buffer.get(y)
            if row is None:
                if erase is self.blank:
                    continue
                row = buffer[y]
            lead = row.pop(LEAD, None)
            shift.row(row)
            if lead is not None and (insert or start):
                row[LEAD] = lead

    def sl(self: ScreenHost, v: _Params, _last: str) -> None:
        """SL: the scroll region's rows shift left."""
        if self._in_region():
            self._shift_columns(0, arg(v, 0, 1), insert=False)

    def sr(self: ScreenHost, v: _Params, _last: str) -> None:
        """SR: the scroll region's rows shift right."""
        if self._in_region():
            self._shift_columns(0, arg(v, 0, 1), insert=True)

    def decic(self: ScreenHost, v: _Params, _last: str) -> None:
        """DECIC: insert columns at the cursor column."""
        if self._in_region():
            self._shift_columns(clamp_x(self), arg(v, 0, 1), insert=True)

    def decdc(self: ScreenHost, v: _Params, _last: str) -> None:
        """DECDC: delete columns at the cursor column."""
        if self._in_region():
            self._shift_columns(clamp_x(self), arg(v, 0, 1), insert=False)

    # -- repeat ------------------------------------------------------------

    def rep(self: ScreenHost, v: _Params, last: str) -> None:
        """REP: ``last`` printed again, ``n`` times (at most MAX_REPEAT)."""
        if not last:
            return
        count = min(arg(v, 0, 1), MAX_REPEAT)
        if count > 1 and last >= "\x80":  # a marker costs its length (see repeat_cost)
            count = min(count, max(1, MAX_REPEAT // repeat_cost(last)))
        if count < 3 or _own_cells(last) or self.insert or not self.autowrap or self._translate:
            self.print(last * count)  # printing writes the cells of a row at once
            return
        # Print one, then copy its cells as far as the row allows; the next one
        # printed wraps (or takes the last column) as printing does.
        cursor = self.screen.cursor
        width = self.width
        while count > 0:
            y, start = cursor.y, cursor.x
            self.print(last)
            count -= 1
            x = cursor.x
            if cursor.y != y or x <= start or count == 0:
                continue  # it wrapped or joined the cell before: print the next one
            cells = x - start
            copies = min(count, (width - x) // cells)
            if copies:
                row = self.screen.buffer[y]
                block = [row[column] for column in range(start, x)]
                row.update(zip(range(x, x + copies * cells), block * copies, strict=True))
                cursor.x = x + copies * cells
                count -= copies
                self._wrote = (y, cursor.x)  # the last copy was written last

    # -- tab stops ---------------------------------------------------------

    def cht(self: ScreenHost, v: _Params, _last: str) -> None:
        self._tab(arg(v, 0, 1))

    def cbt(self: ScreenHost, v: _Params, _last: str) -> None:
        self._back_tab(arg(v, 0, 1))

    def tbc(self: ScreenHost, v: _Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        if mode == 3:
            self.screen.clear_tab_stop(3)
        elif mode == 0:
            self.screen.tabstops.discard(clamp_x(self))


class _Shift:
    """What _shift_columns does to one row."""

    __slots__ = ("blank_row", "count", "erase", "fill", "in_order", "insert", "shortcuts", "start")

    def __init__(
        self,
        start: int,
        count: int,
        insert: bool,
        shortcuts: bool,
        blank_row: dict[int, Char],
        erase: Char,
    ) -> None:
        self.start = start
        self.count = count
        self.insert = insert
        self.erase = erase
        self.fill = [erase] * count
        # Shortcuts: a row that holds the erase blank in every column stays
        # as it is; a row with a cell in every column, in column order (as
        # this function leaves a row), has only its columns from ``start``
        # written.
        self.shortcuts = shortcuts
        self.blank_row = blank_row
        self.in_order = list(range(len(blank_row)))

    def row(self, row: _Row) -> None:
        start, count, insert, fill, erase = (
            self.start,
            self.count,
            self.insert,
            self.fill,
            self.erase,
        )
        width = len(self.in_order)
        columns = range(width)
        tail_columns = range(start, width)
        if self.shortcuts and row == self.blank_row:
            return
        if self.shortcuts and len(row) == width and list(row) == self.in_order:
            tail = list(map(row.__getitem__, tail_columns)) if start else list(row.values())
            if insert:
                tail[0:0] = fill
                del tail[width - start :]
            else:
                del tail[:count]
                tail.extend(fill)
            row.update(zip(tail_columns, tail, strict=True))
            return
        # Whole rows as lists: a few C-level passes over the row per edit.
        line = list(map(row.__getitem__, columns))
        if line[0] == erase and line.count(erase) == width:
            return  # blank already: a flood of these costs a pass per row
        if insert:
            line[start:start] = fill
            del line[width:]
        else:
            del line[start : start + count]
            line.extend(fill)
        row.clear()
        row.update(zip(columns, line, strict=True))


def _own_cells(ch: str) -> bool:
    """Whether ``ch`` is printed again as a run whatever surrounds it: one
    cell (as itself or U+FFFD), or a marker (the cells of its code point,
    or none: it decorates the cell before), never joined to the cell
    before as a character or joining the next."""
    if ch < "\x80":
        return True
    width, kind, _ = char_info(ch)
    return kind == MARK or (kind == NORMAL and width == 1)


#: Control sequences without intermediates, by final character.
EDIT_HANDLERS = {
    "J": ScreenEditing.ed,
    "K": ScreenEditing.el,
    "X": ScreenEditing.ech,
    "P": ScreenEditing.dch,
    "@": ScreenEditing.ich,
    "L": ScreenEditing.il,
    "M": ScreenEditing.dl,
    "S": ScreenEditing.su,
    "T": ScreenEditing.sd,
    "b": ScreenEditing.rep,
    "I": ScreenEditing.cht,
    "Z": ScreenEditing.cbt,
    "g": ScreenEditing.tbc,
}

#: Control sequences with one intermediate, by (intermediate, final).
INTERMEDIATE_HANDLERS = {
    (" ", "@"): ScreenEditing.sl,
    (" ", "A"): ScreenEditing.sr,
    ("'", "}"): ScreenEditing.decic,
    ("'", "~"): ScreenEditing.decdc,
    ('"', "q"): ScreenEditing.decsca,
}

#: Control sequences with the private marker ``?``, by final character.
PRIVATE_EDIT_HANDLERS = {"J": ScreenEditing.decsed, "K": ScreenEditing.decsel}
