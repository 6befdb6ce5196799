"""Layouts: a committed line's style runs, as code points.

A line that is one run in the default style is ``PLAIN``; a line that is
one run in another style is ``"\x01"`` and its palette code; else the
number of runs *k*, then *k* palette codes, then the lengths of the first
*k* - 1 runs (the last one takes the rest). Codes are those of the model's
StylePalette, as in its rows. ``CommittedLines`` stores one a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub

from ._accel import speedups
from ._rows import style_runs

__all__ = ["PLAIN", "one_run", "style_layout"]

#: The layout of a line that is one run in the default style.
PLAIN = "\x00"


def one_run(code: str) -> str:
    """The layout of a line that is one run in palette code ``code``."""
    return PLAIN if code == "\x00" else "\x01" + code


def _runs_layout(run_codes: str, sizes: Sequence[int]) -> str:
    """The layout of a line of runs in the codes ``run_codes``, of ``sizes``
    cells each (see the module docstring); no runs is an empty line."""
    if len(run_codes) <= 1:
        return one_run(run_codes or "\x00")
    return chr(len(run_codes)) + run_codes + "".join(map(chr, sizes[:-1]))


def style_layout_by_python(styles: str) -> str:
    """The layout of a line whose cells have the palette codes ``styles``
    (one a cell; see the module docstring)."""
    ends, codes = style_runs(styles)
    return _runs_layout("".join(codes), list(map(sub, ends, [0, *ends[:-1]])))


style_layout = style_layout_by_python if speedups is None else speedups.style_layout
