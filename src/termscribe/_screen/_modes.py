"""Modes, margins and the alternate screen of the ``screen`` interpreter.

``ScreenModes`` is the part of ``ScreenModel`` (see ``_model``) that
handles SM/RM, DECSET/DECRST, DECSTBM and SCOSC/SCORC, and switches to
and from the alternate screen; a mixin that takes the model as a
``ScreenHost``, like the edits of ``_edit``, whose tables here hold its
methods unbound.
"""

from __future__ import annotations

from pyte import modes

from .._controls import SavedCursor
from .._cursor import Params as _Params
from .._cursor import arg
from ._host import Buffer, ScreenHost

__all__ = ["MODE_HANDLERS", "PRIVATE_MODE_HANDLERS", "ScreenModes"]

_TAB = 8


class ScreenModes:
    """Modes, margins and the alternate screen for the screen model (see
    the module docstring): a mixin of ScreenModel, never used alone."""

    # Set by ScreenModel (see there); the switches update them.
    _normal: tuple[Buffer, SavedCursor | None, set[int]] | None
    _left_alt: Buffer | None
    _saved: SavedCursor | None
    _alt_saved: SavedCursor | None

    def decstbm(self: ScreenHost, v: _Params, _last: str) -> None:
        top = arg(v, 0, 1)
        bottom = min(arg(v, 1, self.height), self.height)
        if top >= bottom:
            return
        screen = self.screen
        screen.set_margins(top, bottom)
        screen.cursor.x = 0
        screen.cursor.y = top - 1 if self.origin else 0

    def scosc(self: ScreenHost, v: _Params, _last: str) -> None:
        if not v:
            self._save_cursor()

    def scorc(self: ScreenHost, v: _Params, _last: str) -> None:
        if not v:
            self._restore_cursor()

    def _ansi_mode(self: ScreenHost, v: _Params, on: bool) -> None:
        if 4 in v:
            self.insert = on
            if on:
                self.screen.set_mode(modes.IRM)
            else:
                self.screen.reset_mode(modes.IRM)
        if 20 in v:
            self.lnm = on

    def sm(self: ScreenHost, v: _Params, _last: str) -> None:
        self._ansi_mode(v, True)

    def rm(self: ScreenHost, v: _Params, _last: str) -> None:
        self._ansi_mode(v, False)

    def decset(self: ScreenHost, v: _Params) -> None:
        self.private_mode(v, True)

    def decrst(self: ScreenHost, v: _Params) -> None:
        self.private_mode(v, False)

    def private_mode(self: ScreenHost, v: _Params, on: bool) -> None:
        screen = self.screen
        for value in v:
            mode = value[0] if isinstance(value, tuple) else value
            if mode == 7:
                self.autowrap = on
                if on:
                    screen.set_mode(modes.DECAWM)
                else:
                    screen.reset_mode(modes.DECAWM)
            elif mode == 6:
                self.origin = on
                screen.cursor.x = 0
                screen.cursor.y = self._region()[0] if on else 0
            elif mode in (47, 1047, 1049):
                self._alternate_screen(mode, on)
            elif mode == 45 or mode == 1045:
                self.reverse_wrap = on

    def _alternate_screen(self: ScreenHost, mode: int, on: bool) -> None:
        """Modes 47, 1047, 1049: the alternate screen is blank, with default
        tab stops, whenever it is entered (xterm.js); the scroll region is
        the terminal's, kept across the switch both ways (xterm); 1049 saves
        the cursor (in the screen showing) when set and restores it (from
        the normal screen) when reset, even if nothing switched."""
        screen = self.screen
        if on:
            if mode == 1049:
                self._save_cursor()
            if self._normal is not None:
                return
            self._normal = (screen.buffer, self._saved, screen.tabstops)
            screen.buffer = self._empty_buffer()
            screen.tabstops = set(range(_TAB, self.width, _TAB))
            self._saved = self._alt_saved
        else:
            if self._normal is not None:
                self._left_alt = screen.buffer
                self._alt_saved = self._saved
                screen.buffer, self._saved, screen.tabstops = self._normal
                self._normal = None
            if mode == 1049:
                self._restore_cursor()


#: Control sequences without intermediates, by final character.
MODE_HANDLERS = {
    "r": ScreenModes.decstbm,
    "s": ScreenModes.scosc,
    "u": ScreenModes.scorc,
    "h": ScreenModes.sm,
    "l": ScreenModes.rm,
}

#: Control sequences with the private marker ``?``, by final character.
PRIVATE_MODE_HANDLERS = {"h": ScreenModes.decset, "l": ScreenModes.decrst}
