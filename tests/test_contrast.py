"""Text hidden by colour (DESIGN.md invariant 7, SECURITY.md "hiding by colour").

The contrast arithmetic, the themes' palettes, and the HTML renderer on a
hostile sample: every character at 3:1 or more against its background in
both themes, read from the emitted classes and styles and the stylesheet
(``contrastcheck``). The same sample is checked in Chromium by
``test_browser.py``; the ANSI side is in ``test_ansi.py``.
"""

from __future__ import annotations

import html5lib
import pytest
from contrastcheck import MIN_RATIO, NAMED_CASES, hostile_sample, html_contrast, ratio
from htmlcheck import check_html
from hypothesis import given
from hypothesis import strategies as st

from termscribe import Transcript, render_html, render_text
from termscribe._render._contrast import blend, contrast, ensure_contrast, luminance
from termscribe._render._html import _theme_bg, _theme_fg
from termscribe._render._theme import DARK, LIGHT
from termscribe._style import INVERSE

CSI = b"\x1b["
PRE = '<pre class="termscribe">\n'
HIDDEN = '<span title="hidden in the terminal" class="ts-conceal">'
COLOURS = st.integers(0, 0xFFFFFF)


def rgb(value: int) -> tuple[int, int, int]:
    return value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF


# ---------------------------------------------------------------- arithmetic


def test_wcag_reference_values() -> None:
    assert contrast(0, 0xFFFFFF) == pytest.approx(21.0)
    assert contrast(0x777777, 0x777777) == 1.0
    assert contrast(0x767676, 0xFFFFFF) == pytest.approx(4.54, abs=0.01)  # WebAIM's example
    assert luminance(0xFFFFFF) == pytest.approx(1.0) and luminance(0) == 0.0


@given(COLOURS, COLOURS)
def test_ensured_colour_has_the_ratio(fg: int, bg: int) -> None:
    out = ensure_contrast(fg, bg)
    assert ratio(rgb(out), rgb(bg)) >= MIN_RATIO
    if ratio(rgb(fg), rgb(bg)) >= MIN_RATIO:
        assert out == fg


@given(COLOURS, COLOURS)
def test_ensured_colour_keeps_its_hue(fg: int, bg: int) -> None:
    """Darkening scales the channels, lightening mixes toward white: the
    order of the channels (which one is strongest) never changes."""
    out = ensure_contrast(fg, bg)
    before, after = rgb(fg), rgb(out)
    for i in range(3):
        for j in range(3):
            if before[i] > before[j]:
                assert after[i] >= after[j], (hex(fg), hex(out))


def test_moves_away_from_the_background_first() -> None:
    # White text on a white page gets darker, black on black lighter.
    assert luminance(ensure_contrast(0xFFFFFF, 0xFFFFFF)) < luminance(0xFFFFFF)
    assert luminance(ensure_contrast(0x000000, 0x000000)) > 0
    # Red a little darker than its grey background becomes dark red, not pink.
    red = ensure_contrast(0xCD3131, 0x999999)
    assert red >> 16 & 0xFF > (red >> 8 & 0xFF) and luminance(red) < luminance(0xCD3131)
    # Black on a dark grey can only go lighter.
    assert ensure_contrast(0, 0x333333) != 0


def test_blend_is_what_opacity_draws() -> None:
    assert blend(0xFFFFFF, 0x000000, 0.65) == 0xA6A6A6
    assert blend(0x123456, 0x654321, 1.0) == 0x123456


# ---------------------------------------------------------------- themes


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_theme_defaults_and_palette_are_readable(theme: object) -> None:
    assert theme is LIGHT or theme is DARK
    assert contrast(theme.fg, theme.bg) >= 4.5
    for index, colour in enumerate(theme.palette):
        if theme is DARK and index == 0:
            continue  # black on the dark theme: lightened per run (next test)
        assert contrast(colour, theme.bg) >= MIN_RATIO, (index, hex(colour))


