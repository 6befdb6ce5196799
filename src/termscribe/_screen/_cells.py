"""Between termscribe's styles and lines and pyte's cells.

The ``screen`` interpreter keeps its cells in a ``pyte.Screen``. This module
translates in both directions:

* :func:`sgr_params` turns a termscribe :class:`Style` (already validated by
  ``Style.apply_sgr``) into the SGR parameters pyte understands, so pyte only
  ever receives parameters it handles: palette colours 0-15 as the named
  codes (30-37, 90-97, 40-47, 100-107), 16-255 as ``38;5;n``, truecolor as
  ``38;2;r;g;b``, and the attributes pyte has (bold, italic, underline,
  blink, reverse, strikethrough).
* :func:`style_of` maps a pyte cell back: colour names through pyte's own
  tables (including its ``bfightmagenta`` spelling of SGR 105), six-digit
  hex strings to a palette index 16-255 when they are one of those colours,
  else to truecolor.
* :func:`screen_lines` turns a pyte buffer into :class:`Line` objects.
* :class:`RunCache` remembers what SGR sequences, and runs of text and SGR
  (``_runs``), do from a style.

Both conversions are remembered in a :class:`CellCache`, and the runs in a
:class:`RunCache`, that each screen model owns (never shared between
transcripts: no thread or stream can clear or fill another's); the tables
of pyte's colour names are built at import and never changed.

Deviations from the ``lines`` model, because pyte's cells cannot hold them:

* Dim, overline, concealment, the underline style (double, curly, ...) and
  the underline colour are dropped (underlined text stays underlined).
  Concealed text is never hidden by the renderers anyway.
* A truecolor equal to one of the 256-colour palette's colours 16-255 comes
  back as that palette index (the same colour).
* OSC 8 links are dropped; their text stays (see ``_model``).
* pyte stores a printed space and an erased cell the same way, so each row
  is right-trimmed of spaces, whatever their style, and blank rows at the
  bottom of the screen are left out.

Cells are normalised on the way out as xterm shows them: a wide character
whose right half was overwritten, and a right half whose wide character was
overwritten, are blanks.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pyte import graphics
from pyte.screens import Char, Screen, wcwidth

from .._grammar import sgr_split
from .._rows import (
    EMPTY_LINE,
    LEAD,
    MARK_TAG,
    Line,
    cap_markers,
    omission_marker,
    shown,
)
from .._style import BLINK, BOLD, DEFAULT, INVERSE, ITALIC, RGB_FLAG, STRIKE, Style
from .._unicode import (
    MARK,
    MAX_COMBINING,
    NORMAL,
    REPLACED,
    SINGLE,
    char_info,
    class_runs,
    width_of,
)

__all__ = [
    "MAX_PLANNED_RUN",
    "CellCache",
    "Plan",
    "RunCache",
    "is_wide",
    "row_line",
    "screen_lines",
    "sgr_params",
    "style_of",
    "trim_rows",
]

_FLAGS = ((BOLD, 1), (ITALIC, 3), (BLINK, 5), (INVERSE, 7), (STRIKE, 9))


def _names() -> Mapping[str, int]:
    names: dict[str, int] = {}
    for base, table in ((30, graphics.FG_ANSI), (40, graphics.BG_ANSI)):
        for i in range(8):
            names[table[base + i]] = i
    for base, table in ((90, graphics.FG_AIXTERM), (100, graphics.BG_AIXTERM)):
        for i in range(8):
            names[table[base + i]] = 8 + i
    return MappingProxyType(names)


# pyte's colour names, back to palette indices (read-only).
_NAMES = _names()
# Colours 16-255 are unique hex strings in pyte's table (0-15 are sent by name).
_PALETTE = MappingProxyType(
    {hex_: index for index, hex_ in enumerate(graphics.FG_BG_256) if index >= 16}
)

#: Entries kept in each of a CellCache's tables (bounded like Style's own).
_MAX_CACHED = 4096
# The classes of code points printed as one cell each, as themselves or
# U+FFFD, whatever surrounds them.
_ONE_CELL = (SINGLE, REPLACED)


#: Attributes, and characters for each, whose printed cells a CellCache keeps.
_MAX_GLYPH_ATTRS = 64
_MAX_GLYPHS = 512
#: Cells of printed texts a CellCache keeps (about 3 MB).
_MAX_RUN_CELLS = 32_768


class _NotOneCell(Exception):
    """A character pyte's ``wcwidth`` does not give one cell."""


