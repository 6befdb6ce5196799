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

from operator import attrgetter, mul
from typing import TypeVar

from .._committed import CommittedLines
from .._controls import Controls
from .._controls import SavedCursor as _Saved
from .._edit import insert_blanks
from .._grammar import sgr_split, without_sgr
from .._performer import Performer, dispatch_item
from .._rows import (
    BLANK,
    EMPTY_LINE,
    MAX_LINE_CELLS,
    WIDE_TAIL,
    Line,
    Row,
    StylePalette,
)
from .._style import DEFAULT, Link, Style
from .._syntax import CsiBodies, ParsedParams
from .._unicode import CellTable, cell_run_end, is_simple_run
from ._csi import (
    HANDLERS,
    MAX_REACH,
    MAX_REPEAT,
    PRIVATE_HANDLERS,
    alignment_test,
    back_tab,
    set_tab,
    shift_rows,
    soft_reset,
    tab,
)
from ._host import Screen, cleared, window_lines
from ._print import DEC_SPECIAL_GRAPHICS, Printing
from ._repeat import MIN_REPEATS, run_repeated

__all__ = ["DEC_SPECIAL_GRAPHICS", "MAX_REPEAT", "LinesModel"]

#: Plain lines in a row after which LF's bulk form checks the lines that
#: follow a slice at a time (see LinesModel._plain_run); at most
#: MAX_PLAIN_LINES lines are taken at once.
MANY_LINES = 8
MAX_PLAIN_LINES = 4096

_T = TypeVar("_T")


