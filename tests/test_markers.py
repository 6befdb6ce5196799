"""Forged markers (SECURITY.md, "forged markers").

A marker termscribe makes (``<U+202E>``, ``[termscribe: 3 characters
omitted]``, the alternate screen's frame lines) is the only text of a
transcript that starts with ``<U+`` or ``[termscribe:``: input that spells
one, directly or put together on screen by cursor moves, has its first
character escaped (``<U+003C>``, ``<U+005B>``).
"""

from __future__ import annotations

import pytest
from chunking import assert_chunking_invariant
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import Transcript, render_ansi, render_html, render_text
from termscribe._rows import MARKERS, MAX_LINE_CELLS

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


@pytest.mark.parametrize("options", [*_MODES[:2], _MODES[3]])
@pytest.mark.parametrize(
    ("edit", "shown"),
    [
        ("\x1b[2D0", "\ufffdU+2020>"),  # overwritten: not a forged <U+2020>, nor an input <
        ("\x1b[3D0", "\ufffdU+200E>"),  # nor one of another marked code point
        ("\x1b[3D\x1b[P", "\ufffdU+20E>"),  # DCH
        ("\x1b[3D\x1b[@", "\ufffdU+20 2E>"),  # ICH
        ("\x1b[3D\x1b[X", "\ufffdU+20 E>"),  # ECH
        ("\x1b[3D\x1b[K", "\ufffdU+20"),  # EL
        ("\x1b[8D0", "0U+202E>"),  # the seal itself overwritten
        ("ab\x1b[2D0", "<U+202E>0b"),  # after the marker: it stays whole
    ],
)
def test_a_marker_edited_in_place_is_no_longer_real(
    edit: str, shown: str, options: dict[str, object]
) -> None:
    text = assert_chunking_invariant(f"\u202e{edit}".encode(), Transcript.text, **options)
    assert text == shown


_SCREEN = {"mode": "screen", "columns": 12, "rows": 3}


@pytest.mark.parametrize("options", [{"columns": 12}, _SCREEN])
@pytest.mark.parametrize(
    ("data", "shown"),
    [
        ("x" * 4 + "\u202e", "xxxx<U+202E>"),  # it fits: whole
        ("x" * 5 + "\u202e", "xxxxx\ufffdU+202>"),  # cut: not a forged <U+202>
        ("x" * 4 + "\U000e006e", "xxxx\ufffdU+E006>"),  # nor <U+E006>
        ("x" * 4 + "\u202eab", "xxxx\ufffdU+202Eb"),  # overwritten after it
        ("x" * 4 + "\u202e\x1b[?7h", "xxxx<U+202E>"),
    ],
)
def test_a_marker_cut_at_the_margin_without_autowrap_is_broken(
    data: str, shown: str, options: dict[str, object]
) -> None:
    # With autowrap off every cell past the last column overwrites it.
    text = assert_chunking_invariant(f"\x1b[?7l{data}".encode(), Transcript.text, **options)
    assert text == shown


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        # Column edits of the scroll region's rows at a column inside it.
        ("\u202e\x1b[3D\x1b[1'}", "\ufffdU+20 2E>"),  # DECIC
        ("\u202e\x1b[3D\x1b[1'~", "\ufffdU+20E>"),  # DECDC
        ("\u202e\n\u202e\x1b[3D\x1b[1'~", "\ufffdU+20E>\n\ufffdU+20E>"),
        # A mark joined inside it breaks it; on its ">" it keeps it whole.
        ("\u202e\x1b[3D\u0301", "\ufffdU+202\u0301E>"),
        ("\u202e\u0301", "<U+202E>\u0301"),
        # Whole-row edits keep it real: SL, SR, IL, scrolling; and so does a
        # marker that ends in the last column with the next character wrapped.
        ("ab\u202e\x1b[1 @", "b<U+202E>"),
        ("\u202e\x1b[1 A", " <U+202E>"),
        ("\u202e\x1b[L", "\n<U+202E>"),
        ("xxxx\u202ey", "xxxx<U+202E>\ny"),
        # Erasing its seal leaves no marker, so nothing to break.
        ("\u202e\x1b[4D\x1b[1K", "     2E>"),
        # Wide characters over it: the cells they take break it.
        ("\u202e\x1b[2D\u4e00", "\ufffdU+202\u4e00"),
    ],
)
def test_screen_edits_that_reach_into_a_marker_break_it(data: str, shown: str) -> None:
    text = assert_chunking_invariant(data.encode(), Transcript.text, **_SCREEN)
    assert text == shown


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