class _Glyphs(dict[str, Char]):
    """The cells pyte's ``draw`` writes for characters with the attributes
    ``attrs`` (which the table holds, so that its identity stays theirs),
    made when first asked for; at most _MAX_GLYPHS, cleared when full."""

    __slots__ = ("attrs", "wide")

    def __init__(self, attrs: Char) -> None:
        super().__init__()
        self.attrs = attrs
        # Two-cell characters: their cell and the stub after it, or None
        # for one pyte's wcwidth does not give two cells; as many at most.
        self.wide: dict[str, tuple[Char, Char] | None] = {}

    def pair(self, ch: str) -> tuple[Char, Char] | None:
        """The cells pyte's ``draw`` writes for ``ch`` if its ``wcwidth``
        gives it two: the character, then an empty stub."""
        wide = self.wide
        if ch in wide:
            return wide[ch]
        if len(wide) >= _MAX_GLYPHS:
            wide.clear()
        attrs = self.attrs
        pair = wide[ch] = (
            (attrs._replace(data=ch), attrs._replace(data="")) if wcwidth(ch) == 2 else None
        )
        return pair

    def __missing__(self, ch: str) -> Char:
        if wcwidth(ch) != 1:
            raise _NotOneCell
        if len(self) >= _MAX_GLYPHS:
            self.clear()
        cell = self[ch] = self.attrs._replace(data=ch)
        return cell


