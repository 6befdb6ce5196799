"""Colours and the stylesheet of HTML transcripts.

The 16 ANSI colours are CSS variables (``--ts-c0`` .. ``--ts-c15``) with a
light and a dark theme chosen by ``prefers-color-scheme``, so the classes the
renderer emits follow the viewer's theme. Colours 16-255 and truecolor are
fixed by definition and become inline ``#rrggbb`` values instead. Each
theme's default foreground and each of its colours but black on the dark
theme has at least 3:1 against the theme's background; every other pair is
the renderer's to check (``_contrast``).

Text decorations are composed from one custom property per kind because CSS
``text-decoration-line`` cannot be split across classes: a span that is both
underlined and struck needs ``underline line-through`` in one declaration.
"""

from __future__ import annotations

from typing import NamedTuple

from . import THEMES

__all__ = ["DARK", "LIGHT", "STYLESHEET", "THEMES", "Theme", "layout_css", "palette_rgb"]


class Theme(NamedTuple):
    """Default foreground and background, and the 16 colours, as 0xRRGGBB."""

    fg: int
    bg: int
    palette: tuple[int, ...]


# The 16 colours as the VS Code terminal draws them, recognisably "red",
# "green", ... as in xterm, with those that VS Code leaves under 3:1 on its
# own background (it relies on its minimum-contrast setting) darkened or
# lightened by ``_contrast.ensure_contrast`` until they reach it: on the
# light theme green #00BC00 → #00AD00, bright green #14CE14 → #11AC11,
# bright yellow #B5BA00 → #969B00, bright white #A5A5A5 → #949494; on the
# dark theme bright black #666666 → #696969. White is #777777 on the light
# theme rather than VS Code's #555555, so that black on white (30;47) keeps
# 4.7:1 as well as white text on the background (4.5:1). Black stays black
# on the dark theme (it is mostly a background there); text in it is
# lightened per run.
LIGHT = Theme(
    0x1F2328,
    0xFFFFFF,
    (
        0x000000, 0xCD3131, 0x00AD00, 0x949800, 0x0451A5, 0xBC05BC, 0x0598BC, 0x777777,
        0x666666, 0xCD3131, 0x11AC11, 0x969B00, 0x0451A5, 0xBC05BC, 0x0598BC, 0x949494,
    ),
)  # fmt: skip
DARK = Theme(
    0xCCCCCC,
    0x1E1E1E,
    (
        0x000000, 0xCD3131, 0x0DBC79, 0xE5E510, 0x2472C8, 0xBC3FBC, 0x11A8CD, 0xE5E5E5,
        0x696969, 0xF14C4C, 0x23D18B, 0xF5F543, 0x3B8EEA, 0xD670D6, 0x29B8DB, 0xE5E5E5,
    ),
)  # fmt: skip

# xterm's 6x6x6 colour cube levels (256colres.h).
_CUBE = (0, 95, 135, 175, 215, 255)


