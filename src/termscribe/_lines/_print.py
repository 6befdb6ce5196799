"""Printing in the ``lines`` model: text into the cells of the cursor row.

``Printing`` is the part of ``LinesModel`` that stores printed text: single
cells at once, wide characters two cells each (wrapping early, as xterm),
combining marks and joiners onto the cell before them, markers in the
cells the terminal gives their code point (zero-width ones decorate the
cell before them, or precede cell 0: see ``_rows``), text with SGR
sequences in it, line drawing (``ESC ( 0``) and
insert mode, and the right margin (wrapping, or the row cap of an
unbounded row). It reads and writes the model's cursor and rows through
the ``LinesHost`` interface; scrolling (``_index``) is the model's.
"""

from __future__ import annotations

import re
from operator import mul
from typing import TYPE_CHECKING

from .._edit import write
from .._grammar import sgr_split, without_sgr
from .._rows import BLANK, LEAD, MARK_TAG, MAX_LINE_CELLS, WIDE_TAIL
from .._unicode import (
    JOINER,
    MARKED,
    MAX_COMBINING,
    SINGLE,
    WIDE,
    ZERO,
    class_runs,
    classes,
    holds_joiner,
    is_simple_run,
    kept_joiners,
    width_table,
)
from ._unicode import print_unbounded

if TYPE_CHECKING:
    from ._host import LinesHost

__all__ = ["DEC_SPECIAL_GRAPHICS", "Printing"]

# SGR sequences (of whole styled runs) remembered per model, and the most
# SGR sequences a remembered run may have (log lines have a few; a run with
# thousands is not remembered, so memory stays bounded).
_MAX_SGR_RUNS = 1024
_MAX_SGRS_PER_RUN = 16

#: VT100 line-drawing characters (ESC ( 0), as xterm maps them; 0x5F is
#: xterm's blank glyph, shown as a space. Every model prints with this table.
DEC_SPECIAL_GRAPHICS = str.maketrans(
    {
        "_": " ", "`": "◆", "a": "▒", "b": "␉", "c": "␌", "d": "␍", "e": "␊", "f": "°", "g": "±",
        "h": "␤", "i": "␋", "j": "┘", "k": "┐", "l": "┌", "m": "└", "n": "┼", "o": "⎺",
        "p": "⎻", "q": "─", "r": "⎼", "s": "⎽", "t": "├", "u": "┤", "v": "┴", "w": "┬",
        "x": "│", "y": "≤", "z": "≥", "{": "π", "|": "≠", "}": "£", "~": "·",
    }
)  # fmt: skip


_ZERO_WIDTH_JOINERS = re.compile("[\u200c\u200d]")
_WIDTH_RUNS = re.compile("0+|1+|2+")


