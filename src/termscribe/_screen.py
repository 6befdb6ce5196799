"""The ``screen`` interpreter: the final visible screen, emulated with pyte.

termscribe's parser drives a ``pyte.Screen`` (never pyte's ``Stream``: it is
slow, passes OSC/DCS payloads on and raises on valid input such as
``CSI > 4 ; 2 m``). Text reaches pyte already sanitised exactly as in the
``lines`` model (markers for bidi and invisible characters, U+FFFD for
noncharacters, the joiner rule, the combining-mark cap), and every value
pyte receives is validated and clamped here: pyte is never given anything
that could make it raise, allocate in proportion to a parameter, or act on
the host. The screen is ``columns`` x ``rows`` (80 x 24 by default).

The ``lines`` model's decisions hold here too, xterm (``@xterm/headless``
with ``convertEol``) being the reference: a bare LF (and VT, FF) returns to
column 0; BS never erases; cursor addressing clamps to the screen; REP is
capped at MAX_REPEAT and stops at the right margin; window operations,
reports and queries do nothing; DEC line drawing (``ESC ( 0``) is
translated before pyte sees it; a combining mark with no previous cell on
its row is shown on a space.

What pyte does (its methods are called): printing narrow and wide
characters with their attributes (``draw``: replace and insert mode, the
pending wrap at the right margin, overwriting the last column without
autowrap), SGR, erasing within a row (EL, ECH, the cursor row of ED),
ICH/DCH/IL/DL, scrolling within the margins (``index`` /
``reverse_index``), margins, tab stops, RIS, DECALN.

What is done here instead, and why:

* Wrapping: text is cut at the right margin and the line feed is ours,
  because pyte's moves a cursor below the scroll region up into it.
* LF, IND, RI and cursor movement (CUU/CUD/CUF/CUB, CNL/CPL, CHA/HPA/HPR,
  VPA/VPR, CUP/HVP): pyte clamps a cursor outside the scroll region into it,
  and its CUP/VPA in origin mode ignore or assert on some positions.
* Combining marks and joiners are added to the previous cell here: pyte's
  ``draw`` stops at the first zero-width character that is not a combining
  mark (dropping the rest of the text), NFC-normalises (quadratic on a mark
  storm) and may join to the row above.
* A wide character that does not fit in the last column wraps (pyte lets it
  stick out of the screen).
* ED replaces whole rows (ED 2 the whole buffer) instead of erasing cell by
  cell, so that repeating ``CSI 2J`` costs little; ED 3 erases only
  scrollback (nothing). REP of a printable ASCII character prints it once
  and copies its cell; REP of a character shown as a marker repeats it
  fewer times, as in the ``lines`` model (see ``_lines_csi.repeat_cost``).
* DL/SU first create the rows they move: pyte's ``delete_lines`` leaves a
  row in place when the row below it was never written. A cell ICH or an
  insert-mode print pushes past the right margin is dropped (pyte keeps it
  one column out of view, where DCH would pull it back).
* SU/SD are DL/IL at the top of the scroll region (pyte has neither), with
  the cursor put back.
* DECSC/DECRC keep one saved cursor per screen, as a terminal does (pyte
  keeps an unbounded stack).
* The alternate screen (modes 47, 1047, 1049) is a second pyte buffer
  swapped in, with its own margins, saved cursor and tab stops; it is blank
  whenever it is entered (xterm.js; the ``lines`` model, like xterm, keeps
  its content for 47 and 1047).
* DECALN fills the screen only MAX_ALIGNMENT_FILLS times per transcript, as
  in the ``lines`` model: pyte rewrites every cell, so a flood of them would
  cost a screen of work per three bytes (later ones reset the margins and
  home the cursor only).
* A pending wrap (the cursor just past the last column) ends, the cursor
  moving to the last column, before IND, RI, ICH, DCH, ECH, IL and DL and
  after DECRC, and survives HT, CHT and CBT, as in xterm.js.
* Modes: only insert (4), autowrap (?7) and origin (?6) change anything;
  pyte's 132-column (?3) and reverse-video (?5) handling are never invoked.
* OSC 8 links are dropped (their text stays): pyte's cells have no room for
  them, and a parallel map would have to replay every pyte edit.

Output (see ``_screen_cells``): the rows of the visible screen, each
right-trimmed of spaces, blank rows at the bottom left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import ClassVar

import pyte
from pyte import modes
from pyte.screens import Char, Margins, StaticDefaultDict

from ._controls import Controls
from ._controls import SavedCursor as _Saved
from ._cursor import CURSOR_HANDLERS, arg, clamp_x
from ._line import Line
from ._lines import DEC_SPECIAL_GRAPHICS, MAX_REPEAT
from ._lines_csi import MAX_ALIGNMENT_FILLS, repeat_cost
from ._performer import Performer
from ._screen_cells import CellCache, screen_lines
from ._screen_snapshot import alt_block
from ._style import DEFAULT, Style
from ._syntax import ParsedParams
from ._unicode import CONTEXT, MARK, MAX_COMBINING, char_info, joins, marker

__all__ = ["MAX_SCREEN_COLUMNS", "MAX_SCREEN_ROWS", "ScreenModel"]

#: Screen size limits. In pyte each insert or delete costs up to a row of
#: cells and each scroll a pass over the rows, so the size bounds the work
#: one short sequence can cause: at 80 x 24 no sequence repeated over a
#: megabyte takes more than about 2.5 times as long as plain text; at 200
#: rows a flood of line feeds takes about 12 times as long.
MAX_SCREEN_COLUMNS = 500
MAX_SCREEN_ROWS = 200

_TAB = 8
_BLANK = Char(" ")
_Row = StaticDefaultDict[int, Char]
_Buffer = dict[int, _Row]
# Distinct (style, SGR) transitions a screen model remembers.
_MAX_CACHED_SGR = 4096
_Params = tuple[int | tuple[int, ...], ...]


def _new_row() -> _Row:
    return StaticDefaultDict(_BLANK)


def _new_buffer(erase: Char = _BLANK) -> _Buffer:
    """A screen of blank rows (in the erase colour ``erase``)."""
    if erase is _BLANK:
        return defaultdict(_new_row)
    return defaultdict(lambda: StaticDefaultDict(erase))


class ScreenModel(Controls, Performer):
    """Interprets parser events into a pyte screen; see the module docstring."""

    #: Control sequence handlers by final character (set below the class; a
    #: subclass that overrides a handler gives its own table).
    csi_handlers: ClassVar[dict[str, Callable[[ScreenModel, _Params, str], None]]]

    def __init__(
        self, columns: int, rows: int, *, snapshot: bool = False, styled: bool = True
    ) -> None:
        if not 1 <= columns <= MAX_SCREEN_COLUMNS:
            raise ValueError(f"screen mode: columns must be 1 to {MAX_SCREEN_COLUMNS}")
        if not 1 <= rows <= MAX_SCREEN_ROWS:
            raise ValueError(f"screen mode: rows must be 1 to {MAX_SCREEN_ROWS}")
        self.width = columns
        self.height = rows
        self.reach = columns  # cursor movements use every column (see _cursor)
        self.snapshot = snapshot
        self.styled = styled
        # The style after each (style, SGR parameters) seen: this model's own.
        self._after_sgr: dict[tuple[Style, str], Style] = {}
        self.params = ParsedParams()
        self.screen = pyte.Screen(columns, rows)
        self.screen.buffer = _new_buffer()
        self._cells = CellCache()  # this model's own (see _screen_cells)
        self._fills = 0  # DECALNs that filled the screen
        self._reset_modes()
        self._last = ""  # last printed character, for REP
        self._saved: _Saved | None = None
        # While the alternate screen shows: the normal screen's buffer,
        # margins and saved cursor.
        self._normal: tuple[_Buffer, Margins | None, _Saved | None, set[int]] | None = None
        self._alt_saved: _Saved | None = None  # kept between visits (xterm.js)
        self._left_alt: _Buffer | None = None  # the alternate screen as last left

    # -- queries -----------------------------------------------------------

    @property
    def alternate(self) -> bool:
        return self._normal is not None

    # The cursor as the shared cursor-movement functions (``_cursor``) see it.

    @property
    def x(self) -> int:
        return int(self.screen.cursor.x)

    @x.setter
    def x(self, value: int) -> None:
        self.screen.cursor.x = value

    @property
    def y(self) -> int:
        return int(self.screen.cursor.y)

    @y.setter
    def y(self, value: int) -> None:
        self.screen.cursor.y = value

    @property
    def columns(self) -> int:
        return self.width

    def region(self) -> tuple[int, int]:
        return self._region()

    def take_committed(self) -> list[Line]:
        """Nothing is final before the end: the whole screen can change."""
        return []

    def lines(self) -> list[Line]:
        """The visible screen as lines, then (with ``snapshot``) the
        alternate screen as it was last left, if it was."""
        cells = self._cells
        out = screen_lines(self.screen.buffer, self.width, self.height, cells)
        if self.snapshot and self._left_alt is not None and self._normal is None:
            out.extend(alt_block(screen_lines(self._left_alt, self.width, self.height, cells)))
        return out

    # -- printing ----------------------------------------------------------

    def print(self, text: str) -> None:
        if self._translate:
            text = text.translate(DEC_SPECIAL_GRAPHICS)
        if text.isascii():
            self._draw(text)
        else:
            self._print_unicode(text)
        self._last = text[-1]

    def _print_unicode(self, text: str) -> None:
        run: list[str] = []
        for ch in text:
            if ch < "\x80":
                run.append(ch)
                continue
            width, kind, stored = char_info(ch)
            if kind == CONTEXT:
                if run:
                    self._draw("".join(run))
                    run = []
                if joins(self._prev_char(), ch):
                    self._combine(stored)
                    continue
                stored = marker(ch)
                kind = MARK
            if kind == MARK:
                run.extend(stored)
            elif width == 1:
                run.append(stored)
            else:
                if run:
                    self._draw("".join(run))
                    run = []
                if width == 0:
                    self._combine(stored)
                else:
                    self._draw_wide(stored)
        if run:
            self._draw("".join(run))

    def _draw(self, text: str) -> None:
        """Print single-width characters, wrapping at the right margin."""
        if not self.autowrap:
            self._put(text)
            return
        cursor = self.screen.cursor
        width = self.width
        start = 0
        n = len(text)
        while start < n:
            if cursor.x >= width:
                self._wrap()
            end = start + width - cursor.x
            self._put(text[start:end] if start or end < n else text)
            start = end

    def _draw_wide(self, ch: str) -> None:
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
        self._put(ch)

    def _put(self, text: str) -> None:
        """pyte's draw, for text that fits (or overwrites the last column)."""
        screen = self.screen
        screen.draw(text)
        if self.insert:
            screen.buffer[screen.cursor.y].pop(self.width, None)

    def _wrap(self) -> None:
        self.screen.cursor.x = 0
        self._index()

    def _prev_char(self) -> str:
        """The last code point of the cell before the cursor ("" if none)."""
        screen = self.screen
        cursor = screen.cursor
        row = screen.buffer.get(cursor.y)
        if row is None:
            return ""
        x = min(cursor.x, self.width)
        while x > 0:
            x -= 1
            if x not in row:
                return ""
            data = row[x].data
            if data:
                return data[-1]
        return ""

    def _combine(self, mark: str) -> None:
        """Join a zero-width character to the cell before the cursor."""
        screen = self.screen
        cursor = screen.cursor
        row = screen.buffer[cursor.y]
        x = min(cursor.x, self.width)
        while x > 0 and row[x - 1].data == "":  # the right half of a wide character
            x -= 1
        if x == 0 or x - 1 not in row:
            self._draw(" ")
            row = screen.buffer[cursor.y]
            x = cursor.x
        cell = row[x - 1]
        if len(cell.data) <= MAX_COMBINING:
            row[x - 1] = cell._replace(data=cell.data + mark)

    # -- C0 / C1 controls --------------------------------------------------

    def _explicit_index(self) -> None:
        self._restrict()
        self._index()

    def _explicit_reverse_index(self) -> None:
        self._restrict()
        self._reverse_index()

    def _region(self) -> tuple[int, int]:
        margins = self.screen.margins
        if margins is None:
            return 0, self.height - 1
        return margins.top, margins.bottom

    def _restrict(self) -> None:
        """End a pending wrap (the cursor past the last column) and, in
        origin mode, keep the cursor inside the scroll region: what xterm
        does before IND, RI, ICH, DCH, ECH, IL and DL and after DECRC."""
        cursor = self.screen.cursor
        if cursor.x >= self.width:
            cursor.x = self.width - 1
        if self.origin:
            top, bottom = self._region()
            cursor.y = min(max(cursor.y, top), bottom)

    def _index(self) -> None:
        screen = self.screen
        y = screen.cursor.y
        if y == self._region()[1]:
            screen.index()
        elif y < self.height - 1:
            screen.cursor.y = y + 1

    def _reverse_index(self) -> None:
        screen = self.screen
        y = screen.cursor.y
        if y == self._region()[0]:
            screen.reverse_index()
        elif y > 0:
            screen.cursor.y = y - 1

    def _tab(self, count: int) -> None:
        screen = self.screen
        cursor = screen.cursor
        last = self.width - 1
        if cursor.x > last:  # a pending wrap stays pending (xterm.js)
            return
        for _ in range(min(count, self.width)):
            if cursor.x >= last:
                break
            screen.tab()
        cursor.x = min(cursor.x, last)

    def _back_tab(self, count: int) -> None:
        screen = self.screen
        x = screen.cursor.x
        if x >= self.width:  # a pending wrap stays pending (xterm.js)
            return
        for _ in range(min(count, self.width)):
            if x <= 0:
                break
            x = max((t for t in screen.tabstops if t < x), default=0)
        screen.cursor.x = x

    def _set_tab(self) -> None:
        self.screen.tabstops.add(min(self.screen.cursor.x, self.width - 1))

    # -- escape sequences --------------------------------------------------

    def _set_style(self, style: Style) -> None:
        self.style = style
        if self.styled:
            self.screen.select_graphic_rendition(*self._cells.sgr_params(style))

    def _save_cursor(self) -> None:
        cursor = self.screen.cursor
        self._saved = _Saved(cursor.x, cursor.y, self.style, self._charsets, self._gl, self.origin)

    def _restore_cursor(self) -> None:
        cursor = self.screen.cursor
        saved = self._saved
        if saved is None:
            cursor.x = cursor.y = 0
            self._set_style(DEFAULT)
            self.origin = False
            self._charsets = [False] * 4
            self._gl = 0
        else:
            cursor.x = min(saved.x, self.width)
            cursor.y = min(saved.y, self.height - 1)
            self._set_style(saved.style)
            self._charsets = list(saved.charsets)
            self._gl = saved.gl
            self.origin = saved.origin
        self._translate = self._charsets[self._gl]
        self._restrict()

    def _reset(self) -> None:
        """RIS: a fresh terminal."""
        screen = self.screen
        if self._normal is not None:
            self._left_alt = screen.buffer
            self._normal = None
        screen.buffer = _new_buffer()
        screen.reset()
        self._alt_saved = None
        self._reset_modes()
        self._saved = None

    def _alignment_test(self) -> None:
        """DECALN: fill the screen with E, margins reset, cursor home."""
        screen = self.screen
        self._fills += 1
        if self._fills <= MAX_ALIGNMENT_FILLS:
            screen.alignment_display()
        screen.set_margins()
        screen.cursor.x = screen.cursor.y = 0

    def _soft_reset(self) -> None:
        """DECSTR."""
        screen = self.screen
        self._reset_modes()
        self._set_style(DEFAULT)  # pyte's cursor attributes too
        screen.set_mode(modes.DECAWM)
        screen.reset_mode(modes.IRM)
        screen.set_margins()
        self._saved = None

    def _apply_sgr(self, params: str) -> Style:
        cache = self._after_sgr
        key = (self.style, params)
        style = cache.get(key)
        if style is None:
            if len(cache) >= _MAX_CACHED_SGR:
                cache.clear()
            style = cache[key] = self.style.apply_sgr(params)
        return style

    # -- control sequences -------------------------------------------------

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        if final == "m":
            if not private and not intermediates:
                self._set_style(self._apply_sgr(params))
            return
        last = self._last
        self._last = ""
        if intermediates:
            if intermediates == "!" and final == "p" and not private:
                self._soft_reset()
            return
        if private:
            if private == "?" and final in "hl":
                self._private_mode(params, final == "h")
            return
        handler = self.csi_handlers.get(final)
        if handler is not None:
            handler(self, self.params[params], last)

    def _erase_char(self) -> Char:
        """A blank in the erase colour (xterm's BCE: the background only)."""
        bg = self.screen.cursor.attrs.bg
        return _BLANK if bg == "default" else _BLANK._replace(bg=bg)

    def _blank_rows(self, start: int, end: int) -> None:
        erase = self._erase_char()
        buffer = self.screen.buffer
        for y in range(start, end):
            buffer[y] = StaticDefaultDict(erase)

    def _erase_in_row(self, mode: int) -> None:
        """EL with pyte's erase, in the erase colour."""
        screen = self.screen
        cursor = screen.cursor
        x = cursor.x
        if mode == 2 or (mode == 0 and x == 0) or (mode == 1 and x >= self.width - 1):
            self._blank_rows(cursor.y, cursor.y + 1)
            return
        if mode not in (0, 1):
            return
        attrs = cursor.attrs
        cursor.attrs = self._erase_char()
        screen.erase_in_line(mode)
        cursor.attrs = attrs

    def _ed(self, v: _Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        y = self.screen.cursor.y
        if mode == 0:
            self._erase_in_row(0)
            self._blank_rows(y + 1, self.height)
        elif mode == 1:
            self._blank_rows(0, y)
            self._erase_in_row(1)
        elif mode == 2:
            self.screen.buffer = _new_buffer(self._erase_char())
        # mode 3 erases scrollback, which a screen does not have.

    def _el(self, v: _Params, _last: str) -> None:
        self._erase_in_row(arg(v, 0, 0))

    def _ech(self, v: _Params, _last: str) -> None:
        self._restrict()
        cursor = self.screen.cursor
        attrs = cursor.attrs
        cursor.attrs = self._erase_char()
        self.screen.erase_characters(min(arg(v, 0, 1), self.width))
        cursor.attrs = attrs

    def _dch(self, v: _Params, _last: str) -> None:
        self._restrict()
        self.screen.delete_characters(min(arg(v, 0, 1), self.width))

    def _ich(self, v: _Params, _last: str) -> None:
        self._restrict()
        screen = self.screen
        cursor = screen.cursor
        start = cursor.x
        count = min(arg(v, 0, 1), self.width - start)
        screen.insert_characters(count)
        row = screen.buffer[cursor.y]
        row.pop(self.width, None)
        erase = self._erase_char()
        if erase is not _BLANK:
            for column in range(start, start + count):
                row[column] = erase

    def _in_region(self) -> bool:
        top, bottom = self._region()
        return top <= self.screen.cursor.y <= bottom

    def _materialise(self, start: int) -> None:
        """Create the rows start..bottom, which pyte's delete_lines needs."""
        buffer = self.screen.buffer
        for y in range(start, self._region()[1] + 1):
            if y not in buffer:
                buffer[y] = _new_row()

    def _il(self, v: _Params, _last: str) -> None:
        self._restrict()
        if self._in_region():
            self.screen.insert_lines(min(arg(v, 0, 1), self.height))

    def _dl(self, v: _Params, _last: str) -> None:
        self._restrict()
        if self._in_region():
            self._materialise(self.screen.cursor.y)
            self.screen.delete_lines(min(arg(v, 0, 1), self.height))

    def _su(self, v: _Params, _last: str) -> None:
        cursor = self.screen.cursor
        x, y = cursor.x, cursor.y
        cursor.y = self._region()[0]
        self._materialise(cursor.y)
        self.screen.delete_lines(min(arg(v, 0, 1), self.height))
        cursor.x, cursor.y = x, y

    def _sd(self, v: _Params, _last: str) -> None:
        cursor = self.screen.cursor
        x, y = cursor.x, cursor.y
        cursor.y = self._region()[0]
        self.screen.insert_lines(min(arg(v, 0, 1), self.height))
        cursor.x, cursor.y = x, y

    def _rep(self, v: _Params, last: str) -> None:
        if not last:
            return
        cursor = self.screen.cursor
        room = self.width - cursor.x
        count = min(arg(v, 0, 1), MAX_REPEAT, room if room > 0 else self.width)
        if count > 1 and last >= "\x80":  # a marker costs its length (see repeat_cost)
            count = min(count, max(1, MAX_REPEAT // repeat_cost(last)))
        if count < 2 or self.insert or not self.autowrap or self._translate or last == "\x7f":
            self.print(last * count)
            return
        # Print one, then copy its cells: the count fits on the row (it stops
        # at the margin), and pyte's per-character draw would make a 10-byte
        # REP cost as much as printing the whole row.
        y = cursor.y
        start = cursor.x
        self.print(last)
        row = self.screen.buffer[cursor.y]
        x = cursor.x
        if last < "\x80":
            row.update(dict.fromkeys(range(x, x + count - 1), row[x - 1]))
            cursor.x = x + count - 1
            return
        # A wide character or a marker: its cells, as many times as fit.
        if cursor.y != y:  # a wrap: clean only from just past the last column
            start = 0 if start >= self.width else x
        cells = x - start
        if cells <= 0:  # it wrapped, or joined the cell before
            self.print(last * (count - 1))
            return
        copies = min(count - 1, (self.width - x) // cells)
        block = [row[column] for column in range(start, x)]
        row.update(zip(range(x, x + copies * cells), block * copies, strict=True))
        cursor.x = x + copies * cells

    def _cht(self, v: _Params, _last: str) -> None:
        self._tab(arg(v, 0, 1))

    def _cbt(self, v: _Params, _last: str) -> None:
        self._back_tab(arg(v, 0, 1))

    def _tbc(self, v: _Params, _last: str) -> None:
        mode = arg(v, 0, 0)
        if mode == 3:
            self.screen.clear_tab_stop(3)
        elif mode == 0:
            self.screen.tabstops.discard(clamp_x(self))

    def _decstbm(self, v: _Params, _last: str) -> None:
        top = arg(v, 0, 1)
        bottom = min(arg(v, 1, self.height), self.height)
        if top >= bottom:
            return
        screen = self.screen
        screen.set_margins(top, bottom)
        screen.cursor.x = 0
        screen.cursor.y = top - 1 if self.origin else 0

    def _scosc(self, v: _Params, _last: str) -> None:
        if not v:
            self._save_cursor()

    def _scorc(self, v: _Params, _last: str) -> None:
        if not v:
            self._restore_cursor()

    def _ansi_mode(self, v: _Params, on: bool) -> None:
        if 4 in v:
            self.insert = on
            if on:
                self.screen.set_mode(modes.IRM)
            else:
                self.screen.reset_mode(modes.IRM)

    def _sm(self, v: _Params, _last: str) -> None:
        self._ansi_mode(v, True)

    def _rm(self, v: _Params, _last: str) -> None:
        self._ansi_mode(v, False)

    def _private_mode(self, params: str, on: bool) -> None:
        screen = self.screen
        for value in self.params[params]:
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

    def _alternate_screen(self, mode: int, on: bool) -> None:
        """Modes 47, 1047, 1049 as xterm.js does them: the alternate screen
        is blank, with default margins and tab stops, whenever it is entered;
        1049 saves the cursor (in the screen showing) when set and restores
        it (from the normal screen) when reset, even if nothing switched."""
        screen = self.screen
        if on:
            if mode == 1049:
                self._save_cursor()
            if self._normal is not None:
                return
            self._normal = (screen.buffer, screen.margins, self._saved, screen.tabstops)
            screen.buffer = _new_buffer()
            screen.set_margins()
            screen.tabstops = set(range(_TAB, self.width, _TAB))
            self._saved = self._alt_saved
        else:
            if self._normal is not None:
                self._left_alt = screen.buffer
                self._alt_saved = self._saved
                screen.buffer, screen.margins, self._saved, screen.tabstops = self._normal
                self._normal = None
            if mode == 1049:
                self._restore_cursor()

    # -- strings -----------------------------------------------------------

    def osc_dispatch(self, payload: str) -> None:
        self._last = ""


ScreenModel.csi_handlers = {
    **CURSOR_HANDLERS,
    "J": ScreenModel._ed,
    "K": ScreenModel._el,
    "X": ScreenModel._ech,
    "P": ScreenModel._dch,
    "@": ScreenModel._ich,
    "L": ScreenModel._il,
    "M": ScreenModel._dl,
    "S": ScreenModel._su,
    "T": ScreenModel._sd,
    "b": ScreenModel._rep,
    "I": ScreenModel._cht,
    "Z": ScreenModel._cbt,
    "g": ScreenModel._tbc,
    "r": ScreenModel._decstbm,
    "s": ScreenModel._scosc,
    "u": ScreenModel._scorc,
    "h": ScreenModel._sm,
    "l": ScreenModel._rm,
}
