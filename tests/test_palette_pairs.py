"""SECURITY.md, "palette pairs": a set foreground on a set background keeps
3:1 in safe ANSI and in ``termscribe.rich`` whatever the viewer's palette.

Every pair of the 16 colours (and some 256-colour and 24-bit ones), with
bold, faint and SGR 7, is rendered, read back by a terminal model, and
drawn as a terminal with each of these palettes would draw it: xterm's,
Solarized dark and light, Tango dark and light, Windows Terminal's Campbell,
and Rich's terminal themes.  A terminal may draw bold 30-37 in the bright
colour; both are checked.  Before the rule, the same pairs emitted as
palette indices fell far under 3:1 in these palettes (the last tests).
"""

from __future__ import annotations

import io
import itertools
from typing import NamedTuple

import pytest
from chunking import transcript_of
from contrastcheck import MIN_RATIO, ratio
from rich import terminal_theme
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style as RichStyle
from rich.terminal_theme import TerminalTheme

from termscribe import Style, render_ansi
from termscribe._style import BOLD, DIM, INVERSE, RGB_FLAG
from termscribe.rich import LinesView, rich_style

RGB = tuple[int, int, int]
CSI = b"\x1b["


class Palette(NamedTuple):
    fg: RGB
    bg: RGB
    colours: tuple[RGB, ...]  # 0-15


def _hex(*values: int) -> tuple[RGB, ...]:
    return tuple((v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF) for v in values)


_XTERM = _hex(
    0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
    0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
)  # fmt: skip
# Ethan Schoonover's Solarized, as its terminal ports map it: 0 base02,
# 7 base2, 8 base03, 9 orange, 10 base01, 11 base00, 12 base0, 13 violet,
# 14 base1, 15 base3.
_SOLARIZED = _hex(
    0x073642, 0xDC322F, 0x859900, 0xB58900, 0x268BD2, 0xD33682, 0x2AA198, 0xEEE8D5,
    0x002B36, 0xCB4B16, 0x586E75, 0x657B83, 0x839496, 0x6C71C4, 0x93A1A1, 0xFDF6E3,
)  # fmt: skip
# GNOME Terminal's Tango palette.
_TANGO = _hex(
    0x2E3436, 0xCC0000, 0x4E9A06, 0xC4A000, 0x3465A4, 0x75507B, 0x06989A, 0xD3D7CF,
    0x555753, 0xEF2929, 0x8AE234, 0xFCE94F, 0x729FCF, 0xAD7FA8, 0x34E2E2, 0xEEEEEC,
)  # fmt: skip
# Windows Terminal's default scheme, Campbell (the Windows console's since 2019).
_CAMPBELL = _hex(
    0x0C0C0C, 0xC50F1F, 0x13A10E, 0xC19C00, 0x0037DA, 0x881798, 0x3A96DD, 0xCCCCCC,
    0x767676, 0xE74856, 0x16C60C, 0xF9F1A5, 0x3B78FF, 0xB4009E, 0x61D6D6, 0xF2F2F2,
)  # fmt: skip


def _rich(theme: TerminalTheme) -> Palette:
    return Palette(
        tuple(theme.foreground_color),  # type: ignore[arg-type]
        tuple(theme.background_color),  # type: ignore[arg-type]
        tuple(tuple(theme.ansi_colors[i]) for i in range(16)),  # type: ignore[misc]
    )


RICH_THEMES = {
    name: getattr(terminal_theme, name)
    for name in (
        "DEFAULT_TERMINAL_THEME", "MONOKAI", "DIMMED_MONOKAI", "NIGHT_OWLISH", "SVG_EXPORT_THEME",
    )
}  # fmt: skip
PALETTES = {
    "xterm": Palette(_XTERM[0], _XTERM[15], _XTERM),
    "xterm (white on black)": Palette(_XTERM[7], _XTERM[0], _XTERM),
    "Solarized dark": Palette(_SOLARIZED[12], _SOLARIZED[8], _SOLARIZED),
    "Solarized light": Palette(_SOLARIZED[11], _SOLARIZED[15], _SOLARIZED),
    "Tango dark": Palette(_TANGO[7], _TANGO[0], _TANGO),
    "Tango light": Palette(_TANGO[0], _TANGO[15], _TANGO),
    "Campbell": Palette(_CAMPBELL[7], _CAMPBELL[0], _CAMPBELL),
    **{f"Rich {name}": _rich(theme) for name, theme in RICH_THEMES.items()},
}
_LEVELS = (0, 95, 135, 175, 215, 255)


