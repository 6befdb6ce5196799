"""Rows of cells and finished (committed) lines.

A :class:`Row` is one row of a terminal window, stored as two strings with one
code point per cell, so that printing, overwriting and erasing are string
slices done in C rather than per-cell Python work:

* ``text``: each cell's base character, BLANK where nothing was written (never
  written, erased, or skipped by a cursor movement), WIDE_TAIL for the right
  half of a wide character;
* ``styles``: each cell's style as a one-character code (see StylePalette),
  or ``""`` in an unstyled model (every cell has the default style);
* ``marks``: combining marks and joiners that belong to a cell, by index
  (``None`` while there are none).

A :class:`Line` is a finished logical line (wrapped rows joined), reduced to
runs of equally styled text: what every renderer consumes.

Markers are unforgeable (SECURITY.md, "forged markers"). A marker
termscribe makes (``<U+202E>``, ``[termscribe: 3 characters omitted]``) is
stored with a seal in place of its first character: ``SEAL`` for ``<`` and
``SEAL_BRACKET`` for ``[``, private-use code points that input never
stores raw (``_unicode`` marks them). Making a Line breaks the seals, and
first escapes input that spells the start of a marker: its ``<`` before
``U+`` becomes ``<U+003C>``, its ``[`` before ``termscribe:`` becomes
``<U+005B>``. So in every transcript, text and HTML alike, ``<U+`` and
``[termscribe:`` start real markers only (``MARKERS`` finds them).

Blank cells at the end of a line are not part of it, whatever their
background colour; blank cells inside a line are spaces. Spaces a program
printed are kept even at the end of a line. This is xterm's
``translateToString(true)``, which trims only cells without content.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import accumulate
from operator import itemgetter

from ._style import DEFAULT, MAX_LINK_CHARS, Style

__all__ = [
    "BLANK",
    "EMPTY_LINE",
    "MARKERS",
    "MAX_LINE_CELLS",
    "MAX_STYLES",
    "SEAL",
    "SEAL_BRACKET",
    "WIDE_TAIL",
    "Line",
    "Row",
    "StylePalette",
    "omission_marker",
    "style_runs",
]

#: A cell with no content. Internal only: renderers see a space, or nothing
#: at the end of a line.
BLANK = "\x00"
#: The right half of a wide character. Internal only: renderers see nothing.
WIDE_TAIL = "\x01"

#: Stands for the ``<`` of a marker until a Line is made (see the module
#: docstring).
SEAL = "\ue000"
#: Stands for the ``[`` of an omission or frame marker until a Line is made.
SEAL_BRACKET = "\ue001"
#: The markers of a Line's text: each match is a real one.
MARKERS = re.compile(r"<U\+[0-9A-F]{4,6}>|\[termscribe: [^\]]*\]")
# Input that spells the start of a marker: the character escaped.
_FORGED = re.compile(r"<(?=U\+)|\[(?=termscribe:)")

#: Cells kept per logical line. Past this, printed characters are dropped and
#: counted, and the line ends with a visible omission marker (SECURITY.md,
#: "output growth": a 10 MB line).
MAX_LINE_CELLS = 65536

#: Distinct styles one transcript tracks. Styles first seen after that are
#: shown in the default style (hostile colour churn cannot grow the table).
MAX_STYLES = 65536


# Distinct (style, SGR) transitions remembered per palette.
_MAX_CACHED_SGR = 4096


def omission_marker(count: int, what: str = "characters") -> str:
    """The visible text that stands for content dropped by a cap (sealed:
    see the module docstring)."""
    return f"{SEAL_BRACKET}termscribe: {count} {what} omitted]"


class StylePalette:
    """Maps styles to the one-character codes stored in ``Row.styles``.

    A model's current style is always ``styles[ord(code)]`` for its current
    code, so that a full palette degrades every path the same way."""

    __slots__ = ("_codes", "_link_chars", "after_sgr_cache", "runs_cache", "styles")

    def __init__(self) -> None:
        self.styles: list[Style] = [DEFAULT]
        # By value: an equal style made anew gets the same code.
        self._codes: dict[tuple[object, ...], str] = {DEFAULT.key: "\x00"}
        self._link_chars = 0  # of the link targets the palette holds
        #: code + raw SGR parameters -> the code after that SGR.
        self.after_sgr_cache: dict[str, str] = {}
        #: Runs (start, end, code) of recently seen styles strings (see
        #: Line.from_row): a styles string fully determines them.
        self.runs_cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    def after_sgr(self, code: str, raw: str) -> str:
        """The code of the style ``CSI raw m`` makes of the style of ``code``."""
        key = code + raw
        after = self.after_sgr_cache.get(key)
        if after is None:
            if len(self.after_sgr_cache) >= _MAX_CACHED_SGR:
                self.after_sgr_cache.clear()
            after = self.code(self.styles[ord(code)].apply_sgr(raw))
            self.after_sgr_cache[key] = after
        return after

    @classmethod
    def of(cls, styles: Sequence[Style]) -> StylePalette:
        """The palette whose ``styles`` these are (those of a palette, which
        determine the rest of it)."""
        palette = cls()
        palette.styles[1:] = styles[1:]
        palette._codes = {style.key: chr(number) for number, style in enumerate(styles)}
        palette._link_chars = sum(s.link.size for s in styles if s.link is not None)
        return palette

    def compact(self) -> None:
        """Drop what the palette makes again when asked: its caches and the
        code of each style (code() makes them again from ``styles``)."""
        self._codes.clear()
        self.after_sgr_cache.clear()
        self.runs_cache.clear()

    def code(self, style: Style) -> str:
        code = self._codes.get(style.key)
        if code is None:
            if not self._codes:  # compact: DEFAULT's code is always there
                self._codes = {s.key: chr(number) for number, s in enumerate(self.styles)}
                return self.code(style)
            if len(self.styles) >= MAX_STYLES:
                return "\x00"
            link = style.link
            if link is not None:
                if self._link_chars + link.size > MAX_LINK_CHARS:
                    return self.code(style.with_link(None))  # the text stays, unlinked
                self._link_chars += link.size
            code = self._codes[style.key] = chr(len(self.styles))
            self.styles.append(style)
        return code


class Row:
    __slots__ = ("continued", "marks", "omitted", "styles", "text")

    def __init__(self, text: str = "", styles: str = "") -> None:
        """A row of cells ``text`` (see the module docstring), with one
        palette code a cell in ``styles`` (or none: all default)."""
        self.text = text
        self.styles = styles
        self.marks: dict[int, str] | None = None
        #: This row continues the row above it (the terminal wrapped there),
        #: xterm's ``isWrapped``.
        self.continued = False
        #: Characters dropped because the row reached MAX_LINE_CELLS.
        self.omitted = 0

    def trimmed_length(self) -> int:
        """Number of cells up to the last non-blank one."""
        text = self.text
        end = len(text.rstrip(BLANK)) if text and text[-1] == BLANK else len(text)
        if self.marks and end < len(text):
            end = max(end, max(self.marks) + 1)
        return end

    def last_char(self, index: int) -> str:
        """The last code point stored in cell ``index`` (marks included)."""
        marks = self.marks
        if marks is not None and index in marks:
            return marks[index][-1]
        return self.text[index]

    @property
    def cells(self) -> list[str]:
        """Cell contents as a list (BLANK cells as BLANK, a wide character's
        right half as ``""``, marks joined to their base), for inspection."""
        marks = self.marks or {}
        return [
            "" if ch == WIDE_TAIL else ch + marks.get(index, "")
            for index, ch in enumerate(self.text)
        ]

    def __repr__(self) -> str:
        return f"Row({self.text!r}, continued={self.continued})"


Run = tuple[str, Style]


class Line:
    """A finished logical line: plain text and its styled runs."""

    __slots__ = ("runs", "text")

    def __init__(self, runs: tuple[Run, ...], text: str | None = None) -> None:
        """``runs`` as cells store them (markers sealed), and their text
        joined if known."""
        if text is None:
            text = runs[0][0] if len(runs) == 1 else "".join(map(_first, runs))
        if Line.needs_seal(text):
            runs, text = seal(runs, text)
        self.runs = runs
        self.text = text

    @classmethod
    def unchecked(cls, runs: tuple[Run, ...], text: str) -> Line:
        """A line of ``runs`` and ``text`` as another Line holds them
        (markers already made safe), for stores that keep lines in another
        form: no sealing is done again."""
        line = cls.__new__(cls)
        line.runs = runs
        line.text = text
        return line

    @staticmethod
    def needs_seal(text: str) -> bool:
        """Whether a Line made of ``text`` would seal or escape something
        (see the module docstring)."""
        # "<" first: a search for one character (memchr) rules out most
        # texts, where a search for "<U+" would be slower.
        return (
            ("<" in text and "<U+" in text)
            or "[termscribe:" in text
            or (not text.isascii() and (SEAL in text or SEAL_BRACKET in text))
        )

    @classmethod
    def from_row(
        cls,
        row: Row,
        palette: Sequence[Style],
        runs_cache: dict[str, tuple[tuple[int, int, int], ...]] | None = None,
    ) -> Line:
        """One unwrapped row as a line (the common case, kept fast)."""
        text = row.text
        if not text and not row.omitted:
            return EMPTY_LINE
        if row.omitted or row.marks or text[-1] == BLANK:
            return cls.from_rows((row,), palette)
        styles = row.styles
        if not styles or styles.count(styles[0]) == len(styles):
            style = palette[ord(styles[0])] if styles else DEFAULT
            plain = _plain(text)
            return cls(((plain, style),), plain)
        if BLANK in text or WIDE_TAIL in text:
            runs: list[Run] = []
            _append_runs(runs, row, len(text), palette)
            return cls(tuple(runs))
        # Runs of equal style codes. Logs repeat row layouts, so the runs of a
        # styles string are remembered (as start, end, palette index).
        cache = {} if runs_cache is None else runs_cache
        found = cache.get(styles)
        if found is None:
            ends, codes = style_runs(styles)
            found = tuple(zip([0, *ends[:-1]], ends, map(ord, codes), strict=True))
            if len(styles) <= _MAX_CACHED_CELLS and len(found) <= _MAX_CACHED_RUN_COUNT:
                if len(cache) >= _MAX_CACHED_RUNS:
                    cache.clear()
                cache[styles] = found
        return cls(tuple([(text[a:b], palette[c]) for a, b, c in found]), text)

    @classmethod
    def from_rows(
        cls, rows: Iterable[Row], palette: Sequence[Style], extra_omitted: int = 0
    ) -> Line:
        """Join rows (each after the first continuing the one before)."""
        runs: list[Run] = []
        omitted = extra_omitted
        rows = list(rows)
        last = len(rows) - 1
        for index, row in enumerate(rows):
            omitted += row.omitted
            end = row.trimmed_length() if index == last else len(row.text)
            _append_runs(runs, row, end, palette)
        if omitted:
            marker = omission_marker(omitted)
            runs.append((" " + marker if runs else marker, DEFAULT))
        return cls(_merge(runs))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and self.runs == other.runs

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Line({self.text!r})"


def seal(runs: tuple[Run, ...], text: str) -> tuple[tuple[Run, ...], str]:
    """``runs`` and ``text`` with input that spells the start of a marker
    escaped and the seals of real markers broken (see the module
    docstring)."""
    forged = (
        [m.start() for m in _FORGED.finditer(text)]
        if "<U+" in text or "[termscribe:" in text
        else None
    )
    if forged:
        out: list[Run] = []
        start = 0
        at = 0
        for run_text, style in runs:
            end = start + len(run_text)
            if at < len(forged) and forged[at] < end:
                parts = []
                cut = 0
                while at < len(forged) and forged[at] < end:
                    index = forged[at] - start
                    parts.append(run_text[cut:index])
                    parts.append("<U+003C>" if run_text[index] == "<" else "<U+005B>")
                    cut = index + 1
                    at += 1
                parts.append(run_text[cut:])
                out.append(("".join(parts), style))
            else:
                out.append((run_text, style))
            start = end
        runs = tuple(out)
    if SEAL_BRACKET in text:
        runs = tuple([(_unseal(run_text), style) for run_text, style in runs])
    elif SEAL in text:
        runs = tuple([(run_text.replace(SEAL, "<"), style) for run_text, style in runs])
    return runs, runs[0][0] if len(runs) == 1 else "".join(map(_first, runs))


def _unseal(text: str) -> str:
    return text.replace(SEAL, "<").replace(SEAL_BRACKET, "[")


_EMPTY_RUNS: tuple[Run, ...] = (("", DEFAULT),)
#: The line of a blank row, shared (5 million empty lines cost one object).
EMPTY_LINE = Line(_EMPTY_RUNS)

# A run of equal style codes (and, in _RUNS, the whole run too).
_SAME = re.compile(r"(.)\1*", re.DOTALL)
_RUNS = re.compile(r"((.)\2*)", re.DOTALL)
_first = itemgetter(0)
_second = itemgetter(1)


def style_runs(styles: str) -> tuple[list[int], list[str]]:
    """End index and code of each run of equal codes in ``styles``.

    ``lstrip`` finds a run's end in C; each step copies the rest of the row,
    so after a few dozen runs (style churn) one regex pass takes over."""
    ends: list[int] = []
    codes: list[str] = []
    total = len(styles)
    rest = styles
    while rest:
        if len(codes) == _LSTRIP_RUNS:
            found = _RUNS.findall(rest)
            base = total - len(rest)
            ends.extend(accumulate(map(len, map(_first, found)), initial=base))
            del ends[len(codes)]  # the initial value
            codes.extend(map(_second, found))
            break
        code = rest[0]
        rest = rest.lstrip(code)
        ends.append(total - len(rest))
        codes.append(code)
    return ends, codes


_LSTRIP_RUNS = 32

# Styles strings a palette's runs_cache remembers.
_MAX_CACHED_RUNS = 2048
# Only rows up to this long, with up to this many runs, are remembered (a
# transcript's cache must stay small).
_MAX_CACHED_CELLS = 1024
_MAX_CACHED_RUN_COUNT = 64


def _plain(text: str) -> str:
    """Cell text as shown: blanks are spaces, wide tails nothing."""
    if BLANK in text:
        text = text.replace(BLANK, " ")
    if WIDE_TAIL in text:
        text = text.replace(WIDE_TAIL, "")
    return text


def _cells_text(row: Row, start: int, end: int) -> str:
    marks = row.marks
    text = row.text
    if not marks:
        return _plain(text[start:end])
    pieces = []
    previous = start
    for index in sorted(i for i in marks if start <= i < end):
        pieces.append(text[previous : index + 1])
        pieces.append(marks[index])
        previous = index + 1
    pieces.append(text[previous:end])
    return _plain("".join(pieces))


def _append_runs(runs: list[Run], row: Row, end: int, palette: Sequence[Style]) -> None:
    if end <= 0:
        return
    styles = row.styles[:end]
    if not styles or styles.count(styles[0]) == end:
        runs.append((_cells_text(row, 0, end), palette[ord(styles[0])] if styles else DEFAULT))
        return
    for match in _SAME.finditer(styles):
        start, stop = match.span()
        runs.append((_cells_text(row, start, stop), palette[ord(styles[start])]))


def _merge(runs: list[Run]) -> tuple[Run, ...]:
    if not runs:
        return _EMPTY_RUNS
    out = [runs[0]]
    for text, style in runs[1:]:
        if style is out[-1][1]:
            out[-1] = (out[-1][0] + text, style)
        else:
            out.append((text, style))
    return tuple(out)
