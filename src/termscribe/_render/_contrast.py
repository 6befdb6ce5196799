"""Contrast of colours, and the foreground that makes text readable.

SECURITY.md, "hiding by colour": every character a renderer shows must keep a
contrast of at least ``MIN_RATIO`` (3:1) against its background, whatever
colours the stream chose. The measure is WCAG 2's contrast ratio of relative
luminances, as xterm.js's ``minimumContrastRatio`` (and VS Code's terminal)
uses it; 3:1 is WCAG's minimum for large text and user-interface parts, the
line below which text stops being readable rather than merely tiring.

``ensure_contrast`` does what xterm.js does when a cell falls short: it keeps
the background and moves the foreground, first away from the background's
side (darker on a light background, lighter on a dark one), and the other
way only if that cannot reach the ratio. Darkening scales the channels
toward black (hue and saturation kept); lightening mixes them toward white
(hue kept). Where xterm.js steps by 10 %, this searches the 255 steps of
each way for the first that is enough, so the colour changes no more than
it must. 3:1 can always be reached one way or the other (the worst case,
a background of luminance 0.18, still allows 4.58:1 against black or white).

Colours are ints ``0xRRGGBB``. Nothing here has state: the channel table is
an immutable tuple built at import.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["MIN_RATIO", "blend", "contrast", "ensure_contrast", "luminance"]

#: The least contrast ratio of any rendered character against its background.
MIN_RATIO = 3.0

# sRGB channel value (0-255) → linear light, WCAG 2's formula.
_LINEAR = tuple(
    c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    for c in (i / 255 for i in range(256))
)


def luminance(rgb: int) -> float:
    """WCAG 2 relative luminance of ``0xRRGGBB`` (0 black .. 1 white)."""
    return (
        0.2126 * _LINEAR[rgb >> 16 & 0xFF]
        + 0.7152 * _LINEAR[rgb >> 8 & 0xFF]
        + 0.0722 * _LINEAR[rgb & 0xFF]
    )


def contrast(a: int, b: int) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black/white)."""
    la, lb = luminance(a), luminance(b)
    if la < lb:
        la, lb = lb, la
    return (la + 0.05) / (lb + 0.05)


def blend(fg: int, bg: int, alpha: float) -> int:
    """``fg`` drawn with opacity ``alpha`` over ``bg``, as a browser
    composites it (per sRGB channel, rounded)."""
    out = 0
    for shift in (16, 8, 0):
        f, b = fg >> shift & 0xFF, bg >> shift & 0xFF
        out |= int(f * alpha + b * (1 - alpha) + 0.5) << shift
    return out


def ensure_contrast(fg: int, bg: int, ratio: float = MIN_RATIO) -> int:
    """``fg`` if it has ``ratio`` against ``bg``; else the nearest colour of
    the same hue that has (see the module docstring)."""
    lf, lb = luminance(fg), luminance(bg)
    high, low = (lf, lb) if lf >= lb else (lb, lf)
    if (high + 0.05) / (low + 0.05) >= ratio:
        return fg
    ways = (_lighter, _darker) if lf >= lb else (_darker, _lighter)
    for way in ways:
        found = way(fg, lb, ratio)
        if found is not None:
            return found
    # Only for a ratio above 4.58, which no caller asks for: the better end.
    return 0xFFFFFF if contrast(0xFFFFFF, bg) >= contrast(0, bg) else 0


def _lighter(fg: int, lb: float, ratio: float) -> int | None:
    """The least mix of fg toward white with ``ratio`` over luminance lb."""
    if 1.05 / (lb + 0.05) < ratio:
        return None
    return _least_step(fg, lambda lum: (lum + 0.05) / (lb + 0.05) >= ratio, toward_white=True)


def _darker(fg: int, lb: float, ratio: float) -> int | None:
    """The least scaling of fg toward black with ``ratio`` under lb."""
    if (lb + 0.05) / 0.05 < ratio:
        return None
    return _least_step(fg, lambda lum: (lb + 0.05) / (lum + 0.05) >= ratio, toward_white=False)


def _least_step(fg: int, enough: Callable[[float], bool], toward_white: bool) -> int:
    """``_moved(fg, n, toward_white)`` for the least step n from 1 to 255
    whose luminance is ``enough``; step 255 (white or black) is known to
    be. Luminance moves one way with n: bisect."""
    lo, hi = 1, 255
    while lo < hi:
        n = (lo + hi) >> 1
        if enough(luminance(_moved(fg, n, toward_white))):
            hi = n
        else:
            lo = n + 1
    return _moved(fg, lo, toward_white)


def _moved(fg: int, n: int, toward_white: bool) -> int:
    """Step n of 255 from ``fg``: toward white, each channel c mixed to
    c + (255 - c) * n / 255; toward black, scaled by (255 - n) / 255;
    rounded."""
    out = 0
    for shift in (16, 8, 0):
        c = fg >> shift & 0xFF
        moved = c + ((255 - c) * n + 127) // 255 if toward_white else (c * (255 - n) + 127) // 255
        out |= moved << shift
    return out
