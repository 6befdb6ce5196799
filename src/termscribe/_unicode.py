"""What a printable code point becomes in a transcript.

Every code point that reaches an interpreter's print path has a class: a cell
width and a treatment, looked up in a table of all code points built at
import from wcwidth's tables and the ranges below. This is the sanitisation
policy of invariant 2 for text, applied where characters enter the cell
model, so that every renderer shows the same thing.

=====================================  ==========================================
input                                  transcript
=====================================  ==========================================
bidi controls (U+061C, U+200E/F,       visible marker ``<U+202E>`` (Trojan Source)
U+202A-202E, U+2066-2069)
invisible format characters (Cf:       visible marker ``<U+200B>``
U+200B, U+2060-2064, U+FEFF, U+00AD,
tags U+E0000-E007F, ...), Hangul
fillers, Khmer inherent vowels
line/paragraph separators              visible marker ``<U+2028>`` (never a raw
U+2028, U+2029                         line break that splitlines() would see)
ZWJ, ZWNJ, variation selectors,        kept when they follow a character they can
Mongolian FVS, CGJ                     join (any non-ASCII, non-space character,
                                       or an ASCII digit, ``#`` or ``*`` for
                                       keycaps); otherwise a visible marker
noncharacters (U+FDD0-FDEF,            U+FFFD
U+nFFFE, U+nFFFF)
combining marks (width 0)              joined to the previous cell, at most
                                       MAX_COMBINING per cell, the rest dropped
=====================================  ==========================================

Widths come from ``wcwidth``'s tables (East Asian Wide and emoji are 2 cells,
ambiguous-width characters 1, as xterm does by default), so that a code
point never seen before costs no more than any other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import compress, repeat

from wcwidth.table_wide import WIDE_EASTASIAN
from wcwidth.table_zero import ZERO_WIDTH

from ._line import WIDE_TAIL

__all__ = [
    "CELLS",
    "CELL_TABLE",
    "CONTEXT",
    "JOINER",
    "MARK",
    "MARKED",
    "MAX_COMBINING",
    "NORMAL",
    "REPLACED",
    "SINGLE",
    "WIDE",
    "ZERO",
    "cell_runs",
    "char_class",
    "char_info",
    "class_runs",
    "dropped_cells",
    "is_cell_run",
    "is_join_base",
    "is_simple_run",
    "marker",
    "wide_cells",
    "with_markers",
]

#: Extra code points joined to one cell (combining marks, ZWJ sequences).
#: A base followed by 100 000 U+0301 keeps this many (CVE-2021-27135).
MAX_COMBINING = 32

NORMAL = 0  # printed as is, with its width (0 = joins the previous cell)
MARK = 1  # replaced by a visible marker such as <U+202E>
CONTEXT = 2  # zero-width joiner-like: kept after a join base, else marked

# Code points remembered by CELL_TABLE (see cell_runs): past this many they are
# forgotten and learned again when next seen, so that a stream of every code
# point cannot grow the process without bound.
MAX_CLASSIFIED = 32768

# Code points with a treatment of their own, as inclusive ranges.
_ALWAYS_MARKED = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180E, 0x180E), (0x200B, 0x200B), (0x200E, 0x200F),
    (0x2028, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE00FF),
    (0xE01F0, 0xE0FFF),
)  # fmt: skip
_CONTEXT_CHARS = (
    (0x034F, 0x034F), (0x180B, 0x180D), (0x180F, 0x180F), (0x200C, 0x200D),
    (0xFE00, 0xFE0F), (0xE0100, 0xE01EF),
)  # fmt: skip
_NONCHARACTERS = (
    (0xFDD0, 0xFDEF),
    *((plane + 0xFFFE, plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000)),
)


def marker(ch: str) -> str:
    """The visible stand-in for an invisible or bidi code point."""
    return f"<U+{ord(ch):04X}>"


def char_info(ch: str) -> tuple[int, int, str]:
    """(width, treatment, text) for one printable code point (>= U+00A0).

    ``text`` is what is stored: the character, its marker or U+FFFD.
    """
    cls = _TABLE[ord(ch)]
    if cls == "0":
        return 1, NORMAL, ch
    if cls == "1":
        return 2, NORMAL, ch
    if cls == "2":
        return 0, NORMAL, ch
    if cls == "3":
        return 1, NORMAL, "\ufffd"
    if cls == "4":
        text = marker(ch)
        return len(text), MARK, text
    return 0, CONTEXT, ch


# Code points known to be stored as themselves in one cell (beyond printable
# ASCII), and regexes matching runs of them and any other code point: a run of
# them needs no per-character work. The set only grows (up to a bound), and
# the regexes are rebuilt when it does, which happens once per new character.
_simple: set[str] = set()
_simple_run = re.compile(r"[\x20-\x7e]*")
_not_simple = re.compile(r"[^\x20-\x7e]")
_MAX_SIMPLE = 4096


def is_simple_run(text: str) -> bool:
    """Whether every code point of ``text`` is one cell, stored unchanged:
    printable (controls, which the class table counts as SINGLE, are not)."""
    global _simple_run, _not_simple
    end = _simple_run.match(text).end()  # type: ignore[union-attr]  # matches ""
    if end == len(text):
        return True
    if char_class(text[end]) != SINGLE:
        return False  # the usual answer for a run that is not simple
    new = "".join(set(_not_simple.findall(text)))
    if min(new) < "\xa0" or new.translate(_TABLE).count("0") != len(new):
        return False
    # Only BMP code points are learned: the regex engine tests them with a
    # bitmap, but a class of astral ones one by one.
    learned = {ch for ch in new if ch <= "\uffff"}
    if learned and len(_simple) + len(learned) <= _MAX_SIMPLE:
        _simple.update(learned)
        known = "".join(sorted(_simple))
        _simple_run = re.compile("[\x20-\x7e" + known + "]*")
        _not_simple = re.compile("[^\x20-\x7e" + known + "]")
    return True


# Classes of code points for printing runs in groups (see class_runs).
SINGLE = 0  # one cell, stored as is
WIDE = 1  # two cells, stored as is
ZERO = 2  # no cell: joins the previous cell (combining marks)
REPLACED = 3  # one cell, stored as U+FFFD
MARKED = 4  # stored as its visible marker
JOINER = 5  # CONTEXT: kept after a join base, else marked

CELLS = 6  # coarse class of SINGLE, WIDE, REPLACED, MARKED (see class_runs)

_CLASS_RUN = re.compile("|".join(f"{digit}+" for digit in "0123456"))
#: ``str.translate`` table that turns the code points of a CELLS run that
#: need it into cells (see cell_runs). Filled as code points are seen, and
#: emptied past MAX_CLASSIFIED entries.
CELL_TABLE: dict[int, str] = {}
# The code points CELL_TABLE is up to date for (those that need no entry too).
_CELL_KNOWN: set[str] = set()


def char_class(ch: str) -> int:
    """The class of one code point (printable ASCII or >= U+00A0)."""
    return ord(_TABLE[ord(ch)]) - 48


def class_runs(text: str) -> Iterator[tuple[int, str]]:
    """``text`` cut into runs of code points of one class, with the class."""
    digits = text.translate(_TABLE)
    for match in _CLASS_RUN.finditer(digits):
        start, end = match.span()
        yield ord(digits[start]) - 48, text[start:end]


def cell_runs(text: str) -> Iterator[tuple[int, str, str]]:
    """``text`` cut into runs of the classes that need context (ZERO,
    JOINER) and runs of the others (CELLS), each with its class and, for
    CELLS, the cells it stores: a wide character followed by WIDE_TAIL, a
    marked one as its marker, a noncharacter as U+FFFD."""
    digits = text.translate(_TABLE)
    coarse = digits.translate(_COARSE)
    learned = False
    for match in _CLASS_RUN.finditer(coarse):
        start, end = match.span()
        cls = ord(coarse[start]) - 48
        chars = text[start:end]
        if cls != CELLS:
            yield cls, chars, chars
            continue
        run = digits[start:end]
        singles = run.count("0")
        if singles == len(run):
            yield cls, chars, chars
        elif not singles and run.count("1") == len(run):
            yield cls, chars, chars.replace("", WIDE_TAIL)[1:]  # all wide
        else:
            if not learned:
                _learn(text)
                learned = True
            yield cls, chars, chars.translate(CELL_TABLE)


def _learn(text: str) -> None:
    """Bring CELL_TABLE up to date for the code points of ``text``."""
    missing = set(text).difference(_CELL_KNOWN)
    if not missing:
        return
    # Entries for the new code points at once, without a Python step per
    # code point but for the marked ones.
    if len(_CELL_KNOWN) + len(missing) > MAX_CLASSIFIED:
        _CELL_KNOWN.clear()
        CELL_TABLE.clear()
        missing = set(text)
    _CELL_KNOWN.update(missing)
    new = "".join(missing)
    digits = new.translate(_TABLE)
    wide = "".join(compress(new, map("1".__eq__, digits)))
    CELL_TABLE.update(zip(map(ord, wide), map(str.__add__, wide, repeat(WIDE_TAIL)), strict=True))
    replaced = "".join(compress(new, map("3".__eq__, digits)))
    CELL_TABLE.update(dict.fromkeys(map(ord, replaced), "\ufffd"))
    for ch in compress(new, map("4".__eq__, digits)):
        CELL_TABLE[ord(ch)] = marker(ch)


def wide_cells(text: str) -> str:
    """The cells of ``text``, whose code points are all SINGLE or WIDE (see
    is_cell_run): each wide character followed by WIDE_TAIL."""
    _learn(text)
    return text.translate(CELL_TABLE)


def dropped_cells(text: str) -> int:
    """How many cells the code points of ``text`` that need no context
    would take, a wide character counted once (as a row counts the cells it
    drops past its cap)."""
    digits = text.translate(_TABLE)
    count = len(digits) - digits.count("2") - digits.count("5")
    if "4" in digits:
        count += sum(len(marker(ch)) - 1 for ch in compress(text, map("4".__eq__, digits)))
    return count


def _latest(tables: Mapping[str, Sequence[tuple[int, int]]]) -> Sequence[tuple[int, int]]:
    """wcwidth's table for the latest Unicode version it knows, which its
    ``wcwidth()`` uses."""
    return tables[max(tables, key=lambda version: tuple(map(int, version.split("."))))]


def _class_table() -> str:
    """The class of every code point as one digit each, in a string indexed
    by code point (1.1 MB, built in about a millisecond). Later ranges
    override earlier ones: zero width over wide, as ``wcwidth()`` checks
    them, and the treatments above over both. A test checks the table
    against ``wcwidth()`` and those ranges for every code point."""
    table = bytearray(b"0") * 0x110000
    for ranges, cls in (
        (_latest(WIDE_EASTASIAN), WIDE),
        (_latest(ZERO_WIDTH), ZERO),
        (_CONTEXT_CHARS, JOINER),
        (_ALWAYS_MARKED, MARKED),
        (_NONCHARACTERS, REPLACED),
    ):
        digit = b"%d" % cls
        for first, last in ranges:
            table[first : last + 1] = digit * (last + 1 - first)
    return table.decode("ascii")


_TABLE = _class_table()


def _ranges_class(*ranges: tuple[int, int]) -> str:
    return "[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges) + "]"


# Non-ASCII spaces: a joiner after one is marked, not joined (is_join_base).
_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"


@lru_cache(maxsize=2)
def _cell_run(marks: bool) -> re.Pattern[str]:
    """Runs of code points that are one cell or wide (SINGLE, WIDE; C0
    controls too), as the ranges of the class table: a few hundred, which
    the regex engine tests with a bitmap in the BMP. With ``marks``, one
    that is not a C0 control may have one or two marks after it, joined to
    it: a combining mark (ZERO), or a joiner (JOINER) where is_join_base
    keeps it (after a code point that is not ASCII or a space, or after a
    digit, # or *, which start keycaps), then any one more (the first mark
    is a join base); ESC only starts SGR sequences, and a mark right after
    one of them or a C0 control is not joined here. Made when first needed
    (about 5 ms)."""
    cells = _table_class("[01]+")
    if not marks:
        return re.compile(cells + "*+")
    # Each class split in two, its BMP code points and its astral ones, the
    # astral part tried only for an astral code point: a code point outside
    # a class is tested against every astral range of it, one by one, and
    # a mark ends each run of printed code points.
    bmp, astral = _split_class("[01]+", start=0x20)
    printed = f"(?:{bmp}++|(?={_ASTRAL}){astral}++)++"
    zero, zero_astral = _split_class("2+")
    joiner, joiner_astral = _split_class("5+")
    base = f"(?:(?<![\x00-\x7f{_SPACES}])|(?<=[0-9#*]))"  # is_join_base
    first = f"(?:{zero}|{base}{joiner}|(?={_ASTRAL})(?:{zero_astral}|{base}{joiner_astral}))"
    mark, mark_astral = _split_class("[25]+")
    second = f"(?:{mark}|(?={_ASTRAL}){mark_astral})"
    # SGR sequences and C0 controls apart: a mark after them joins nothing.
    return re.compile(
        f"(?:{printed}(?:{first}{second}?+)?+|\x1b\\[[0-9;:]*m|[\x00-\x1a\x1c-\x1f]++)*+"
    )


_ASTRAL = "[\U00010000-\U0010ffff]"


def _table_ranges(classes: str, start: int = 0) -> list[tuple[int, int]]:
    """The ranges of code points from ``start`` whose digit in the class
    table matches ``classes`` (a regex of runs of digits)."""
    return [
        (max(m.start(), start), m.end() - 1)
        for m in re.finditer(classes, _TABLE)
        if m.end() > start
    ]


def _table_class(classes: str, start: int = 0) -> str:
    """The regex class of _table_ranges."""
    return _ranges_class(*_table_ranges(classes, start))


def _split_class(classes: str, start: int = 0) -> tuple[str, str]:
    """The regex classes of the BMP and of the astral code points of
    _table_ranges (a class that matches nothing when there are none)."""
    ranges = _table_ranges(classes, start)
    bmp = [(first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF]
    astral = [(max(first, 0x10000), last) for first, last in ranges if last > 0xFFFF]
    return (_ranges_class(*bmp) if bmp else "(?!)"), (_ranges_class(*astral) if astral else "(?!)")


def is_cell_run(text: str, marks: bool = False) -> bool:
    """Whether every code point of ``text`` is SINGLE or WIDE (C0 controls
    count as SINGLE here): its cells are then wide_cells(text). With
    ``marks``, one that is not a C0 control may have one or two combining
    marks or joiners after it that print joined to it, stored as they
    came (see _cell_run)."""
    return _cell_run(marks).fullmatch(text) is not None


# The BMP code points stored as something else whatever surrounds them
# (marked ones and noncharacters), which with_markers replaces. The regex
# engine tests BMP ranges with a bitmap, but astral ranges one by one for
# every character (those of this table would cost 50 ns a character).
_FIXED = re.compile(
    _ranges_class(*((a, b) for a, b in (*_ALWAYS_MARKED, *_NONCHARACTERS) if b <= 0xFFFF))
)
# Distinct code points with_markers replaces at most: each is a pass over
# the text.
_MAX_FIXED = 16


def with_markers(text: str) -> str:
    """``text`` with the BMP code points that are always marked (bidi
    controls, invisible format characters) replaced by their markers and
    the BMP noncharacters by U+FFFD, as a row stores them, unless there are
    more than _MAX_FIXED different ones: a run of single cells either way,
    for the fast paths of printing. The cells and marks a row gets are the
    same (a test checks it): a marker's last code point, ``>``, is not a
    join base, and a combining mark joins it as it would the code point."""
    original = text
    search = _FIXED.search
    match = search(text)
    for _ in range(_MAX_FIXED):
        if match is None:
            return text
        # Every one of them goes at once, so that the search goes on from
        # here (the marker put here is ASCII).
        ch = match.group()
        text = text.replace(ch, "\ufffd" if _TABLE[ord(ch)] == "3" else marker(ch))
        match = search(text, match.start())
    return text if match is None else original


_COARSE = str.maketrans({str(cls): str(CELLS) for cls in (SINGLE, WIDE, REPLACED, MARKED)})


def is_join_base(prev: str) -> bool:
    """Whether a joiner or variation selector may follow ``prev`` (the last
    code point of the previous cell) invisibly."""
    if not prev:
        return False
    if prev < "\x80":
        return prev in "0123456789#*"
    return not prev.isspace()
