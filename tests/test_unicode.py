"""Sanitisation policy for printable code points (invariant 2)."""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata

import pytest
from chunking import assert_chunking_invariant
from hypothesis import given
from hypothesis import strategies as st

from termscribe import Transcript, _classes, _unicode, render_text
from termscribe._rows import MARK_TAG, WIDE_TAIL
from termscribe._unicode import (
    CELLS,
    CONTEXT,
    JOINER,
    MARK,
    NORMAL,
    SINGLE,
    WIDE,
    ZERO,
    CellTable,
    char_class,
    char_info,
    class_runs,
    is_cell_run,
    is_simple_run,
    is_single_run,
    joins,
    marker,
)
from termscribe._unicode_data import JOINERS
from termscribe._unicode_data import MARKED as MARKED_RANGES


def text(data: str, **options: object) -> str:
    return assert_chunking_invariant(data.encode("utf-8", "surrogatepass"), **options)


@pytest.mark.parametrize(
    "cp", [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2069]
)
def test_bidi_controls_become_visible_markers(cp: int) -> None:
    assert text(f"a{chr(cp)}b") == f"a<U+{cp:04X}>b"


@pytest.mark.parametrize("cp", [0x200B, 0x2060, 0xFEFF, 0x00AD, 0xE0041, 0xE0001, 0x180E, 0x3164])
def test_invisible_characters_become_visible_markers(cp: int) -> None:
    assert text(f"x{chr(cp)}y") == f"x<U+{cp:04X}>y"


def test_trojan_source_line_is_visible() -> None:
    data = 'access = "user\u202e \u2066// Check if admin\u2069 \u2066"'
    assert text(data) == 'access = "user<U+202E> <U+2066>// Check if admin<U+2069> <U+2066>"'


def test_ascii_smuggling_with_tag_characters_is_visible() -> None:
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "hi")
    assert text("ok" + hidden) == "ok<U+E0068><U+E0069>"


@pytest.mark.parametrize(
    "sequence",
    [
        "👨\u200d👩\u200d👧",  # family: ZWJ sequence
        "❤\ufe0f",  # emoji presentation
        "1\ufe0f\u20e3",  # keycap
        "क्\u200dष",  # Devanagari ZWJ
        "می\u200cخواهم",  # Persian ZWNJ
        "👁\ufe0f\u200d🗨\ufe0f",  # VS then ZWJ
    ],
)
def test_joiners_inside_graphemes_stay(sequence: str) -> None:
    assert text(sequence) == sequence


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("\u200dx", "<U+200D>x"),  # nothing to join at line start
        ("a \u200db", "a <U+200D>b"),  # after a space
        ("ab\u200d", "ab<U+200D>"),  # after ASCII letters
        ("x\ufe0f", "x<U+FE0F>"),
        ("\u200b\u200d", "<U+200B><U+200D>"),  # after a marker
    ],
)
def test_joiners_outside_graphemes_are_marked(data: str, expected: str) -> None:
    assert text(data) == expected


@pytest.mark.parametrize("cp", [0xFFFE, 0xFFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x10FFFF])
def test_noncharacters_become_replacement(cp: int) -> None:
    assert text(f"a{chr(cp)}b") == "a\ufffdb"


def test_line_separators_have_one_rendering() -> None:
    assert text("a\u2028b\u2029c") == "a<U+2028>b<U+2029>c"
    # C0 separators are controls: xterm ignores FS/GS/RS, VT/FF are LF,
    # NEL (C1, as a decoded code point) is CR LF.
    assert text("a\x1cb\x1dc\x1ed") == "abcd"
    assert text("a\nb\x0bc\x0cd") == "a\nb\nc\nd"  # as LF (see test_newline)
    assert text("ab\u0085c") == "ab\nc"
    for result in [text("a\u2028b"), text("a\x1cb\x0bc\u0085d")]:
        assert result.splitlines() == result.split("\n")


def test_c1_controls_never_printed() -> None:
    assert text("a\u009b31mred") == "ared"  # decoded CSI acts as CSI
    assert assert_chunking_invariant(b"a\x9b31mb") == "a\ufffd31mb"  # raw byte: ill-formed


