"""Cursor movement by control sequences, shared by the lines and screen models.

Both models expose their cursor (``x``, ``y``), window height, number of
columns, origin mode and scroll region; these functions are what CUU, CUD,
CUF, CUB, CNL, CPL, CHA/HPA, HPR, VPA, VPR and CUP/HVP do to them, as xterm
defines it. Every parameter is clamped to the window: CUP 10^9 lands on the
last row. A cursor just past the last column (a pending wrap) is first put
back onto it.

Each model also has a *reach*: the number of columns a cursor movement may
use, which is its number of columns except in the ``lines`` model's wide or
unbounded rows (see ``_lines._csi.MAX_REACH``). A movement never takes the
cursor right of column ``reach - 1`` unless it is already there (printing
does), and a movement to another row (or staying on it: CUU at the top)
puts it at column ``reach - 1`` at most. So a cursor movement, a few bytes,
can never make a row of blank cells longer than the reach.
"""

from __future__ import annotations

from typing import Protocol

__all__ = [
    "CURSOR_HANDLERS",
    "CursorHost",
    "Params",
    "arg",
    "cha",
    "clamp_x",
    "cnl",
    "cpl",
    "cub",
    "cud",
    "cuf",
    "cup",
    "cuu",
    "goto_row",
    "vpa",
    "vpr",
]

Params = tuple[int | tuple[int, ...], ...]


class CursorHost(Protocol):
    x: int
    y: int
    origin: bool
    height: int
    #: Columns a cursor movement may use (at most ``columns``; see above).
    reach: int

    @property
    def columns(self) -> int:
        """Cells per row (the right margin is ``columns - 1``)."""
        ...

    def region(self) -> tuple[int, int]:
        """The scroll region's top and bottom rows."""
        ...


def arg(values: Params, index: int, default: int) -> int:
    """Parameter ``index`` (its first sub-parameter), ``default`` when
    missing or 0."""
    if index >= len(values):
        return default
    value = values[index]
    if isinstance(value, tuple):
        value = value[0]
    return value or default


def clamp_x(m: CursorHost) -> int:
    return min(m.x, m.columns - 1)


def _count(v: Params) -> int:
    """The first parameter as a count (1 when missing or 0)."""
    first = v[0] if v else 1
    return first if first.__class__ is int and first else arg(v, 0, 1)


def _end_wrap(m: CursorHost) -> None:
    """After a move to another row: a pending wrap ends, and the cursor is
    within reach."""
    reach = m.reach
    if m.x >= reach:
        m.x = reach - 1


def _right_limit(m: CursorHost) -> int:
    """The rightmost column a horizontal movement may go to: the last one
    within reach, or the cursor's own if it is further right."""
    x = clamp_x(m)
    reach = m.reach - 1
    return x if x > reach else reach


def cuu(m: CursorHost, v: Params, _last: str) -> None:
    top = m.region()[0]
    y = m.y
    m.y = max(top if y >= top else 0, y - _count(v))
    _end_wrap(m)


def cud(m: CursorHost, v: Params, _last: str) -> None:
    bottom = m.region()[1]
    y = m.y
    m.y = min(bottom if y <= bottom else m.height - 1, y + _count(v))
    _end_wrap(m)


def cuf(m: CursorHost, v: Params, _last: str) -> None:
    m.x = min(_right_limit(m), clamp_x(m) + _count(v))


def cub(m: CursorHost, v: Params, _last: str) -> None:
    m.x = max(0, clamp_x(m) - _count(v))


def cnl(m: CursorHost, v: Params, last: str) -> None:
    cud(m, v, last)
    m.x = 0


def cpl(m: CursorHost, v: Params, last: str) -> None:
    cuu(m, v, last)
    m.x = 0


def cha(m: CursorHost, v: Params, _last: str) -> None:
    column = arg(v, 0, 1) - 1
    if column >= m.reach:
        column = min(column, _right_limit(m))
    m.x = column


def vpa(m: CursorHost, v: Params, _last: str) -> None:
    goto_row(m, arg(v, 0, 1))
    _end_wrap(m)


def vpr(m: CursorHost, v: Params, _last: str) -> None:
    m.y = min(m.height - 1, m.y + arg(v, 0, 1))
    _end_wrap(m)


def cup(m: CursorHost, v: Params, _last: str) -> None:
    if len(v) == 2 and not m.origin:  # row and column, the usual case
        row, column = v
        if row.__class__ is int and column.__class__ is int:
            m.y = min(m.height, row or 1) - 1
            m.x = min(m.reach, column or 1) - 1
            return
    goto_row(m, arg(v, 0, 1))
    m.x = min(m.reach, arg(v, 1, 1)) - 1


def goto_row(m: CursorHost, row: int) -> None:
    """Row ``row`` (1-based), relative to the scroll region in origin mode."""
    if m.origin:
        top, bottom = m.region()
        m.y = min(bottom, top + row - 1)
    else:
        m.y = min(m.height, row) - 1


#: The cursor-movement control sequences by final character.
CURSOR_HANDLERS = {
    "A": cuu,
    "B": cud,
    "C": cuf,
    "D": cub,
    "E": cnl,
    "F": cpl,
    "G": cha,
    "`": cha,  # HPA
    "a": cuf,  # HPR
    "d": vpa,
    "e": vpr,
    "H": cup,
    "f": cup,  # HVP
}