def test_black_text_on_the_dark_theme_is_lightened() -> None:
    html = render_html(CSI + b"30mx")
    assert html == PRE + '<span class="ts-fgx" style="--ts-l:#000000;--ts-d:#696969">x</span></pre>'


# ---------------------------------------------------------------- HTML


@pytest.mark.parametrize(
    ("sgr", "expected"),
    [
        # White on the light theme only: darkened there, kept on the dark one.
        (b"38;2;255;255;255", '<span class="ts-fgx" style="--ts-l:#949494;--ts-d:#ffffff">'),
        (b"97", '<span class="ts-fg15">'),
        # Near-black on the dark theme only.
        (b"38;5;234", '<span class="ts-fgx" style="--ts-l:#1c1c1c;--ts-d:#696969">'),
        # A background equal to the light theme's default foreground.
        (
            b"48;2;31;35;40",
            '<span class="ts-fgx" style="--ts-l:#6a6c70;--ts-d:#cccccc;background-color:#1f2328">',
        ),
        # Bright yellow on bright white: too close in both themes, so hidden.
        (b"93;107", HIDDEN),
        (b"33;47", '<span class="ts-fgx ts-bg7" style="--ts-l:#d6d89e;--ts-d:#878709">'),
        # Fixed colours on both sides: one colour serves both themes.
        (b"38;5;236;48;5;232", '<span style="color:#5d5d5d;background-color:#080808">'),
        # Dim is a computed colour, never an opacity.
        (b"2", '<span class="ts-fgx ts-dim" style="--ts-l:#6d7073;--ts-d:#8f8f8f">'),
        (b"2;38;5;240", '<span class="ts-fgx ts-dim" style="--ts-l:#929292;--ts-d:#696969">'),
    ],
)
def test_colours_are_adjusted_per_theme(sgr: bytes, expected: str) -> None:
    html = render_html(CSI + sgr + b"mx")
    assert html == PRE + expected + "x</span></pre>"
    check_html(html, "x")


@pytest.mark.parametrize(
    "sgr",
    [
        b"8", b"8;31;41", b"30;40", b"7;30;40", b"31;41", b"97;107", b"38;2;9;9;9;48;2;9;9;9",
        b"38;5;100;48;5;100", b"7;38;5;16;48;5;16", b"38;2;128;128;128;48;2;133;133;133",
    ],
)  # fmt: skip
def test_text_hidden_on_purpose_keeps_its_outline_and_title(sgr: bytes) -> None:
    html = render_html(CSI + sgr + b"mx")
    assert html == PRE + HIDDEN + "x</span></pre>"


def _pre(html: str) -> object:
    tree = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return tree.find("pre")


def test_hostile_sample_is_readable_in_both_themes() -> None:
    data = hostile_sample()
    html = render_html(data)
    check_html(html, render_text(data))  # structure, text, and the contrast rule
    measured = html_contrast(_pre(html))  # type: ignore[arg-type]
    assert measured.lowest is not None
    assert measured.characters > 14_000
    for theme in ("light", "dark"):
        assert MIN_RATIO <= measured.lowest[theme] < 3.2, measured
    print(f"contrast: {measured.characters} characters, lowest {measured.lowest}")


def test_named_cases_were_unreadable_before_adjustment() -> None:
    """The sample is hostile: most named cases fall under 3:1 somewhere when
    their colours are taken as the stream set them."""
    unreadable = 0
    for sgr in NAMED_CASES:
        transcript = Transcript()
        transcript.feed(CSI + sgr + b"mx")
        (line,) = transcript.lines()
        ((_, style),) = line.runs
        fg, bg = style.fg, style.bg
        if style.flags & INVERSE:
            fg, bg = (-1 if bg is None else bg), (-1 if fg is None else fg)
        for theme in (LIGHT, DARK):
            if contrast(_theme_fg(fg, theme), _theme_bg(bg, theme)) < MIN_RATIO:
                unreadable += 1
                break
    assert unreadable >= len(NAMED_CASES) // 2
