"""Bulk forms of line ends in the ``lines`` model: LF's, whole lines printed
on the fresh bottom row of the scroll region and scrolled off by their line
ends, taken at once (see ``LineFeeds._scroll_lines``); and CR's, texts
printed over one another from column 0, the ones printed over wholly
skipped (``LineFeeds._carriage_returns``).

It does what the events do, one operation for many: the characters of a
line and their style codes are read by the same SGR table as printing
(``_part_codes``), a line that needs more than cells (marks, joiners,
markers) is printed by ``print_text`` itself, and the rows that leave the
window are committed as ``_commit_rows`` commits them. The property test
``test_every_chunking_and_one_by_one_give_the_same_output`` holds it equal
to the events one by one (``TERMSCRIBE_ONE_BY_ONE=1``).
"""

from __future__ import annotations

from operator import mul

from .._grammar import sgr_split, without_sgr
from .._rows import MAX_LINE_CELLS, WIDE_TAIL, Row
from .._unicode import cell_run_end, is_simple_run
from ._host import LinesHost

__all__ = ["MANY_LINES", "MAX_PLAIN_LINES", "LineFeeds", "lines_follow"]

#: Items CR's bulk form looks at first for the CRs of a run (then twice as
#: many, and so on).
_CR_WINDOW = 16

#: Plain lines in a row after which LF's bulk form checks the lines that
#: follow a slice at a time (see LineFeeds._plain_run); at most
#: MAX_PLAIN_LINES lines are taken at once.
MANY_LINES = 8
MAX_PLAIN_LINES = 4096


class LineFeeds:
    """LF's bulk form, and CR's, a part of LinesModel."""

    def _carriage_returns(self: LinesHost, parts: list[str], start: int) -> int:
        """CR's bulk form, for a progress bar redrawn in place: from
        ``parts[start]`` (the text after a CR just executed), the texts each
        followed by a CR, as many as follow, each printed after its CR in
        turn; but a text that a later one at least as long prints over from
        column 0 before anything else happens to the row is not printed:
        its cells, and what printing it does beyond them (the half of a
        wide character it cuts), are the later one's too. Returns the index
        of the last text, printed: the batch goes on after it.

        Printed over are texts of single cells with no SGR sequence that fit
        in the row, in no insert mode or line drawing; the texts between
        them too."""
        if self.insert or self._translate:
            self._print_text(parts[start])
            return start
        # The CRs in a row, a window of items at a time (doubling): only a
        # CR among them starts with one, so the CRs that lead their joined
        # text count.
        end = start
        window = _CR_WINDOW
        while True:
            items = "".join(parts[end + 1 : end + 1 + 2 * window : 2])
            crs = len(items) - len(items.lstrip("\r"))
            end += 2 * crs
            if crs < window:
                break
            window *= 2
        texts = parts[start : end + 1 : 2]
        limit = self._limit
        joined = "".join(texts)
        first = 0  # the texts before it are printed over
        if not _plain(joined):
            over = [_plain(text) for text in texts]
        else:
            over = None  # all single cells: the last longest prints over all before it
            longest = max(map(len, texts))
            if longest <= limit:
                first = len(texts) - 1
                while len(texts[first]) != longest:
                    first -= 1
        printed: list[str] = []  # from the last text back
        longest = -1  # the longest text printed over after this one, if any
        for index in range(len(texts) - 1, first - 1, -1):
            text = texts[index]
            size = len(text)
            if size > limit or (over is not None and not over[index]):
                printed.append(text)  # printed, and over nothing before it
                longest = -1
            elif size > longest:
                printed.append(text)
                longest = size
        print_text = self._print_text if over is not None else self.print_single_cells
        for index in range(len(printed) - 1, -1, -1):
            self.execute("\r")
            if printed[index]:
                print_text(printed[index])
        return end

    def _scroll_lines(self: LinesHost, parts: list[str], start: int) -> int:
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

    def _plain_run(self: LinesHost, parts: list[str], start: int, step: int, available: int) -> int:
        """How many of the ``available`` lines from ``parts[start]`` are
        plain (see _plain_slice), checked a slice at a time, each slice as
        long as the lines taken before it (MANY_LINES first) while they
        pass: a slice that fails costs at most as much again as the lines
        taken. The body of most logs."""
        size = MANY_LINES if available >= MANY_LINES else 0
        taken = 0
        while size and self._plain_slice(parts, start + step * taken, step, size):
            taken += size
            size = min(taken, available - taken)
        return taken

    def _plain_slice(self: LinesHost, parts: list[str], start: int, step: int, size: int) -> bool:
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
        return _plain("".join(texts)) and max(map(len, texts)) <= self._limit

    def _scroll_texts(
        self: LinesHost, texts: list[str | Row], styles: list[str], printed: bool
    ) -> None:
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

    def _commit_texts(self: LinesHost, texts: list[str | Row], styles: list[str]) -> None:
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

    def _text_rows(self: LinesHost, texts: list[str | Row], styles: list[str]) -> list[Row]:
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

    def _cell_rows(self: LinesHost, text: str, codes: str) -> list[Row]:
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

    def _scroll_rows(self: LinesHost, new: list[Row]) -> None:
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


def lines_follow(parts: list[str], index: int) -> bool:
    """Whether the item ``parts[index]`` and the one after the text after
    it each end a line as LF's bulk form takes it (LF, or CR then LF after
    no text): two lines at least, which it takes for less than the events
    one by one."""
    n = len(parts)
    for _ in range(2):
        if index >= n:
            return False
        item = parts[index]
        if item == "\n":
            index += 2
        elif item == "\r" and index + 2 < n and parts[index + 2] == "\n" and not parts[index + 1]:
            index += 4
        else:
            return False
    return True


def _plain(text: str) -> bool:
    """Whether ``text`` (a batch's text) is single cells with no SGR
    sequence: what printing writes as it is, in the current style."""
    return "\x1b" not in text and (text.isascii() or is_simple_run(text))
