"""What the helpers of the ``lines`` model see of it.

The lines model (``_model.LinesModel``) is one class. Its control sequences
(``_csi.LinesCsi``) and printing (``_print.Printing``) are mixins of it, and
its Unicode printing (``_unicode``) and repeated batches (``_repeat``)
functions, in modules of their own; they take the model as a ``LinesHost``:
the part of it they use, declared here. They import this interface, never
the class, so no module of the model imports another back. ``Screen`` is
one of the model's two buffers.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Protocol

from .._committed import CommittedLines
from .._controls import SavedCursor
from .._cursor import CursorHost, Params
from .._rows import Line, Row, StylePalette
from .._style import Style
from .._syntax import CsiBodies, ParsedParams
from .._unicode import CellTable

__all__ = ["LinesHost", "Parts", "Screen", "blank", "cleared", "window_lines"]

#: A line's texts between SGR sequences and the style code of each (None:
#: an unstyled model).
Parts = tuple[Sequence[str], Sequence[str] | None]


class Screen:
    """One buffer (normal or alternate): its rows, margins, saved cursor and
    tab stops."""

    __slots__ = ("bottom", "rows", "saved", "tabs", "top")

    def __init__(self, height: int) -> None:
        self.rows = [Row() for _ in range(height)]
        self.top = 0
        self.bottom = height - 1
        self.saved: SavedCursor | None = None
        self.tabs: set[int] | None = None  # None: a stop every 8 columns


_TEXT = attrgetter("text")
_CONTINUED = attrgetter("continued")


def blank(rows: Sequence[Row]) -> bool:
    """Whether every row is as ``Row()`` makes it: no text (a row with no
    text has no styles, marks or omitted characters) and not continued. Three
    scans in C, where making the rows again is a Python call each: floods of
    RIS, ED 2, IL/DL or SU/SD find them blank and leave them."""
    return not any(map(_TEXT, rows)) and not any(map(_CONTINUED, rows))


def cleared(screen: Screen, height: int) -> Screen:
    """``screen`` blank, with default margins, tab stops and no saved
    cursor: the same object if its rows are blank already."""
    if not blank(screen.rows):
        return Screen(height)
    screen.top, screen.bottom, screen.saved, screen.tabs = 0, height - 1, None, None
    return screen


def window_lines(
    rows: Sequence[Row],
    cursor_y: int,
    pending: Sequence[Row],
    pending_omitted: int,
    palette: Sequence[Style],
) -> list[Line]:
    """The normal screen's ``rows`` as logical lines, down to the cursor row
    ``cursor_y`` or the last non-blank row, whichever is lower, after the
    ``pending`` rows (committed rows of an unfinished logical line, with
    ``pending_omitted`` characters dropped from it). ``rows`` may end
    early, after its last non-blank row: the rows below are blank."""
    if len(rows) <= cursor_y:
        rows = [*rows, *(Row() for _ in range(cursor_y + 1 - len(rows)))]
    last = cursor_y
    for index in range(len(rows) - 1, cursor_y, -1):
        row = rows[index]
        if row.trimmed_length() or row.omitted or row.marks:  # marks: those before cell 0
            last = index
            break
    out: list[Line] = []
    group: list[Row] = []
    omitted = 0
    if pending or pending_omitted:
        if rows[0].continued:
            group = list(pending)
            omitted = pending_omitted
        else:
            out.append(Line.from_rows(pending, palette, pending_omitted))
    for row in rows[: last + 1]:
        if group and not row.continued:
            out.append(Line.from_rows(group, palette, omitted))
            group = []
            omitted = 0
        group.append(row)
    if group:
        out.append(Line.from_rows(group, palette, omitted))
    return out


class LinesHost(CursorHost, Protocol):
    """The lines model as its helpers use it (see ``_model`` for each),
    cursor movement's part (``x``, ``y``, ``reach``...) included."""

    # The window.
    width: int | None
    _limit: int
    _normal: Screen
    _screen: Screen
    _rows: list[Row]
    # Modes, style and what REP repeats.
    autowrap: bool
    insert: bool
    lf_returns: bool
    styled: bool
    _translate: bool
    _code: str | None
    _style: Style
    _sgr_runs: dict[str, tuple[str, ...]]
    _wrapping: bool
    _palette: StylePalette
    _last: str
    _fills: int
    # Caches and committed output.
    cell_table: CellTable
    params: ParsedParams
    csi_bodies: CsiBodies
    max_lines: int | None
    committed: CommittedLines

    # Parser events.
    def print(self, text: str) -> None: ...

    # Printing.
    def print_single_cells(self, text: str) -> None: ...
    def _print_unicode(self, text: str) -> None: ...
    def _print_groups(self, text: str) -> None: ...
    def _print_joiners(self, group: str) -> None: ...
    def _omit_joiners(self, rest: str) -> None: ...
    def _print_wide(self, chars: str) -> None: ...
    def _append_styled(self, parts: list[str]) -> bool: ...
    def _sgr_codes(self, code: str, sgrs: list[str]) -> tuple[str, ...]: ...
    def _wrap(self) -> None: ...
    def _print_cells(self, cells: str) -> None: ...
    def _write(self, cells: str, n: int) -> None: ...
    def _put(self, x: int, cells: str, codes: str | None) -> None: ...
    def _base_cell(self) -> int: ...
    def _prev_char(self) -> str: ...
    def _combine(self, mark: str) -> None: ...
    def _print_marker(self, ch: str, width: int) -> None: ...
    def _print_marked(self, group: str) -> None: ...
    def _print_marker_cells(self, chars: str, width: int) -> None: ...
    def _decorate(self, chars: str) -> bool: ...
    def _room(self) -> int: ...
    def _set_code(self, code: str) -> None: ...
    def _part_codes(self, code: str, sgrs: list[str]) -> tuple[str, ...]: ...
    def _erase_code(self) -> str | None: ...
    def _insert_blanks(self, count: int) -> None: ...
    def _erase_line(self, mode: int) -> None: ...

    # Committing, and LF's bulk form (``_scroll``).
    def _print_text(self, text: str) -> None: ...
    def _commit_rows(self, rows: list[Row], below: Row | None) -> None: ...
    def _commit_row(self, row: Row) -> None: ...
    def _finish_pending(self) -> None: ...
    def _scroll_rows(self, new: list[Row]) -> None: ...
    def _carriage_returns(self, parts: list[str], start: int) -> int: ...
    def execute(self, control: str) -> None: ...
    def _plain_run(self, parts: list[str], start: int, step: int, available: int) -> int: ...
    def _plain_slice(self, parts: list[str], start: int, step: int, size: int) -> bool: ...
    def _scroll_texts(self, texts: list[str | Row], styles: list[str], printed: bool) -> None: ...
    def _commit_texts(self, texts: list[str | Row], styles: list[str]) -> None: ...
    def _text_rows(self, texts: list[str | Row], styles: list[str]) -> list[Row]: ...
    def _cell_rows(self, text: str, codes: str) -> list[Row]: ...

    # Moving, tab stops, modes.
    def _index(self) -> None: ...
    def _end_pending_wrap(self) -> None: ...
    def _tab(self, count: int) -> None: ...
    def _back_tab(self, count: int) -> None: ...
    def _save_cursor(self) -> None: ...
    def _restore_cursor(self) -> None: ...
    def _reset_modes(self) -> None: ...
    def _private_mode(self, v: Params, on: bool) -> None: ...
    def _alternate_screen(self, mode: int, on: bool) -> None: ...
