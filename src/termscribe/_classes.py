"""The class table: the class of every code point, one digit each (see
``_unicode``), and the regex classes made of its ranges.

A leaf of ``_unicode``: the table is built once at import, the regex
classes when first needed, and nothing here changes after.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ._unicode_data import JOINERS as _JOINER_RANGES
from ._unicode_data import MARKED as _MARKED_RANGES
from ._unicode_data import WIDE as _WIDE_RANGES
from ._unicode_data import ZERO as _ZERO_RANGES

# Classes of code points for printing runs in groups (see class_runs).
SINGLE = 0  # one cell, stored as is
WIDE = 1  # two cells, stored as is
ZERO = 2  # no cell: joins the previous cell (combining marks)
REPLACED = 3  # one cell, stored as U+FFFD
MARKED = 4  # stored as a marker: its width in cells, decorated (see _rows)
JOINER = 5  # CONTEXT: kept after a join base, else marked

_NONCHARACTERS = (
    (0xFDD0, 0xFDEF),
    *((plane + 0xFFFE, plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000)),
)
_SURROGATES = ((0xD800, 0xDFFF),)


# The ranges the class table is made of, each class over the ones before:
# zero width over wide, as ``wcwidth()`` checks them, and the treatments
# above over both.
_SOURCES: tuple[tuple[Sequence[tuple[int, int]], int], ...] = (
    (_WIDE_RANGES, WIDE),
    (_ZERO_RANGES, ZERO),
    (_JOINER_RANGES, JOINER),
    (_MARKED_RANGES, MARKED),
    (_NONCHARACTERS, REPLACED),
    (_SURROGATES, REPLACED),
)


def _class_table() -> str:
    """The class of every code point as one digit each, in a string indexed
    by code point (1.1 MB, built in about a millisecond) from _SOURCES. A
    test checks the table against ``wcwidth()`` and those ranges for every
    code point."""
    table = bytearray(b"0") * 0x110000
    for ranges, cls in _SOURCES:
        digit = b"%d" % cls
        for first, last in ranges:
            table[first : last + 1] = digit * (last + 1 - first)
    return table.decode("ascii")


_TABLE = _class_table()


@lru_cache(maxsize=1)
def _table_runs() -> tuple[tuple[int, int, str], ...]:
    """The class table as maximal runs of one class, ``(first, last,
    digit)`` in order. Every run starts where a range of _SOURCES starts or
    ends, so the digits at those bounds are all there is to read (not the
    1.1 million of the table). Made when first needed, and never changed."""
    bounds = {0}
    for ranges, _ in _SOURCES:
        for first, last in ranges:
            bounds.add(first)
            bounds.add(last + 1)
    starts = sorted(bound for bound in bounds if bound < 0x110000)
    runs: list[tuple[int, int, str]] = []
    for first, after in zip(starts, [*starts[1:], 0x110000], strict=True):
        digit = _TABLE[first]
        if runs and runs[-1][2] == digit:
            runs[-1] = (runs[-1][0], after - 1, digit)
        else:
            runs.append((first, after - 1, digit))
    return tuple(runs)


# Code points that a regex class spells with a backslash (the others are
# written as themselves, which the regex parser reads faster than escapes).
_CLASS_SPECIAL = frozenset("\\]^-[&~|")


def _class_char(cp: int) -> str:
    ch = chr(cp)
    return "\\" + ch if ch in _CLASS_SPECIAL else ch


def _ranges_class(*ranges: tuple[int, int]) -> str:
    return (
        "["
        + "".join(
            _class_char(first) if first == last else f"{_class_char(first)}-{_class_char(last)}"
            for first, last in ranges
        )
        + "]"
    )


# Non-ASCII spaces: a joiner after one is marked, not joined (is_join_base).
_SPACE_RANGES = (
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
# Variation selectors, and the other joiners kept after a join base (see
# _unicode.joins).
_SELECTOR_RANGES = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_OTHER_JOINERS = "\u034f\u200c\u200d"


def _range_chars(ranges: Sequence[tuple[int, int]]) -> str:
    """Every code point of ``ranges``, in a str."""
    return "".join(chr(cp) for first, last in ranges for cp in range(first, last + 1))


# The same as code points (a few hundred), for tests of one code point and
# for the C scan of cells with marks.
_SELECTORS = _range_chars(_SELECTOR_RANGES)
_SPACES = _range_chars(_SPACE_RANGES)


_ASTRAL = "[\U00010000-\U0010ffff]"


def _table_ranges(classes: str, start: int = 0, stop: int = 0x110000) -> list[tuple[int, int]]:
    """The maximal ranges of code points from ``start`` to before ``stop``
    whose digit in the class table is one of ``classes`` (such as "01")."""
    out: list[tuple[int, int]] = []
    for first, last, digit in _table_runs():
        if digit not in classes or last < start or first >= stop:
            continue
        first, last = max(first, start), min(last, stop - 1)
        if out and out[-1][1] + 1 == first:
            out[-1] = (out[-1][0], last)
        else:
            out.append((first, last))
    return out


def _table_class(classes: str, start: int = 0, stop: int = 0x110000) -> str:
    """The regex class of _table_ranges."""
    return _ranges_class(*_table_ranges(classes, start, stop))


def _split_class(classes: str, start: int = 0) -> tuple[str, str]:
    """The regex classes of the BMP and of the astral code points of
    _table_ranges (a class that matches nothing when there are none)."""
    ranges = _table_ranges(classes, start)
    bmp = [(first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF]
    astral = [(max(first, 0x10000), last) for first, last in ranges if last > 0xFFFF]
    return (_ranges_class(*bmp) if bmp else "(?!)"), (_ranges_class(*astral) if astral else "(?!)")


@lru_cache(maxsize=1)
def width_table() -> str:
    """The cells ``wcwidth()`` gives every code point, one digit each
    ("0", "1", "2"), in a string indexed by code point, for ``str.translate``
    (see width_of): made when first needed (a millisecond), never changed."""
    table = bytearray(b"1") * 0x110000
    for ranges, digit in ((_WIDE_RANGES, b"2"), (_ZERO_RANGES, b"0")):
        for first, last in ranges:
            table[first : last + 1] = digit * (last + 1 - first)
    return table.decode("ascii")


def width_of(cp: int) -> int:
    """The cells ``wcwidth()`` gives code point ``cp`` (printable), whatever
    its treatment: 0 for a zero-width one (U+200B, bidi controls, tags,
    combining marks), 2 for a wide one, else 1. A marker takes these cells
    (see ``_rows``), as the terminal gives them to the code point."""
    return ord(width_table()[cp]) - 48
