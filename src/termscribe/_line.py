"""Rows of cells and finished (committed) lines.

A :class:`Row` is one row of a terminal window: a list of cell strings and a
parallel list of styles. A cell holds one base character plus any joined
combining marks, BLANK when nothing was written there (never written, erased,
or skipped by a cursor movement), or ``""`` for the right half of a wide
character. A :class:`Line` is a finished logical line (wrapped rows joined),
reduced to runs of equally styled text: what every renderer consumes.

Blank cells at the end of a line are not part of it, whatever their
background colour; blank cells inside a line are spaces. Spaces a program
printed are kept even at the end of a line. This is xterm's
``translateToString(true)``, which trims only cells without content.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._style import DEFAULT, Style

__all__ = ["BLANK", "EMPTY_LINE", "MAX_LINE_CELLS", "Line", "Row", "omission_marker"]

#: A cell with no content. Internal only: renderers see a space, or nothing
#: at the end of a line.
BLANK = "\x00"

#: Cells kept per logical line. Past this, printed characters are dropped and
#: counted, and the line ends with a visible omission marker (SECURITY.md,
#: "output growth": a 10 MB line).
MAX_LINE_CELLS = 65536


def omission_marker(count: int, what: str = "characters") -> str:
    """The visible text that stands for content dropped by a cap."""
    return f"[termscribe: {count} {what} omitted]"


class Row:
    __slots__ = ("cells", "continued", "omitted", "styles")

    def __init__(self) -> None:
        self.cells: list[str] = []
        self.styles: list[Style] = []
        #: This row continues the row above it (the terminal wrapped there),
        #: xterm's ``isWrapped``.
        self.continued = False
        #: Characters dropped because the row reached MAX_LINE_CELLS.
        self.omitted = 0

    def trimmed_length(self) -> int:
        """Number of cells up to the last non-blank one."""
        cells = self.cells
        end = len(cells)
        while end and cells[end - 1] == BLANK:
            end -= 1
        return end

    def __repr__(self) -> str:
        return f"Row({''.join(self.cells)!r}, continued={self.continued})"


Run = tuple[str, Style]


class Line:
    """A finished logical line: plain text and its styled runs."""

    __slots__ = ("runs", "text")

    def __init__(self, runs: tuple[Run, ...]) -> None:
        self.runs = runs
        self.text = runs[0][0] if len(runs) == 1 else "".join(text for text, _ in runs)

    @classmethod
    def from_row(cls, row: Row) -> Line:
        """One unwrapped row as a line (the common case, kept fast)."""
        cells = row.cells
        if not cells and not row.omitted:
            return EMPTY_LINE
        if row.omitted or cells[-1] == BLANK:
            return cls.from_rows((row,))
        styles = row.styles
        first = styles[0]
        if styles.count(first) == len(styles):
            return cls(((_text(cells), first),))
        runs: list[Run] = []
        _append_runs(runs, cells, styles, len(cells))
        return cls(tuple(runs))

    @classmethod
    def from_rows(cls, rows: Iterable[Row], extra_omitted: int = 0) -> Line:
        """Join rows (each after the first continuing the one before)."""
        runs: list[Run] = []
        omitted = extra_omitted
        rows = list(rows)
        last = len(rows) - 1
        for index, row in enumerate(rows):
            omitted += row.omitted
            end = row.trimmed_length() if index == last else len(row.cells)
            _append_runs(runs, row.cells, row.styles, end)
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


_EMPTY_RUNS: tuple[Run, ...] = (("", DEFAULT),)
#: The line of a blank row, shared (5 million empty lines cost one object).
EMPTY_LINE = Line(_EMPTY_RUNS)


def _append_runs(runs: list[Run], cells: list[str], styles: list[Style], end: int) -> None:
    if end <= 0:
        return
    first = styles[0]
    if end == len(styles) and styles.count(first) == end:
        runs.append((_text(cells), first))
        return
    start = 0
    current = first
    for i in range(1, end):
        style = styles[i]
        if style is not current:
            runs.append((_text(cells[start:i]), current))
            start = i
            current = style
    runs.append((_text(cells[start:end]), current))


def _text(cells: list[str]) -> str:
    text = "".join(cells)
    return text.replace(BLANK, " ") if BLANK in text else text


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
