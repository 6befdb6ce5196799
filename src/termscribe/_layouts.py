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

__all__ = [
    "PLAIN",
    "code_runs",
    "line_layout",
    "line_layouts",
    "one_run",
    "parts_layout",
    "style_layout",
]

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


def parts_layout_by_python(texts: Sequence[str], codes: Sequence[str]) -> str:
    """The layout of a line of single cells printed as ``texts``, each in
    the palette code of ``codes`` (runs of one code merged)."""
    return _runs_layout(*code_runs(texts, codes))


if speedups is None:
    style_layout = style_layout_by_python
    parts_layout = parts_layout_by_python
else:
    style_layout = speedups.style_layout
    parts_layout = speedups.parts_layout


def line_layouts(texts: Sequence[str], head: str) -> list[str]:
    """The layout of each of ``texts``, lines of one run whose layout is
    ``head``: an empty line is plain whatever its style."""
    if head == PLAIN or all(texts):
        return [head] * len(texts)
    return [head if text else PLAIN for text in texts]


def code_runs(texts: Sequence[str], codes: Sequence[str]) -> tuple[str, list[int]]:
    """The code and length of each run of one style in a line printed as
    ``texts`` in the palette codes ``codes`` (empty texts left out)."""
    if len(codes) == 1:
        return codes[0], [sum(map(len, texts))]
    run_codes: list[str] = []
    sizes: list[int] = []
    last = ""
    for part, code in zip(texts, codes, strict=True):
        if part:
            if code == last:
                sizes[-1] += len(part)
            else:
                run_codes.append(code)
                sizes.append(len(part))
                last = code
    return "".join(run_codes), sizes


def line_layout(text: str, texts: Sequence[str], codes: Sequence[str]) -> str:
    """The layout of the line of single cells ``text``, printed as
    ``texts`` (joined, they make ``text``), each in the palette code of
    ``codes``."""
    if not text:
        return PLAIN
    if len(codes) == 1:
        return one_run(codes[0])
    return parts_layout(texts, codes)
