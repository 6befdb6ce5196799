"""The optional C extension gives exactly what the pure-Python code it
mirrors gives (see ``_speedups.c``).

These are tests of the extension itself: where it is not built (no C
compiler at install) or turned off (``TERMSCRIBE_PURE_PYTHON=1``) they are
skipped, and the rest of the suite tests the pure-Python code it mirrors.
``scripts/test.sh`` installs a compiler and checks that the extension was
built, so that CI never skips them by accident.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe import _grammar, _layouts, _unicode
from termscribe._accel import PURE_PYTHON, speedups
from termscribe._classes import width_table
from termscribe._grammar import SGR_SPLIT, batch_parts_by_regex, without_sgr_by_regex
from termscribe._layouts import (
    style_layout_by_python,
)
from termscribe._syntax import MAX_INTERMEDIATES, MAX_PARAM_CHARS, MAX_STRING_CHARS
from termscribe._unicode import (
    _TABLE,
    _marked_cell_run_end_in_c,
    _table_class,
    cell_run_end_by_regex,
    classes_by_translate,
    marked_cell_run_end_by_regex,
    single_run_end_by_regex,
)

pytestmark = pytest.mark.skipif(
    speedups is None,
    reason="the C extension is turned off" if PURE_PYTHON else "the C extension is not built",
)
_speedups = speedups

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


# Pieces of sequence runs and of what ends them: CSI sequences at and past
# the caps on parameter characters and intermediates, every C1 control,
# strings aborted or ended, ESC not followed by [, C0, text of each width.
RUN_PIECES = [
    *(chr(c) for c in range(0x80, 0xA0)),
    "\x1b[",
    "\x1b[H",
    "\x1b[1;2H",
    "\x1b[?25l",
    "\x1b[<5m",
    "\x1b[>c",
    "\x1b[ q",
    "\x1b[1!p",
    "\x1b[1 !p",
    "\x1b[1  !p",
    "\x1b[" + "1" * (MAX_PARAM_CHARS - 1) + "m",
    "\x1b[" + "1" * MAX_PARAM_CHARS + "m",
    "\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "m",
    "\x1b[?" + "2;" * (MAX_PARAM_CHARS // 2) + "h",
    "\x1b[1?m",
    "\x1b[1 2m",  # a parameter after an intermediate
    "\x1b[ 0m",
    "\x1b[!/0p",
    "\x1b[\x7f",
    "\x9b2a",
    "\x9b?7l",
    "\x1b(0",
    "\x1bD",
    "\x1b\\",
    "\x00",
    "\x07",
    "\n",
    "\x7f",
    "a",
    "xy",
    "\xa0",
    "é",
    "中",
    "\U0001f600",
    "[",
    "H",
    ";",
    " ",
    "?",
]


# Strings (OSC at and past the cap, SOS/PM/APC), ended by BEL or ST, cut
# short or aborted; escape sequences with and without an intermediate.
STRING_PIECES = [
    "\x1b]0;title\x07",
    "\x1b]8;;http://a.b/\x1b\\",
    "\x1b]" + "x" * MAX_STRING_CHARS + "\x07",
    "\x1b]" + "x" * (MAX_STRING_CHARS + 1) + "\x07",
    "\x1b]a\nb\x07",
    "\x1b]a\x85\x07",
    "\x1b_bk;t=1\x07",
    "\x1bXa\nb\x1b\\",
    "\x1b^p\x18",
    "\x1b_a\x9c",
    "\x1b]",
    "\x1b_",
    "\x1b7",
    "\x1b8",
    "\x1bc",
    "\x1b#8",
    "\x1b( ",
    "\x1b(",
    "\x1b\x7f",
    "\x1b\xe9",
    "\x18",
    "\x1a",
    "\r",
    "\t",
    "\x08",
]


@settings(max_examples=3000)
@given(
    st.lists(st.sampled_from(RUN_PIECES + STRING_PIECES), max_size=16).map("".join),
    st.integers(0, 40),
)
def test_batch_parts_equal_the_regex(text: str, start: int) -> None:
    assert _speedups.batch_parts(
        text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES, MAX_STRING_CHARS
    ) == batch_parts_by_regex(text, start)


@settings(max_examples=1000)
@given(st.data())
def test_batch_parts_equal_the_regex_on_streams(data: st.DataObject) -> None:
    text = stream(HypothesisChooser(data), 10, 4, ALL)
    assert _speedups.batch_parts(
        text, 0, MAX_PARAM_CHARS, MAX_INTERMEDIATES, MAX_STRING_CHARS
    ) == batch_parts_by_regex(text, 0)


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("", 0, (0, [])),
        ("\x18", 0, (0, [])),
        ("ab", 5, (2, [])),  # start past the end: clamped, as the regex's pos
        ("a\x1b[1mb\rc", 0, (8, ["a\x1b[1mb", "\r", "c"])),
        ("x\x1b[2K\x1b[", 1, (5, ["", "\x1b[2K", ""])),
        ("\x9b1m\x1b[>1m", 0, (8, ["", "\x9b1m", "", "\x1b[>1m", ""])),
    ],
)
def test_batch_parts_cases(text: str, start: int, expected: tuple[int, list[str]]) -> None:
    assert batch_parts_by_regex(text, start) == expected
    assert (
        _speedups.batch_parts(text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES, MAX_STRING_CHARS)
        == expected
    )


def test_batch_parts_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.batch_parts(b"\x84", 0, 1, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 5 arguments"):
        _speedups.batch_parts("\x84", 0)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.batch_parts("\x84", -1, 1, 1, 1)
    with pytest.raises(TypeError):
        _speedups.batch_parts("\x84", "0", 1, 1, 1)  # type: ignore[arg-type]


def test_the_package_uses_the_extension() -> None:
    assert _grammar.batch_parts is _grammar._batch_parts_in_c
    assert _grammar.sgr_split is _speedups.sgr_split
    assert _grammar.without_sgr is _speedups.without_sgr
    assert _unicode.single_run_end is _unicode._single_run_end_in_c
    assert _unicode.cell_run_end is _unicode._cell_run_end_in_c
    assert _unicode.marked_cell_run_end is _unicode._marked_cell_run_end_in_c
    assert _layouts.style_layout is _speedups.style_layout


# Palette codes of each string width: runs of them make layouts of each
# width, and run lengths past U+00FF and U+FFFF do too.
CODES = ["\x00", "\x01", "\x7f", "\xff", "\u0100", "\uffff"]


@settings(max_examples=3000)
@given(
    st.lists(
        st.tuples(st.sampled_from(CODES), st.sampled_from([1, 2, 3, 255, 256, 70_000])),
        max_size=8,
    )
)
def test_style_layout_equals_the_python(runs: list[tuple[str, int]]) -> None:
    styles = "".join(code * length for code, length in runs)
    assert _speedups.style_layout(styles) == style_layout_by_python(styles)


def test_style_layout_cases_and_arguments() -> None:
    assert _speedups.style_layout("") == "\x00"
    assert _speedups.style_layout("\x00\x00") == "\x00"
    assert _speedups.style_layout("\x05\x05") == "\x01\x05"
    assert _speedups.style_layout("\x00\x05\x05\x00") == "\x03\x00\x05\x00\x01\x02"
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.style_layout(b"\x00")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 1 argument"):
        _speedups.style_layout()  # type: ignore[call-arg]


@settings(max_examples=3000)
@given(
    st.lists(
        st.sampled_from(["\x1b[", "\x1b", "[", "m", "1", ";", ":", "31", "x", "é", "\n", "中"]),
        max_size=20,
    ).map("".join)
)
def test_sgr_split_equals_the_regex(text: str) -> None:
    assert _speedups.sgr_split(text) == SGR_SPLIT.split(text)


@settings(max_examples=3000)
@given(
    st.lists(
        st.sampled_from(
            ["\x1b[", "\x1b", "[", "m", "1", ";", ":", "31", "x", "é", "\n", "中", "\U0001f600"]
        ),
        max_size=20,
    ).map("".join)
)
def test_without_sgr_equals_the_regex(text: str) -> None:
    assert _speedups.without_sgr(text) == without_sgr_by_regex(text)


def test_without_sgr_checks_its_arguments() -> None:
    assert _speedups.without_sgr("\x1b[1m\U0001f600\x1b[m a") == "\U0001f600 a"
    text = "no sequence"
    assert _speedups.without_sgr(text) is text
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.without_sgr(b"\x1b[m")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 1 argument"):
        _speedups.without_sgr()  # type: ignore[call-arg]


def test_sgr_split_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.sgr_split(b"\x1b[m")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 1 argument"):
        _speedups.sgr_split("a", "b")  # type: ignore[call-arg]


# Code points of each class of the table, below and above U+00FF and
# U+FFFF, and controls: printable ASCII, Latin-1 (U+00AD is not SINGLE),
# wide, combining, noncharacters, astral.
CELL_ALPHABET = [
    *"\x00\x1f\x7f\x80\x9f a~",
    *"\xa0\xad\xe9\xff",
    *"\u0301\u200d\u2588\u4e2d\ufe0f\ufffd\uffff",
    "\U0001f600",
    "\U00010000",
]


@settings(max_examples=3000)
@given(st.text(alphabet=st.sampled_from(CELL_ALPHABET), max_size=30))
def test_single_run_end_equals_the_regex(text: str) -> None:
    assert _speedups.single_run_end(text, _TABLE) == single_run_end_by_regex(text)


def test_single_run_end_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="one Latin-1 character a code point"):
        _speedups.single_run_end("a", "0" * 10)
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.single_run_end(b"a", _TABLE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 2 arguments"):
        _speedups.single_run_end("a")  # type: ignore[call-arg]


def test_single_run_end_agrees_on_every_code_point() -> None:
    """Each code point alone, after ASCII (a 1-byte string) and after a
    wide character (a 2- or 4-byte one), is taken or not alike."""
    for code in range(0x110000):
        char = chr(code)
        for text in (char, "a" + char, "\u4e00" + char):
            assert _speedups.single_run_end(text, _TABLE) == single_run_end_by_regex(text), text


@settings(max_examples=3000)
@given(st.text(alphabet=st.sampled_from(CELL_ALPHABET), max_size=30))
def test_cell_run_end_equals_the_regex(text: str) -> None:
    assert _speedups.class_run_end(text, _TABLE, "01") == cell_run_end_by_regex(text)


# Cells with marks: bases of each kind (ASCII letters, digits, # and *, a
# non-ASCII space, wide, astral), combining marks (BMP and astral), the
# variation selectors (BMP, Mongolian, astral) and other joiners, marked
# and replaced code points, C0 controls, and SGR sequences whole, cut short
# or with many parameters.
MARKED_ALPHABET = [*"a1#*\u3000\u2003\xa0\u4e2d\U0001f600\U0001d400", *"\u0301\U0001d167"]
MARKED_ALPHABET += [*"\ufe0f\ufe00\u180b\u180e\U000e0100\u034f\u200c\u200d\u202e\ufdd0"]
MARKED_ALPHABET += [
    *"\n\r\x00\x1b\x7f\x85",
    "\x1b[31m",
    "\x1b[m",
    "\x1b[" + "1;" * 40 + "m",
    "\x1b[1",
]


@settings(max_examples=5000)
@given(st.lists(st.sampled_from(MARKED_ALPHABET), max_size=14).map("".join))
def test_marked_cell_run_end_equals_the_regex(text: str) -> None:
    assert _marked_cell_run_end_in_c(text) == marked_cell_run_end_by_regex(text)


def test_marked_cell_run_end_agrees_on_every_code_point() -> None:
    """Each code point after a base that keeps joiners, after an ASCII
    letter, and before a combining mark."""
    for code in range(0x110000):
        char = chr(code)
        for text in ("\u4e2d" + char, "a" + char, char + "\u0301"):
            assert _marked_cell_run_end_in_c(text) == marked_cell_run_end_by_regex(text), text


def test_class_run_end_agrees_on_every_code_point() -> None:
    """Each code point, for the classes is_cell_run asks for and for one
    class alone."""
    for classes in ("01", "2"):
        pattern = re.compile(_table_class(classes) + "*+")
        for code in range(0x110000):
            text = chr(code)
            expected = pattern.match(text).end()  # type: ignore[union-attr]
            assert _speedups.class_run_end(text, _TABLE, classes) == expected, text


def test_class_run_end_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="one Latin-1 character a code point"):
        _speedups.class_run_end("a", "0" * 0x10000, "0")
    with pytest.raises(ValueError, match="Latin-1 characters"):
        _speedups.class_run_end("a", _TABLE, "\u0100")
    with pytest.raises(TypeError, match="takes 3 arguments"):
        _speedups.class_run_end("a", _TABLE)  # type: ignore[call-arg]


@settings(max_examples=2000)
@given(st.text(max_size=40))
def test_classes_equal_translate(text: str) -> None:
    assert _speedups.classes(text, _TABLE) == classes_by_translate(text)
    assert _speedups.classes(text, width_table()) == text.translate(width_table())


def test_classes_agree_on_every_code_point() -> None:
    every = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
    assert _speedups.classes(every, _TABLE) == every.translate(_TABLE)
    assert _speedups.classes(every, width_table()) == every.translate(width_table())
    assert _speedups.classes("", _TABLE) == ""


def test_classes_check_their_arguments() -> None:
    with pytest.raises(ValueError, match="one Latin-1 character a code point"):
        _speedups.classes("a", "0" * 10)
    with pytest.raises(ValueError, match="the table is ASCII"):
        _speedups.classes("a", "\xff" * 0x110000)
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.classes(b"a", _TABLE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 2 arguments"):
        _speedups.classes("a")  # type: ignore[call-arg]