def colours(value: int | None, palette: Palette, default: RGB, bold: bool) -> list[RGB]:
    """The colours a terminal with ``palette`` may draw a Style colour in."""
    if value is None:
        return [default]
    if value & RGB_FLAG:
        return [(value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)]
    if value < 16:
        return [palette.colours[value]] + (
            [palette.colours[value + 8]] if bold and value < 8 else []
        )
    if value >= 232:
        return [(8 + 10 * (value - 232),) * 3]
    value -= 16
    return [(_LEVELS[value // 36], _LEVELS[value // 6 % 6], _LEVELS[value % 6])]


def lowest_ratio(style: Style, palette: Palette) -> float:
    """The least contrast a terminal with ``palette`` may draw ``style`` with."""
    bold = bool(style.flags & BOLD)
    fronts = colours(style.fg, palette, palette.fg, bold)
    backs = colours(style.bg, palette, palette.bg, False)
    if style.flags & INVERSE:  # the default colours swap too
        fronts = colours(style.bg, palette, palette.bg, False)
        backs = colours(style.fg, palette, palette.fg, bold)
    lowest = 21.0
    for front, back in itertools.product(fronts, backs):
        if style.flags & DIM:
            r, g, b = (int(f * 0.5 + b * 0.5 + 0.5) for f, b in zip(front, back, strict=True))
            front = (r, g, b)
        lowest = min(lowest, ratio(front, back))
    return lowest


# Set colours: the 16, some of the 256 (cube, grey ramp), some 24-bit.
COLOURS = [
    *(b"5;%d" % i for i in range(16)),
    b"5;16", b"5;21", b"5;226", b"5;231", b"5;236", b"5;250", b"2;0;0;0", b"2;128;128;128",
    b"2;255;255;255", b"2;200;30;30",
]  # fmt: skip
FLAGS = [b"", b"1;", b"2;", b"7;", b"1;2;7;"]
SGRS = [
    flags + b"38;" + fg + b";48;" + bg
    for flags, fg, bg in itertools.product(FLAGS, COLOURS, COLOURS)
]


def read_back(sgrs: list[bytes], pairs: str) -> list[Style]:
    """The style of each ``x`` rendered with ``pairs``, as a terminal reads it."""
    data = b"\r\n".join(CSI + sgr + b"mx" for sgr in sgrs)
    out = render_ansi(data, pairs=pairs, max_lines=None)
    lines = transcript_of([out.encode()], max_lines=None).lines()
    assert len(lines) == len(sgrs)
    return [line.runs[0][1] for line in lines]


@pytest.mark.parametrize("pairs", ["truecolor", "terminal"])
def test_every_set_pair_keeps_three_to_one_in_every_palette(pairs: str) -> None:
    styles = read_back(SGRS, pairs)
    for name, palette in PALETTES.items():
        assert ratio(palette.fg, palette.bg) >= MIN_RATIO, name  # the viewer's own pair
        for sgr, style in zip(SGRS, styles, strict=True):
            assert lowest_ratio(style, palette) >= MIN_RATIO - 1e-9, (name, sgr, style)
    if pairs == "terminal":
        assert all(style.fg is None and style.bg is None for style in styles)
        assert all(not style.flags & DIM for style in styles)


def test_the_named_pairs_were_unreadable_as_palette_indices() -> None:
    """What the rule replaces: the pairs kept as indices when xterm's palette
    made them readable (as the renderer did before), in the viewers' own."""
    for sgr, name, under in [
        (b"35;103", "Solarized dark", 1.03),
        (b"31;103", "Solarized dark", 1.05),
        (b"33;44", "Solarized dark", 1.16),
        (b"37;100", "Rich NIGHT_OWLISH", 1.01),
    ]:
        (style,) = read_back([sgr], "truecolor")
        fg, bg = (int(c) % 10 + 8 * (int(c) >= 90) for c in sgr.split(b";"))
        as_indices = Style.make(fg, bg)
        assert lowest_ratio(as_indices, PALETTES["xterm"]) >= MIN_RATIO  # kept before
        assert lowest_ratio(as_indices, PALETTES[name]) < under
        assert lowest_ratio(style, PALETTES[name]) >= MIN_RATIO


def test_a_colour_on_the_default_colour_is_left_as_sent() -> None:
    for pairs in ("truecolor", "terminal"):
        assert render_ansi(CSI + b"35mx" + CSI + b"0;103my", pairs=pairs) == (
            "\x1b[0;35mx\x1b[0;103my\x1b[0m"
        )
    assert render_ansi(CSI + b"2;1;7;35;103mx", pairs="terminal") == "\x1b[0;1;7mx\x1b[0m"
    with pytest.raises(ValueError, match="pairs must be one of truecolor, terminal"):
        render_ansi(b"x", pairs="16")


# ---------------------------------------------------------------- termscribe.rich


def rich_lowest_ratio(style: RichStyle, theme: TerminalTheme, system: ColorSystem) -> float:
    """The least contrast a console of ``system`` colours, drawn with
    ``theme``, may show ``style`` with (Rich rounds colours to the system)."""
    values: list[int | None] = []
    for colour in (style.color, style.bgcolor):
        if colour is None:
            values.append(None)
            continue
        colour = colour.downgrade(system)
        if colour.is_system_defined:
            assert colour.number is not None
            values.append(colour.number)
        else:
            r, g, b = colour.get_truecolor(theme)
            values.append(RGB_FLAG | r << 16 | g << 8 | b)
    flags = (BOLD if style.bold else 0) | (DIM if style.dim else 0)
    flags |= INVERSE if style.reverse else 0
    as_style = Style.make(values[0], values[1], None, flags)
    return lowest_ratio(as_style, _rich(theme))


@pytest.mark.parametrize(
    ("system", "pairs"),
    [("truecolor", "truecolor"), ("256", "256"), ("standard", "terminal"), ("windows", "terminal")],
)
def test_rich_keeps_three_to_one_in_every_theme(system: str, pairs: str) -> None:
    data = b"\r\n".join(CSI + sgr + b"mx" for sgr in SGRS)
    lines = transcript_of([data], max_lines=None).lines()
    console = Console(color_system=system, force_terminal=True, width=20)  # type: ignore[arg-type]
    segments = [s for s in console.render(LinesView(lines), console.options) if s.text == "x"]
    assert len(segments) == len(SGRS)
    styles = [segment.style or RichStyle() for segment in segments]
    kept = sum(style.bgcolor is not None for style in styles)
    if pairs == "terminal":
        assert kept == 0
    elif pairs == "256":  # colours 16-255 that keep 3:1; without colour where none do
        assert len(SGRS) > kept > len(SGRS) * 0.99
    else:
        assert kept == len(SGRS)
    for theme in RICH_THEMES.values():
        for sgr, style in zip(SGRS, styles, strict=True):
            lowest = rich_lowest_ratio(
                style, theme, ColorSystem[system.upper().replace("256", "EIGHT_BIT")]
            )
            assert lowest >= MIN_RATIO - 1e-9, (sgr, style)


def test_rich_style_takes_pairs() -> None:
    style = Style.make(5, 11)  # 35;103
    truecolor = rich_style(style)
    assert truecolor is not None and truecolor.color is not None and truecolor.bgcolor is not None
    assert (truecolor.color.triplet, truecolor.bgcolor.triplet) == ((205, 0, 205), (255, 255, 0))
    assert rich_style(style, pairs="terminal") is None  # nothing left: the default look
    with pytest.raises(ValueError, match="pairs must be one of"):
        LinesView([], pairs="standard")


def test_a_printed_transcript_chooses_by_the_console() -> None:
    transcript = transcript_of([CSI + b"1;35;103mx" + CSI + b"0;35m y"])
    written = {}
    for system in ("truecolor", "256", "standard"):
        console = Console(color_system=system, force_terminal=True, file=io.StringIO())
        console.print(transcript)
        written[system] = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1;38;2;205;0;205;48;2;255;255;0mx" in written["truecolor"]
    assert "\x1b[1;38;5;164;48;5;226mx" in written["256"]  # xterm's cube: 4.0:1
    assert "\x1b[1mx" in written["standard"]
    for out in written.values():  # a colour on the default background: as sent
        assert "\x1b[35m y" in out
