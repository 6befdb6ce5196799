"""The ``lines`` interpreter: a terminal model whose scrolled-off lines are final.

The model is a window of ``rows`` rows with a cursor, like a terminal screen.
``columns=None`` makes rows unbounded (up to MAX_LINE_CELLS, nothing wraps); a
number makes rows that wide, and printing past the right margin wraps like a
terminal (DECAWM), with wrapped rows joined back into one logical line in the
transcript. Rows that scroll off the top of the window are *committed*: they
can never change again and can be taken out for streaming.

Reference behaviour is xterm (as ``@xterm/headless`` implements it) with
``convertEol``. Decisions, each pinned by a test:

* A bare LF (and VT, FF, which xterm treats as LF) also returns to column 0
  (output captured through pipes has no CR), unless the Transcript's line
  feed policy is ``lf`` (``lf_returns`` False: a PTY stream), where it only
  moves down. The bulk form of LF (``_scroll_lines``) takes a line end
  only where it returns to column 0: under ``lf``, only CR LF.
* BS moves left without erasing; the next character overwrites (``a\\bb``
  shows ``b``; man's ``_\\bx`` shows ``x``).
* Erasing to the end of a line truncates it: blank cells at the end of a line
  are never part of the transcript, whatever their background; spaces the
  program printed there are (xterm trims only cells without content).
* ED 2 erases the window only. ED 3 (erase scrollback) and RIS never touch
  committed lines: nothing that was shown can be taken back.
* Lines scrolled out of a region whose top is the first row are committed
  (xterm puts them in scrollback); lines scrolled out of any other region,
  deleted by DL, scrolled by SU/SD or pushed out by IL are gone, as on screen.
* The alternate screen (modes 47, 1047, 1049) is emulated but never
  committed: leaving it shows the normal screen as it was.
* REP repeats the last printed character at most MAX_REPEAT times and, with
  a known width, only up to the right margin (xterm would wrap; programs
  never rely on that); huge parameters are clamped, never allocated.
* Cursor addressing clamps to the window; window operations, reports and
  queries do nothing (no answer can be sent from a transcript). Movements
  use at most MAX_REACH columns of a wider or unbounded row, and DECALN
  fills at most that many, MAX_ALIGNMENT_FILLS times (see ``_csi``).
* A combining mark with no previous cell on its row is shown on a space.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TypeVar

from .._committed import CommittedLines
from .._controls import Controls
from .._controls import SavedCursor as _Saved
from .._edit import insert_blanks
from .._performer import IGNORED_STRINGS, Performer, dispatch_item
from .._rows import (
    BLANK,
    EMPTY_LINE,
    MAX_LINE_CELLS,
    Line,
    Row,
    StylePalette,
)
from .._style import DEFAULT, Link, Style
from .._syntax import CsiBodies, ParsedParams
from .._unicode import CellTable
from ._csi import HANDLERS, MAX_REACH, MAX_REPEAT, PRIVATE_HANDLERS, LinesCsi, shift_rows
from ._host import Screen, cleared, window_lines
from ._print import DEC_SPECIAL_GRAPHICS, Printing
from ._repeat import CACHES, MIN_REPEATS, run_repeated, state_value
from ._scroll import LineFeeds, lines_follow

__all__ = ["DEC_SPECIAL_GRAPHICS", "MAX_REPEAT", "LinesModel"]


_T = TypeVar("_T")

#: The items that may end a line LF's bulk form takes (see lines_follow).
_LINE_ENDS = frozenset("\n\r")


# What a model at rest keeps of its window (see LinesModel.window_at_rest).
_Window = tuple[StylePalette, Screen | None, list[Row], tuple[Row, ...], int]
# Attributes that window_at_rest gives, or that wake_from_rest makes from
# what it gave: the others that differ from a new model's are its state.
_WINDOW = frozenset(
    ("_normal", "_screen", "_rows", "_palette", "committed", "y", "_pending", "_pending_omitted")
)


class LinesModel(LinesCsi, Printing, Controls, LineFeeds, Performer):
    """Interprets parser events into rows; see the module docstring."""

    def __init__(
        self, columns: int | None, rows: int, max_lines: int | None, *, styled: bool = True
    ) -> None:
        self.styled = styled
        self.width = columns
        self.height = rows
        # The right margin: the window width, or the row cap when unbounded.
        self._limit = columns if columns is not None else MAX_LINE_CELLS
        # Columns cursor movements use (see _cursor).
        self.reach = min(self._limit, MAX_REACH)
        self._fills = 0  # DECALNs that filled the window
        self.max_lines = max_lines
        self._normal = Screen(rows)
        self._alt = Screen(0)  # rows are made when it is first entered
        self._screen = self._normal
        self._rows = self._normal.rows
        self.x = 0
        self.y = 0
        self._palette = StylePalette()
        #: What this transcript learned of the cells of code points.
        self.cell_table = CellTable()
        self.params = ParsedParams()
        self.csi_bodies = CsiBodies()
        self._style = DEFAULT
        self._code: str | None = "\x00" if styled else None  # current style's cell code
        self._sgr_runs: dict[str, tuple[str, ...]] = {}  # see _append_styled
        self._reset_modes()
        self._last = ""  # last printed character, for REP
        self._wrapping = False  # inside _wrap: the row scrolling off continues
        # Committed output.
        self.committed = CommittedLines(max_lines, self._palette)
        self._pending: list[Row] = []  # committed rows of an unfinished logical line
        self._pending_cells = 0
        self._pending_omitted = 0

    # -- queries -----------------------------------------------------------

    @property
    def alternate(self) -> bool:
        return self._screen is self._alt

    @property
    def style(self) -> Style:
        return self._style

    @style.setter
    def style(self, style: Style) -> None:
        if self._code is None:
            self._style = style
        else:
            self._set_code(self._palette.code(style))

    def _set_code(self, code: str) -> None:
        self._code = code
        self._style = self._palette.styles[ord(code)]

    @property
    def columns(self) -> int:
        """Cells per row: the width, or the row cap when unbounded."""
        return self._limit

    def region(self) -> tuple[int, int]:
        """The active screen's scroll region (top and bottom rows)."""
        return self._screen.top, self._screen.bottom

    @property
    def palette(self) -> list[Style]:
        """Style of each cell code in ``Row.styles`` (index = ord(code))."""
        return self._palette.styles

    def take_committed(self) -> list[Line]:
        """Remove and return the lines committed since the last call."""
        return self.committed.take()

    def lines(self) -> list[Line]:
        """Every line of the transcript still held: committed, then window."""
        committed = self.committed
        marker = committed.marker()
        out = [marker] if marker is not None else []
        out.extend(committed.lines())
        out.extend(self.window_lines())
        return out

    def window_lines(self) -> list[Line]:
        """The normal screen's rows as logical lines, down to the cursor or
        the last non-blank row, whichever is lower."""
        cursor_y = self.y
        if self._screen is self._alt:
            saved = self._normal.saved
            cursor_y = saved.y if saved is not None else 0
        return window_lines(
            self._normal.rows, cursor_y, self._pending, self._pending_omitted, self._palette.styles
        )

    def screen_rows(self) -> list[Row]:
        """The rows of the active screen, for screen snapshots."""
        return self._rows

    # -- at rest (``_rest``) -------------------------------------------------

    def window_at_rest(self) -> _Window:
        """What a transcript at rest keeps of the window: the palette; the
        normal screen, if its margins, saved cursor or tab stops are not a
        new screen's (else None); its rows down to its last non-blank one
        (window_lines reads the others as blank); the committed rows of an
        unfinished logical line and the characters omitted from it."""
        screen = self._normal
        rows = screen.rows
        keep = len(rows)
        while keep and not (
            rows[keep - 1].text or rows[keep - 1].continued or rows[keep - 1].marks
        ):
            keep -= 1  # blank (see _host.blank)
        margins = (screen.top, screen.bottom, screen.saved, screen.tabs)
        kept = None if margins == (0, self.height - 1, None, None) else screen
        return self._palette, kept, rows[:keep], tuple(self._pending), self._pending_omitted

    def state_at_rest(self, fresh: LinesModel) -> list[object]:
        """The names and values, in turn, of this model's attributes that
        differ from those of ``fresh``, a new model with its options, but
        its caches and what window_at_rest gives; UnknownState (see
        ``_repeat``) for a value of a type state_value does not know."""
        defaults = vars(fresh)
        state: list[object] = []
        for name, value in vars(self).items():
            if name in CACHES or name in _WINDOW:
                continue
            if name == "_alt":
                # Only its saved cursor outlives a visit (see _alternate_screen).
                left = Screen(0)
                left.saved = value.saved
                value = left
            if name not in defaults or state_value(value) != state_value(defaults[name]):
                state += (name, value)
        return state

    def wake_from_rest(
        self,
        palette: StylePalette | None,
        screen: Screen | None,
        rows: list[Row],
        y: int,
        pending: Sequence[Row],
        omitted: int,
        state: Sequence[object],
    ) -> StylePalette:
        """Give this model, a new one with the options of the model put to
        rest, what window_at_rest (``palette`` None: its own; ``screen``
        None: a new screen's margins) and state_at_rest gave of that one.
        Returns the palette, which its committed store is to use."""
        if palette is not None:
            self._palette = palette
        if screen is not None:
            screen.rows = self._normal.rows
            self._normal = self._screen = screen
        window = self._rows = self._normal.rows
        window[: len(rows)] = rows
        self.y = y
        if pending:
            self._pending = list(pending)
        self._pending_omitted = omitted
        for index in range(0, len(state), 2):
            setattr(self, state[index], state[index + 1])  # type: ignore[arg-type]
        return self._palette

    # -- committing --------------------------------------------------------

    def _commit(self, row: Row, continues: bool) -> None:
        """Row scrolled off the top; ``continues``: the next row continues it."""
        if not continues and not row.continued and not self._pending_omitted:
            if self._pending:
                self._finish_pending()
            self._commit_row(row)
            return
        if self._pending and not row.continued:
            self._finish_pending()
        if self._pending_cells + len(row.text) > MAX_LINE_CELLS:
            end = len(row.text) if continues else row.trimmed_length()
            self._pending_omitted += end + row.omitted
        else:
            self._pending.append(row)
            self._pending_cells += len(row.text)
        if not continues:
            self._finish_pending()

    def _commit_rows(self, rows: list[Row], below: Row | None) -> None:
        """Rows scrolled off the top in turn, as _commit commits them;
        ``below``: the row after the last of them, if any. When none joins
        another (none pending, none continued), each is a line of its own:
        those the store can take as they are, at once, a stretch at a
        time, and the others (with marks or omitted characters) one by
        one."""
        if (
            self._pending
            or self._pending_omitted
            or (below is not None and below.continued)
            or any(map(_CONTINUED, rows))
        ):
            for index, row in enumerate(rows):
                after = rows[index + 1] if index + 1 < len(rows) else below
                self._commit(row, after is not None and after.continued)
            return
        plain: list[Row] = []
        for row in rows:
            if row.marks or row.omitted:
                self._commit_plain(plain)
                plain = []
                self._commit_row(row)
            else:
                plain.append(row)
        self._commit_plain(plain)

    def _commit_plain(self, rows: list[Row]) -> None:
        """Rows with no marks or omitted characters, none joined to
        another, each committed as its line: at once when the store can
        take them as they are."""
        if rows and not self.committed.append_rows(
            [row.text for row in rows], [row.styles for row in rows]
        ):
            for row in rows:
                self._commit_row(row)

    def _commit_row(self, row: Row) -> None:
        """Commit a row that joins no other as its line: from its cells
        when the store can take them as they are, else as Line.from_row."""
        text = row.text
        if (
            row.marks
            or row.omitted
            or (text and text[-1] == BLANK)
            or not self.committed.append_row(text, row.styles)
        ):
            palette = self._palette
            self._append_line(Line.from_row(row, palette.styles, palette.runs_cache))

    def _finish_pending(self) -> None:
        """Commit the rows of a wrapped line as its line: from their cells
        joined when the store can take them as they are (as _commit_row
        does a row), else as Line.from_rows."""
        pending = self._pending
        if not pending and not self._pending_omitted:
            return
        self._pending = []
        self._pending_cells = 0
        if self._pending_omitted or not self._append_joined(pending):
            line = Line.from_rows(pending, self._palette.styles, self._pending_omitted)
            self._pending_omitted = 0
            self._append_line(line)

    def _append_joined(self, rows: list[Row]) -> bool:
        """Commit ``rows`` joined, if none has marks or omitted characters,
        and their codes are one a cell or none."""
        for row in rows:
            if row.marks or row.omitted or len(row.styles) not in (0, len(row.text)):
                return False
        text = "".join([row.text for row in rows])
        styles = "".join([row.styles for row in rows])
        return (
            len(styles) in (0, len(text))
            and (not text or text[-1] != BLANK)
            and self.committed.append_row(text, styles)
        )

    def _append_line(self, line: Line) -> None:
        self.committed.append(line)

    def _append_lines(self, line: Line, count: int) -> None:
        self.committed.extend_repeated((line,), count)

    # -- batches (Performer.batch) --------------------------------------------

    def batch(self, parts: list[str]) -> None:
        """Execute a batch (see ``_grammar``): each text by ``print`` or
        ``print_with_sgr``, each item by the function its event calls,
        whole lines that scroll off the bottom row by ``_scroll_lines``,
        LF's bulk form, and texts printed over from column 0 by
        ``_carriage_returns``, CR's. A flood that repeats one unit goes
        through ``run_repeated``."""
        if len(parts) > 2 * MIN_REPEATS:
            run_repeated(self, parts, self._execute_batch)
        else:
            self._execute_batch(parts)

    def _execute_batch(self, parts: list[str]) -> None:
        print_text = self._print_text
        execute = self.execute
        csi_dispatch = self.csi_dispatch
        bodies = self.csi_bodies
        text = parts[0]
        if text:
            print_text(text)
        n = len(parts)
        i = 1
        while i < n:
            item = parts[i]
            after = i + 1  # the text after the item
            if len(item) == 1:
                execute(item)
                if (
                    item == "\n"
                    and i + 3 < n
                    and parts[i + 2] in _LINE_ENDS
                    and lines_follow(parts, i + 2)
                ):
                    after = self._scroll_lines(parts, after)
                elif item == "\r" and i + 3 < n and parts[i + 2] == "\r" and parts[after]:
                    i = self._carriage_returns(parts, after) + 1  # its last text printed
                    continue
            elif item[1] == "[" and item[0] == "\x1b":
                csi_dispatch(*bodies[item[2:]])
            elif item[1] not in IGNORED_STRINGS or item[0] != "\x1b":
                dispatch_item(self, item)
            text = parts[after]
            if text:
                print_text(text)
            i = after + 1

    def _print_text(self, text: str) -> None:
        """A batch's text: printable characters with SGR sequences among
        them (see _grammar)."""
        if "\x1b" in text:
            self.print_with_sgr(text)
        else:
            self.print(text)

    # -- C0 / C1 controls --------------------------------------------------

    def _explicit_index(self) -> None:
        self._index()  # which ends a pending wrap in this model

    def _explicit_reverse_index(self) -> None:
        self._reverse_index()

    def _end_pending_wrap(self) -> None:
        """Cursor just past the last column back onto it (xterm.js's
        ``_restrictCursor``), as most controls other than printing do."""
        if self.x >= self._limit:
            self.x = self._limit - 1

    def _within_reach(self) -> None:
        """Before a move to another row (see _cursor)."""
        if self.x >= self.reach:
            self.x = self.reach - 1

    def _index(self) -> None:
        self._within_reach()
        screen = self._screen
        if self.y == screen.bottom:
            self._scroll_up(1)
        elif self.y < self.height - 1:
            self.y += 1

    def _reverse_index(self) -> None:
        self._within_reach()
        screen = self._screen
        if self.y == screen.top:
            self._scroll_down(1)
        elif self.y > 0:
            self.y -= 1

    def _scroll_up(self, count: int) -> None:
        screen = self._screen
        rows = screen.rows
        top, bottom = screen.top, screen.bottom
        commit = top == 0 and screen is self._normal
        if count == 1:  # a line feed at the bottom: the usual case
            row = rows.pop(top)
            rows.insert(bottom, Row())
            if commit:
                self._commit(row, self._wrapping if top == bottom else rows[0].continued)
            return
        height = bottom - top + 1
        for _ in range(min(count, height)):
            row = rows.pop(top)
            rows.insert(bottom, Row())
            if commit:
                self._commit(row, self._wrapping if top == bottom else rows[0].continued)
        if commit and count > height:
            # The blank rows scrolled in scroll off too: empty lines.
            self._finish_pending()
            self._append_lines(EMPTY_LINE, count - height)

    def _index_many(self, count: int) -> None:
        """``count`` line feeds at once (IND without the per-line work)."""
        screen = self._screen
        y = self.y
        if y > screen.bottom:
            self.y = min(y + count, self.height - 1)
            return
        step = min(count, screen.bottom - y)
        self.y = y + step
        if count > step:
            self._scroll_up(count - step)

    def _scroll_down(self, count: int) -> None:
        screen = self._screen
        shift_rows(screen.rows, screen.top, screen.bottom, count)

    # -- escape sequences --------------------------------------------------

    def _save_cursor(self) -> None:
        self._screen.saved = _Saved(
            self.x, self.y, self.style, self._charsets, self._gl, self.origin
        )

    def _restore_cursor(self) -> None:
        saved = self._screen.saved
        if saved is None:
            self.x = self.y = 0
            self.style = DEFAULT.with_link(self.style.link)
            self.origin = False
            self._charsets = [False] * 4
            self._gl = 0
        else:
            self.x = min(saved.x, self.reach - 1)
            self.y = min(saved.y, self.height - 1)
            self.style = saved.style
            self._charsets = list(saved.charsets)
            self._gl = saved.gl
            self.origin = saved.origin
            if self.origin:  # back inside the scroll region (xterm.js)
                top, bottom = self.region()
                self.y = min(max(self.y, top), bottom)
        self._translate = self._charsets[self._gl]

    def _reset(self) -> None:
        """RIS: a fresh window; committed lines stay."""
        self._finish_pending()
        # Rows already blank are kept (a flood of RIS makes none); the
        # alternate screen is made blank when it is entered.
        self._normal = cleared(self._normal, self.height)
        self._alt.saved = None
        self._screen = self._normal
        self._rows = self._normal.rows
        self.x = self.y = 0
        self._reset_modes()

    # -- control sequences -------------------------------------------------

    csi_handlers = HANDLERS
    private_handlers = PRIVATE_HANDLERS

    def _select_graphic_rendition(self, params: str) -> None:
        if self._code is not None:
            self._set_code(self._palette.after_sgr(self._code, params))

    def _erase_code(self) -> str | None:
        """Code of the style erased cells get (xterm's BCE: background only)."""
        if self._code is None:
            return None
        return self._palette.code(self._style.erase_style)

    def _insert_blanks(self, count: int) -> None:
        insert_blanks(self._rows[self.y], self.x, count, self._limit, self._erase_code())

    def _alternate_screen(self, mode: int, on: bool) -> None:
        """Modes 47, 1047 and 1049 as xterm.js does them: the alternate screen
        is blank, with default margins and tab stops, whenever it is entered
        (its saved cursor is kept between visits); 1049 saves the cursor in
        the screen showing when set, and restores it from the normal screen
        when reset, even if nothing switched. What the alternate screen
        showed stays readable after it is left, for snapshots."""
        if on:
            if mode == 1049:
                self._save_cursor()
            if self._screen is self._alt:
                return
            saved = self._alt.saved
            fresh = cleared(self._alt, self.height) if self._alt.rows else Screen(self.height)
            fresh.saved = saved
            self._alt = self._screen = fresh
        else:
            if self._screen is self._alt:
                self._screen = self._normal
            if mode == 1049:
                self._restore_cursor()
        self._rows = self._screen.rows
        if self.x > self.reach or (self.x == self.reach < self._limit):
            self.x = self.reach - 1  # within reach on the other screen
        self.y = min(self.y, self.height - 1)

    # -- strings -----------------------------------------------------------

    def osc_dispatch(self, payload: str) -> None:
        self._last = ""
        if payload.startswith("8;") and self.styled:
            self.style = self.style.with_link(parse_hyperlink(payload))


_CONTINUED = attrgetter("continued")


def parse_hyperlink(payload: str) -> Link | None:
    """The link an OSC 8 payload opens (None closes the current one)."""
    parts = payload.split(";", 2)
    if len(parts) < 3 or not parts[2]:
        return None
    link_id = ""
    for param in parts[1].split(":"):
        if param.startswith("id="):
            link_id = param[3:]
    return Link.make(parts[2], link_id)
