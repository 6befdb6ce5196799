"""Control sequences (CSI) of the ``lines`` model: cursor movement, erasing,
editing, scrolling, tab stops and modes.

Each handler takes the model, the parsed parameters and the character REP
would repeat. Decisions are listed in ``_model``; every parameter is clamped
to the window, so no count is ever used to allocate or loop beyond it.

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
    "TAB_WIDTH",
    "alignment_test",
    "back_tab",
    "private_mode",
    "repeat_cost",
    "set_tab",
    "shift_rows",
    "soft_reset",
    "tab",
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


def ed(m: LinesHost, v: Params, _last: str) -> None:
    mode = arg(v, 0, 0)
    rows = m._rows
    if mode == 0:
        erase_line(m, 0)
        _blank_rows(rows, m.y + 1, m.height)
    elif mode == 1:
        _blank_rows(rows, 0, m.y)
        erase_line(m, 1)
    elif mode == 2:
        _blank_rows(rows, 0, m.height)
    # mode 3 (erase scrollback) never touches committed lines.


def _blank_rows(rows: list[Row], start: int, end: int) -> None:
    if not blank(rows[start:end]):
        rows[start:end] = [Row() for _ in range(start, end)]


def el(m: LinesHost, v: Params, _last: str) -> None:
    erase_line(m, arg(v, 0, 0))


def erase_line(m: LinesHost, mode: int) -> None:
    row = m._rows[m.y]
    # With a wrap pending (x == width), EL 0 erases nothing (xterm.js).
    x = m.x
    if mode == 0:
        truncate(row, x)
        row.omitted = 0
    elif mode == 1:
        blank_cells(row, 0, min(x, m._limit - 1) + 1, m._erase_code())
    elif mode == 2:
        m._rows[m.y] = fresh = Row()
        fresh.continued = row.continued


def ech(m: LinesHost, v: Params, _last: str) -> None:
    m._end_pending_wrap()
    x = m.x
    blank_cells(m._rows[m.y], x, x + arg(v, 0, 1), m._erase_code())


def dch(m: LinesHost, v: Params, _last: str) -> None:
    m._end_pending_wrap()
    delete_cells(m._rows[m.y], m.x, arg(v, 0, 1))


def ich(m: LinesHost, v: Params, _last: str) -> None:
    m._end_pending_wrap()
    m._insert_blanks(min(arg(v, 0, 1), m.reach))


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


def il(m: LinesHost, v: Params, _last: str) -> None:
    m._end_pending_wrap()
    screen = m._screen
    if screen.top <= m.y <= screen.bottom:
        shift_rows(screen.rows, m.y, screen.bottom, arg(v, 0, 1))
        m.x = 0


def dl(m: LinesHost, v: Params, _last: str) -> None:
    m._end_pending_wrap()
    screen = m._screen
    if screen.top <= m.y <= screen.bottom:
        shift_rows(screen.rows, m.y, screen.bottom, -arg(v, 0, 1))
        m.x = 0


def su(m: LinesHost, v: Params, _last: str) -> None:
    screen = m._screen
    shift_rows(screen.rows, screen.top, screen.bottom, -arg(v, 0, 1))


def sd(m: LinesHost, v: Params, _last: str) -> None:
    screen = m._screen
    shift_rows(screen.rows, screen.top, screen.bottom, arg(v, 0, 1))


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


def rep(m: LinesHost, v: Params, last: str) -> None:
    if not last:
        return
    count = min(arg(v, 0, 1), MAX_REPEAT)
    if count > 1 and (last in "&<>\"'" or last >= "\x80"):
        count = min(count, max(1, MAX_REPEAT // repeat_cost(last)))
    if m.width is not None:
        room = m.width - m.x
        room = room if room > 0 else m.width
        if last >= "\x80":  # a wide character or a marker: as many as fit
            room //= max(1, char_info(last)[0])
        count = min(count, max(1, room))
    if count:
        m.print(last * count)


def cht(m: LinesHost, v: Params, _last: str) -> None:
    m._tab(arg(v, 0, 1))


def cbt(m: LinesHost, v: Params, _last: str) -> None:
    m._back_tab(arg(v, 0, 1))


def tbc(m: LinesHost, v: Params, _last: str) -> None:
    mode = arg(v, 0, 0)
    if mode == 3:
        m._screen.tabs = set()
    elif mode == 0:
        if m._screen.tabs is None:
            m._screen.tabs = set(range(TAB_WIDTH, m.reach, TAB_WIDTH))
        m._screen.tabs.discard(clamp_x(m))


def decstbm(m: LinesHost, v: Params, _last: str) -> None:
    top = arg(v, 0, 1)
    bottom = arg(v, 1, m.height)
    bottom = min(bottom, m.height)
    if top >= bottom:
        return
    screen = m._screen
    screen.top = top - 1
    screen.bottom = bottom - 1
    m.x = 0
    m.y = screen.top if m.origin else 0


def scosc(m: LinesHost, v: Params, _last: str) -> None:
    if not v:
        m._save_cursor()


def scorc(m: LinesHost, v: Params, _last: str) -> None:
    if not v:
        m._restore_cursor()


def ansi_mode(m: LinesHost, v: Params, on: bool) -> None:
    if 4 in v:
        m.insert = on


def sm(m: LinesHost, v: Params, _last: str) -> None:
    ansi_mode(m, v, True)


def rm(m: LinesHost, v: Params, _last: str) -> None:
    ansi_mode(m, v, False)


def private_mode(m: LinesHost, v: Params, on: bool) -> None:
    for value in v:
        mode = value[0] if isinstance(value, tuple) else value
        if mode == 7:
            m.autowrap = on
        elif mode == 6:
            m.origin = on
            m.x = 0
            m.y = m._screen.top if on else 0
        elif mode in (47, 1047, 1049):
            m._alternate_screen(mode, on)


def soft_reset(m: LinesHost) -> None:
    """DECSTR."""
    m._reset_modes()
    screen = m._screen
    screen.top, screen.bottom = 0, m.height - 1
    screen.saved = None


def tab(m: LinesHost, count: int) -> None:
    """HT and CHT. One HT past the reach moves to the next default stop;
    CHT stays within reach."""
    x = m.x
    last = m._limit - 1
    if x > last:  # a pending wrap stays pending (xterm.js)
        return
    reach = m.reach
    if count > 1 and reach < m._limit:
        last = max(x, reach - 1)
        count = min(count, reach)
    tabs = m._screen.tabs
    for _ in range(min(count, m._limit)):
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
    m.x = min(x, last)


def back_tab(m: LinesHost, count: int) -> None:
    if m.x >= m._limit:  # a pending wrap stays pending (xterm.js)
        return
    x = m.x
    for _ in range(min(count, m._limit)):
        if x <= 0:
            break
        if m._screen.tabs is None:
            x = (x - 1) // TAB_WIDTH * TAB_WIDTH
        else:
            x = max((t for t in m._screen.tabs if t < x), default=0)
    m.x = x


def set_tab(m: LinesHost) -> None:
    if m.x >= m.reach and m.reach < m._limit:
        return  # no tab stop past the reach
    if m._screen.tabs is None:
        m._screen.tabs = set(range(TAB_WIDTH, m.reach, TAB_WIDTH))
    m._screen.tabs.add(min(m.x, m.reach - 1))


def alignment_test(m: LinesHost) -> None:
    """DECALN: fill the window with E, as xterm does."""
    screen = m._screen
    m._fills += 1
    if m._fills <= MAX_ALIGNMENT_FILLS:
        width = min(m.reach, m.width or 80)
        for row in screen.rows:
            row.text = "E" * width
            row.styles = "" if m._code is None else "\x00" * width
            row.marks = None
            row.continued = False
    screen.top, screen.bottom = 0, m.height - 1
    m.x = m.y = 0


HANDLERS: dict[str, Handler] = {
    **CURSOR_HANDLERS,
    "J": ed,
    "K": el,
    "X": ech,
    "P": dch,
    "@": ich,
    "L": il,
    "M": dl,
    "S": su,
    "T": sd,
    "b": rep,
    "I": cht,
    "Z": cbt,
    "g": tbc,
    "r": decstbm,
    "s": scosc,
    "u": scorc,
    "h": sm,
    "l": rm,
}

#: Control sequences with the private marker ``?``, by final.
PRIVATE_HANDLERS: dict[str, Callable[[LinesHost, Params], None]] = {
    "h": lambda m, v: private_mode(m, v, True),  # DECSET
    "l": lambda m, v: private_mode(m, v, False),  # DECRST
}
