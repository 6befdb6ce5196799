"""Printing runs of text that need more than single cells, in an unbounded
row of the ``lines`` model.

The cells of a run's code points that need no context (as
``_unicode.cell_runs`` makes them), with the combining marks and joiners
that follow them within the run, are stored with one write and one update
of the row's marks. What remains (markers, a mark or joiner with nothing
before it in the run, a run that meets the row cap) goes group by group,
as on rows of a known width. A Hypothesis test compares the two under small row caps.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .._classes import _ranges_class, _table_ranges
from .._rows import MARK_TAG, MAX_LINE_CELLS, WIDE_TAIL
from .._unicode import (
    CELLS,
    JOINER,
    MARKED,
    MAX_COMBINING,
    NORMAL,
    ZERO,
    char_info,
    dropped_cells,
    holds_joiner,
    is_zero_width,
    kept_joiners,
    last_combining,
    zero_width_marked_ranges,
)
from ._host import LinesHost

__all__ = ["print_unbounded"]


def print_unbounded(m: LinesHost, text: str) -> None:
    """Print a run that needs more than single cells in an unbounded row
    (no insert mode): the cells of the run's code points that need no context (as
    cell_runs makes them), with the combining marks and joiners that
    follow them within the run, are stored at once; what remains (a mark
    or joiner with nothing before it in the run, what meets the row cap)
    goes group by group."""
    if m.x >= MAX_LINE_CELLS:
        _print_past_cap(m, text)
        return
    if (
        text[0] < "\x7f"
        and _may_be_letters_and_markers(text)
        and _print_letters_and_markers(m, text)
    ):
        return
    cells: list[str] = []
    marks: list[tuple[int, str]] = []
    end = m.x
    position = 0
    prev = ""  # the last code point of the last cell in ``cells``
    for cls, chars, stored in m.cell_table.cell_runs(text):
        position += len(chars)
        if cls == CELLS and end + len(stored) <= MAX_LINE_CELLS:
            cells.append(stored)
            end += len(stored)
            prev = stored[-2] if stored[-1] == WIDE_TAIL else stored[-1]
            continue
        joined = kept = 0
        if cells:
            # Joined to the last cell (a mark's code point is a join base).
            column = end - 2 if cells[-1][-1] == WIDE_TAIL else end - 1
            held = marks[-1][1] if marks and marks[-1][0] == column else ""
            if cls == ZERO:
                joined = kept = len(chars)
            elif cls == JOINER:
                joined, kept = kept_joiners(prev, chars, max(0, MAX_COMBINING - len(held)))
        if joined:
            if held:
                marks[-1] = (column, held + chars[:kept])
            else:
                marks.append((column, chars[:kept]))
            if kept:  # the last code point the cell keeps (see _store)
                prev = (held + chars[:kept])[:MAX_COMBINING][-1]
            chars = chars[joined:]
            if not chars:
                continue
        if cells and (cls == JOINER or (cls == MARKED and is_zero_width(chars))):
            # Markers that decorate the last cell (the first joiner left is
            # marked, and nothing joins a marker), when they all fit in it.
            held = marks[-1][1] if marks and marks[-1][0] == column else ""
            if len(held) + 2 * len(chars) <= MAX_COMBINING:
                tagged = "".join(map(MARK_TAG.__add__, chars))
                if held:
                    marks[-1] = (column, held + tagged)
                else:
                    marks.append((column, tagged))
                prev = ">"  # what Row.last_char gives for a marker
                continue
        _store(m, cells, marks, end)
        cells = []
        marks = []
        if cls == ZERO:
            m._combine(chars)
        else:
            if joined:  # the rest of a run of joiners, its first one marked
                m._print_joiners(chars)
            else:
                m._print_groups(chars)
            if m.x >= MAX_LINE_CELLS:
                _print_past_cap(m, text[position:])
                return
        end = m.x
    _store(m, cells, marks, end)


_ASCII_PRINTABLE = "".join(map(chr, range(0x20, 0x7F)))


def _may_be_letters_and_markers(text: str) -> bool:
    """Whether the first code point of ``text`` past its printable ASCII
    is marked or a joiner, as in the text _print_letters_and_markers takes
    (a cheap look first: other text never builds its regexes)."""
    rest = text.lstrip(_ASCII_PRINTABLE)
    return bool(rest) and char_info(rest[0])[1] != NORMAL


def _print_letters_and_markers(m: LinesHost, text: str) -> bool:
    """Shortcut: printable ASCII with runs of zero-width markers after its
    characters (marked code points and joiners that no digit, # or *
    precedes, which a joiner would join): each run decorates the cell
    before it, MAX_COMBINING // 2 markers at most, the rest counted as
    omitted, as _print_groups would (a joiner after such a character is a
    marker, and nothing joins a marker). Stored at once when the cells fit
    in the row; False, having done nothing, for any other text."""
    if _letters_and_markers().fullmatch(text) is None or _keycap_joiner().search(text):
        return False
    runs = list(_zero_width_markers().finditer(text))
    cells = text if not runs else _zero_width_markers().sub("", text)
    start = m.x
    if start + len(cells) > MAX_LINE_CELLS:
        # What fits, then the rest on a full row (see _print_past_cap).
        end = _cells_end(runs, MAX_LINE_CELLS - start)
        _print_letters_and_markers(m, text[:end])
        _print_past_cap(m, text[end:])
        return True
    marks: list[tuple[int, str]] = []
    omitted = 0
    room = MAX_COMBINING // 2
    removed = 0  # marker code points before the run
    for match in runs:
        run = match.group()
        column = start + match.start() - removed - 1
        removed += len(run)
        if len(run) > room:
            omitted += len(run) - room
            run = run[:room]
        marks.append((column, "".join(map(MARK_TAG.__add__, run))))
    m._write(cells, len(cells))
    m.x = start + len(cells)
    row = m._rows[m.y]
    if marks:
        if row.marks is None:
            row.marks = {}
        row.marks.update(marks)
    row.omitted += omitted
    return True


def _cells_end(runs: list[re.Match[str]], count: int) -> int:
    """Where the text whose runs of markers ``runs`` are has its
    ``count``-th cell end, with the markers after it."""
    removed = 0
    for match in runs:
        if match.start() - removed > count:
            break
        removed += len(match.group())
    return count + removed


@lru_cache(maxsize=1)
def _zero_width_markers() -> re.Pattern[str]:
    """Runs of code points printed as zero-width markers after a
    character that is not a join base: marked ones wcwidth gives no cell,
    and joiners. Made when first needed, and never changed."""
    ranges = sorted([*zero_width_marked_ranges(), *_table_ranges("5")])
    return re.compile(_ranges_class(*ranges) + "+")


@lru_cache(maxsize=1)
def _letters_and_markers() -> re.Pattern[str]:
    """Text _print_letters_and_markers takes: printable ASCII, each
    character maybe followed by a run of zero-width markers."""
    return re.compile(f"(?:[\x20-\x7e](?:{_zero_width_markers().pattern})?)+")


@lru_cache(maxsize=1)
def _keycap_joiner() -> re.Pattern[str]:
    """A joiner after a digit, # or * (a keycap: it joins them)."""
    return re.compile("[0-9#*]" + _ranges_class(*_table_ranges("5")))


