"""A grammar of terminal streams for the differential tests.

Printable text (with wide characters), CR/LF/BS/HT, cursor movement,
erasure, character and line insertion/deletion, scrolling and scroll
margins, tab stops, saved cursors, SGR, insert/autowrap/origin modes and the
alternate screen, with parameters around the screen size (0, 1, past the
edge). A stream is a list of tokens, drawn through a ``Chooser``, so the same
grammar serves Hypothesis (``HypothesisChooser``: draws shrink to small
cases) and seeded generation (``RandomChooser``: the committed cases that
scripts/xterm/differential.mjs renders with xterm.js).

``families`` selects what may appear; ``PYTE_SAFE`` is the part that pyte's
own Stream handles like xterm (see tests/test_differential.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

CSI = "\x1b["


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int: ...

    def choice(self, options: Sequence[T]) -> T: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def integer(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        return self._rng.choice(options)


class HypothesisChooser:
    def __init__(self, data: st.DataObject) -> None:
        self._data = data

    def integer(self, low: int, high: int) -> int:
        return self._data.draw(st.integers(low, high))

    def choice(self, options: Sequence[T]) -> T:
        return self._data.draw(st.sampled_from(options))


_TEXT = "abcXYZ019 -_"
_WIDE = ("漢", "字", "😀")


def _text(c: Chooser, cols: int, rows: int) -> str:
    return "".join(c.choice(_TEXT) for _ in range(c.integer(1, cols + 2)))


def _wide(c: Chooser, cols: int, rows: int) -> str:
    return "".join(c.choice(_WIDE) for _ in range(c.integer(1, 3)))


def _control(c: Chooser, cols: int, rows: int) -> str:
    return c.choice(("\r", "\n", "\r\n", "\b", "\t"))


def _param(c: Chooser, limit: int) -> str:
    """A parameter: absent, 0, 1, around the screen size, or past it."""
    kind = c.integer(0, 4)
    if kind == 0:
        return ""
    if kind == 1:
        return str(c.integer(0, 1))
    if kind == 4:
        return str(limit + c.integer(1, 3))
    return str(c.integer(1, limit))


def _move(c: Chooser, cols: int, rows: int) -> str:
    final = c.choice("ABCDEFGadeHf")
    if final in "Hf":
        return f"{CSI}{_param(c, rows)};{_param(c, cols)}{final}"
    limit = rows if final in "ABEFde" else cols
    return f"{CSI}{_param(c, limit)}{final}"


def _hpa(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}{_param(c, cols)}`"


def _erase(c: Chooser, cols: int, rows: int) -> str:
    final = c.choice("JKX")
    if final == "X":
        return f"{CSI}{_param(c, cols)}X"
    return f"{CSI}{c.choice(('', '0', '1', '2'))}{final}"


def _chars(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}{_param(c, cols)}{c.choice('@P')}"


def _lines(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}{_param(c, rows)}{c.choice('LMST')}"


def _index(c: Chooser, cols: int, rows: int) -> str:
    return c.choice(("\x1bD", "\x1bE", "\x1bM"))


def _margins(c: Chooser, cols: int, rows: int) -> str:
    if c.integer(0, 3) == 0:
        return f"{CSI}r"
    return f"{CSI}{_param(c, rows)};{_param(c, rows)}r"


def _tabs(c: Chooser, cols: int, rows: int) -> str:
    kind = c.integer(0, 3)
    if kind == 0:
        return "\x1bH"
    if kind == 1:
        return f"{CSI}{c.choice(('', '0', '3'))}g"
    return f"{CSI}{_param(c, cols)}{c.choice('IZ')}"


def _cursor(c: Chooser, cols: int, rows: int) -> str:
    return c.choice(("\x1b7", "\x1b8"))


def _sgr(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}{c.choice(('', '0', '1', '31', '7', '44', '1;32', '38;5;208'))}m"


def _insert(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}4{c.choice('hl')}"


def _origin(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}?6{c.choice('hl')}"


def _autowrap(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}?7{c.choice('hl')}"


def _alternate(c: Chooser, cols: int, rows: int) -> str:
    return f"{CSI}?{c.choice(('1049', '47', '1047'))}{c.choice('hl')}"


#: Marked code points whose cells wcwidth and xterm.js's Unicode 11 table
#: agree on: none (U+200B, bidi controls, U+2060, U+FEFF, tags), one
#: (private use, U+00AD) or two (U+115F, family ``wide_marker``).
ZERO_WIDTH_MARKED = "\u200b\u202e\u2066\u200e\u061c\u2060\ufeff\U000e0041\U000e0001"
CELL_MARKED = "\ue000\ue123\U000f0000\u00ad"
#: Markers the input spells (escaped wherever they end up on screen).
SPELLED = ("<U+202E>", "<U+200B>", "<U+", "202E>", "<", "[termscribe: x]")


def _marker(c: Chooser, cols: int, rows: int) -> str:
    """A marked code point: one that takes no cell right after a printed
    character (xterm.js, unlike xterm, gives one a cell of its own after
    anything else: tests/test_differential.py, difference 6), one of one
    or two cells anywhere; or a marker spelled by the input."""
    kind = c.integer(0, 2)
    if kind == 0:
        return c.choice(_TEXT) + c.choice(ZERO_WIDTH_MARKED)
    if kind == 1:
        return c.choice(CELL_MARKED)
    return c.choice(SPELLED)


def _wide_marker(c: Chooser, cols: int, rows: int) -> str:
    return "\u115f"


def _repeat(c: Chooser, cols: int, rows: int) -> str:
    return f"{c.choice(_TEXT)}{CSI}{_param(c, cols)}b"


Family = Callable[[Chooser, int, int], str]

FAMILIES: dict[str, Family] = {
    "text": _text,
    "wide": _wide,
    "control": _control,
    "move": _move,
    "hpa": _hpa,
    "erase": _erase,
    "chars": _chars,
    "lines": _lines,
    "index": _index,
    "margins": _margins,
    "tabs": _tabs,
    "cursor": _cursor,
    "sgr": _sgr,
    "insert": _insert,
    "origin": _origin,
    "autowrap": _autowrap,
    "alternate": _alternate,
    "repeat": _repeat,
    "marker": _marker,
    "wide_marker": _wide_marker,
}
ALL = tuple(FAMILIES)
#: Every family but markers, whose zero-width code points the lines model
#: and the screen mode place as their combining marks after anything but
#: printing (HT: see tests/test_differential.py, difference 6), and which
#: xterm.js shows as the code points themselves.
UNMARKED = tuple(name for name in FAMILIES if name not in ("marker", "wide_marker"))
#: What pyte's own Stream and Screen get right (as xterm does), so that
#: pyte can be an oracle with no help from termscribe: no margins, no line
#: insertion or deletion (pyte's delete_lines keeps a row when the row below
#: it was never written), no HPA (pyte binds it to ``'``, not ``` `` ```), no
#: wide characters, tabs, modes, REP, saved cursors or alternate screen.
PYTE_SAFE = ("text", "control", "move", "erase", "chars", "sgr")
#: What the committed xterm.js cases (corpus/differential) are drawn from:
#: everything but REP (xterm.js wraps it; termscribe stops at the margin) and
#: origin mode (xterm.js 6.0.0 adds the top margin again on relative moves).
#: Each case leaves out wide characters or autowrap changes (xterm.js loses
#: a wide character at the margin when autowrap is off).
XTERM_CASES = tuple(name for name in UNMARKED if name not in ("repeat", "origin"))


def stream(
    c: Chooser, cols: int, rows: int, families: Sequence[str] = ALL, tokens: int = 30
) -> str:
    """Draw one stream of up to ``tokens`` tokens (text weighted up)."""
    weighted = [name for name in families for _ in range(3 if name == "text" else 1)]
    return "".join(FAMILIES[c.choice(weighted)](c, cols, rows) for _ in range(c.integer(1, tokens)))