def test_every_cf_character_is_marked_or_context_checked() -> None:
    for cp in range(0xA0, 0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) == "Cf":
            kind = char_info(ch)[1]
            assert kind in (MARK, CONTEXT), hex(cp)


def test_widths_follow_wcwidth() -> None:
    assert char_info("中")[:2] == (2, NORMAL)
    assert char_info("\u0301")[:2] == (0, NORMAL)
    assert char_info("é")[:2] == (1, NORMAL)


def _in(ranges: tuple[tuple[int, int], ...], cp: int) -> bool:
    """Whether `cp` is in one of `ranges` (sorted, disjoint: see below)."""
    index = bisect.bisect_right(ranges, (cp, 0x110000)) - 1
    return index >= 0 and ranges[index][0] <= cp <= ranges[index][1]


def test_the_class_table_is_wcwidth_and_the_treatments_for_every_code_point() -> None:
    from wcwidth import wcwidth

    for ranges in (MARKED_RANGES, JOINERS):
        assert all(a[1] < b[0] for a, b in itertools.pairwise(ranges))  # for _in
    for cp in range(0xA0, 0x110000):
        ch = chr(cp)
        if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE or 0xD800 <= cp <= 0xDFFF:
            expected = (1, NORMAL, "\ufffd")
        elif _in(MARKED_RANGES, cp):  # the cells the terminal gives it
            expected = (wcwidth(ch), MARK, marker(ch))
        elif _in(JOINERS, cp):
            expected = (0, CONTEXT, ch)
        else:
            expected = (wcwidth(ch), NORMAL, ch)
        assert char_info(ch) == expected, hex(cp)


# Printable code points of every class: ASCII, wide, combining, joiners and
# variation selectors, marked (bidi, invisible), noncharacters, and some that
# are one cell but not ASCII (Latin-1, box drawing, braille).
_MIXED = st.text(
    st.sampled_from(
        "ab ~é½─⠧漢字가"  # one cell or two, stored as is
        "\u0301\u0308\u200d\ufe0f"  # combining marks, ZWJ, variation selector
        "\u202e\u200b\u2066\ufeff"  # marked
        "\ufdd0\uffff"  # noncharacters
    ),
    max_size=40,
)


@given(_MIXED)
def test_class_runs_cut_text_into_maximal_runs_of_one_class(data: str) -> None:
    runs = list(class_runs(data))
    assert "".join(chars for _, chars in runs) == data
    for cls, chars in runs:
        assert {char_class(ch) for ch in chars} == {cls}
    assert all(a[0] != b[0] for a, b in itertools.pairwise(runs))


def _stored(ch: str) -> str:
    width, _, stored = char_info(ch)
    return stored + WIDE_TAIL if width == 2 else stored


@given(_MIXED)
def test_cell_runs_merge_the_classes_that_need_no_context_into_their_cells(data: str) -> None:
    runs = list(CellTable().cell_runs(data))
    assert "".join(chars for _, chars, _ in runs) == data
    for cls, chars, stored in runs:
        classes = {char_class(ch) for ch in chars}
        if cls == CELLS:
            assert not classes & {ZERO, JOINER}
            assert stored == "".join(map(_stored, chars))
        else:
            assert classes == {cls}
            assert stored == chars
    assert all(a[0] != b[0] for a, b in itertools.pairwise(runs))


@pytest.mark.parametrize(
    "text",
    [
        "a\tb",
        "\u00e9\x1b[1m",
        "\x85",
        # A control after a printable code point not yet known as simple.
        "\u0101\tb",
        "\u0113\nb",
        "\u012b\x9b",
    ],
)
def test_a_run_with_controls_is_not_simple(text: str) -> None:
    # The class table counts C0 and C1 controls as single cells; they are
    # not printable, and are never learned as simple.
    assert not is_simple_run(text)
    assert not is_simple_run(text)  # asked again: nothing was learned


@given(_MIXED)
def test_a_simple_run_is_exactly_one_stored_cell_per_code_point(data: str) -> None:
    expected = all(
        ch.isprintable() if ch.isascii() else char_info(ch) == (1, NORMAL, ch) for ch in data
    )
    assert is_simple_run(data) == expected
    assert is_simple_run(data) == expected  # and stays so once its characters are known