def _print_past_cap(m: LinesHost, text: str) -> None:
    """Text printed on a full unbounded row: its cells are dropped and
    counted, and its marks and zero-width markers join the last cell up to
    MAX_COMBINING (the markers past it counted too). Once that cell is
    full, or holds all but one code point (no room for a marker) when no
    combining mark is left and no joiner can be joined after its last code
    point (see _unicode.holds_joiner), nothing but the count can change."""
    row = m._rows[m.y]
    last = m._base_cell()
    position = 0
    last_mark = last_combining(text)  # a combining mark or a marker
    for cls, chars, stored in m.cell_table.cell_runs(text):
        prev = m._prev_char()
        held = len(row.marks.get(last, "")) if row.marks is not None else 0
        if held >= MAX_COMBINING or (
            held >= MAX_COMBINING - 1 and position > last_mark and not holds_joiner(prev)
        ):
            row.omitted += dropped_cells(text[position:], prev)
            return
        position += len(chars)
        if cls == CELLS:
            row.omitted += len(stored) - stored.count(WIDE_TAIL)
        elif cls == ZERO:
            m._combine(chars)
        else:
            m._print_groups(chars)


def _store(m: LinesHost, cells: list[str], marks: list[tuple[int, str]], end: int) -> None:
    """Store ``cells`` at the cursor, ending at column ``end``, and
    ``marks`` (column, code points) on them."""
    if cells:
        stored = "".join(cells)
        m._write(stored, len(stored))
        m.x = end
    if marks:
        row = m._rows[m.y]
        if row.marks is None:
            row.marks = {}
        row.marks.update((column, chars[:MAX_COMBINING]) for column, chars in marks)
