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
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe import _committed, _grammar, _layouts, _unicode
from termscribe._accel import PURE_PYTHON, speedups
from termscribe._controls import INERT_C1, INERT_C1_MASK
from termscribe._grammar import (
    OVERWRITES,
    SGR_SPLIT,
    overwrites_end_by_regex,
    overwritten_lines_end_by_regex,
    plain_overwrites_end_by_regex,
    sequence_run_end_by_regex,
    tagged_lines_end_by_regex,
    text_end_by_regex,
    text_lines_end_by_regex,
    without_sgr_by_regex,
)
from termscribe._layouts import (
    parts_layout_by_python,
    style_layout_by_python,
)
from termscribe._lines._shortcuts import _overwrites, _sequences
from termscribe._lines._shortcuts._sequences import remove_inert_by_regex
from termscribe._syntax import MAX_INTERMEDIATES, MAX_PARAM_CHARS
from termscribe._unicode import (
    _TABLE,
    _marked_cell_run_end_in_c,
    _table_class,
    cell_run_end_by_regex,
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


@settings(max_examples=3000)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=60))
def test_remove_inert_equals_the_regex(run: str) -> None:
    assert _speedups.remove_inert(run, INERT_C1_MASK) == remove_inert_by_regex(run)


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
    assert _speedups.remove_inert(run, INERT_C1_MASK) == expected
    assert remove_inert_by_regex(run) == expected


def test_every_inert_control_is_removed_before_text() -> None:
    for control in INERT_C1:
        assert _speedups.remove_inert(f"a{control}b", INERT_C1_MASK) == "ab"
    for code in range(0x80, 0xA0):
        control = chr(code)
        if control not in INERT_C1 and control not in "\x90\x98\x9c\x9d\x9e\x9f":
            assert _speedups.remove_inert(f"a{control}b", INERT_C1_MASK) == f"a{control}b"


def test_remove_inert_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.remove_inert(b"\x9c", INERT_C1_MASK)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 2 arguments"):
        _speedups.remove_inert("\x9c")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="32 bits"):
        _speedups.remove_inert("\x9c", 1 << 32)
    with pytest.raises(OverflowError):
        _speedups.remove_inert("\x9c", -1)


def test_the_mask_says_which_controls_are_inert() -> None:
    # Another table, another answer: the C scan takes it from _controls.
    assert _speedups.remove_inert("a\x80\x81b", 0) == "a\x80\x81b"
    assert _speedups.remove_inert("a\x80\x81b", 0b11) == "ab"
    assert _speedups.remove_inert("a\x80\x81b", 0b10) == "a\x80b"


def run_end(text: str, start: int = 0) -> int:
    return _speedups.sequence_run_end(text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES)


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


@settings(max_examples=3000)
@given(
    pieces=st.lists(st.sampled_from(RUN_PIECES), max_size=40),
    start=st.integers(0, 6),
)
def test_sequence_run_end_equals_the_regex(pieces: list[str], start: int) -> None:
    text = "".join(pieces)
    assert run_end(text, start) == sequence_run_end_by_regex(text, start)


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("\x1b[Ha\x1b[Hb\n", 0, 8),  # two items, each with its text
        ("\x1b[Ha\n", 0, -1),  # one item is not a run
        ("x\x1b[H\x1b[H", 0, -1),  # text first
        ("x\x1b[H\x1b[H", 1, 7),
        ("\x84a\x85b\x9c", 0, 5),  # ST is an item
        ("\x9dt\x84a", 0, 4),  # a string aborted by a C1 control
        ("\x9dt\x9c\x84a", 0, -1),  # a string ended by ST is dispatched
        ("\x9dt\x07\x84a", 0, -1),  # or by BEL
        ("\x84\x85\x90\x1b", 0, 2),  # DCS without a C1 control next
        ("\x84\U0001f600\x85中", 0, 4),
        ("\x84\x1b[" + "1" * MAX_PARAM_CHARS + "mx", 0, MAX_PARAM_CHARS + 5),
        ("\x84\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "mx", 0, -1),
        ("\x84\x85", 2, -1),  # from the end
        ("\x84\x85", 9, -1),  # past it
    ],
)
def test_sequence_run_end_cases(text: str, start: int, expected: int) -> None:
    assert run_end(text, start) == expected
    assert sequence_run_end_by_regex(text, start) == expected