class CellCache:
    """The conversions of one screen model, remembered (see the module
    docstring): each table is cleared when full, by its owner only."""

    __slots__ = (
        "_attrs",
        "_drawn",
        "_full_row",
        "_glyphs",
        "_glyphs_of",
        "_marked_runs",
        "_params",
        "_run_cells",
        "_runs",
        "_styles",
    )

    def __init__(self) -> None:
        self._params: dict[Style, tuple[int, ...]] = {}
        # The cursor's attributes after a style is selected, by the style's
        # identity (held in the entry, so the identity stays its own) and
        # the class of the attributes before it.
        self._attrs: dict[tuple[int, type], tuple[Style, Char]] = {}
        self._styles: dict[tuple[object, ...], Style] = {}
        # Printed cells by attributes (and their class: a ProtectedChar
        # equals the Char of the same fields), then by character; and the
        # same tables by the identity of the attributes last seen.
        self._glyphs: dict[tuple[Char, type], _Glyphs] = {}
        self._glyphs_of: dict[int, _Glyphs] = {}
        # Cells of texts printed, by the identity of their attributes (held
        # in the entry), column and text; and how many cells they hold.
        self._runs: dict[tuple[int, int, str], tuple[Char, dict[int, Char]]] = {}
        self._run_cells = 0
        self._full_row: tuple[tuple[Char, type, int], dict[int, Char]] | None = None
        self._drawn: dict[str, str] = {}  # see drawn; "" for None
        # Cells of texts with markers (see marked_cells), as _runs; None for
        # a text that has others.
        self._marked_runs: dict[tuple[int, int, str], tuple[Char, dict[int, Char] | None]] = {}

    def cells(self, attrs: Char, x: int, text: str) -> dict[int, Char] | None:
        """The cells pyte's ``draw`` writes for ``text`` from column ``x``
        with the cursor's attributes ``attrs``, one per character, by
        column; None if pyte's ``wcwidth`` gives a character of it any
        width but 1 (pyte draws it otherwise). Cells are immutable, so
        equal ones are shared, and so are the mappings, which callers only
        read (full-screen programs redraw the same text in the same
        columns)."""
        key = (id(attrs), x, text)
        known = self._runs.get(key)
        if known is not None and known[0] is attrs:
            return known[1]
        glyphs = self._glyphs_of.get(id(attrs))
        if glyphs is None or glyphs.attrs is not attrs:
            glyphs = self._glyphs_for(attrs)
        try:
            cells = dict(zip(range(x, x + len(text)), map(glyphs.__getitem__, text), strict=True))
        except _NotOneCell:
            return None
        self._run_cells += len(text)
        if self._run_cells > _MAX_RUN_CELLS:
            self._runs.clear()
            self._run_cells = len(text)
        self._runs[key] = (attrs, cells)
        return cells

    def marked_cells(self, attrs: Char, x: int, text: str) -> dict[int, Char] | None:
        """The cells printing ``text`` (not all ASCII) writes from column
        ``x`` with the attributes ``attrs`` when its code points are one
        cell each (as themselves or U+FFFD) or markers, those of one cell
        (MARK_TAG and the code point) or zero-width ones after a character
        of the text, which decorate its cell (at most MAX_COMBINING code
        points after it, a marker two: see ScreenPrinting._decorate); None
        for any other text. Remembered as ``cells`` are."""
        key = (id(attrs), x, text)
        known = self._marked_runs.get(key)
        if known is not None and known[0] is attrs:
            return known[1]
        cells = _marked_cells(attrs, x, text)
        self._run_cells += len(text)
        if self._run_cells > _MAX_RUN_CELLS:
            self._runs.clear()
            self._marked_runs.clear()
            self._run_cells = len(text)
        self._marked_runs[key] = (attrs, cells)
        return cells

    def wide_cells(self, attrs: Char, ch: str) -> tuple[Char, Char] | None:
        """The two cells pyte's ``draw`` writes for ``ch`` with the cursor's
        attributes ``attrs`` when it fits in the row (see _Glyphs.pair)."""
        glyphs = self._glyphs_of.get(id(attrs))
        if glyphs is None or glyphs.attrs is not attrs:
            glyphs = self._glyphs_for(attrs)
        return glyphs.pair(ch)

    def sgr_params(self, style: Style) -> tuple[int, ...]:
        """:func:`sgr_params`, remembered."""
        params = self._params.get(style)
        if params is None:
            if len(self._params) >= _MAX_CACHED:
                self._params.clear()
            params = self._params[style] = sgr_params(style)
        return params

    def _glyphs_for(self, attrs: Char) -> _Glyphs:
        key = (attrs, type(attrs))
        glyphs = self._glyphs.get(key)
        if glyphs is None:
            if len(self._glyphs) >= _MAX_GLYPH_ATTRS:
                self._glyphs.clear()
            glyphs = self._glyphs[key] = _Glyphs(attrs)
        if len(self._glyphs_of) >= _MAX_GLYPH_ATTRS:
            self._glyphs_of.clear()
        self._glyphs_of[id(attrs)] = glyphs
        return glyphs

    def drawn(self, text: str) -> str | None:
        """What printing ``text`` (not all ASCII) draws when each of its code
        points is one cell, stored as itself or as U+FFFD:
        the text of those cells, which printing would draw as one run;
        None if one is wide, zero-width or a joiner (printing decides those
        one by one). Remembered for short texts."""
        known = self._drawn.get(text)
        if known is None:
            known = ""
            if all(cls in _ONE_CELL for cls, _ in class_runs(text)):
                known = "".join(ch if ch < "\x80" else char_info(ch)[2] for ch in text)
            if len(text) <= MAX_PLANNED_RUN:
                if len(self._drawn) >= _MAX_CACHED:
                    self._drawn.clear()
                self._drawn[text] = known
        return known or None

    def select(self, screen: Screen, style: Style) -> None:
        """``screen.select_graphic_rendition(*self.sgr_params(style))``,
        remembered. The parameters start with 0 (see ``sgr_params``), so
        pyte sets every attribute from its default blank and the
        parameters, and keeps only the class of the cursor's attributes
        (ProtectedChar or Char): the attributes it makes are a function of
        the style and that class (its default blank is the same while
        reverse video, mode ?5, is off, and this model never sets it)."""
        cursor = screen.cursor
        key = (id(style), type(cursor.attrs))
        known = self._attrs.get(key)
        if known is not None and known[0] is style:
            cursor.attrs = known[1]
            return
        if len(self._attrs) >= _MAX_CACHED:
            self._attrs.clear()
        screen.select_graphic_rendition(*self.sgr_params(style))
        self._attrs[key] = (style, cursor.attrs)

    def full_row(self, cell: Char, columns: int) -> dict[int, Char]:
        """A row of ``columns`` cells, each ``cell`` (to compare rows with:
        never changed), remembered for the last cell and width asked."""
        row = self._full_row
        if row is None or row[0] != (cell, type(cell), columns):
            row = self._full_row = (
                (cell, type(cell), columns),
                dict.fromkeys(range(columns), cell),
            )
        return row[1]

    def style_of(self, char: Char) -> Style:
        """:func:`style_of`, remembered."""
        key = tuple(char[1:])
        style = self._styles.get(key)
        if style is None:
            if len(self._styles) >= _MAX_CACHED:
                self._styles.clear()
            style = self._styles[key] = style_of(char)
        return style