class LinesModel(Printing, Controls, Performer):
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
        if not self._pending and not self._pending_omitted:
            return
        line = Line.from_rows(self._pending, self._palette.styles, self._pending_omitted)
        self._pending = []
        self._pending_cells = 0
        self._pending_omitted = 0
        self._append_line(line)

    def _append_line(self, line: Line) -> None:
        self.committed.append(line)

    def _append_lines(self, line: Line, count: int) -> None:
        self.committed.extend_repeated((line,), count)

    # -- batches (Performer.batch) --------------------------------------------

    def batch(self, parts: list[str]) -> None:
        """Execute a batch (see ``_grammar``): each text by ``print`` or
        ``print_with_sgr``, each item by the function its event calls, and
        whole lines that scroll off the bottom row by ``_scroll_lines``,
        LF's bulk form. A flood that repeats one unit goes through
        ``run_repeated``."""
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
                if item == "\n" and i + 3 < n:
                    after = self._scroll_lines(parts, after)
            elif item[1] == "[" and item[0] == "\x1b":
                csi_dispatch(*bodies[item[2:]])
            else:
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

    def _scroll_lines(self, parts: list[str], start: int) -> int:
        """LF's bulk form: from ``parts[start]``, the texts each followed by
        a line end (LF under the ``crlf`` policy, or CR LF) that are
        printed on the fresh bottom row of the scroll region and scrolled
        off by it, as many as follow (at most MAX_PLAIN_LINES), taken at
        once. Returns the index of the first text not taken (``start`` if
        none is; the LF before it has been executed).

        The cursor must be in column 0 of a blank bottom row of a region
        that starts at the top of the normal screen, with no insert mode or
        line drawing. A text is taken when its characters (SGR sequences
        aside) are cells a row holds: single or wide that fit in a row, or
        single that wrap into rows of a known width (``_wrapped_rows``),
        each continuing the one before. Each is read as its line's
        characters and style codes, and made rows only if the window
        keeps it (``_scroll_texts``). Any other text is printed by
        ``print_text`` on a row of its own where it cannot wrap (an
        unbounded row, or one with two cells for each of its code
        points, the most one takes); else it ends the lines taken, and
        the batch prints it."""
        screen = self._screen
        rows = screen.rows
        y = self.y
        if (
            self.x
            or y != screen.bottom
            or screen.top
            or screen is not self._normal
            or self.insert
            or self._translate
            or not _blank_row(rows[y])
        ):
            return start
        lf_returns = self.lf_returns
        limit = self._limit
        unbounded = self.width is None
        wraps = self.autowrap and not unbounded
        code = self._code
        part_codes = self._part_codes
        n = len(parts)
        texts: list[str | Row] = []
        styles: list[str] = []
        printed = False
        plain = 0  # plain lines in a row: single cells, no SGR, one line end
        i = start
        stop = min(n - 1, start + 4 * MAX_PLAIN_LINES)
        while i < stop:
            if plain >= MANY_LINES:
                step = 4 if parts[i - 3] == "\r" else 2  # as the last line ended
                taken = self._plain_run(parts, i, step, (stop + 1 - i) // step)
                if taken:
                    texts += parts[i : i + step * taken : step]
                    styles += [code or ""] * taken
                    i += step * taken
                    continue
                plain = 0
            end = parts[i + 1]
            if end == "\n":
                if not lf_returns:
                    break
                after = i + 2
            elif end == "\r" and i + 3 < n and parts[i + 2] == "" and parts[i + 3] == "\n":
                after = i + 4
            else:
                break
            text = parts[i]
            line_code = code
            if "\x1b" not in text:
                chars = text
                codes = code or ""
            elif code is None:
                chars = without_sgr(text)
                codes = ""
            else:
                pieces = sgr_split(text)
                chars = "".join(pieces[::2])
                run_codes = part_codes(code, pieces[1::2])
                codes = "".join(map(mul, run_codes, map(len, pieces[::2])))
                line_code = run_codes[-1]
            if chars.isascii() or is_simple_run(chars):
                if len(chars) <= limit:
                    plain = plain + 1 if chars is text else 0
                elif wraps and len(chars) <= MAX_LINE_CELLS:
                    plain = 0
                else:
                    break
            elif cell_run_end(chars) != len(chars) or (
                2 * len(chars) > limit and len(self.cell_table.wide_cells(chars)) > limit
            ):
                if not unbounded and 2 * len(chars) > limit:
                    break
                # Printed on a row of its own, where nothing wraps: an
                # unbounded row, or one that holds two cells a code point.
                if code is not None:
                    self._set_code(code)
                saved = rows[y]
                rows[y] = row = Row()
                self._print_text(text)
                rows[y] = saved
                self.x = 0
                texts.append(row)
                styles.append("")
                printed = True
                code = self._code
                i = after
                continue
            texts.append(chars)
            styles.append(codes)
            code = line_code
            i = after
        if texts:
            self._scroll_texts(texts, styles, printed)
            if code is not None:
                self._set_code(code)
        return i

    def _plain_run(self, parts: list[str], start: int, step: int, available: int) -> int:
        """How many of the ``available`` lines from ``parts[start]`` are
        plain (see _plain_slice), checked a slice at a time, the slices
        doubling from MANY_LINES while they pass: the checks cost at most
        about twice the lines taken, and a slice that fails at most as
        much again. The body of most logs."""
        size = MANY_LINES
        taken = 0
        while size <= available and self._plain_slice(parts, start, step, size):
            taken = size
            if size == available:
                break
            size = min(2 * size, available)
        return taken

    def _plain_slice(self, parts: list[str], start: int, step: int, size: int) -> bool:
        """Whether the ``size`` texts from ``parts[start]``, every ``step``
        parts, are single cells with no SGR sequence that fit in a row, each
        ended by LF under the ``crlf`` policy (``step`` 2) or CR LF
        (``step`` 4)."""
        end = start + step * size
        if step == 2:
            if not self.lf_returns or parts[start + 1 : end : 2] != ["\n"] * size:
                return False
        elif (
            parts[start + 1 : end : 4] != ["\r"] * size
            or parts[start + 3 : end : 4] != ["\n"] * size
            or any(parts[start + 2 : end : 4])
        ):
            return False
        texts = parts[start:end:step]
        joined = "".join(texts)
        return (
            "\x1b" not in joined
            and (joined.isascii() or is_simple_run(joined))
            and max(map(len, texts)) <= self._limit
        )

    def _scroll_texts(self, texts: list[str | Row], styles: list[str], printed: bool) -> None:
        """``_scroll_rows`` for the lines whose characters are ``texts``
        and style codes ``styles`` (see _text_rows), or that are rows
        ``printed`` on: those whose rows all leave the window go to the
        store without being made rows."""
        rows = self._screen.rows
        bottom = self._screen.bottom
        limit = self._limit
        kept = 0  # rows of the last lines, from the end
        direct = len(texts) if len(texts) > bottom else 0  # each takes a row at least
        while direct and kept < bottom:
            direct -= 1
            entry = texts[direct]
            kept += 1 if isinstance(entry, Row) else max(1, -(-len(entry) // limit))
        if not direct:
            self._scroll_rows(self._text_rows(texts, styles))
            return
        fresh = Row()
        self._commit_rows(rows[:bottom], fresh)  # the row below them: a line's first
        self._finish_pending()
        if printed:
            self._commit_texts(texts[:direct], styles[:direct])
        elif not self.committed.append_rows(texts[:direct], styles[:direct]):  # type: ignore[arg-type]
            self._commit_rows(self._text_rows(texts[:direct], styles[:direct]), None)
            self._finish_pending()
        new = self._text_rows(texts[direct:], styles[direct:])
        leaving = len(new) - bottom
        self._commit_rows(new[:leaving], new[leaving] if bottom else fresh)
        rows[: bottom + 1] = [*new[leaving:], fresh]
        self._last = ""

    def _commit_texts(self, texts: list[str | Row], styles: list[str]) -> None:
        """Commit each line of ``texts`` (see _scroll_texts), none pending:
        the characters at once, as the store takes them, and each printed
        row as its line."""
        start = 0
        for index, entry in enumerate(texts):
            if isinstance(entry, Row):
                self._commit_texts(texts[start:index], styles[start:index])
                self._commit_row(entry)
                start = index + 1
        if start:
            texts = texts[start:]
            styles = styles[start:]
        if texts and not self.committed.append_rows(texts, styles):  # type: ignore[arg-type]
            self._commit_rows(self._text_rows(texts, styles), None)
            self._finish_pending()

    def _text_rows(self, texts: list[str | Row], styles: list[str]) -> list[Row]:
        """The rows that printing each of ``texts`` from column 0 of a blank
        row writes: its cells, single (which wrap at the width) or wide, in
        the style codes ``styles`` (one a character, or one for all, or
        none when unstyled); or the row it is."""
        limit = self._limit
        new: list[Row] = []
        append = new.append
        for text, codes in zip(texts, styles, strict=True):
            if type(text) is str and text.isascii():  # the usual case
                if len(codes) <= 1:
                    codes *= len(text)
                if len(text) <= limit:
                    append(Row(text, codes))
                else:
                    new.extend(_wrapped_rows(text, codes, limit))
            elif isinstance(text, Row):
                append(text)
            else:
                new.extend(self._cell_rows(text, codes))
        return new

    def _cell_rows(self, text: str, codes: str) -> list[Row]:
        """_text_rows for one text that is not ASCII."""
        cells = text if is_simple_run(text) else self.cell_table.wide_cells(text)
        if len(codes) <= 1:
            codes *= len(cells)
        elif len(cells) != len(text):
            per_cell = []
            next_code = iter(codes).__next__
            code = ""
            for cell in cells:
                if cell != WIDE_TAIL:
                    code = next_code()
                per_cell.append(code)
            codes = "".join(per_cell)
        if len(cells) <= self._limit:
            return [Row(cells, codes)]
        return _wrapped_rows(cells, codes, self._limit)

    def _scroll_rows(self, new: list[Row]) -> None:
        """``new`` rows printed in turn on the blank bottom row of a scroll
        region that starts at the top of the normal screen, each then
        scrolled up by one line: the rows that leave the top are committed,
        in order, and the region ends with the last of them above a blank
        bottom row."""
        screen = self._screen
        rows = screen.rows
        bottom = screen.bottom
        sequence = rows[:bottom] + new
        count = len(new)
        fresh = Row()
        below = sequence[count] if count < len(sequence) else fresh
        self._commit_rows(sequence[:count], below)
        rows[: bottom + 1] = [*sequence[count:], fresh]

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

    csi_handlers = HANDLERS
    private_handlers = PRIVATE_HANDLERS

    def _select_graphic_rendition(self, params: str) -> None:
        if self._code is not None:
            self._set_code(self._palette.after_sgr(self._code, params))

    def _soft_reset(self) -> None:
        soft_reset(self)

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


def _wrapped_rows(cells: str, codes: str, width: int) -> list[Row]:
    """The rows that printing single ``cells`` (with their style ``codes``)
    from column 0 of a blank row ``width`` columns wide fills, with
    autowrap: a row each ``width`` cells, each continuing the one before
    (``_print_cells`` wraps so; the last, full, waits with a pending wrap)."""
    rows = []
    for start in range(0, len(cells), width):
        row = Row(cells[start : start + width], codes[start : start + width])
        row.continued = bool(start)
        rows.append(row)
    return rows


def _blank_row(row: Row) -> bool:
    """Whether ``row`` is as ``Row()`` makes it."""
    return not row.text and not row.continued and not row.omitted and row.marks is None


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