def test_sequence_run_end_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.sequence_run_end(b"\x84\x85", 0, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 4 arguments"):
        _speedups.sequence_run_end("\x84\x85", 0)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.sequence_run_end("\x84\x85", -1, 1, 1)
    with pytest.raises(TypeError):
        _speedups.sequence_run_end("\x84\x85", "0", 1, 1)  # type: ignore[arg-type]


def test_the_package_uses_the_extension() -> None:
    assert _sequences.remove_inert is _sequences._remove_inert_in_c
    assert _grammar.sequence_run_end is _grammar.sequence_run_end_in_c
    assert _grammar.text_lines_end is _grammar.text_lines_end_in_c
    assert _grammar.tagged_lines_end is _grammar.tagged_lines_end_in_c
    assert _committed.line_feeds is _speedups.line_feeds
    assert _grammar.sgr_split is _speedups.sgr_split
    assert _grammar.without_sgr is _speedups.without_sgr
    assert _grammar.plain_overwrites_end is _grammar._plain_overwrites_end_in_c
    assert _grammar.overwrites_end is _grammar._overwrites_end_in_c
    assert _grammar.overwritten_lines_end is _speedups.overwritten_lines_end
    assert _grammar.text_end is _speedups.text_end
    assert _overwrites.overlaid_lines is _speedups.overlaid_lines
    assert _unicode.single_run_end is _unicode._single_run_end_in_c
    assert _unicode.cell_run_end is _unicode._cell_run_end_in_c
    assert _unicode.marked_cell_run_end is _unicode._marked_cell_run_end_in_c
    assert _layouts.style_layout is _speedups.style_layout
    assert _layouts.parts_layout is _speedups.parts_layout


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


@settings(max_examples=2000)
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "a", "bc", "é" * 300]), st.sampled_from(CODES)),
        min_size=2,
        max_size=10,
    )
)
def test_parts_layout_equals_the_python(parts: list[tuple[str, str]]) -> None:
    """Texts in their codes, empty ones and neighbours of one code included,
    give the layout of their runs merged by either path."""
    texts = [text for text, _ in parts]
    codes = [code for _, code in parts]
    assert _speedups.parts_layout(texts, codes) == parts_layout_by_python(texts, codes)


def test_style_layout_cases_and_arguments() -> None:
    assert _speedups.style_layout("") == "\x00"
    assert _speedups.style_layout("\x00\x00") == "\x00"
    assert _speedups.style_layout("\x05\x05") == "\x01\x05"
    assert _speedups.style_layout("\x00\x05\x05\x00") == "\x03\x00\x05\x00\x01\x02"
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.style_layout(b"\x00")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 1 argument"):
        _speedups.style_layout()  # type: ignore[call-arg]


def test_parts_layout_checks_its_arguments() -> None:
    assert _speedups.parts_layout(("ab", "", "c"), ("\x05", "\x00", "\x05")) == "\x01\x05"
    assert _speedups.parts_layout((), ()) == "\x00"
    with pytest.raises(ValueError, match="as many codes as texts"):
        _speedups.parts_layout(("a",), ())
    with pytest.raises(TypeError, match="one-character strs"):
        _speedups.parts_layout(("a",), ("\x01\x02",))
    with pytest.raises(TypeError, match="one-character strs"):
        _speedups.parts_layout((b"a",), ("\x01",))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a sequence"):
        _speedups.parts_layout(1, ())  # type: ignore[arg-type]


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


@settings(max_examples=3000)
@given(
    st.text(
        alphabet=st.sampled_from(["\r", "\n", "\x1b", "a", " ", "\x85", "\xa0", "中"]), max_size=20
    ),
    st.integers(0, 3),
)
def test_plain_overwrites_end_equals_the_regex(text: str, start: int) -> None:
    expected = plain_overwrites_end_by_regex(text, start)
    assert _speedups.plain_overwrites_end(text, start) == expected


# Progress bars redrawn after CRs, line after line: texts of each string
# width, longer and shorter than the ones before, and what ends a run.
_OVERLAID_PIECES = ["\r", "\n", "\r\n", "a", "10%", "[==>  ]", " ", "\xa0", "中", "\U0001f600"]
_OVERLAID_PIECES += ["\x1b", "\x1b[1m", "\x85", "\x07", "\x7f", "\x9f"]


@settings(max_examples=3000)
@given(
    st.lists(st.sampled_from(_OVERLAID_PIECES), max_size=16).map("".join),
    st.integers(0, 3),
)
def test_overwritten_lines_end_equals_the_regex(text: str, start: int) -> None:
    expected = overwritten_lines_end_by_regex(text, start)
    assert _speedups.overwritten_lines_end(text, start) == expected


