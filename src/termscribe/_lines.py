"""The ``lines`` interpreter: a terminal model whose scrolled-off lines are final.

The model is a window of ``rows`` rows with a cursor, like a terminal screen.
``columns=None`` makes rows unbounded (up to MAX_LINE_CELLS, nothing wraps); a
number makes rows that wide, and printing past the right margin wraps like a
terminal (DECAWM), with wrapped rows joined back into one logical line in the
transcript. Rows that scroll off the top of the window are *committed*: they
can never change again and can be taken out for streaming.

Reference behaviour is xterm (as ``@xterm/headless`` implements it) with
``convertEol``. Decisions, each pinned by a test:

* A bare LF (and VT, FF, which xterm treats as LF) also returns to column 0:
  output captured through pipes has no CR.
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
  fills at most that many, MAX_ALIGNMENT_FILLS times (see ``_lines_csi``).
* A combining mark with no previous cell on its row is shown on a space.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from itertools import repeat
from operator import mul
from typing import TypeVar

from ._controls import Controls
from ._controls import SavedCursor as _Saved
from ._edit import insert_blanks, write
from ._grammar import SGR_SPLIT
from ._line import (
    BLANK,
    EMPTY_LINE,
    MAX_LINE_CELLS,
    WIDE_TAIL,
    Line,
    Row,
    StylePalette,
    omission_marker,
)
from ._lines_csi import (
    COSTLY_REPEAT,
    HANDLERS,
    MAX_REACH,
    MAX_REPEAT,
    alignment_test,
    back_tab,
    private_mode,
    set_tab,
    shift_rows,
    soft_reset,
    tab,
)
from ._lines_grouped import (
    Parts,
    line_of,
    overstrikes_at_once,
    overwrite_run,
    sequence_lines,
    sequence_parts,
    sequence_run,
    split_lines,
    text_lines,
)
from ._lines_host import Screen, cleared
from ._lines_repeat import run_repeated
from ._lines_unicode import print_unbounded
from ._performer import Performer
from ._style import DEFAULT, Link, Style
from ._syntax import CsiBodies, ParsedParams
from ._unicode import (
    JOINER,
    MAX_COMBINING,
    SINGLE,
    WIDE,
    ZERO,
    CellTable,
    char_info,
    class_runs,
    is_simple_run,
    kept_joiners,
    marker,
)

__all__ = ["DEC_SPECIAL_GRAPHICS", "MAX_REPEAT", "LinesModel"]

_T = TypeVar("_T")

# SGR sequences (of whole styled runs) remembered per model, and the most
# SGR sequences a remembered run may have (log lines have a few; a run with
# thousands is not remembered, so memory stays bounded).
_MAX_SGR_RUNS = 1024
_MAX_SGRS_PER_RUN = 16

#: VT100 line-drawing characters (ESC ( 0), as xterm maps them.
DEC_SPECIAL_GRAPHICS = str.maketrans(
    {
        "`": "◆", "a": "▒", "b": "␉", "c": "␌", "d": "␍", "e": "␊", "f": "°", "g": "±",
        "h": "␤", "i": "␋", "j": "┘", "k": "┐", "l": "┌", "m": "└", "n": "┼", "o": "⎺",
        "p": "⎻", "q": "─", "r": "⎼", "s": "⎽", "t": "├", "u": "┤", "v": "┴", "w": "┬",
        "x": "│", "y": "≤", "z": "≥", "{": "π", "|": "≠", "}": "£", "~": "·",
    }
)  # fmt: skip


class LinesModel(Controls, Performer):
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
        self._alt = Screen(rows)
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
        # Rows the last text_lines batch made, with the line each is
        # committed as while unchanged (see _lines_grouped).
        self._made: dict[int, tuple[Row, str, str, Parts]] = {}
        self._reset_modes()
        self._last = ""  # last printed character, for REP
        self._wrapping = False  # inside _wrap: the row scrolling off continues
        # Committed output.
        self._committed: deque[Line] = deque()
        self._dropped_lines = 0
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
        lines = list(self._committed)
        self._committed.clear()
        return lines

    def lines(self) -> list[Line]:
        """Every line of the transcript still held: committed, then window."""
        out: list[Line] = []
        if self._dropped_lines:
            out.append(Line(((omission_marker(self._dropped_lines, "earlier lines"), DEFAULT),)))
        out.extend(self._committed)
        out.extend(self.window_lines())
        return out

    def window_lines(self) -> list[Line]:
        """The normal screen's rows as logical lines, down to the cursor or
        the last non-blank row, whichever is lower."""
        rows = self._normal.rows
        cursor_y = self.y
        if self._screen is self._alt:
            saved = self._normal.saved
            cursor_y = saved.y if saved is not None else 0
        last = cursor_y
        for index in range(len(rows) - 1, cursor_y, -1):
            if rows[index].trimmed_length() or rows[index].omitted:
                last = index
                break
        palette = self._palette.styles
        out: list[Line] = []
        group: list[Row] = []
        omitted = 0
        if self._pending or self._pending_omitted:
            if rows[0].continued:
                group = list(self._pending)
                omitted = self._pending_omitted
            else:
                out.append(Line.from_rows(self._pending, palette, self._pending_omitted))
        for row in rows[: last + 1]:
            if group and not row.continued:
                out.append(Line.from_rows(group, palette, omitted))
                group = []
                omitted = 0
            group.append(row)
        if group:
            out.append(Line.from_rows(group, palette, omitted))
        return out

    def screen_rows(self) -> list[Row]:
        """The rows of the active screen, for screen snapshots."""
        return self._rows

    # -- committing --------------------------------------------------------

    def _commit(self, row: Row, continues: bool) -> None:
        """Row scrolled off the top; ``continues``: the next row continues it."""
        if not continues and not row.continued and not self._pending_omitted:
            if self._pending:
                self._finish_pending()
            made = self._made.pop(id(row), None) if self._made else None
            if (
                made is not None
                and made[0] is row
                and row.text is made[1]
                and row.styles is made[2]
                and not row.marks
                and not row.omitted
            ):
                # Unchanged since text_lines made it.
                self._append_line(line_of(*made[3], self._palette.styles))
            else:
                palette = self._palette
                self._append_line(Line.from_row(row, palette.styles, palette.runs_cache))
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

    def _finish_pending(self) -> None:
        if not self._pending and not self._pending_omitted:
            return
        line = Line.from_rows(self._pending, self._palette.styles, self._pending_omitted)
        self._pending = []
        self._pending_cells = 0
        self._pending_omitted = 0
        self._append_line(line)

    def _append_line(self, line: Line) -> None:
        committed = self._committed
        committed.append(line)
        if self.max_lines is not None and len(committed) > self.max_lines:
            committed.popleft()
            self._dropped_lines += 1

    def _kept(self, items: list[_T]) -> list[_T]:
        """The last of ``items`` to be committed that ``max_lines`` keeps;
        the others count as dropped."""
        limit = self.max_lines
        if limit is not None and len(items) > limit:
            self._dropped_lines += len(items) - limit
            return items[len(items) - limit :]
        return items

    def _commit_texts(self, texts: list[str]) -> None:
        """Commit one line per text, each of single cells in the current
        style, at once (no logical line is pending). Only the lines
        ``max_lines`` keeps are made, and equal texts share one Line."""
        texts = self._kept(texts)
        style = DEFAULT if self._code is None else self._style
        made: dict[str, Line] = {"": EMPTY_LINE}
        lines = []
        for text in texts:
            line = made.get(text)
            if line is None:
                line = made[text] = Line(((text, style),), text)
            lines.append(line)
        self._extend_committed(lines)

    def _extend_committed(self, lines: Iterable[Line]) -> None:
        """Commit finished lines at once (no logical line is pending)."""
        committed = self._committed
        committed.extend(lines)
        limit = self.max_lines
        if limit is not None and len(committed) > limit:
            excess = len(committed) - limit
            self._dropped_lines += excess
            if excess > limit:
                kept = list(committed)[-limit:]
                committed.clear()
                committed.extend(kept)
            else:
                for _ in range(excess):
                    committed.popleft()

    def _append_lines(self, line: Line, count: int) -> None:
        limit = self.max_lines
        if limit is not None and count > limit:
            self._dropped_lines += count - limit
            count = limit
        self._extend_committed(repeat(line, count))

    # -- printing ----------------------------------------------------------

    def print(self, text: str) -> None:
        if self._translate:
            text = text.translate(DEC_SPECIAL_GRAPHICS)
        if (
            text.isascii()
            or is_simple_run(text)
            # Blank cells among single cells: a line whose TABs expand_tabs
            # made blank cells (see _lines_grouped), printed at once.
            or (BLANK in text and is_simple_run(text.replace(BLANK, "")))
        ):
            self.print_single_cells(text)
            return
        self._print_unicode(text)
        self._last = text[-1]

    def print_single_cells(self, text: str) -> None:
        """``print`` for text that is known to be single cells (see
        is_simple_run), with no line drawing on."""
        x = self.x
        n = len(text)
        if self.width is None and not self.insert and x + n <= MAX_LINE_CELLS:
            # Single cells in an unbounded row: the usual case.
            code = self._code
            self._put(x, text, None if code is None else code * n)
            self.x = x + n
        else:
            self._print_cells(text)
        self._last = text[-1]

    def print_with_sgr(self, run: str) -> None:
        parts = SGR_SPLIT.split(run)
        if not self.styled:
            text = "".join(parts[::2])
            if text:
                self.print(text)
            return
        if self._append_styled(parts):
            return
        if parts[0]:
            self.print(parts[0])
        after_sgr = self._palette.after_sgr
        for index in range(1, len(parts), 2):
            self._set_code(after_sgr(self._code or "\x00", parts[index]))
            if parts[index + 1]:
                self.print(parts[index + 1])

    def _append_styled(self, parts: list[str]) -> bool:
        """The common case of print_with_sgr, done with a few string slices:
        single-cell text in an unbounded row. Returns False (having done
        nothing) when the general path is needed."""
        if self.width is not None or self.insert or self._translate:
            return False
        text = "".join(parts[::2])
        n = len(text)
        x = self.x
        if not n or x + n > MAX_LINE_CELLS or not (text.isascii() or is_simple_run(text)):
            return False
        part_codes = self._part_codes(self._code or "\x00", parts[1::2])
        self._put(x, text, "".join(map(mul, part_codes, map(len, parts[::2]))))
        self.x = x + n
        self._set_code(part_codes[-1])
        self._last = text[-1]
        return True

    def _part_codes(self, code: str, sgrs: list[str]) -> tuple[str, ...]:
        """The code of each text part around ``sgrs`` (``code``, then the
        one after each SGR), cached for the whole sequence: logs repeat the
        same colour pattern line after line."""
        if not sgrs:
            return (code,)
        return self._sgr_runs.get(code + "\x1b".join(sgrs)) or self._sgr_codes(code, sgrs)

    def _sgr_codes(self, code: str, sgrs: list[str]) -> tuple[str, ...]:
        """``code`` and the code after each of ``sgrs`` applied in turn,
        remembered."""
        after_sgr = self._palette.after_sgr
        codes = [code]
        current = code
        for raw in sgrs:
            current = after_sgr(current, raw)
            codes.append(current)
        result = tuple(codes)
        # Remembered by code and SGR sequences joined, which is unambiguous
        # for one SGR or more (none is not looked up: [] and [""] join alike).
        if sgrs and len(sgrs) <= _MAX_SGRS_PER_RUN:
            if len(self._sgr_runs) >= _MAX_SGR_RUNS:
                self._sgr_runs.clear()
            self._sgr_runs[code + "\x1b".join(sgrs)] = result
        return result

    def _print_unicode(self, text: str) -> None:
        """Print a run that needs more than single cells (see
        _lines_unicode)."""
        if self.width is not None or self.insert:
            self._print_groups(text)
        else:
            print_unbounded(self, text)

    def _print_groups(self, text: str) -> None:
        """Print ``text`` group by group of code points of one class (see
        ``_unicode.class_runs``)."""
        for cls, group in class_runs(text):
            if cls == SINGLE:
                self._print_cells(group)
            elif cls == WIDE:
                self._print_wide(group)
            elif cls == ZERO:
                self._combine(group)
            elif cls == JOINER:
                # Those kept (see _unicode.kept_joiners), then the rest
                # marked: once one is marked, the next follows ">".
                kept = kept_joiners(self._prev_char(), group)
                if kept:
                    self._combine(group[:kept])
                if kept < len(group):
                    self._print_cells("".join(map(marker, group[kept:])))
            else:  # MARKED, REPLACED
                self._print_cells("".join([char_info(ch)[2] for ch in group]))

    def _print_cells(self, cells: str) -> None:
        """Print single-width cells at the cursor, wrapping as needed."""
        width = self.width
        if width is None:
            x = self.x
            n = len(cells)
            if x + n > MAX_LINE_CELLS:
                keep = max(0, MAX_LINE_CELLS - x)
                self._rows[self.y].omitted += n - keep
                cells = cells[:keep]
                n = keep
                if not n:
                    return
            self._write(cells, n)
            self.x = x + n
            return
        i = 0
        n = len(cells)
        while i < n:
            x = self.x
            if x >= width:
                if self.autowrap:
                    self._wrap()
                    x = 0
                else:
                    x = self.x = width - 1
            space = width - x
            if not self.autowrap and n - i > space:
                chunk = cells[i : i + space - 1] + cells[n - 1]
                i = n
            else:
                chunk = cells[i : i + space]
                i += len(chunk)
            self._write(chunk, len(chunk))
            self.x = x + len(chunk)

    def _print_wide(self, chars: str) -> None:
        """Print wide characters, two cells each, wrapping early (leaving a
        blank cell) when one does not fit at the end of a row, as xterm."""
        width = self.width
        if width is None:
            room = (MAX_LINE_CELLS - self.x) // 2
            if room < len(chars):
                self._rows[self.y].omitted += len(chars) - max(room, 0)
                chars = chars[: max(room, 0)]
            if chars:
                self._write(_wide_cells(chars), 2 * len(chars))
                self.x += 2 * len(chars)
            return
        if width < 2:
            return
        i = 0
        while i < len(chars):
            if self.x >= width - 1:
                if self.autowrap:
                    if self.x == width - 1:
                        self._write(BLANK, 1)
                    self._wrap()
                else:
                    # No room and no wrap: each character overwrites the last two cells.
                    self.x = width - 2
                    i = len(chars) - 1
            count = 1 if not self.autowrap else max(1, (width - self.x) // 2)
            chunk = chars[i : i + count]
            i += len(chunk)
            self._write(_wide_cells(chunk), 2 * len(chunk))
            self.x += 2 * len(chunk)

    def _write(self, cells: str, n: int) -> None:
        """Store n cells at the cursor; the caller ensures they fit."""
        if self.insert:
            self._insert_blanks(n)
        code = self._code
        self._put(self.x, cells, None if code is None else code * n)

    def _put(self, x: int, cells: str, codes: str | None) -> None:
        """Store ``cells`` from column ``x`` of the cursor row, with their
        style codes (None in an unstyled model). Appending, and redrawing a
        whole row, are the usual cases and take one string operation."""
        row = self._rows[self.y]
        length = len(row.text)
        if x == length:
            row.text += cells
            if codes is not None:
                row.styles += codes
        elif not x and len(cells) >= length and not row.marks:
            row.text = cells
            if codes is not None:
                row.styles = codes
        elif (
            not row.marks
            and row.text[x : x + len(cells)] == cells
            and (codes is None or row.styles[x : x + len(cells)] == codes)
        ):
            return  # redrawn as it was: rows are strings, so copy nothing
        else:
            write(row, x, cells, None)  # text, wide characters and marks
            if codes is not None:
                styles = row.styles
                if x > len(styles):
                    styles += "\x00" * (x - len(styles))
                row.styles = styles[:x] + codes + styles[x + len(cells) :]

    def _wrap(self) -> None:
        self._wrapping = True
        self._index()
        self._wrapping = False
        self._rows[self.y].continued = True
        self.x = 0

    def _base_cell(self) -> int:
        """Index of the cell a zero-width character joins: the one left of
        the cursor, even if nothing was written there (-1: none)."""
        row = self._rows[self.y]
        x = min(self.x, self._limit) - 1
        if x >= len(row.text):
            return x
        if x > 0 and row.text[x] == WIDE_TAIL:
            x -= 1
        return x

    def _prev_char(self) -> str:
        x = self._base_cell()
        row = self._rows[self.y]
        return row.last_char(x) if 0 <= x < len(row.text) else ""

    def _combine(self, mark: str) -> None:
        """Join zero-width code points to the previous cell (at most
        MAX_COMBINING per cell; the rest are dropped)."""
        x = self._base_cell()
        if x < 0:
            start = self.x
            self._print_cells(" ")
            x = start if self.x > start else -1
            if x < 0:
                return
        row = self._rows[self.y]
        if x >= len(row.text):  # nothing written there: the mark gets a blank cell
            write(row, len(row.text), BLANK * (x + 1 - len(row.text)), self._code and "\x00")
        marks = row.marks
        if marks is None:
            row.marks = {x: mark[:MAX_COMBINING]}
        else:
            joined = marks.get(x, "")
            if len(joined) < MAX_COMBINING:
                marks[x] = (joined + mark)[:MAX_COMBINING]

    def overwrite_run(self, run: str) -> None:
        overwrite_run(self, run)

    def text_lines(self, run: str) -> None:
        text_lines(self, *split_lines(self, run))

    def sequence_run(self, run: str) -> None:
        run_repeated(self, run, self._sequence_run)

    def _sequence_run(self, run: str) -> None:
        sequence_run(self, sequence_parts(run, self.styled), direct=True)

    def escape_run(self, run: str) -> None:
        run_repeated(self, run, super().escape_run)

    def lines_with_sequences(self, run: str) -> None:
        # In a row of known width, a REP repeats only up to the margin; a REP
        # of a character HTML escapes repeats it fewer times (see repeat_cost).
        if (
            self.width is None
            and not ("\x08" in run and not overstrikes_at_once(self, run))
            and COSTLY_REPEAT.search(run) is None
        ):
            text_lines(self, *sequence_lines(self, run))
        else:
            super().lines_with_sequences(run)

    # -- C0 / C1 controls --------------------------------------------------

    def execute_run(self, run: str) -> None:
        # In this model CR only returns to column 0, which LF does too.
        self._last = ""
        self.x = 0
        count = run.count("\n")
        screen = self._screen
        if count == 1 and self.y == screen.bottom:
            self._scroll_up(1)  # a line feed at the bottom: the usual case
            return
        self._index_many(count)

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

    def _tab(self, count: int) -> None:
        tab(self, count)

    def _back_tab(self, count: int) -> None:
        back_tab(self, count)

    def _set_tab(self) -> None:
        set_tab(self)

    # -- escape sequences --------------------------------------------------

    def _alignment_test(self) -> None:
        alignment_test(self)

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

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        if final == "m":
            if not private and not intermediates and self._code is not None:
                self._set_code(self._palette.after_sgr(self._code, params))
            return
        last = self._last
        self._last = ""
        if intermediates:
            if intermediates == "!" and final == "p" and not private:
                soft_reset(self)
            return
        if private:
            if private == "?" and final in "hl":
                private_mode(self, params, final == "h")
            return
        handler = HANDLERS.get(final)
        if handler is not None:
            handler(self, self.params[params], last)

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
            fresh = cleared(self._alt, self.height)
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


def _wide_cells(chars: str) -> str:
    """Cells of wide characters: each followed by its WIDE_TAIL."""
    return chars.replace("", WIDE_TAIL)[1:]


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