@given(
    st.text(
        st.sampled_from(
            "ab ~é\n\x1b[m漢字가ｆ🚀\U00020000\u0301\u200d\ufe0f\u20e3\u202e\ufdd0\u3000\xa01#"
        )
    )
)
def test_a_cell_run_is_single_and_wide_characters_each_stored_as_its_cells(data: str) -> None:
    cells = [(ch, char_info(ch)) for ch in data if not ch.isascii()]
    expected = all(
        width in (1, 2) and treatment == NORMAL and stored == ch
        for ch, (width, treatment, stored) in cells
    )
    assert is_cell_run(data) == expected
    if expected:
        wide = {ch for ch, (width, _, _) in cells if width == 2}
        assert CellTable().wide_cells(data) == "".join(
            ch + WIDE_TAIL if ch in wide else ch for ch in data
        )

    # With marks: a mark or joiner joined to the character before it (not a
    # C0 control; a joiner only as joins() keeps it), and one more after it
    # (a joiner again as joins() keeps it). ESC only in SGR sequences, after
    # which a mark joins nothing (as after the C0 control that stands for
    # each here).
    sgr_free = re.sub(r"\x1b\[[0-9;:]*m", "\x00", data)

    def joined(index: int) -> bool:
        prev, ch = sgr_free[index - 1], sgr_free[index]
        return char_class(ch) == ZERO or (char_class(ch) == JOINER and joins(prev, ch))

    def first_mark(index: int) -> bool:
        if index == 0 or char_class(sgr_free[index - 1]) not in (SINGLE, WIDE):
            return False
        base = sgr_free[index - 1]
        return joined(index) and base >= " " and base != "\x7f"

    cell_or_mark = "\x1b" not in sgr_free and all(
        char_class(ch) in (SINGLE, WIDE)
        or first_mark(index)
        or (index > 1 and first_mark(index - 1) and joined(index))
        for index, ch in enumerate(sgr_free)
    )
    assert is_cell_run(data, marks=True) == cell_or_mark


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("cafe\u0301 a\u0301", True),  # NFD, as macOS names files
        (" \u0301", True),  # a space takes a mark
        ("1\ufe0f\u20e3 #\u20e3", True),  # keycaps
        ("\u26a0\ufe0f \U0001f469\u200d\U0001f4bb", True),
        ("e\u0301\u0308", True),
        ("e\u0301\u0308\u0323", False),  # three marks: printed one by one
        ("a\u200db", False),  # a joiner after a letter is marked
        ("\u3000\u200d", False),  # and after a space
        ("a\n\u0301", False),  # nothing to join at the start of a line
        ("\u0301", False),
        ("a\x1b[31m\u0301", False),  # nor after an SGR sequence
        ("\x1b[1;31ma\u0301\x1b[m", True),
        ("a\x1b(0", False),  # no other escape sequence
    ],
)
def test_cell_runs_with_marks(text: str, joined: bool) -> None:
    assert is_cell_run(text, marks=True) == joined


def test_markers_take_the_cells_wcwidth_gives_their_code_point() -> None:
    # Zero for U+200B, bidi controls, tags; one for private use; two for
    # the Hangul choseong filler; the text after them where xterm puts it.
    for ch, width in [("\u200b", 0), ("\u202e", 0), ("\U000e0041", 0), ("\ue123", 1)]:
        assert char_info(ch)[:2] == (width, MARK)
    assert char_info("\u115f")[:2] == (2, MARK)
    assert marker("\u202e") == MARK_TAG + "\u202e"
    data = "\u200b\u202e\U000e0041|\ue123|\u115f|\x1b[7GX\n".encode()
    shown = "<U+200B><U+202E><U+E0041>|<U+E123>|<U+115F>|X\n"
    assert render_text(data) == shown
    assert render_text(data, columns=20) == shown


_MANY = st.text(
    st.one_of(
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
        st.characters(min_codepoint=0xA0, max_codepoint=0x2FFFF, exclude_categories=["Cs"]),
        st.sampled_from("\u202e\u200b\u0301\u200d\ufe0f\ufdd0漢"),
    ),
    max_size=60,
)