# Printable text of each width with SGR sequences among it, and what ends
# it: other sequences, one with too many parameter characters, C0, DEL, C1.
_TEXT_PIECES = [
    "a",
    " ",
    "\xa0",
    "\xff",
    "中",
    "\U0001f600",
    "\x1b[m",
    "\x1b[1;31m",
    "\x1b[38:2::1:2:3m",
]
_TEXT_PIECES += ["\x1b[" + "1" * MAX_PARAM_CHARS + "m", "\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "m"]
_TEXT_PIECES += ["\x1b[K", "\x1b[", "\x1b", "\r", "\n", "\x7f", "\x85", "\x9b", "\x00"]


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_TEXT_PIECES), max_size=12).map("".join), st.integers(0, 30))
def test_text_end_equals_the_regex(text: str, start: int) -> None:
    assert _speedups.text_end(text, start, MAX_PARAM_CHARS) == text_end_by_regex(text, start)


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_OVERLAID_PIECES[:10]), max_size=16).map("".join), st.booleans())
def test_overlaid_lines_equals_python(text: str, lf_returns: bool) -> None:
    expected = _overwrites.overlaid_lines_by_python(text, lf_returns)
    found = _speedups.overlaid_lines(text, lf_returns)
    assert found == expected
    if found is not None and expected is not None:  # the same strings, of the same width
        assert [sys.getsizeof(line) for line in found] == [sys.getsizeof(x) for x in expected]


