"""The ``screen`` interpreter: the final visible screen, emulated with pyte.

termscribe's parser drives a ``pyte.Screen`` (never pyte's ``Stream``: it is
slow, passes OSC/DCS payloads on and raises on valid input such as
``CSI > 4 ; 2 m``). Text reaches pyte already sanitised exactly as in the
``lines`` model (markers for bidi and invisible characters, U+FFFD for
noncharacters, the joiner rule, the combining-mark cap), and every value
pyte receives is validated and clamped here: pyte is never given anything
that could make it raise, allocate in proportion to a parameter, or act on
the host. The screen is ``columns`` x ``rows`` (80 x 24 by default).

Real xterm is the reference (``@xterm/headless`` where xterm leaves a
choice open), checked against xterm's and the vt100 crate's own test suites
(``tests/test_conformance.py``). The ``lines`` model's decisions hold here
too: BS never erases; cursor addressing clamps to the screen; REP is capped
at MAX_REPEAT; window operations, reports and queries do nothing; DEC line
drawing (``ESC ( 0``) is translated before pyte sees it, 0x5F as a blank
(xterm). Decisions of this mode, with xterm:

* Line feeds: LF, VT and FF return to column 0 when ``lf_returns`` (the
  ``crlf`` line feed policy, set by the Transcript) or LNM (``CSI 20 h``) is
  set, else they only move down; a pending wrap ends.
* BS with reverse wraparound (modes 45 and 1045, with autowrap) goes from
  the first column to the last column of the row above, and from the top
  margin to the bottom margin (xterm before 2023, and its mode 1045 since;
  xterm 2023's mode 45 stays within soft-wrapped rows, which this screen
  does not record).
* A combining mark joins the cell last written while only HT, SGR or
  strings came since (xterm's ``char_was_written``), else the cell at the
  cursor if it was ever written or erased, else it takes the cell at the
  cursor, shown on a space (never alone: it would join the character to
  its left in the transcript).
* DECSC saves, and DECRC (and leaving mode 1049) restores, a pending wrap
  (xterm's ``CursorRestoreFlags``; xterm.js ends it). CBT moves the cursor
  left of a pending wrap without ending it, so that the next character
  wraps (xterm's ``TabToPrevStop`` leaves ``do_wrap`` alone).
* The scroll region is the terminal's, not the screen's: it stays as it is
  when the alternate screen is entered or left (xterm).
* The edits of ``_edit``: REP wraps; SL, SR, DECIC, DECDC; DECSCA
  with DECSED and DECSEL; ED 0 and EL 0 end a pending wrap; DCH and ICH
  blank a wide character they split.

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
  scrollback (nothing). REP prints a character of one cell or a marker
  again; a wide one or a mark once, then copies its cells (see
  ``_edit``).
* DL/SU first create the rows they move: pyte's ``delete_lines`` leaves a
  row in place when the row below it was never written. A cell ICH or an
  insert-mode print pushes past the right margin is dropped (pyte keeps it
  one column out of view, where DCH would pull it back).
* SU/SD are DL/IL at the top of the scroll region (pyte has neither), with
  the cursor put back.
* DECSC/DECRC keep one saved cursor per screen, as a terminal does (pyte
  keeps an unbounded stack).
* The alternate screen (modes 47, 1047, 1049) is a second pyte buffer
  swapped in, with its own saved cursor and tab stops; it is blank whenever
  it is entered (xterm.js; the ``lines`` model, like xterm, keeps its
  content for 47 and 1047).
* DECALN fills the screen only MAX_ALIGNMENT_FILLS times per transcript, as
  in the ``lines`` model: pyte rewrites every cell, so a flood of them would
  cost a screen of work per three bytes (later ones reset the margins and
  home the cursor only).
* A pending wrap (the cursor just past the last column) ends, the cursor
  moving to the last column, before IND, RI, ICH, DCH, ECH, IL and DL, and
  survives HT, CHT and CBT.
* Modes: only insert (4), LNM (20), autowrap (?7), origin (?6), reverse
  wraparound (?45, ?1045) and the alternate screen change anything; pyte's
  132-column (?3) and reverse-video (?5) handling are never invoked.
* OSC 8 links are dropped (their text stays): pyte's cells have no room for
  them, and a parallel map would have to replay every pyte edit.
* Shortcuts, where pyte's own path costs a method call per character or
  per sequence (``shortcuts``; each states its precondition where it is
  taken, and ``tests/test_screen_shortcuts.py`` compares the state they
  leave with pyte's own path's on generated streams): text that fits in
  its row is written as whole runs of cells, made once per attributes,
  column and text (``_put``, ``CellCache.cells``); the cursor attributes a
  style gives are asked of pyte once per style (``CellCache.select``), and
  only after the last of consecutive SGR sequences; what a short run of
  text and SGR does from a style is remembered (``print_with_sgr``, see
  ``_runs``); LFs in a row move the cursor and scroll the region at once
  (``ScreenRuns.line_feeds``, LF's bulk form); EL and ECH write their blanks at once
  (``_erase_span``). A batch (``Performer.batch``) is executed item by
  item through the same functions as the events one by one, taking these
  bulk forms; without ``shortcuts`` it is replayed.

Output (see ``_cells``): the rows of the visible screen, each
right-trimmed of spaces, blank rows at the bottom left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import ClassVar

import pyte
from pyte import modes
from pyte.screens import Char, StaticDefaultDict

from .._committed import CommittedLines
from .._controls import Controls
from .._controls import SavedCursor as _Saved
from .._cursor import CURSOR_HANDLERS
from .._lines import MAX_ALIGNMENT_FILLS
from .._performer import Performer, dispatch_item, replay
from .._rows import LEAD, Line
from .._style import DEFAULT, Style
from .._syntax import CsiBodies, ParsedParams
from ._cells import CellCache, RunCache, screen_lines
from ._edit import EDIT_HANDLERS, INTERMEDIATE_HANDLERS, PRIVATE_EDIT_HANDLERS, ScreenEditing
from ._host import Buffer as _Buffer
from ._host import Row as _Row
from ._modes import MODE_HANDLERS, PRIVATE_MODE_HANDLERS, ScreenModes
from ._print import ScreenPrinting
from ._runs import ScreenRuns
from ._snapshot import alt_block

__all__ = ["MAX_SCREEN_COLUMNS", "MAX_SCREEN_ROWS", "ScreenModel"]

#: Screen size limits. In pyte each insert or delete costs up to a row of
#: cells and each scroll a pass over the rows, so the size bounds the work
#: one short sequence can cause: at 80 x 24 no sequence repeated over a
#: megabyte takes more than about 2.5 times as long as plain text; at 200
#: rows a flood of line feeds takes about 12 times as long.
MAX_SCREEN_COLUMNS = 500
MAX_SCREEN_ROWS = 200

_BLANK = Char(" ")
# Distinct (style, SGR) transitions a screen model remembers.
_MAX_CACHED_SGR = 4096


def _new_row() -> _Row:
    return StaticDefaultDict(_BLANK)


def _new_buffer(erase: Char = _BLANK) -> _Buffer:
    """A screen of blank rows (in the erase colour ``erase``)."""
    if erase is _BLANK:
        return defaultdict(_new_row)
    return defaultdict(lambda: StaticDefaultDict(erase))


class ScreenModel(ScreenPrinting, ScreenEditing, ScreenModes, ScreenRuns, Controls, Performer):
    """Interprets parser events into a pyte screen; see the module docstring."""

    #: The blank cell (a never-written cell reads as this).
    blank: ClassVar[Char] = _BLANK
    #: Whether the shortcuts around pyte's methods are taken (each states
    #: its precondition where it is taken). A subclass without them is the
    #: reference the tests compare them with.
    shortcuts: ClassVar[bool] = True

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
        self._runs = RunCache()  # this model's own (see _runs)
        self._erase_cells: dict[str, Char] = {}  # blanks by erase colour
        self.params = ParsedParams()
        self.screen = pyte.Screen(columns, rows)
        self.screen.buffer = _new_buffer()
        self._cells = CellCache()  # this model's own (see _cells)
        self._shortcuts = self.shortcuts  # read where it costs least
        self.csi_bodies = CsiBodies()
        self._fills = 0  # DECALNs that filled the screen
        self._reset_modes()
        # xterm's char_was_written and last_written_row/col: where the last
        # character printed ends (row, column after it), while nothing else
        # but HT, SGR and strings came since; a combining mark joins it.
        self._wrote: tuple[int, int] | None = None
        # A pending wrap kept by CBT or HT left of the last column (xterm's
        # do_wrap stays set): the cursor position it holds at.
        self._held: tuple[int, int] | None = None
        self._last = ""  # last printed character, for REP
        self._saved: _Saved | None = None
        # While the alternate screen shows: the normal screen's buffer,
        # saved cursor and tab stops (the margins are the terminal's: xterm).
        self._normal: tuple[_Buffer, _Saved | None, set[int]] | None = None
        self._alt_saved: _Saved | None = None  # kept between visits (xterm.js)
        self._left_alt: _Buffer | None = None  # the alternate screen as last left
        #: Always empty (see take_committed).
        self.committed = CommittedLines(None)

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

    def window_lines(self) -> list[Line]:
        """Every line: nothing is committed (see take_committed)."""
        return self.lines()

    def lines(self) -> list[Line]:
        """The visible screen as lines, then (with ``snapshot``) the
        alternate screen as it was last left, if it was."""
        cells = self._cells
        out = screen_lines(self.screen.buffer, self.width, self.height, cells)
        if self.snapshot and self._left_alt is not None and self._normal is None:
            out.extend(alt_block(screen_lines(self._left_alt, self.width, self.height, cells)))
        return out

    # -- C0 / C1 controls --------------------------------------------------

    def execute(self, control: str) -> None:
        if control != "\t":
            self._wrote = None
            self._held = None
        Controls.execute(self, control)

    def _line_feed(self) -> None:
        self._end_wrap()
        if self.lf_returns or self.lnm:
            self.screen.cursor.x = 0
        self._index()

    def _backspace(self) -> None:
        if self.reverse_wrap and self.autowrap:
            self._reverse_wrap_back()
        else:
            super()._backspace()

    def batch(self, parts: list[str]) -> None:
        """A batch (see ``_grammar``), item by item through the functions
        the events call: text with SGR sequences by its plan
        (``print_with_sgr``), LFs in a row at once (``line_feeds``)."""
        if not self._shortcuts:
            replay(self, parts)
            return
        execute = self.execute
        csi_dispatch = self.csi_dispatch
        bodies = self.csi_bodies
        text = parts[0]
        if text:
            self._print_text(text)
        n = len(parts)
        i = 1
        while i < n:
            item = parts[i]
            if item == "\n":
                end = i + 2
                while end < n and not parts[end - 1] and parts[end] == "\n":
                    end += 2
                if end > i + 2:
                    self.line_feeds((end - i) // 2)
                    i = end - 2
                else:
                    execute(item)
            elif len(item) == 1:
                execute(item)
            elif item[1] == "[" and item[0] == "\x1b":
                csi_dispatch(*bodies[item[2:]])
            else:
                dispatch_item(self, item)
            text = parts[i + 1]
            if text:
                self._print_text(text)
            i += 2

    def _print_text(self, text: str) -> None:
        if "\x1b" in text:
            self.print_with_sgr(text)
        else:
            self.print(text)

    def _reverse_wrap_back(self) -> None:
        """BS with reverse wraparound (modes 45, 1045): a pending wrap ends;
        from the first column, to the last column of the row above, and
        from the top margin's first column to the bottom margin's last."""
        cursor = self.screen.cursor
        if cursor.x >= self.width:
            cursor.x = self.width - 1
        elif cursor.x > 0:
            cursor.x -= 1
        else:
            top, bottom = self._region()
            cursor.y = bottom if cursor.y == top else max(cursor.y - 1, 0)
            cursor.x = self.width - 1

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        self._wrote = None
        self._held = None
        super().esc_dispatch(intermediates, final)

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
        does before IND, RI, ICH, DCH, ECH, IL and DL."""
        self._end_wrap()
        self._clamp_origin()

    def _end_wrap(self) -> None:
        """A pending wrap ends: the cursor back onto the last column."""
        cursor = self.screen.cursor
        if cursor.x >= self.width:
            cursor.x = self.width - 1
        self._held = None

    def _clamp_origin(self) -> None:
        if self.origin:
            cursor = self.screen.cursor
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

    def _holding(self) -> bool:
        """Is a pending wrap kept at the cursor (see ``_held``)?"""
        cursor = self.screen.cursor
        return self._held == (cursor.y, cursor.x)

    def _tab(self, count: int) -> None:
        """HT, CHT: to the next tab stop; a pending wrap stays pending
        (xterm's TabToNextStop leaves do_wrap alone)."""
        screen = self.screen
        cursor = screen.cursor
        last = self.width - 1
        if cursor.x > last:
            return
        held = self._holding()
        for _ in range(min(count, self.width)):
            if cursor.x >= last:
                break
            screen.tab()
        cursor.x = min(cursor.x, last)
        if held:
            self._held = (cursor.y, cursor.x)

    def _back_tab(self, count: int) -> None:
        """CBT: to the previous tab stop, from the last column if a wrap is
        pending, which stays pending (xterm's TabToPrevStop)."""
        screen = self.screen
        cursor = screen.cursor
        x = cursor.x
        held = self._holding() or x >= self.width
        x = min(x, self.width - 1)
        for _ in range(min(count, self.width)):
            if x <= 0:
                break
            x = max((t for t in screen.tabstops if t < x), default=0)
        cursor.x = x
        self._held = (cursor.y, x) if held else None

    def _set_tab(self) -> None:
        self.screen.tabstops.add(min(self.screen.cursor.x, self.width - 1))

    # -- escape sequences --------------------------------------------------

    def _set_style(self, style: Style) -> None:
        self.style = style
        if not self.styled:
            return
        if self._shortcuts:
            self._cells.select(self.screen, style)
        else:
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
        self._held = None
        self._clamp_origin()  # a pending wrap saved is restored (xterm)

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
        self.decsca((0,), "")

    # -- control sequences -------------------------------------------------

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        if final != "m":
            self._wrote = None
            if final != "I" and final != "Z":
                self._held = None
        Controls.csi_dispatch(self, private, params, intermediates, final)

    def _select_graphic_rendition(self, params: str) -> None:
        self._set_style(self._runs.after(self.style, params))

    def _reset_modes(self) -> None:
        super()._reset_modes()
        self.lnm = False  # LNM (mode 20): LF, VT and FF also return to column 0
        self.reverse_wrap = False  # modes 45 and 1045

    def _empty_buffer(self) -> _Buffer:
        """A screen of never-written rows."""
        return _new_buffer()

    def _blank_screen(self) -> None:
        """ED 2: every row blank in the erase colour."""
        self.screen.buffer = _new_buffer(self._erase_char())

    def _erase_char(self) -> Char:
        """A blank in the erase colour (xterm's BCE: the background only),
        the same object for the same colour while it is remembered, so that
        rows of it compare fast."""
        bg = self.screen.cursor.attrs.bg
        if bg == "default":
            return _BLANK
        cells = self._erase_cells
        cell = cells.get(bg)
        if cell is None:
            if len(cells) >= _MAX_CACHED_SGR:
                cells.clear()
            cell = cells[bg] = _BLANK._replace(bg=bg)
        return cell

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
        if mode == 0:
            self._erase_span(x, self.width, screen.erase_in_line, 0)
        elif mode == 1:
            self._erase_span(0, x + 1, screen.erase_in_line, 1)

    def _erase_span(self, start: int, end: int, erase: Callable[[int], None], arg: int) -> None:
        """The cells ``start`` to ``end - 1`` of the cursor's row become
        blanks in the erase colour: pyte's ``erase`` (``erase_in_line`` or
        ``erase_characters``) called with ``arg``, the cursor's attributes
        set to that blank, erases these cells. Shortcut: they are written at
        once instead of one by one by pyte's loop."""
        screen = self.screen
        cursor = screen.cursor
        if not start:  # the markers that precede cell 0 go with it
            screen.buffer[cursor.y].pop(LEAD, None)
        if self._shortcuts:
            screen.dirty.add(cursor.y)
            screen.buffer[cursor.y].update(dict.fromkeys(range(start, end), self._erase_char()))
            return
        attrs = cursor.attrs
        cursor.attrs = self._erase_char()
        erase(arg)
        cursor.attrs = attrs

    def _materialise(self, start: int) -> None:
        """Create the rows start..bottom, which pyte's delete_lines needs."""
        buffer = self.screen.buffer
        for y in range(start, self._region()[1] + 1):
            if y not in buffer:
                buffer[y] = _new_row()

    # -- strings -----------------------------------------------------------

    def osc_dispatch(self, payload: str) -> None:
        self._last = ""


# Control sequences by final, by (intermediate, final) and with the private
# marker (see Controls.csi_dispatch; a subclass that overrides a handler
# gives its own table).
ScreenModel.csi_handlers = {
    **CURSOR_HANDLERS,
    **EDIT_HANDLERS,
    **MODE_HANDLERS,
}
ScreenModel.intermediate_handlers = INTERMEDIATE_HANDLERS
ScreenModel.private_handlers = {**PRIVATE_MODE_HANDLERS, **PRIVATE_EDIT_HANDLERS}