@given(st.lists(_MANY, min_size=1, max_size=8))
def test_forgetting_cell_table_entries_changes_nothing(lines: list[str]) -> None:
    data = "\r\n".join(lines).encode("utf-8")
    expected = render_text(data)
    expected_wrapped = render_text(data, columns=7)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_unicode, "MAX_CLASSIFIED", 16)
        assert render_text(data) == expected
        assert render_text(data, columns=7) == expected_wrapped
        # Past the bound the table holds the entries of one run at most.
        transcript = Transcript()
        transcript.feed(data)
        table = transcript._settled().cell_table  # type: ignore[union-attr]
        assert len(table) <= 16 + max(map(len, lines))
        assert len(table.table) <= len(table)


def test_a_stream_of_many_code_points_leaves_a_bounded_cell_table() -> None:
    wide = [*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000), *range(0xAC00, 0xD7A4)]
    wide += range(0x20000, 0x2A6E0)  # CJK Extension B
    assert len(wide) > 2 * _unicode.MAX_CLASSIFIED
    # Each wide character with a one-cell one, so that no run is all wide.
    text = "".join(ch + "é" for ch in map(chr, wide))
    lines = "\n".join(text[i : i + 500] for i in range(0, len(text), 500))
    transcript = Transcript()
    transcript.feed(lines.encode())
    assert transcript.text() == lines
    table = transcript._model.cell_table  # type: ignore[attr-defined]
    assert 0 < len(table.table) <= _unicode.MAX_CLASSIFIED
    assert len(table) <= _unicode.MAX_CLASSIFIED


def test_a_run_with_more_new_code_points_than_remembered_is_still_sanitised() -> None:
    # More distinct code points in one run than the table keeps, then a
    # joiner (printed on its own) and code points that need the table.
    data = "".join(map(chr, range(0x4E00, 0x4E20))) + "x\u200d\u202e\u4e00"
    expected = render_text(data.encode())
    assert expected.endswith("x<U+200D><U+202E>\u4e00")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_unicode, "MAX_CLASSIFIED", 16)
        assert render_text(data.encode()) == expected


@pytest.mark.parametrize(
    ("classes", "start", "stop"),
    [
        ("0", 0xA0, 0x10000),
        ("01", 0, 0x110000),
        ("01", 0x20, 0x110000),
        ("2", 0, 0x110000),
        ("34", 0, 0x10000),
        ("5", 0, 0x110000),
        ("012345", 0, 0x110000),
    ],
)
def test_the_regex_classes_are_the_class_tables_runs(classes: str, start: int, stop: int) -> None:
    # The ranges come from the bounds of the table's sources, not from
    # reading it: they are the maximal runs of those digits in the table,
    # and the regex class spelled from them matches exactly those code points.
    table = _unicode._TABLE
    expected = [
        (max(m.start(), start), min(m.end(), stop) - 1)
        for m in re.finditer(f"[{classes}]+", table)
        if m.end() > start and m.start() < stop
    ]
    ranges = _classes._table_ranges(classes, start, stop)
    assert ranges == expected
    every = "".join(map(chr, range(0x110000)))
    found = re.compile(_classes._ranges_class(*ranges) + "+").finditer(every)
    assert [(m.start(), m.end() - 1) for m in found] == ranges


# Printable code points of every class (ASCII, Latin-1, wide, astral single
# and wide, a combining mark, a marked bidi control, a noncharacter) in
# texts between CRs and LFs, as the grammar hands them over.
_PRINTABLE_SAMPLES = ["a", "\xa0", "\u2588", "中", "\U0001d400", "😀", "\u0301", "\u202e", "\ufdd0"]


@given(st.lists(st.sampled_from([*_PRINTABLE_SAMPLES, "\r", "\n"]), max_size=12).map("".join))
def test_is_single_run_is_is_simple_run_of_the_texts_between_line_ends(text: str) -> None:
    expected = is_simple_run(text.replace("\r", "").replace("\n", ""))
    assert is_single_run(text) == expected
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_unicode, "speedups", None)  # the pure-Python path
        assert is_single_run(text) == expected
