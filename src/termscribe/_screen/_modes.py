"""Modes, margins and the alternate screen of the ``screen`` interpreter.

Handlers of ``ScreenHost`` (see ``_model``) for SM/RM, DECSET/DECRST,
DECSTBM and SCOSC/SCORC, like the edits of ``_edit``.
"""

from __future__ import annotations

from pyte import modes

from .._cursor import Params as _Params
from .._cursor import arg
from ._host import ScreenHost

__all__ = ["MODE_HANDLERS", "alternate_screen", "private_mode"]

_TAB = 8


def decstbm(m: ScreenHost, v: _Params, _last: str) -> None:
    top = arg(v, 0, 1)
    bottom = min(arg(v, 1, m.height), m.height)
    if top >= bottom:
        return
    screen = m.screen
    screen.set_margins(top, bottom)
    screen.cursor.x = 0
    screen.cursor.y = top - 1 if m.origin else 0


def scosc(m: ScreenHost, v: _Params, _last: str) -> None:
    if not v:
        m._save_cursor()


def scorc(m: ScreenHost, v: _Params, _last: str) -> None:
    if not v:
        m._restore_cursor()


def _ansi_mode(m: ScreenHost, v: _Params, on: bool) -> None:
    if 4 in v:
        m.insert = on
        if on:
            m.screen.set_mode(modes.IRM)
        else:
            m.screen.reset_mode(modes.IRM)
    if 20 in v:
        m.lnm = on


def sm(m: ScreenHost, v: _Params, _last: str) -> None:
    _ansi_mode(m, v, True)


def rm(m: ScreenHost, v: _Params, _last: str) -> None:
    _ansi_mode(m, v, False)


def private_mode(m: ScreenHost, v: _Params, on: bool) -> None:
    screen = m.screen
    for value in v:
        mode = value[0] if isinstance(value, tuple) else value
        if mode == 7:
            m.autowrap = on
            if on:
                screen.set_mode(modes.DECAWM)
            else:
                screen.reset_mode(modes.DECAWM)
        elif mode == 6:
            m.origin = on
            screen.cursor.x = 0
            screen.cursor.y = m._region()[0] if on else 0
        elif mode in (47, 1047, 1049):
            m._alternate_screen(mode, on)
        elif mode == 45 or mode == 1045:
            m.reverse_wrap = on


def alternate_screen(m: ScreenHost, mode: int, on: bool) -> None:
    """Modes 47, 1047, 1049: the alternate screen is blank, with default
    tab stops, whenever it is entered (xterm.js); the scroll region is
    the terminal's, kept across the switch both ways (xterm); 1049 saves
    the cursor (in the screen showing) when set and restores it (from
    the normal screen) when reset, even if nothing switched."""
    screen = m.screen
    if on:
        if mode == 1049:
            m._save_cursor()
        if m._normal is not None:
            return
        m._normal = (screen.buffer, m._saved, screen.tabstops)
        screen.buffer = m._empty_buffer()
        screen.tabstops = set(range(_TAB, m.width, _TAB))
        m._saved = m._alt_saved
    else:
        if m._normal is not None:
            m._left_alt = screen.buffer
            m._alt_saved = m._saved
            screen.buffer, m._saved, screen.tabstops = m._normal
            m._normal = None
        if mode == 1049:
            m._restore_cursor()


#: Control sequences without intermediates, by final character.
MODE_HANDLERS = {"r": decstbm, "s": scosc, "u": scorc, "h": sm, "l": rm}
