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

Both conversions are remembered in a :class:`CellCache` that each screen
model owns (never shared between transcripts: no thread or stream can clear
or fill another's); the tables of pyte's colour names are built at import
and never changed.

Deviations from the ``lines`` model, because pyte's cells cannot hold them:

* Dim, overline, concealment, the underline style (double, curly, ...) and
  the underline colour are dropped (underlined text stays underlined).
  Concealed text is never hidden by the renderers anyway.
* A truecolor equal to one of the 256-colour palette's colours 16-255 comes
  back as that palette index (the same colour).
* OSC 8 links are dropped; their text stays (see ``_screen``).
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
from pyte.screens import Char

from ._line import EMPTY_LINE, Line
from ._style import BLINK, BOLD, INVERSE, ITALIC, RGB_FLAG, STRIKE, Style
from ._unicode import char_info

__all__ = ["CellCache", "row_line", "screen_lines", "sgr_params", "style_of", "trim_rows"]

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


class CellCache:
    """The conversions of one screen model, remembered (see the module
    docstring): each table is cleared when full, by its owner only."""

    __slots__ = ("_params", "_styles")

    def __init__(self) -> None:
        self._params: dict[Style, tuple[int, ...]] = {}
        self._styles: dict[tuple[object, ...], Style] = {}

    def sgr_params(self, style: Style) -> tuple[int, ...]:
        """:func:`sgr_params`, remembered."""
        params = self._params.get(style)
        if params is None:
            if len(self._params) >= _MAX_CACHED:
                self._params.clear()
            params = self._params[style] = sgr_params(style)
        return params

    def style_of(self, char: Char) -> Style:
        """:func:`style_of`, remembered."""
        key = tuple(char[1:])
        style = self._styles.get(key)
        if style is None:
            if len(self._styles) >= _MAX_CACHED:
                self._styles.clear()
            style = self._styles[key] = style_of(char)
        return style


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


def _is_wide(data: str) -> bool:
    # U+1100 is the first code point wcwidth gives width 2.
    return data >= "\u1100" and char_info(data[0])[0] == 2


def row_line(row: Mapping[int, Char] | None, columns: int, cache: CellCache) -> Line:
    """One screen row as a line, right-trimmed of blanks and spaces."""
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
        elif _is_wide(data):
            if x + 1 < columns and row[x + 1].data == "":
                step = 2
            else:  # its right half was overwritten
                data = " "
        texts.append(data)
        styles.append(cache.style_of(char))
        if data != " ":
            end = len(texts)
        x += step
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
