"""The contrast rule (DESIGN.md invariant 7) over what the HTML renderer emits.

``html_contrast(pre)`` reads the colours a browser would give each run of a
parsed ``<pre class="termscribe">``, for the light and the dark theme, from
the published stylesheet (its ``--ts-*`` variables, its class rules, the
``prefers-color-scheme:dark`` block) and the run's own ``class`` and
``style``, and returns the contrast of every run against its background.
It knows the stylesheet only as CSS text, not how the renderer decides.

Also here: a hostile sample of every way colours can hide text, shared by
the Python tests and the browser test, and an independent WCAG 2 contrast.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from termscribe import HTML_STYLESHEET

THEMES = ("light", "dark")
MIN_RATIO = 3.0
#: Floating-point slack only: colours are exact integers on both sides.
EPSILON = 1e-9

CSI = b"\x1b["
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_DARK = "@media (prefers-color-scheme:dark){"
#: Properties that would change what is drawn beyond colour and background.
_FORBIDDEN = ("opacity", "filter", "visibility", "display", "mix-blend-mode", "color-mix")


def srgb_luminance(rgb: tuple[int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((srgb_luminance(a), srgb_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _hex(value: str) -> tuple[int, int, int]:
    assert re.fullmatch(r"#[0-9a-f]{6}", value), value
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _declarations(body: str) -> dict[str, str]:
    out = {}
    for declaration in body.split(";"):
        if declaration.strip():
            name, _, value = declaration.partition(":")
            out[name.strip()] = value.strip()
    return out


@dataclass(frozen=True)
class Theme:
    variables: dict[str, str]
    classes: dict[str, dict[str, str]]
    pre: dict[str, str]


@functools.cache
def themes() -> dict[str, Theme]:
    """Both themes as the stylesheet defines them."""
    css = HTML_STYLESHEET
    for forbidden in _FORBIDDEN:
        assert forbidden not in css, f"{forbidden} in the stylesheet"
    before, found, rest = css.partition(_DARK)
    assert found, "no dark block"
    end = rest.index("}}") + 1  # the block holds rules, no nested blocks
    light_css, dark_css = before + rest[end + 1 :], rest[:end]
    assert "@media" not in light_css, "one dark block only"
    out = {}
    variables: dict[str, str] = {}
    classes: dict[str, dict[str, str]] = {}
    pre: dict[str, str] = {}
    for name, part in (("light", light_css), ("dark", dark_css)):
        for selector, body in _RULE.findall(part):
            selector = selector.strip()
            declarations = _declarations(body)
            if selector == ".termscribe":
                pre = pre | {k: v for k, v in declarations.items() if not k.startswith("--")}
                variables = variables | {k: v for k, v in declarations.items() if k[:2] == "--"}
            match = re.fullmatch(r"\.termscribe \.([a-z0-9-]+)", selector)
            if match:
                classes = classes | {match[1]: classes.get(match[1], {}) | declarations}
        out[name] = Theme(variables, classes, pre)
    return out


def _resolve(value: str, variables: dict[str, str]) -> tuple[int, int, int]:
    for _ in range(4):
        match = re.fullmatch(r"var\((--[a-z0-9-]+)\)", value)
        if match is None:
            break
        assert match[1] in variables, f"{match[1]} is not set"
        value = variables[match[1]]
    return _hex(value)


def _colours(element: Element | None, theme: Theme) -> tuple[tuple[int, int, int], ...]:
    """(foreground, background) of a run (None: text right in the <pre>)."""
    fg = theme.pre["color"]
    bg = theme.pre["background"]
    variables = theme.variables
    if element is not None:
        inline = _declarations(element.get("style", ""))
        variables = variables | {k: v for k, v in inline.items() if k[:2] == "--"}
        for name in element.get("class", "").split():
            rule = theme.classes.get(name, {})
            fg = rule.get("color", fg)
            bg = rule.get("background-color", bg)
            for forbidden in _FORBIDDEN:
                assert forbidden not in rule, f".{name} sets {forbidden}"
        fg = inline.get("color", fg)
        bg = inline.get("background-color", bg)
    if fg == "inherit":
        fg = theme.pre["color"]
    return _resolve(fg, variables), _resolve(bg, variables)


@dataclass
class Measured:
    """Characters checked and the lowest ratio seen, per theme."""

    characters: int = 0
    lowest: dict[str, float] | None = None
    worst: dict[str, str] | None = None


def html_contrast(pre: Element) -> Measured:
    """Assert every character of ``pre`` keeps MIN_RATIO in both themes."""
    measured = Measured(0, {name: 99.0 for name in THEMES}, {name: "" for name in THEMES})
    assert measured.lowest is not None and measured.worst is not None
    runs: list[tuple[Element | None, str]] = [(None, pre.text or "")]
    for element in pre:
        runs.append((element, "".join(element.itertext())))
        runs.append((None, element.tail or ""))
    for name, theme in themes().items():
        for element, text in runs:
            text = text.replace("\n", "")
            if not text:
                continue
            if name == "light":
                measured.characters += len(text)
            fg, bg = _colours(element, theme)
            value = ratio(fg, bg)
            if value < measured.lowest[name]:
                measured.lowest[name] = value
                measured.worst[name] = text[:40]
            assert value >= MIN_RATIO - EPSILON, (
                f"{name} theme: {text[:40]!r} in {fg} on {bg} has {value:.3f}:1"
            )
    return measured


# ---------------------------------------------------------------- the sample

#: Each way colours can hide text, as SGR parameters.
NAMED_CASES = [
    b"38;2;255;255;255", b"38;5;231", b"97", b"37", b"1;97", b"38;5;255", b"38;2;250;250;250",
    b"38;2;0;0;0", b"30", b"38;5;16", b"38;2;30;30;30", b"38;5;234", b"90", b"38;5;240",
    b"48;2;31;35;40", b"48;2;204;204;204", b"48;5;231", b"48;2;30;30;30", b"48;5;16", b"47",
    b"107", b"40", b"100",
    b"38;2;9;9;9;48;2;9;9;9", b"38;5;100;48;5;100", b"31;41", b"97;107", b"38;5;21;48;5;21",
    b"7", b"7;31", b"7;41", b"7;31;41", b"7;30;40", b"7;38;5;16;48;5;16", b"7;97;107",
    b"7;38;2;200;200;200", b"7;48;2;31;35;40",
    b"93;107", b"33;47", b"93;47", b"92;107", b"36;47", b"34;44", b"34;104", b"94;44",
    b"2", b"2;90", b"2;37;47", b"2;38;5;240;48;5;236", b"2;7", b"2;30;40", b"2;97",
    b"8", b"8;31;41", b"1;30;100", b"1;30;40", b"2;8;97;107", b"4;58;5;231;97;107",
]  # fmt: skip


def hostile_sample(seed: int = 7) -> bytes:
    """Every named case; all 256 foregrounds on the default and the 16
    palette backgrounds, plain, inverse and dim; all 256 backgrounds under
    the default foreground; and truecolor pairs a step apart."""
    lines = [CSI + sgr + b"m" + b"case " + sgr + CSI + b"0m" for sgr in NAMED_CASES]
    for flags in (b"", b"7;", b"2;"):
        for bg in [None, *range(16)]:
            background = b"" if bg is None else b";48;5;%d" % bg
            lines.append(
                b"".join(
                    CSI + b"0;" + flags + b"38;5;%d" % fg + background + b"m" + b"%x" % (fg % 16)
                    for fg in range(256)
                )
                + CSI
                + b"0m"
            )
    for flags in (b"", b"7;"):
        lines.append(
            b"".join(CSI + b"0;" + flags + b"48;5;%dmb" % bg for bg in range(256)) + CSI + b"0m"
        )
    rng = random.Random(seed)
    pairs = []
    for _ in range(512):
        fg = [rng.randrange(256) for _ in range(3)]
        bg = [min(255, max(0, c + rng.randrange(-12, 13))) for c in fg]
        pairs.append(CSI + b"38;2;%d;%d;%d;48;2;%d;%d;%dmn" % (*fg, *bg))
    for start in range(0, len(pairs), 128):
        lines.append(b"".join(pairs[start : start + 128]) + CSI + b"0m")
    return b"\r\n".join(lines)
