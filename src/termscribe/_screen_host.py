"""What the handlers of the ``screen`` model see of it.

The screen model (``_screen.ScreenModel``) keeps its cells in a pyte
screen; its editing handlers (``_screen_edit``) and modes (``_screen_modes``)
are functions in modules of their own that take the model as a
``ScreenHost``: the part of it they use, declared here. They import this
interface, never the class, so no module of the model imports another back.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

import pyte
from pyte.screens import Char, StaticDefaultDict

from ._controls import SavedCursor
from ._cursor import CursorHost

__all__ = ["Buffer", "Row", "ScreenHost"]

#: A row of a pyte screen's buffer, and the buffer.
Row = StaticDefaultDict[int, Char]
Buffer = dict[int, Row]


class ScreenHost(CursorHost, Protocol):
    """The screen model as its handlers use it (see ``_screen`` for each),
    cursor movement's part (``x``, ``y``, ``origin``...) included."""

    blank: ClassVar[Char]
    screen: pyte.Screen
    width: int
    autowrap: bool
    insert: bool
    lnm: bool
    reverse_wrap: bool
    _translate: bool
    _saved: SavedCursor | None
    _alt_saved: SavedCursor | None
    _normal: tuple[Buffer, SavedCursor | None, set[int]] | None
    _left_alt: Buffer | None

    def print(self, text: str) -> None: ...
    def _region(self) -> tuple[int, int]: ...
    def _restrict(self) -> None: ...
    def _end_wrap(self) -> None: ...
    def _tab(self, count: int) -> None: ...
    def _back_tab(self, count: int) -> None: ...
    def _save_cursor(self) -> None: ...
    def _restore_cursor(self) -> None: ...
    def _empty_buffer(self) -> Buffer: ...
    def _blank_screen(self) -> None: ...
    def _erase_char(self) -> Char: ...
    def _blank_rows(self, start: int, end: int) -> None: ...
    def _erase_in_row(self, mode: int) -> None: ...
    def _materialise(self, start: int) -> None: ...
    def _alternate_screen(self, mode: int, on: bool) -> None: ...