class Printing:
    """Printing for the lines model (see the module docstring). Its methods
    take the model as a LinesHost: a mixin of LinesModel, never used alone."""

    def print(self: LinesHost, text: str) -> None:
        if self._translate:
            text = text.translate(DEC_SPECIAL_GRAPHICS)
        if text.isascii() or is_simple_run(text):
            self.print_single_cells(text)
            return
        self._print_unicode(text)
        self._last = text[-1]

    def print_single_cells(self: LinesHost, text: str) -> None:
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

    def print_with_sgr(self: LinesHost, run: str) -> None:
        if not self.styled:
            text = without_sgr(run)
            if text:
                self.print(text)
            return
        parts = sgr_split(run)
        if self._append_styled(parts):
            return
        if parts[0]:
            self.print(parts[0])
        after_sgr = self._palette.after_sgr
        for index in range(1, len(parts), 2):
            self._set_code(after_sgr(self._code or "\x00", parts[index]))
            if parts[index + 1]:
                self.print(parts[index + 1])

    def _append_styled(self: LinesHost, parts: list[str]) -> bool:
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

    def _part_codes(self: LinesHost, code: str, sgrs: list[str]) -> tuple[str, ...]:
        """The code of each text part around ``sgrs`` (``code``, then the
        one after each SGR), cached for the whole sequence: logs repeat the
        same colour pattern line after line."""
        if not sgrs:
            return (code,)
        return self._sgr_runs.get(code + "\x1b".join(sgrs)) or self._sgr_codes(code, sgrs)

    def _sgr_codes(self: LinesHost, code: str, sgrs: list[str]) -> tuple[str, ...]:
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

    def _print_unicode(self: LinesHost, text: str) -> None:
        """Print a run that needs more than single cells (see
        _lines._unicode)."""
        if self.width is not None or self.insert:
            self._print_groups(text)
        else:
            print_unbounded(self, text)

    def _print_groups(self: LinesHost, text: str) -> None:
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
                self._print_joiners(group)
            elif cls == MARKED:
                self._print_marked(group)
            else:  # REPLACED
                self._print_cells("\ufffd" * len(group))

    def _print_cells(self: LinesHost, cells: str) -> None:
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
        x = self.x
        n = len(cells)
        if x + n <= width:  # the usual case: they fit, nothing wraps
            self._write(cells, n)
            self.x = x + n
            return
        i = 0
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
                # Each cell past the margin overwrites the last column: so
                # the last one stays there.
                chunk = cells[i : i + space - 1] + cells[n - 1]
                i = n
                self._write(chunk, len(chunk))
            else:
                chunk = cells[i : i + space]
                i += len(chunk)
                self._write(chunk, len(chunk))
            self.x = x + len(chunk)

    def _print_wide(self: LinesHost, chars: str) -> None:
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

    def _write(self: LinesHost, cells: str, n: int) -> None:
        """Store n cells at the cursor; the caller ensures they fit."""
        if self.insert:
            self._insert_blanks(n)
        code = self._code
        self._put(self.x, cells, None if code is None else code * n)

    def _put(self: LinesHost, x: int, cells: str, codes: str | None) -> None:
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

    def _wrap(self: LinesHost) -> None:
        self._wrapping = True
        self._index()
        self._wrapping = False
        self._rows[self.y].continued = True
        self.x = 0

    def _base_cell(self: LinesHost) -> int:
        """Index of the cell a zero-width character joins: the one left of
        the cursor, even if nothing was written there (-1: none)."""
        row = self._rows[self.y]
        x = min(self.x, self._limit) - 1
        if x >= len(row.text):
            return x
        if x > 0 and row.text[x] == WIDE_TAIL:
            x -= 1
        return x

    def _prev_char(self: LinesHost) -> str:
        x = self._base_cell()
        row = self._rows[self.y]
        return row.last_char(x) if 0 <= x < len(row.text) else ""

    def _room(self: LinesHost) -> int:
        """How many more zero-width code points the cell a zero-width
        character joins can hold."""
        x = self._base_cell()
        marks = self._rows[self.y].marks
        return MAX_COMBINING - len(marks.get(x, "")) if marks else MAX_COMBINING

    def _print_joiners(self: LinesHost, group: str) -> None:
        """Print a run of joiners: those the cell before keeps (see
        _unicode.kept_joiners), then the next one marked. Nothing joins a
        marker, so the rest are markers too; if the cell had no room for
        that one, what it ends with stays, and each later joiner is judged
        after it (see _omit_joiners): as one by one."""
        joined, kept = kept_joiners(self._prev_char(), group, self._room())
        if kept:
            self._combine(group[:kept])
        if joined == len(group):
            return
        if self._decorate(group[joined]):
            if joined + 1 < len(group):
                self._decorate(group[joined + 1 :])
        else:
            self._omit_joiners(group[joined + 1 :])

    def _omit_joiners(self: LinesHost, rest: str) -> None:
        """Joiners after a cell with no room for a marker: each marked one is
        counted as omitted, and what the cell ends with stays, so that each
        is judged after it. After a variation selector, a ZWJ or ZWNJ joins
        (kept if the cell has room for it, else dropped); after anything
        else (a base would have been joined), none does."""
        row = self._rows[self.y]
        if holds_joiner(self._prev_char()):  # a selector
            if self._room() > 0:
                found = _ZERO_WIDTH_JOINERS.search(rest)
                if found is not None:
                    row.omitted += found.start()
                    self._combine(found.group())  # the cell is full now
                    rest = rest[found.end() :]
                    if holds_joiner(self._prev_char()):
                        row.omitted += len(rest) - rest.count("\u200c") - rest.count("\u200d")
                    else:
                        row.omitted += len(rest)
                    return
            row.omitted += len(rest) - rest.count("\u200c") - rest.count("\u200d")
        else:
            row.omitted += len(rest)

    def _print_marked(self: LinesHost, group: str) -> None:
        """Print marked code points, each in the cells the terminal gives
        it (see _print_marker), runs of one width at once."""
        if len(group) == 1:  # the usual case: one among other text
            self._print_marker(group, ord(width_table()[ord(group)]) - 48)
            return
        widths = classes(group, width_table())
        for match in _WIDTH_RUNS.finditer(widths):
            start, end = match.span()
            width = ord(widths[start]) - 48
            if not width:
                self._decorate(group[start:end])
            elif self.width is None:
                self._print_marker_cells(group[start:end], width)
            else:
                for ch in group[start:end]:
                    self._print_marker(ch, width)

    def _print_marker_cells(self: LinesHost, chars: str, width: int) -> None:
        """_print_marker for each of ``chars``, of ``width`` one or two,
        in an unbounded row: their cells are stored at once."""
        x = self.x
        if width == 1:
            self._print_cells(MARK_TAG * len(chars))
        else:
            self._print_wide(MARK_TAG * len(chars))
        stored = (self.x - x) // width
        if stored:
            row = self._rows[self.y]
            if row.marks is None:
                row.marks = {}
            row.marks.update(zip(range(x, x + width * stored, width), chars, strict=False))

    def _print_marker(self: LinesHost, ch: str, width: int) -> None:
        """Print the marked code point ``ch`` in the ``width`` cells the
        terminal gives it: its first cell MARK_TAG, its code point that
        cell's first mark (see ``_rows``); a zero-width one decorates a
        cell (see _decorate). One past the row cap is counted as omitted."""
        if not width:
            self._decorate(ch)
            return
        room = self.width
        stored = self.x + width <= MAX_LINE_CELLS if room is None else room >= width
        if width == 1:
            self._print_cells(MARK_TAG)
        else:
            self._print_wide(MARK_TAG)
        if stored:  # else counted as omitted, or no room at all
            x = self.x - width
            row = self._rows[self.y]
            if row.marks is None:
                row.marks = {x: ch}
            else:
                row.marks[x] = ch

    def _decorate(self: LinesHost, chars: str) -> bool:
        """Zero-width marked code points: markers that decorate the cell a
        combining mark would join, or precede cell 0 at column 0 (see
        ``_rows``). A cell holds MAX_COMBINING code points, a marker two
        (MARK_TAG and its code point); those past that are counted as
        omitted. Whether the first was stored."""
        x = self._base_cell()
        row = self._rows[self.y]
        if x < 0:
            x = LEAD
        elif x >= len(row.text):  # nothing written there: the mark gets a blank cell
            write(row, len(row.text), BLANK * (x + 1 - len(row.text)), self._code and "\x00")
        marks = row.marks
        if marks is None:
            marks = row.marks = {}
        joined = marks.get(x, "")
        room = (MAX_COMBINING - len(joined)) // 2
        if room < len(chars):
            row.omitted += len(chars) - room
            chars = chars[:room]
        if chars:
            marks[x] = joined + "".join(map(MARK_TAG.__add__, chars))
        elif not marks:
            row.marks = None
        return bool(chars)

    def _combine(self: LinesHost, mark: str) -> None:
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


def _wide_cells(chars: str) -> str:
    """Cells of wide characters: each followed by its WIDE_TAIL."""
    return chars.replace("", WIDE_TAIL)[1:]
