"""Rows and lines: the string cell store and its conversion to styled runs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from termscribe._rows import style_runs


def _reference_runs(styles: str) -> tuple[list[int], list[str]]:
    ends: list[int] = []
    codes: list[str] = []
    for index, code in enumerate(styles):
        if codes and codes[-1] == code:
            ends[-1] = index + 1
        else:
            codes.append(code)
            ends.append(index + 1)
    return ends, codes


@given(st.lists(st.tuples(st.sampled_from("\x00\x01\x02\u4e00"), st.integers(1, 5)), max_size=120))
def teststyle_runs_match_a_plain_scan(pieces: list[tuple[str, int]]) -> None:
    # Up to 120 pieces: beyond 32 runs the regex takes over from lstrip.
    styles = "".join(code * count for code, count in pieces)
    assert style_runs(styles) == _reference_runs(styles)
