"""Editing one row: the cell operations of the interpreters, as string slices.

Every function keeps a row's invariants: ``styles`` is either ``""`` (an
unstyled model) or as long as ``text``; ``marks`` only names cells that
exist; a WIDE_TAIL cell always follows its wide character. An edit that
would separate the two halves of a wide character blanks both (xterm).

Markers are decorations and cells like any other (see ``_rows``): they
move with their cell and go with it. The markers that precede cell 0
(``LEAD``) stay when cell 0 is written (they were printed before it) and
go when an erase or a deletion reaches cell 0.

``code`` arguments are style codes (see ``_rows.StylePalette``); ``None``
means the model is unstyled and ``styles`` stays empty.
"""

from __future__ import annotations

from ._rows import BLANK, LEAD, MARK_TAG, WIDE_TAIL, Row
from ._unicode import char_info

__all__ = [
    "blank_cells",
    "delete_cells",
    "insert_blanks",
    "truncate",
    "write",
]

_DEFAULT_CODE = "\x00"


def write(row: Row, x: int, cells: str, code: str | None) -> None:
    """Store ``cells`` (one code point per cell) from column ``x`` on."""
    text = row.text
    length = len(text)
    n = len(cells)
    if x >= length:
        if x > length:
            text += BLANK * (x - length)
            if code is not None:
                row.styles += _DEFAULT_CODE * (x - length)
        row.text = text + cells
        if code is not None:
            row.styles += code * n
        return
    end = x + n
    start = x
    if text[x] == WIDE_TAIL and x:
        start = x - 1
        cells = BLANK + cells
    if end < length and text[end] == WIDE_TAIL:
        cells += BLANK
        end += 1
    row.text = text[:start] + cells + text[end:]
    if code is not None:
        styles = row.styles
        row.styles = styles[:x] + code * n + styles[x + n :]
    if row.marks:
        _drop_marks(row, start, end)


def truncate(row: Row, x: int) -> None:
    """Erase from column ``x`` to the end of the row (EL 0)."""
    text = row.text
    if not x:
        _drop_lead(row)
    if x >= len(text):
        return
    if text[x] == WIDE_TAIL and x:
        row.text = text[: x - 1] + BLANK
        dropped_from = x - 1
    else:
        row.text = text[:x]
        dropped_from = x
    if row.styles:
        row.styles = row.styles[:x]
    if row.marks:
        _drop_marks(row, dropped_from, len(text))


def blank_cells(row: Row, start: int, end: int, code: str | None) -> None:
    """Erase cells [start, end) to BLANK in the erase style ``code``; a wide
    character cut by the range is blanked whole."""
    if not start and end > 0:
        _drop_lead(row)
    text = row.text
    end = min(end, len(text))
    if start >= end:
        return
    wide_start, wide_end = _widen(text, start, end)
    row.text = text[:wide_start] + BLANK * (wide_end - wide_start) + text[wide_end:]
    if code is not None and row.styles:
        styles = row.styles
        row.styles = styles[:start] + code * (end - start) + styles[end:]
    if row.marks:
        _drop_marks(row, wide_start, wide_end)


def delete_cells(row: Row, x: int, count: int) -> None:
    """Delete ``count`` cells at ``x``; the rest of the row moves left (DCH).
    A wide character cut in two loses its other half, which becomes blank."""
    text = row.text
    if not x:
        _drop_lead(row)
    if x >= len(text):
        return
    end = min(len(text), x + count)
    split_start = text[x] == WIDE_TAIL and x > 0
    split_end = end < len(text) and text[end] == WIDE_TAIL
    prefix = text[: x - 1] + BLANK if split_start else text[:x]
    suffix = BLANK + text[end + 1 :] if split_end else text[end:]
    row.text = prefix + suffix
    if row.styles:
        row.styles = row.styles[:x] + row.styles[end:]
    if row.marks:
        _drop_marks(row, x - 1 if split_start else x, end)
        _shift_marks(row, end, x - end)


def insert_blanks(row: Row, x: int, count: int, limit: int, code: str | None) -> None:
    """Insert ``count`` blank cells at ``x``, pushing cells right; cells past
    ``limit`` are lost (ICH)."""
    text = row.text
    if x >= len(text):
        return
    if text[x] == WIDE_TAIL and x:
        text = text[: x - 1] + BLANK + BLANK + text[x + 1 :]
        if row.marks:
            _drop_marks(row, x - 1, x)
    count = min(count, limit - x)
    text = text[:x] + BLANK * count + text[x:]
    if row.styles:
        row.styles = row.styles[:x] + (code or _DEFAULT_CODE) * count + row.styles[x:]
    if row.marks:
        _shift_marks(row, x, count)
    if len(text) > limit:
        text = text[:limit]
        if row.styles:
            row.styles = row.styles[:limit]
        kept = limit
        last = text[-1]
        if last == MARK_TAG and row.marks:  # a marker: the cells of its code point
            last = row.marks.get(limit - 1, " ")[:1] or " "
        if last >= "\x80" and char_info(last)[0] == 2:  # its right half was pushed out
            text = text[:-1] + BLANK
            kept -= 1
        if row.marks:
            _drop_marks(row, kept, limit + count)
    row.text = text


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow [start, end) so that it does not cut a wide character in two."""
    if 0 < start < len(text) and text[start] == WIDE_TAIL:
        start -= 1
    if end < len(text) and text[end] == WIDE_TAIL:
        end += 1
    return start, end


def _drop_lead(row: Row) -> None:
    marks = row.marks
    if marks and LEAD in marks:
        del marks[LEAD]
        if not marks:
            row.marks = None


def _drop_marks(row: Row, start: int, end: int) -> None:
    marks = row.marks
    assert marks is not None
    for index in [i for i in marks if start <= i < end]:
        del marks[index]
    if not marks:
        row.marks = None


def _shift_marks(row: Row, start: int, delta: int) -> None:
    marks = row.marks
    if not marks:
        return
    row.marks = {(i + delta if i >= start else i): m for i, m in marks.items()} or None
