"""The optional C extension gives exactly what the pure-Python code it
mirrors gives (see ``_speedups.c``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import _lines_grouped, _speedups
from termscribe._lines_grouped import INERT_C1, remove_inert_by_regex

# Code points of every kind the scan tells apart, of each string width
# (Latin-1, BMP, astral), so that results change kind too.
ALPHABET = [
    *(chr(c) for c in range(0x80, 0xA0)),
    "\x00",
    "\x07",
    "\x1b",
    "\n",
    "\x1f",
    " ",
    "a",
    "~",
    "\x7f",
    "\xa0",
    "é",
    "\xff",
    "中",
    "\ufffd",
    "\U0001f600",
]


@settings(max_examples=3000)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=60))
def test_remove_inert_equals_the_regex(run: str) -> None:
    assert _speedups.remove_inert(run) == remove_inert_by_regex(run)


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ("", ""),
        ("abc", "abc"),
        ("a\x9cb", "ab"),  # ST does nothing
        ("\x9c", ""),
        ("a\x9dtitle\x84b", "a\x84b"),  # a string aborted by IND
        ("\x90q\x98x\x9dy\x9ez\x9fw", ""),  # every string starter
        ("\x9d\x07", "\x07"),  # an empty string before BEL
        ("a\x80\x81b", "ab"),  # inert controls before text
        ("a\x80\x81", "a\x80\x81"),  # at the end: kept, to forget the last character
        ("a\x80\x1b[b", "a\x80\x1b[b"),  # before a sequence: kept
        ("a\x80\x9cb", "a\x80b"),  # before ST: kept, the ST removed
        ("\x84\x85\x88\x8d\x9b", "\x84\x85\x88\x8d\x9b"),  # they act
        ("\x80\U0001f600", "\U0001f600"),  # astral text after
        ("\x9d\U0001f600\x84é", "\x84é"),  # the result narrower than the run
        ("\x9d中\x85a", "\x85a"),
        ("中\x80文", "中文"),
    ],
)
def test_remove_inert_cases(run: str, expected: str) -> None:
    assert _speedups.remove_inert(run) == expected
    assert remove_inert_by_regex(run) == expected


def test_every_inert_control_is_removed_before_text() -> None:
    for control in INERT_C1:
        assert _speedups.remove_inert(f"a{control}b") == "ab"
    for code in range(0x80, 0xA0):
        control = chr(code)
        if control not in INERT_C1 and control not in "\x90\x98\x9c\x9d\x9e\x9f":
            assert _speedups.remove_inert(f"a{control}b") == f"a{control}b"


def test_remove_inert_takes_only_str() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.remove_inert(b"\x9c")  # type: ignore[arg-type]


def test_the_package_uses_the_extension() -> None:
    assert _lines_grouped.remove_inert is _speedups.remove_inert
