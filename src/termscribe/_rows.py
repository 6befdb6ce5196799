"""Rows of cells and finished (committed) lines.

A :class:`Row` is one row of a terminal window, stored as two strings with one
code point per cell, so that printing, overwriting and erasing are string
slices done in C rather than per-cell Python work:

* ``text``: each cell's base character, BLANK where nothing was written (never
  written, erased, or skipped by a cursor movement), WIDE_TAIL for the right
  half of a wide character;
* ``styles``: each cell's style as a one-character code (see StylePalette),
  or ``""`` in an unstyled model (every cell has the default style);
* ``marks``: the decorations of a cell, by index (``None`` while there are
  none): combining marks and kept joiners, and zero-width markers. Index
  ``LEAD`` (-1) holds the markers printed at column 0 with no cell before
  them: they precede cell 0.

A :class:`Line` is a finished logical line (wrapped rows joined), reduced to
runs of equally styled text: what every renderer consumes.

Markers take the cells the terminal gives their code point (SECURITY.md,
"markers"). A marked code point (a bidi control, U+200B, a tag, a private
use glyph...) is stored after ``MARK_TAG`` (U+E000, private use, which
input never stores raw: input U+E000 is itself marked): a zero-width one
as a decoration of the cell it follows, like a combining mark, so that it
moves with that cell and goes when that cell is overwritten or erased; one
the terminal gives one or two cells takes them, its first cell ``MARK_TAG``
and its code point that cell's first decoration. So no edit can reach
inside a marker, and none can assemble one.

Making a Line writes each marker as ``<U+202E>``, after escaping what input
spelled: a ``<`` before ``U+`` becomes ``<U+003C>``, a ``[`` before
``termscribe:`` becomes ``<U+005B>``. So in every transcript, text and HTML
alike, ``<U+`` and ``[termscribe:`` start real markers only (``MARKERS``
finds them). Markers termscribe makes while making the Line (``<U+202E>``,
``[termscribe: 3 characters omitted]``) are written with ``SEAL`` and
``SEAL_BRACKET`` for their first character until that escaping is done.

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
    "LEAD",
    "MARKERS",
    "MARK_TAG",
    "MAX_LINE_CELLS",
    "MAX_STYLES",
    "SEAL",
    "SEAL_BRACKET",
    "WIDE_TAIL",
    "Line",
    "Row",
    "StylePalette",
    "cap_markers",
    "omission_marker",
    "shown",
    "style_runs",
]

#: A cell with no content. Internal only: renderers see a space, or nothing
#: at the end of a line.
BLANK = "\x00"
#: The right half of a wide character. Internal only: renderers see nothing.
WIDE_TAIL = "\x01"

#: Stands before a marked code point in a row's cells (see the module
#: docstring).
MARK_TAG = "\ue000"
#: The index in ``Row.marks`` of the markers that precede cell 0.
LEAD = -1
#: Stands for the ``<`` of a marker while a Line is made (see the module
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
            joined = marks[index]
            if joined[-2:-1] == MARK_TAG or (len(joined) == 1 and self.text[index] == MARK_TAG):
                return ">"  # a marker: nothing joins it invisibly
            return joined[-1]
        return self.text[index]

    @property
    def cells(self) -> list[str]:
        """Cell contents as a list (BLANK cells as BLANK, a wide character's
        right half as ``""``, marks joined to their base, the markers that
        precede cell 0 before it), for inspection."""
        marks = self.marks or {}
        cells = [
            "" if ch == WIDE_TAIL else ch + marks.get(index, "")
            for index, ch in enumerate(self.text)
        ]
        if LEAD in marks:
            if cells:
                cells[0] = marks[LEAD] + cells[0]
            else:
                cells.append(marks[LEAD])
        return cells

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
        if not text and not row.omitted and not row.marks:
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
        marked = False
        for index, row in enumerate(rows):
            omitted += row.omitted
            end = row.trimmed_length() if index == last else len(row.text)
            _append_runs(runs, row, end, palette)
            marked = marked or bool(row.marks)
        if marked:
            runs, dropped = cap_markers(runs)
            omitted += dropped
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
    if start == 0 and LEAD in marks:
        pieces.append(marks[LEAD])
    previous = start
    for index in sorted(i for i in marks if start <= i < end):
        pieces.append(text[previous : index + 1])
        pieces.append(marks[index])
        previous = index + 1
    pieces.append(text[previous:end])
    return shown("".join(pieces))


def shown(cells: str) -> str:
    """The text of ``cells`` (a row's, its decorations in place): blanks are
    spaces, wide tails nothing, and each marked code point its marker,
    sealed until the Line escapes what input spelled."""
    cells = _plain(cells)
    if MARK_TAG in cells:
        cells = _MARKED.sub(_sealed_marker, cells)
    return cells


_MARKED = re.compile(MARK_TAG + ".", re.DOTALL)
_SEALED_MARKER = re.compile(SEAL + r"U\+[0-9A-F]{4,6}>")


def cap_markers(runs: list[Run]) -> tuple[list[Run], int]:
    """Markers count against the line cap: ``runs`` (with sealed markers,
    as ``shown`` makes them) kept within MAX_LINE_CELLS characters by
    leaving out the markers past it, from the first that does not fit on;
    and how many were left out (for the omission marker). The cells are
    capped already, by the row."""
    total = sum(len(text) for text, _ in runs)
    if total <= MAX_LINE_CELLS:
        return runs, 0
    marker_chars = sum(len(m) for text, _ in runs for m in _SEALED_MARKER.findall(text))
    budget = MAX_LINE_CELLS - (total - marker_chars)
    dropped = 0

    def keep(match: re.Match[str]) -> str:
        nonlocal budget, dropped
        size = len(match.group())
        if 0 <= size <= budget:
            budget -= size
            return match.group()
        budget = -1  # none after the first left out
        dropped += 1
        return ""

    return [(_SEALED_MARKER.sub(keep, text), style) for text, style in runs], dropped


def _sealed_marker(match: re.Match[str]) -> str:
    return f"{SEAL}U+{ord(match.group()[1]):04X}>"


def _append_runs(runs: list[Run], row: Row, end: int, palette: Sequence[Style]) -> None:
    styles = row.styles[:end]
    if end <= 0:
        if row.marks and LEAD in row.marks:  # markers only
            code = row.styles[:1]
            runs.append((shown(row.marks[LEAD]), palette[ord(code)] if code else DEFAULT))
        return
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