def palette_rgb(index: int) -> int:
    """0xRRGGBB of xterm colour 16-255 (cube, then the grey ramp)."""
    if index >= 232:
        level = 8 + 10 * (index - 232)
        return level << 16 | level << 8 | level
    index -= 16
    return _CUBE[index // 36] << 16 | _CUBE[index // 6 % 6] << 8 | _CUBE[index % 6]


def _variables(theme: Theme) -> str:
    colours = "".join(f"--ts-c{i}:#{value:06x};" for i, value in enumerate(theme.palette))
    return f"--ts-fg:#{theme.fg:06x};--ts-bg:#{theme.bg:06x};{colours}"


def _stylesheet() -> str:
    rules = [
        ".termscribe{"
        + _variables(LIGHT)
        + "color:var(--ts-fg);background:var(--ts-bg);margin:0;padding:12px 16px;"
        "font:13px/1.35 ui-monospace,'SFMono-Regular','DejaVu Sans Mono','Cascadia Mono',"
        "Menlo,Consolas,'Liberation Mono',monospace;white-space:pre;tab-size:8;"
        "overflow-x:auto;border-radius:6px}",
        # Text whose colour had to change for contrast carries one value per
        # theme (the renderer computes both): --ts-l and --ts-d.
        ".termscribe .ts-fgx{color:var(--ts-l)}",
        "@media (prefers-color-scheme:dark){.termscribe{"
        + _variables(DARK)
        + "}.termscribe .ts-fgx{color:var(--ts-d)}}",
        ".termscribe span,.termscribe a{text-decoration-line:var(--ts-u,) var(--ts-s,) "
        "var(--ts-o,)}",
        ".termscribe a{--ts-u:underline;color:inherit;text-decoration-style:dotted}",
        ".termscribe a:hover{text-decoration-style:solid}",
        ".termscribe .ts-fgbg{color:var(--ts-bg)}",
        ".termscribe .ts-bgfg{background-color:var(--ts-fg)}",
        ".termscribe .ts-bold{font-weight:bold}",
        ".termscribe .ts-italic{font-style:italic}",
        ".termscribe .ts-ul{--ts-u:underline;text-decoration-style:solid}",
        ".termscribe .ts-ul2{--ts-u:underline;text-decoration-style:double}",
        ".termscribe .ts-ul3{--ts-u:underline;text-decoration-style:wavy}",
        ".termscribe .ts-ul4{--ts-u:underline;text-decoration-style:dotted}",
        ".termscribe .ts-ul5{--ts-u:underline;text-decoration-style:dashed}",
        ".termscribe .ts-strike{--ts-s:line-through}",
        ".termscribe .ts-overline{--ts-o:overline}",
        # Blink is kept as a class only: animating text helps nobody reading
        # a transcript, but a page may style it. So is dim: the renderer
        # draws it as a fainter colour it has checked for contrast (an
        # opacity would fade the text past what can be checked).
        # Concealed (or same-colour) text stays readable, marked as hidden.
        ".termscribe .ts-conceal{outline:1px dashed currentColor;outline-offset:-1px}",
        # A marker termscribe made (<U+202E>, [termscribe: ...]): never
        # input, so it looks like no input can.
        ".termscribe .ts-marker{outline:1px dotted currentColor;outline-offset:-1px;"
        "font-style:italic}",
    ]
    rules += [f".termscribe .ts-fg{i}{{color:var(--ts-c{i})}}" for i in range(16)]
    rules += [f".termscribe .ts-bg{i}{{background-color:var(--ts-c{i})}}" for i in range(16)]
    return "\n".join(rules) + "\n"


#: The stylesheet HTML transcripts need; embedded in standalone documents,
#: to be included by pages that embed fragments.
STYLESHEET = _stylesheet()


def layout_css(*, theme: str = "auto", wrap: bool = False, anchors: bool = False) -> str:
    """Rules to put after STYLESHEET (and the page's own) for a fixed theme
    or wrapped lines; "" for the defaults.

    A fixed theme sets that theme's variables outside the media query, and
    repeats them inside it, so the viewer's preference changes nothing; the
    colours that need one value per theme then take that theme's
    (``--ts-l``/``--ts-d``), which the renderer checked for contrast.
    """
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")
    rules = []
    if theme != "auto":
        chosen, fgx, page = (
            (LIGHT, "--ts-l", "#f6f8fa") if theme == "light" else (DARK, "--ts-d", "#111")
        )
        fixed = (
            f":root{{color-scheme:{theme}}}body{{background:{page}}}"
            f".termscribe{{{_variables(chosen)}}}.termscribe .ts-fgx{{color:var({fgx})}}"
        )
        rules += [fixed, "@media (prefers-color-scheme:dark){" + fixed + "}"]
    if wrap:
        rules.append(".termscribe{white-space:pre-wrap;overflow-wrap:anywhere}")
    if anchors:
        # Line numbers are generated content: not text of the page, so the
        # page's text stays the transcript's (and copying leaves them out).
        rules += [
            ".termscribe a.ts-ln{--ts-u: ;display:inline-block;min-width:5ch;"
            "margin-right:2ch;text-align:right;color:var(--ts-fg);text-decoration:none;"
            "user-select:none}",
            ".termscribe a.ts-ln::before{content:attr(data-n)}",
            ".termscribe a.ts-ln:target{outline:1px solid var(--ts-fg)}",
        ]
    return "".join(rule + "\n" for rule in rules)