def test_overlay_keeps_what_each_text_leaves_visible() -> None:
    lines = _overwrites.overlaid_lines_by_python("\r10%\r100%\r\nabcdef\rxy\r\r\n\r\n", False)
    assert lines == ["100%", "xycdef", ""]
    assert _speedups.overlaid_lines("ab\rc\n", False) is None  # a bare LF
    assert _speedups.overlaid_lines("ab\rc\n", True) == ["cb"]
    assert _speedups.overlaid_lines("no line end", True) == []
    with pytest.raises(TypeError):
        _speedups.overlaid_lines(b"a\n", True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.overwritten_lines_end("a\n", -1)


# Styled progress bars: CRs and CHAs to the first column, EL and SGR
# sequences (one with too many parameter characters), text, and what
# ends a run.
_OVERWRITE_PIECES = ["\r", "\x1b[G", "\x1b[1G", "\x1b[2G", "\x1b[K", "\x1b[0K", "\x1b[2K"]
_OVERWRITE_PIECES += ["\x1b[1K", "\x1b[31m", "\x1b[m", "\x1b[1;2:3m", "\x1b[" + "1" * 40 + "m"]
_OVERWRITE_PIECES += ["a", "10%", " ", "\x85", "\xa0", "中", "\n", "\x1b", "\x1b[", "\x1b[1"]


@settings(max_examples=3000)
@given(
    st.lists(st.sampled_from(_OVERWRITE_PIECES), max_size=12).map("".join),
    st.integers(0, 3),
)
def test_overwrites_end_equals_the_regex(text: str, start: int) -> None:
    m = OVERWRITES.match(text, start)
    expected = -1 if m is None else m.end()
    assert _speedups.overwrites_end(text, start, MAX_PARAM_CHARS) == expected
    assert overwrites_end_by_regex(text, start) == expected


def test_overwrites_end_checks_its_arguments() -> None:
    assert _speedups.overwrites_end("\r\x1b[31mX\x1b[K\rY\r\n", 0, 32) == 12
    assert _speedups.overwrites_end("\x1b[1G\x1b[0K10%", 0, 32) == 11
    assert _speedups.overwrites_end("\r\x1b[K\n", 0, 32) == -1
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.overwrites_end("\ra", -1, 32)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        _speedups.overwrites_end("\ra", 0)  # type: ignore[call-arg]


def test_plain_overwrites_end_checks_its_arguments() -> None:
    assert _speedups.plain_overwrites_end("\r10%\r20%\r\n", 0) == 8
    assert _speedups.plain_overwrites_end("x\r10%", 0) == -1
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.plain_overwrites_end("\ra", -1)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        _speedups.plain_overwrites_end("\ra")  # type: ignore[call-arg]


def lines_end(text: str, start: int = 0, *, tagged: bool = False) -> int:
    return _speedups.text_lines_end(text, start, MAX_PARAM_CHARS, tagged)


# Pieces of lines of text and of what ends a run of them: SGR sequences at
# and past the cap on parameter characters, other sequences and ESC not
# followed by [, CRs before LF and elsewhere, C0, DEL and C1 controls, text
# of each width (Latin-1 above 0x7f among ASCII, so that the C scan's eight
# characters at a time meet one at every offset), and long ASCII runs.
LINE_PIECES = [
    "\n",
    "\r\n",
    "\r\r\n",
    "\r",
    "\x1b[m",
    "\x1b[1;31m",
    "\x1b[38:2::1:2:3m",
    "\x1b[" + "1" * MAX_PARAM_CHARS + "m",
    "\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "m",
    "\x1b[1",
    "\x1b[",
    "\x1b",
    "\x1b[K",
    "\x1b[1x",
    "\x1bD",
    "\x1b_t=1\x07",
    "\x1bX\n\x1b\\",
    "\x1b^pm",
    "\x1b\\",
    "\x1b_a\x18",
    "\x1b_a\x9c",
    "\x00",
    "\x07",
    "\t",
    "\x08",
    "\x1f",
    "\x7f",
    "\x80",
    "\x85",
    "\x9b",
    "\x9f",
    " ",
    "~",
    "a",
    "m",
    "[",
    "0",
    ";",
    "abcdefghijklmnop",
    "0123456",
    "\xa0",
    "é",
    "\xff",
    "中",
    "\ufffd",
    "\U0001f600",
]


@settings(max_examples=3000)
@given(
    pieces=st.lists(st.sampled_from(LINE_PIECES), max_size=40),
    start=st.integers(0, 6),
)
def test_text_lines_end_equals_the_regex(pieces: list[str], start: int) -> None:
    text = "".join(pieces)
    assert lines_end(text, start) == text_lines_end_by_regex(text, start)
    assert lines_end(text, start, tagged=True) == tagged_lines_end_by_regex(text, start)


@settings(max_examples=1000)
@given(st.data())
def test_text_lines_end_equals_the_regex_on_streams(data: st.DataObject) -> None:
    # Streams of the whole grammar of the differential tests, from the
    # start and after each line end, where the parser tries it.
    text = stream(HypothesisChooser(data), 12, 4, ALL)
    for start in [0, *(index + 1 for index, c in enumerate(text) if c == "\n")]:
        assert lines_end(text, start) == text_lines_end_by_regex(text, start)
        assert lines_end(text, start, tagged=True) == tagged_lines_end_by_regex(text, start)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\x1b_bk;t=1\x07a\n", 11),  # a build log's tag
        ("\x1bXsos\x1b\\a\x1b[1mb\x1b[m\n", 17),  # ST ends it, SGR around
        ("\x1b^p\nm\x07\n", 7),  # a line feed inside the string
        ("\x1b_a\x18\n", -1),  # CAN aborts it
        ("\x1b_a\x9c\n", -1),  # a C1 control (not ESC \\) ends it
        ("\x1b_a\x1b[m\x07\n", -1),  # ESC inside
        ("\x1b_a", -1),  # unterminated
        ("\x1b]0;t\x07\n", -1),  # OSC is not one of them
    ],
)
def test_tagged_lines_end_cases(text: str, expected: int) -> None:
    assert lines_end(text, tagged=True) == expected
    assert tagged_lines_end_by_regex(text, 0) == expected


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("a\n", 0, 2),
        ("a\nb", 0, 2),  # the last line is not ended
        ("a", 0, -1),
        ("", 0, -1),
        ("\n\n", 0, 2),  # empty lines
        ("a\r\r\nb\n", 0, 6),  # CRs before LF
        ("a\rb\n", 0, -1),  # a lone CR
        ("a\r", 0, -1),
        ("\x1b[1mred\x1b[m\n", 0, 11),
        ("\x1b[1Kx\n", 0, -1),  # not SGR
        ("a\n\x1b[1Kx\n", 0, 2),
        ("\x1b[" + "1" * MAX_PARAM_CHARS + "m\n", 0, MAX_PARAM_CHARS + 4),
        ("\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "m\n", 0, -1),
        ("a\x85b\n", 0, -1),  # a C1 control
        ("é\xa0\n中\U0001f600\n", 0, 6),
        ("x" * 20 + "\x7f" + "\n", 0, -1),  # DEL past eight characters
        ("abc\ndef\n", 4, 8),
        ("abc\n", 4, -1),  # from the end
        ("abc\n", 9, -1),  # past it
    ],
)
def test_text_lines_end_cases(text: str, start: int, expected: int) -> None:
    assert lines_end(text, start) == expected
    assert text_lines_end_by_regex(text, start) == expected


def test_text_lines_end_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.text_lines_end(b"a\n", 0, 1, False)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 4 arguments"):
        _speedups.text_lines_end("a\n", 0, 1)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.text_lines_end("a\n", -1, 1, False)


@settings(max_examples=1000)
@given(
    st.text(alphabet=st.sampled_from(["\n", "a", "\r", "é", "中", "\U0001f600"]), max_size=40),
    st.integers(0, 45),
    st.integers(0, 45),
)
def test_line_feeds_equals_count(text: str, start: int, end: int) -> None:
    expected = _committed.line_feeds_by_count(text, start, end)
    assert _speedups.line_feeds(text, start, end) == expected == text.count("\n", start, end)


def test_line_feeds_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="must be str, not bytes"):
        _speedups.line_feeds(b"a\n", 0, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes 3 arguments"):
        _speedups.line_feeds("a\n", 0)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="must not be negative"):
        _speedups.line_feeds("a\n", 0, -1)
