"""What a printable code point becomes in a transcript.

Every code point that reaches an interpreter's print path is classified once
(and cached) into a cell width and a treatment. This is the sanitisation
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

Widths come from ``wcwidth`` (East Asian Wide and emoji are 2 cells,
ambiguous-width characters 1, as xterm does by default).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wcwidth import wcwidth

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
    "char_classes",
    "char_info",
    "class_runs",
    "is_join_base",
    "is_simple_run",
    "marker",
]

#: Extra code points joined to one cell (combining marks, ZWJ sequences).
#: A base followed by 100 000 U+0301 keeps this many (CVE-2021-27135).
MAX_COMBINING = 32

NORMAL = 0  # printed as is, with its width (0 = joins the previous cell)
MARK = 1  # replaced by a visible marker such as <U+202E>
CONTEXT = 2  # zero-width joiner-like: kept after a join base, else marked

_ALWAYS_MARKED = re.compile(
    "["
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    "\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f"
    "\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e00ff\U000e01f0-\U000e0fff"
    "]"
)
_CONTEXT_CHARS = re.compile(
    "[\u034f\u180b-\u180d\u180f\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)

_cache: dict[str, tuple[int, int, str]] = {}
# Code points remembered by char_info's cache and by the class tables below:
# past this many they are forgotten and classified again when next seen, so
# that a stream of every code point cannot grow the process without bound.
MAX_CLASSIFIED = 32768


def marker(ch: str) -> str:
    """The visible stand-in for an invisible or bidi code point."""
    return f"<U+{ord(ch):04X}>"


def _is_noncharacter(o: int) -> bool:
    return 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE


def char_info(ch: str) -> tuple[int, int, str]:
    """(width, treatment, text) for one printable code point (>= U+00A0).

    ``text`` is what is stored: the character, its marker or U+FFFD.
    """
    info = _cache.get(ch)
    if info is None:
        if len(_cache) >= MAX_CLASSIFIED:
            _cache.clear()
        info = _cache[ch] = _classify(ch)
    return info


# Code points known to be stored as themselves in one cell (beyond printable
# ASCII), and regexes matching runs of them and any other code point: a run of
# them needs no per-character work. The set only grows (up to a bound), and
# the regexes are rebuilt when it does, which happens once per new character.
_simple: set[str] = set()
_simple_run = re.compile(r"[\x20-\x7e]*")
_not_simple = re.compile(r"[^\x20-\x7e]")
_MAX_SIMPLE = 4096


def is_simple_run(text: str) -> bool:
    """Whether every code point of ``text`` is one cell, stored unchanged."""
    global _simple_run, _not_simple
    end = _simple_run.match(text).end()  # type: ignore[union-attr]  # matches ""
    if end == len(text):
        return True
    first = text[end]
    if char_classes(first)[first] != SINGLE:
        return False  # the usual answer for a run that is not simple
    new = set(_not_simple.findall(text))
    for ch in new:
        width, kind, stored = char_info(ch)
        if width != 1 or kind != NORMAL or stored != ch:
            return False
    # Only BMP code points are learned: the regex engine tests them with a
    # bitmap, but a class of astral ones one by one.
    new = {ch for ch in new if ch <= "\uffff"}
    if new and len(_simple) + len(new) <= _MAX_SIMPLE:
        _simple.update(new)
        known = "".join(sorted(_simple))
        _simple_run = re.compile("[\x20-\x7e" + known + "]*")
        _not_simple = re.compile("[^\x20-\x7e" + known + "]")
    return True


# Classes of code points for printing runs in groups (see char_classes).
SINGLE = 0  # one cell, stored as is
WIDE = 1  # two cells, stored as is
ZERO = 2  # no cell: joins the previous cell (combining marks)
REPLACED = 3  # one cell, stored as U+FFFD
MARKED = 4  # stored as its visible marker
JOINER = 5  # CONTEXT: kept after a join base, else marked

CELLS = 6  # coarse class of SINGLE, WIDE, REPLACED, MARKED (see class_runs)

_classes: dict[str, int] = {chr(c): SINGLE for c in range(0x20, 0x7F)}
_ASCII = len(_classes)
# The same as ``str.translate`` tables to class digits ("0" to "6"), so that a
# regex finds the runs of one class in C (see class_runs).
_class_digits: dict[int, str] = {ord(ch): str(cls) for ch, cls in _classes.items()}
_coarse_digits: dict[int, str] = {ord(ch): str(CELLS) for ch in _classes}
_CLASS_RUN = re.compile("|".join(f"{digit}+" for digit in "0123456"))
#: ``str.translate`` table that turns a run of CELLS code points into cells:
#: a wide character followed by WIDE_TAIL, a marked one by its marker, a
#: noncharacter by U+FFFD.
CELL_TABLE: dict[int, str] = {}


def char_classes(text: str) -> dict[str, int]:
    """The class of every code point of ``text`` (and others): the tables
    hold at least the code points of the last ``text`` given (older ones may
    have been forgotten, see MAX_CLASSIFIED)."""
    classes = _classes
    missing = set(text).difference(classes)
    # Only a text with new code points may empty the tables: a caller
    # iterating class_runs of a longer text relies on them meanwhile.
    if missing and len(classes) + len(missing) > _ASCII + MAX_CLASSIFIED:
        _forget_classes()
        missing = set(text).difference(classes)
    for ch in missing:
        width, kind, stored = char_info(ch)
        if kind == MARK:
            cls = MARKED
        elif kind == CONTEXT:
            cls = JOINER
        elif stored != ch:
            cls = REPLACED
        else:
            cls = (ZERO, SINGLE, WIDE)[width]
        classes[ch] = cls
        _class_digits[ord(ch)] = str(cls)
        _coarse_digits[ord(ch)] = str(cls if cls in (ZERO, JOINER) else CELLS)
        if cls == WIDE:
            CELL_TABLE[ord(ch)] = ch + WIDE_TAIL
        elif cls != SINGLE:
            CELL_TABLE[ord(ch)] = stored
    return classes


def _forget_classes() -> None:
    """Empty the class tables down to printable ASCII, in place (CELL_TABLE
    is imported by the interpreters)."""
    for ch in [ch for ch in _classes if ch > "\x7e"]:
        del _classes[ch]
    for digits in (_class_digits, _coarse_digits):
        for o in [o for o in digits if o > 0x7E]:
            del digits[o]
    CELL_TABLE.clear()


def class_runs(text: str, *, coarse: bool = False) -> Iterator[tuple[int, str]]:
    """``text`` cut into runs of code points of one class, with the class:
    as char_classes, or with ``coarse`` the classes that need no context
    (SINGLE, WIDE, REPLACED, MARKED) merged into CELLS."""
    char_classes(text)
    digits = text.translate(_coarse_digits if coarse else _class_digits)
    for match in _CLASS_RUN.finditer(digits):
        start, end = match.span()
        yield ord(digits[start]) - 48, text[start:end]


# Large blocks whose every code point is wide and needs no other treatment,
# answered without wcwidth's table search (a test checks them against it).
WIDE_BLOCKS = (
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xAC00, 0xD7A3),  # Hangul Syllables
)


def _classify(ch: str) -> tuple[int, int, str]:
    o = ord(ch)
    for first, last in WIDE_BLOCKS:
        if first <= o <= last:
            return 2, NORMAL, ch
    if _is_noncharacter(o):
        return 1, NORMAL, "\ufffd"
    if _ALWAYS_MARKED.match(ch):
        text = marker(ch)
        return len(text), MARK, text
    if _CONTEXT_CHARS.match(ch):
        return 0, CONTEXT, ch
    width = wcwidth(ch)
    if width < 0:  # not printable by wcwidth's tables: show it, never hide it
        text = marker(ch)
        return len(text), MARK, text
    return width, NORMAL, ch


def is_join_base(prev: str) -> bool:
    """Whether a joiner or variation selector may follow ``prev`` (the last
    code point of the previous cell) invisibly."""
    if not prev:
        return False
    if prev < "\x80":
        return prev in "0123456789#*"
    return not prev.isspace()