def _marked_cells(attrs: Char, x: int, text: str) -> dict[int, Char] | None:
    """See CellCache.marked_cells."""
    datas: list[str] = []
    for ch in text:
        if ch < "\x80":
            datas.append(ch)
            continue
        width, kind, stored = char_info(ch)
        if kind == MARK and width == 1:
            datas.append(stored)
        elif kind == MARK and not width and datas:
            if len(datas[-1]) + 2 <= MAX_COMBINING + 1:
                datas[-1] += stored
        elif kind == NORMAL and width == 1 and wcwidth(stored) == 1:
            datas.append(stored)
        else:
            return None
    return {x + i: attrs._replace(data=data) for i, data in enumerate(datas)}


def sgr_params(style: Style) -> tuple[int, ...]:
    """The SGR parameters that give pyte's cursor the attributes of ``style``.

    Always starts with 0 and has at least one more value, so that pyte takes
    its general path (its ``(0,)`` shortcut is the same attributes anyway).
    """
    out = [0]
    out.extend(code for flag, code in _FLAGS if style.flags & flag)
    if style.underline:
        out.append(4)
    _colour_params(out, style.fg, 30, 90, 38)
    _colour_params(out, style.bg, 40, 100, 48)
    if len(out) == 1:
        out.append(39)
    return tuple(out)


def _colour_params(out: list[int], colour: int | None, base: int, bright: int, head: int) -> None:
    if colour is None:
        return
    if colour & RGB_FLAG:
        out.extend((head, 2, colour >> 16 & 0xFF, colour >> 8 & 0xFF, colour & 0xFF))
    elif colour < 8:
        out.append(base + colour)
    elif colour < 16:
        out.append(bright + colour - 8)
    else:
        out.extend((head, 5, colour))


def style_of(char: Char) -> Style:
    """The termscribe style of a pyte cell (its data is ignored)."""
    flags = 0
    if char.bold:
        flags |= BOLD
    if char.italics:
        flags |= ITALIC
    if char.blink:
        flags |= BLINK
    if char.reverse:
        flags |= INVERSE
    if char.strikethrough:
        flags |= STRIKE
    return Style.make(
        fg=_colour(char.fg),
        bg=_colour(char.bg),
        flags=flags,
        underline=1 if char.underscore else 0,
    )


def _colour(name: str) -> int | None:
    index = _NAMES.get(name)
    if index is not None:
        return index
    index = _PALETTE.get(name)
    if index is not None:
        return index
    if len(name) == 6:
        try:
            return RGB_FLAG | int(name, 16)
        except ValueError:
            return None
    return None  # "default"


def is_wide(data: str) -> bool:
    """Whether a cell's ``data`` is a wide character (its left half)."""
    # U+1100 is the first code point wcwidth gives width 2.
    if data[:1] == MARK_TAG:  # a marker: the cells of its code point
        return width_of(ord(data[1])) == 2
    return data >= "\u1100" and char_info(data[0])[0] == 2


