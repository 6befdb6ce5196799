"""Colours and the stylesheet of HTML transcripts.

The 16 ANSI colours are CSS variables (``--ts-c0`` .. ``--ts-c15``) with a
light and a dark theme chosen by ``prefers-color-scheme``, so the classes the
renderer emits follow the viewer's theme. Colours 16-255 and truecolor are
fixed by definition and become inline ``#rrggbb`` values instead.

Text decorations are composed from one custom property per kind because CSS
``text-decoration-line`` cannot be split across classes: a span that is both
underlined and struck needs ``underline line-through`` in one declaration.
"""

from __future__ import annotations

__all__ = ["STYLESHEET", "palette_rgb"]

# The 16 colours as the VS Code terminal draws them: readable on both
# backgrounds, and still recognisably "red", "green", ... as in xterm.
_LIGHT = (
    "#000000", "#cd3131", "#00bc00", "#949800", "#0451a5", "#bc05bc", "#0598bc", "#555555",
    "#666666", "#cd3131", "#14ce14", "#b5ba00", "#0451a5", "#bc05bc", "#0598bc", "#a5a5a5",
)  # fmt: skip
_DARK = (
    "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
    "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#e5e5e5",
)  # fmt: skip
_LIGHT_FG, _LIGHT_BG = "#1f2328", "#ffffff"
_DARK_FG, _DARK_BG = "#cccccc", "#1e1e1e"

# xterm's 6x6x6 colour cube levels (256colres.h).
_CUBE = (0, 95, 135, 175, 215, 255)


def palette_rgb(index: int) -> int:
    """0xRRGGBB of xterm colour 16-255 (cube, then the grey ramp)."""
    if index >= 232:
        level = 8 + 10 * (index - 232)
        return level << 16 | level << 8 | level
    index -= 16
    return _CUBE[index // 36] << 16 | _CUBE[index // 6 % 6] << 8 | _CUBE[index % 6]


def _variables(fg: str, bg: str, palette: tuple[str, ...]) -> str:
    colours = "".join(f"--ts-c{i}:{value};" for i, value in enumerate(palette))
    return f"--ts-fg:{fg};--ts-bg:{bg};{colours}"


def _stylesheet() -> str:
    rules = [
        ".termscribe{"
        + _variables(_LIGHT_FG, _LIGHT_BG, _LIGHT)
        + "color:var(--ts-fg);background:var(--ts-bg);margin:0;padding:12px 16px;"
        "font:13px/1.35 ui-monospace,'SFMono-Regular','DejaVu Sans Mono','Cascadia Mono',"
        "Menlo,Consolas,'Liberation Mono',monospace;white-space:pre;tab-size:8;"
        "overflow-x:auto;border-radius:6px}",
        "@media (prefers-color-scheme:dark){.termscribe{"
        + _variables(_DARK_FG, _DARK_BG, _DARK)
        + "}}",
        ".termscribe span,.termscribe a{text-decoration-line:var(--ts-u,) var(--ts-s,) "
        "var(--ts-o,)}",
        ".termscribe a{--ts-u:underline;color:inherit;text-decoration-style:dotted}",
        ".termscribe a:hover{text-decoration-style:solid}",
        ".termscribe .ts-fgbg{color:var(--ts-bg)}",
        ".termscribe .ts-bgfg{background-color:var(--ts-fg)}",
        ".termscribe .ts-bold{font-weight:bold}",
        ".termscribe .ts-dim{opacity:.65}",
        ".termscribe .ts-italic{font-style:italic}",
        ".termscribe .ts-ul{--ts-u:underline;text-decoration-style:solid}",
        ".termscribe .ts-ul2{--ts-u:underline;text-decoration-style:double}",
        ".termscribe .ts-ul3{--ts-u:underline;text-decoration-style:wavy}",
        ".termscribe .ts-ul4{--ts-u:underline;text-decoration-style:dotted}",
        ".termscribe .ts-ul5{--ts-u:underline;text-decoration-style:dashed}",
        ".termscribe .ts-strike{--ts-s:line-through}",
        ".termscribe .ts-overline{--ts-o:overline}",
        # Blink is kept as a class only: animating text helps nobody reading
        # a transcript, but a page may style it.
        # Concealed (or same-colour) text stays readable, marked as hidden.
        ".termscribe .ts-conceal{outline:1px dashed currentColor;outline-offset:-1px}",
    ]
    rules += [f".termscribe .ts-fg{i}{{color:var(--ts-c{i})}}" for i in range(16)]
    rules += [f".termscribe .ts-bg{i}{{background-color:var(--ts-c{i})}}" for i in range(16)]
    return "\n".join(rules) + "\n"


#: The stylesheet HTML transcripts need; embedded in standalone documents,
#: to be included by pages that embed fragments.
STYLESHEET = _stylesheet()
