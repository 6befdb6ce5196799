"""Control sequences (CSI) of the ``lines`` model: cursor movement, erasing,
editing, scrolling, tab stops and modes.

The handlers are the methods of ``LinesCsi``, a mixin of ``LinesModel``
(as ``_print.Printing`` is): each takes the parsed parameters and the
character REP would repeat, and ``HANDLERS`` holds them by final, called as
``handler(model, params, last)``. Decisions are listed in ``_model``; every
parameter is clamped to the window, so no count is ever used to allocate or
loop beyond it.

Output amplification (SECURITY.md): a sequence of a few bytes makes at most
a bounded number of cells. Cursor movements use at most MAX_REACH columns
(see ``_cursor``; HT from past them still moves to the next default tab
stop); CHT moves at most that far, ICH inserts at most that many blank
cells, no tab stop is set past them, DECALN fills at most that many columns
(and only MAX_ALIGNMENT_FILLS times: each fill is a window of cells from
three bytes, which line feeds then commit), and REP repeats at most
MAX_REPEAT output characters (see repeat_cost). So no row that a few bytes
start grows beyond the reach.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .._cursor import (
    CURSOR_HANDLERS,
    Params,
    arg,
    clamp_x,
)
from .._edit import blank_cells, delete_cells, truncate
from .._rows import Row
from .._unicode import NORMAL, char_info, marker_text
from ._host import LinesHost, blank

__all__ = [
    "COSTLY_REPEAT",
    "HANDLERS",
    "MAX_ALIGNMENT_FILLS",
    "MAX_REACH",
    "MAX_REPEAT",
    "PRIVATE_HANDLERS",
    "TAB_WIDTH",
    "LinesCsi",
    "repeat_cost",
    "shift_rows",
]

#: Characters one REP may print. Programs use REP (ncurses' ``rep``) for runs
#: within one screen row, never across rows; a bigger count is clamped so that
#: a 10-byte sequence cannot expand into megabytes of transcript
#: (CVE-2024-37535 was VTE's REP 2^31). With a known width, REP also stops at
#: the right margin instead of wrapping.
MAX_REPEAT = 256

#: Columns a cursor movement may use in rows wider than this, or unbounded
#: (``columns=None``; see ``_cursor``). xterm clamps a movement to the screen
#: width; an unbounded row has none, and ``CSI 65535 C x`` would make 65 536
#: cells from 10 bytes, ``x ESC D`` repeated a staircase of rows each padded
#: up to the cursor's column (SECURITY.md, "output amplification"). With 160,
#: a row that three bytes start (``x ESC D``) is at most 161 characters: 64
#: output characters per input byte hold even for HTML. Text printed past
#: the reach stays, up to MAX_LINE_CELLS; only movements are limited.
MAX_REACH = 160

#: Default tab stops: every 8 columns.
TAB_WIDTH = 8

#: DECALNs that fill the window, per transcript (see ``_model``).
MAX_ALIGNMENT_FILLS = 4

Handler = Callable[[LinesHost, Params, str], None]


def _blank_rows(rows: list[Row], start: int, end: int) -> None:
    if not blank(rows[start:end]):
        rows[start:end] = [Row() for _ in range(start, end)]


def shift_rows(rows: list[Row], start: int, end: int, count: int) -> None:
    """Move rows [start, end] down by ``count`` (up when negative); rows
    moved out of the range are lost and blank rows fill the gap."""
    count = max(-(end - start + 1), min(count, end - start + 1))
    if count == 1:  # RI at the top, IL 1: the usual cases
        rows.insert(start, Row())
        del rows[end + 1]
        return
    if blank(rows[start : end + 1]):
        return  # blank rows moved over blank rows
    if count > 0:
        rows[start : end + 1] = [Row() for _ in range(count)] + rows[start : end + 1 - count]
    elif count < 0:
        rows[start : end + 1] = rows[start - count : end + 1] + [Row() for _ in range(-count)]


#: A REP after a printable ASCII character that HTML escapes (the lines that
#: the parser groups have no other).
COSTLY_REPEAT = re.compile("[&<>\"']\x1b\\[[0-9]*b")


def repeat_cost(ch: str) -> int:
    """Output characters one copy of ``ch`` can cost: its HTML escape (6 for
    ``'``), or its marker's (14 for ``<U+202E>``); REP repeats at most
    MAX_REPEAT of them."""
    from html import escape  # only here: a text transcript need not load it

    if ch < "\x80":
        return len(escape(ch))
    if char_info(ch)[1] == NORMAL:
        return 1
    return len(escape(marker_text(ch)))


class LinesCsi:
    """The control sequences of the lines model, and the tab stops, modes
    and alignment test they share with escape sequences (see the module
    docstring). Its methods take the model as a LinesHost: a mixin of
    LinesModel, never used alone. The handlers (``ed``, ``el``...) take
    the parsed parameters and the character REP would repeat; ``HANDLERS``
    holds them by final."""

    # -- erasing and editing ---------------------------------------------------

    def ed(self: LinesHost, v: Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        rows = self._rows
        if mode == 0:
            self._erase_line(0)
            _blank_rows(rows, self.y + 1, self.height)
        elif mode == 1:
            _blank_rows(rows, 0, self.y)
            self._erase_line(1)
        elif mode == 2:
            _blank_rows(rows, 0, self.height)
        # mode 3 (erase scrollback) never touches committed lines.

    def el(self: LinesHost, v: Params, _last: str) -> None:
        self._erase_line(arg(v, 0, 0))

    def _erase_line(self: LinesHost, mode: int) -> None:
        row = self._rows[self.y]
        # With a wrap pending (x == width), EL 0 erases nothing (xterm.js).
        x = self.x
        if mode == 0:
            truncate(row, x)
            row.omitted = 0
        elif mode == 1:
            blank_cells(row, 0, min(x, self._limit - 1) + 1, self._erase_code())
        elif mode == 2:
            self._rows[self.y] = fresh = Row()
            fresh.continued = row.continued

    def ech(self: LinesHost, v: Params, _last: str) -> None:
        self._end_pending_wrap()
        x = self.x
        blank_cells(self._rows[self.y], x, x + arg(v, 0, 1), self._erase_code())

    def dch(self: LinesHost, v: Params, _last: str) -> None:
        self._end_pending_wrap()
        delete_cells(self._rows[self.y], self.x, arg(v, 0, 1))

    def ich(self: LinesHost, v: Params, _last: str) -> None:
        self._end_pending_wrap()
        self._insert_blanks(min(arg(v, 0, 1), self.reach))

    # -- scrolling -------------------------------------------------------------

    def il(self: LinesHost, v: Params, _last: str) -> None:
        self._end_pending_wrap()
        screen = self._screen
        if screen.top <= self.y <= screen.bottom:
            shift_rows(screen.rows, self.y, screen.bottom, arg(v, 0, 1))
            self.x = 0

    def dl(self: LinesHost, v: Params, _last: str) -> None:
        self._end_pending_wrap()
        screen = self._screen
        if screen.top <= self.y <= screen.bottom:
            shift_rows(screen.rows, self.y, screen.bottom, -arg(v, 0, 1))
            self.x = 0

    def su(self: LinesHost, v: Params, _last: str) -> None:
        screen = self._screen
        shift_rows(screen.rows, screen.top, screen.bottom, -arg(v, 0, 1))

    def sd(self: LinesHost, v: Params, _last: str) -> None:
        screen = self._screen
        shift_rows(screen.rows, screen.top, screen.bottom, arg(v, 0, 1))

    def decstbm(self: LinesHost, v: Params, _last: str) -> None:
        top = arg(v, 0, 1)
        bottom = arg(v, 1, self.height)
        bottom = min(bottom, self.height)
        if top >= bottom:
            return
        screen = self._screen
        screen.top = top - 1
        screen.bottom = bottom - 1
        self.x = 0
        self.y = screen.top if self.origin else 0

    # -- REP -------------------------------------------------------------------

    def rep(self: LinesHost, v: Params, last: str) -> None:
        if not last:
            return
        count = min(arg(v, 0, 1), MAX_REPEAT)
        if count > 1 and (last in "&<>\"'" or last >= "\x80"):
            count = min(count, max(1, MAX_REPEAT // repeat_cost(last)))
        if self.width is not None:
            room = self.width - self.x
            room = room if room > 0 else self.width
            if last >= "\x80":  # a wide character or a marker: as many as fit
                room //= max(1, char_info(last)[0])
            count = min(count, max(1, room))
        if count:
            self.print(last * count)

    # -- tab stops -------------------------------------------------------------

    def cht(self: LinesHost, v: Params, _last: str) -> None:
        self._tab(arg(v, 0, 1))

    def cbt(self: LinesHost, v: Params, _last: str) -> None:
        self._back_tab(arg(v, 0, 1))

    def tbc(self: LinesHost, v: Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        screen = self._screen
        if mode == 3:
            screen.tabs = set()
        elif mode == 0:
            if screen.tabs is None:
                screen.tabs = set(range(TAB_WIDTH, self.reach, TAB_WIDTH))
            screen.tabs.discard(clamp_x(self))

    def _tab(self: LinesHost, count: int) -> None:
        """HT and CHT. One HT past the reach moves to the next default stop;
        CHT stays within reach."""
        x = self.x
        limit = self._limit
        last = limit - 1
        if x > last:  # a pending wrap stays pending (xterm.js)
            return
        reach = self.reach
        if count > 1 and reach < limit:
            last = max(x, reach - 1)
            count = min(count, reach)
        tabs = self._screen.tabs
        for _ in range(min(count, limit)):
            if x >= last:
                break
            if tabs is None:
                x = (x // TAB_WIDTH + 1) * TAB_WIDTH
            else:
                # Set stops are within reach (see _set_tab).
                after = min((t for t in tabs if t > x), default=max(x, reach - 1))
                if after == x:
                    break
                x = after
        self.x = min(x, last)

    def _back_tab(self: LinesHost, count: int) -> None:
        """CBT."""
        limit = self._limit
        if self.x >= limit:  # a pending wrap stays pending (xterm.js)
            return
        x = self.x
        tabs = self._screen.tabs
        for _ in range(min(count, limit)):
            if x <= 0:
                break
            if tabs is None:
                x = (x - 1) // TAB_WIDTH * TAB_WIDTH
            else:
                x = max((t for t in tabs if t < x), default=0)
        self.x = x

    def _set_tab(self: LinesHost) -> None:
        """HTS."""
        if self.x >= self.reach and self.reach < self._limit:
            return  # no tab stop past the reach
        screen = self._screen
        if screen.tabs is None:
            screen.tabs = set(range(TAB_WIDTH, self.reach, TAB_WIDTH))
        screen.tabs.add(min(self.x, self.reach - 1))

    # -- saved cursor and modes ------------------------------------------------

    def scosc(self: LinesHost, v: Params, _last: str) -> None:
        if not v:
            self._save_cursor()

    def scorc(self: LinesHost, v: Params, _last: str) -> None:
        if not v:
            self._restore_cursor()

    def sm(self: LinesHost, v: Params, _last: str) -> None:
        if 4 in v:
            self.insert = True

    def rm(self: LinesHost, v: Params, _last: str) -> None:
        if 4 in v:
            self.insert = False

    def decset(self: LinesHost, v: Params) -> None:
        self._private_mode(v, True)

    def decrst(self: LinesHost, v: Params) -> None:
        self._private_mode(v, False)

    def _private_mode(self: LinesHost, v: Params, on: bool) -> None:
        for value in v:
            mode = value[0] if isinstance(value, tuple) else value
            if mode == 7:
                self.autowrap = on
            elif mode == 6:
                self.origin = on
                self.x = 0
                self.y = self._screen.top if on else 0
            elif mode in (47, 1047, 1049):
                self._alternate_screen(mode, on)

    def _soft_reset(self: LinesHost) -> None:
        """DECSTR."""
        self._reset_modes()
        screen = self._screen
        screen.top, screen.bottom = 0, self.height - 1
        screen.saved = None

    def _alignment_test(self: LinesHost) -> None:
        """DECALN: fill the window with E, as xterm does."""
        screen = self._screen
        self._fills += 1
        if self._fills <= MAX_ALIGNMENT_FILLS:
            width = min(self.reach, self.width or 80)
            for row in screen.rows:
                row.text = "E" * width
                row.styles = "" if self._code is None else "\x00" * width
                row.marks = None
                row.continued = False
        screen.top, screen.bottom = 0, self.height - 1
        self.x = self.y = 0


HANDLERS: dict[str, Handler] = {
    **CURSOR_HANDLERS,
    "J": LinesCsi.ed,
    "K": LinesCsi.el,
    "X": LinesCsi.ech,
    "P": LinesCsi.dch,
    "@": LinesCsi.ich,
    "L": LinesCsi.il,
    "M": LinesCsi.dl,
    "S": LinesCsi.su,
    "T": LinesCsi.sd,
    "b": LinesCsi.rep,
    "I": LinesCsi.cht,
    "Z": LinesCsi.cbt,
    "g": LinesCsi.tbc,
    "r": LinesCsi.decstbm,
    "s": LinesCsi.scosc,
    "u": LinesCsi.scorc,
    "h": LinesCsi.sm,
    "l": LinesCsi.rm,
}

#: Control sequences with the private marker ``?``, by final.
PRIVATE_HANDLERS: dict[str, Callable[[LinesHost, Params], None]] = {
    "h": LinesCsi.decset,
    "l": LinesCsi.decrst,
}