def row_line(row: Mapping[int, Char] | None, columns: int, cache: CellCache) -> Line:
    """One screen row as a line, right-trimmed of blanks and spaces; the
    markers that precede cell 0 (``LEAD``, see ``_rows``) before it."""
    if not row:
        return EMPTY_LINE
    texts: list[str] = []
    styles: list[Style] = []
    end = 0
    x = 0
    while x < columns:
        char = row[x]
        data = char.data
        step = 1
        if data == "":  # a right half without its wide character
            data = " "
        elif is_wide(data):
            if x + 1 < columns and row[x + 1].data == "":
                step = 2
            else:  # its right half was overwritten
                data = " "
        texts.append(data)
        styles.append(cache.style_of(char))
        if data != " ":
            end = len(texts)
        x += step
    if LEAD in row:
        lead = row[LEAD].data
        if lead:
            texts[0] = lead if not end and texts[0] == " " else lead + texts[0]
            end = max(end, 1)
    if not end:
        return EMPTY_LINE
    runs: list[tuple[str, Style]] = []
    start = 0
    current = styles[0]
    for i in range(1, end):
        if styles[i] is not current:
            runs.append(("".join(texts[start:i]), current))
            start = i
            current = styles[i]
    runs.append(("".join(texts[start:end]), current))
    runs = [(shown(text), style) for text, style in runs]
    runs, dropped = cap_markers(runs)
    if dropped:
        runs.append((" " + omission_marker(dropped), DEFAULT))
    return Line(tuple(runs))


def screen_lines(
    buffer: Mapping[int, Mapping[int, Char]], columns: int, rows: int, cache: CellCache
) -> list[Line]:
    """The rows of a pyte buffer as lines, blank rows at the bottom left out."""
    return trim_rows([row_line(buffer.get(y), columns, cache) for y in range(rows)])


def trim_rows(lines: list[Line]) -> list[Line]:
    """Drop empty lines at the end (a screen's unused bottom rows)."""
    end = len(lines)
    while end and not lines[end - 1].text:
        end -= 1
    del lines[end:]
    return lines


#: Entries each table of a RunCache keeps (cleared when full).
MAX_CACHED_RUNS = 4096
#: Longest run whose plan is kept (a redraw's pieces are short; a log's
#: lines are not worth keeping).
MAX_PLANNED_RUN = 256

#: What a run does from a style: (that style, the text before the first SGR
#: sequence, (style, text) for each SGR sequence that text follows, the style
#: after a run that ends with SGR sequences or None).
Plan = tuple[Style, str, tuple[tuple[Style, str], ...], Style | None]


class RunCache:
    """What SGR sequences and runs do, remembered by one screen model:
    never shared, so no stream can fill or empty another's. Entries are
    found by the identity of the style before (which the entry holds, so
    the identity stays its own), and the styles made are one object per
    value, so that the same style is the same key however it was reached."""

    __slots__ = ("_after", "_plans", "_styles")

    def __init__(self) -> None:
        self._after: dict[tuple[int, str], tuple[Style, Style]] = {}
        self._styles: dict[Style, Style] = {}
        self._plans: dict[tuple[int, str], Plan] = {}

    def after(self, style: Style, params: str) -> Style:
        """The style after ``CSI params m`` from ``style``."""
        key = (id(style), params)
        known = self._after.get(key)
        if known is not None and known[0] is style:
            return known[1]
        if len(self._after) >= MAX_CACHED_RUNS:
            self._after.clear()
        if len(self._styles) >= MAX_CACHED_RUNS:
            self._styles.clear()
        after = style.apply_sgr(params)
        after = self._styles.setdefault(after, after)
        self._after[key] = (style, after)
        return after

    def plan(self, style: Style, run: str) -> Plan:
        """What ``print_with_sgr(run)`` does from ``style`` (see Plan)."""
        known = self._plans.get((id(style), run))
        if known is not None and known[0] is style:
            return known
        parts = sgr_split(run)
        steps: list[tuple[Style, str]] = []
        current = style
        for index in range(1, len(parts), 2):
            current = self.after(current, parts[index])
            if parts[index + 1]:
                steps.append((current, parts[index + 1]))
        plan = (style, parts[0], tuple(steps), None if parts[-1] else current)
        if len(run) <= MAX_PLANNED_RUN:
            if len(self._plans) >= MAX_CACHED_RUNS:
                self._plans.clear()
            self._plans[(id(style), run)] = plan
        return plan
