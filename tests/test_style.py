"""SGR: every attribute, its reset, every colour form, and malformed input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termscribe import Link, Style, Transcript, _rows, _style
from termscribe._style import (
    BLINK,
    BOLD,
    CONCEAL,
    DEFAULT,
    DIM,
    INVERSE,
    ITALIC,
    OVERLINE,
    RGB_FLAG,
    STRIKE,
)

ALL_FLAGS = BOLD | DIM | ITALIC | BLINK | INVERSE | CONCEAL | STRIKE | OVERLINE


def rgb(r: int, g: int, b: int) -> int:
    return RGB_FLAG | r << 16 | g << 8 | b


@pytest.mark.parametrize(
    ("raw", "flag"),
    [
        ("1", BOLD),
        ("2", DIM),
        ("3", ITALIC),
        ("5", BLINK),
        ("6", BLINK),
        ("7", INVERSE),
        ("8", CONCEAL),
        ("9", STRIKE),
        ("53", OVERLINE),
    ],
)
def test_attribute_on(raw: str, flag: int) -> None:
    assert DEFAULT.apply_sgr(raw) == Style.make(flags=flag)


@pytest.mark.parametrize(
    ("raw", "cleared"),
    [
        ("22", BOLD | DIM),
        ("23", ITALIC),
        ("25", BLINK),
        ("27", INVERSE),
        ("28", CONCEAL),
        ("29", STRIKE),
        ("55", OVERLINE),
    ],
)
def test_attribute_off(raw: str, cleared: int) -> None:
    full = Style.make(fg=1, bg=2, ul_color=3, flags=ALL_FLAGS, underline=1)
    assert full.apply_sgr(raw) == full.replace(flags=ALL_FLAGS & ~cleared)


@pytest.mark.parametrize(
    ("raw", "underline"),
    [("4", 1), ("21", 2), ("4:0", 0), ("4:1", 1), ("4:2", 2), ("4:3", 3), ("4:4", 4), ("4:5", 5)],
)
def test_underline_styles(raw: str, underline: int) -> None:
    start = Style.make(underline=3) if underline == 0 else DEFAULT
    assert start.apply_sgr(raw).underline == underline


def test_underline_off_and_invalid_styles() -> None:
    curly = DEFAULT.apply_sgr("4:3")
    assert curly.apply_sgr("24") == DEFAULT
    assert curly.apply_sgr("4:6") == curly
    assert curly.apply_sgr("4:1:2") == curly


@pytest.mark.parametrize("raw", ["26", "50", "54", "60", "73", "99999", "65535", "200"])
def test_unknown_parameters_change_nothing(raw: str) -> None:
    style = Style.make(fg=1, flags=BOLD)
    assert style.apply_sgr(raw) == style


@pytest.mark.parametrize("raw", ["", "0", "00", "0;0"])
def test_reset(raw: str) -> None:
    full = Style.make(fg=1, bg=2, ul_color=3, flags=ALL_FLAGS, underline=2)
    assert full.apply_sgr(raw) == DEFAULT


def test_reset_keeps_the_open_hyperlink() -> None:
    # A link is closed by OSC 8 only; SGR 0 is about colours (as in VTE, kitty).
    link = Link.make("https://example.com/")
    assert Style.make(fg=1, link=link).apply_sgr("0") == Style.make(link=link)


@pytest.mark.parametrize(
    ("raw", "fg", "bg"),
    [
        ("30", 0, None),
        ("37", 7, None),
        ("90", 8, None),
        ("97", 15, None),
        ("40", None, 0),
        ("47", None, 7),
        ("100", None, 8),
        ("107", None, 15),
        ("31;42", 1, 2),
        ("38;5;196", 196, None),
        ("38:5:196", 196, None),
        ("48;5;21", None, 21),
        ("48:5:21", None, 21),
        ("38;5;0", 0, None),
        ("38;5;255", 255, None),
        ("38;2;1;2;3", rgb(1, 2, 3), None),
        ("38:2:1:2:3", rgb(1, 2, 3), None),
        ("38:2::1:2:3", rgb(1, 2, 3), None),
        ("38:2:0:1:2:3", rgb(1, 2, 3), None),
        ("48;2;255;255;255", None, rgb(255, 255, 255)),
        ("48:2::0:0:0", None, rgb(0, 0, 0)),
        ("38;2;0;0;0;48;5;1", rgb(0, 0, 0), 1),
    ],
)
def test_colours(raw: str, fg: int | None, bg: int | None) -> None:
    style = DEFAULT.apply_sgr(raw)
    assert (style.fg, style.bg) == (fg, bg)


def test_default_colours_reset_only_their_own_slot() -> None:
    style = DEFAULT.apply_sgr("31;42;58;5;3;1")
    assert style.apply_sgr("39") == Style.make(bg=2, ul_color=3, flags=BOLD)
    assert style.apply_sgr("49") == Style.make(fg=1, ul_color=3, flags=BOLD)
    assert style.apply_sgr("59") == Style.make(fg=1, bg=2, flags=BOLD)


@pytest.mark.parametrize(
    ("raw", "ul_color"),
    [
        ("58;5;9", 9),
        ("58:5:9", 9),
        ("58;2;10;20;30", rgb(10, 20, 30)),
        ("58:2::10:20:30", rgb(10, 20, 30)),
        ("58:2:0:10:20:30", rgb(10, 20, 30)),
    ],
)
def test_underline_colour(raw: str, ul_color: int) -> None:
    style = DEFAULT.apply_sgr(raw)
    assert style.ul_color == ul_color
    assert (style.fg, style.bg) == (None, None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # Out of range: the colour is ignored, the rest of the sequence applies.
        ("38;5;256;1", Style.make(flags=BOLD)),
        ("38;5;999;1", Style.make(flags=BOLD)),
        ("38;2;256;0;0;1", Style.make(flags=BOLD)),
        ("38;2;300;-1;99999", DEFAULT),
        ("38;2;4294967296;0;0", DEFAULT),
        ("48;5;65535;4", Style.make(underline=1)),
        ("58;5;999;3", Style.make(flags=ITALIC)),
        ("38:5:300", DEFAULT),
        ("38:2:1:2", DEFAULT),
        ("38:2:0:255:0:0:0", DEFAULT),
        ("38:2:1:2:256", DEFAULT),
        ("38:9:1", DEFAULT),
        ("48:5", DEFAULT),
        # Truncated extended colours consume what is left.
        ("38;2;1", DEFAULT),
        ("38;5", DEFAULT),
        ("38", DEFAULT),
        # An unknown colour kind makes the rest unreadable: dropped (xterm).
        ("38;3;1;2;3;1", DEFAULT),
        ("38;6;1;2;1", DEFAULT),
        # A sub-parameter where a plain value is needed invalidates the colour.
        ("38;5:1;1", DEFAULT),
        ("38;2;1:2;3;4;1", Style.make(flags=BOLD)),
        # An empty parameter is 0, a reset, as in xterm.
        ("1;;4", Style.make(underline=1)),
        ("48;2;;;", Style.make(bg=rgb(0, 0, 0))),
    ],
)
def test_malformed_values_are_ignored(raw: str, expected: Style) -> None:
    assert DEFAULT.apply_sgr(raw) == expected


_SGR_TEXT = st.builds(
    ";".join,
    st.lists(
        st.one_of(
            st.integers(0, 70000).map(str),
            st.sampled_from(["", "38", "48", "58", "2", "5", "4:3", "38:2::1:2:3", "38:5:999"]),
            st.lists(st.integers(0, 70000).map(str), max_size=6).map(":".join),
        ),
        max_size=12,
    ),
)


@given(_SGR_TEXT)
def test_any_sgr_gives_validated_values(raw: str) -> None:
    style = DEFAULT.apply_sgr(raw)
    for colour in (style.fg, style.bg, style.ul_color):
        assert colour is None or 0 <= colour <= 255 or RGB_FLAG <= colour <= RGB_FLAG | 0xFFFFFF
    assert 0 <= style.underline <= 5
    assert style.flags & ~ALL_FLAGS == 0
    # A value: equal attributes, equal styles with one hash.
    again = Style.make(style.fg, style.bg, style.ul_color, style.flags, style.underline, style.link)
    assert style == again and hash(style) == hash(again)


def test_each_distinct_sgr_string_is_interpreted_once_per_style_and_transcript(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    original = _style._apply

    def counting(style: Style, raw: str) -> Style:
        calls.append(raw)
        return original(style, raw)

    monkeypatch.setattr(_style, "_apply", counting)
    raw = b"38;5;77;48;2;9;8;7;4:4"
    data = b"".join(b"\x1b[0m\x1b[" + raw + b"mx\n" for _ in range(50))
    for _ in range(2):
        transcript = Transcript()
        transcript.feed(data)
        transcript.finish()
    assert calls.count(raw.decode()) == 2  # once in each transcript


def test_private_marker_sgr_is_not_sgr() -> None:
    transcript = Transcript()
    transcript.feed(b"\x1b[>4;2mplain\x1b[?1mplain")
    transcript.finish()
    assert transcript.lines()[0].runs == (("plainplain", DEFAULT),)


def test_styles_reach_the_lines() -> None:
    transcript = Transcript()
    transcript.feed(b"a\x1b[1;31mb\x1b[22mc\x1b[0md")
    transcript.finish()
    assert transcript.lines()[0].runs == (
        ("a", DEFAULT),
        ("b", Style.make(fg=1, flags=BOLD)),
        ("c", Style.make(fg=1)),
        ("d", DEFAULT),
    )


def test_links_keep_a_bounded_number_of_characters() -> None:
    # Each OSC 8 target may be thousands of characters long: a transcript's
    # palette drops later links past a budget (their text stays).
    budget = 100_000
    stream = b"".join(
        b"\x1b]8;;https://example.com/%d/%s\x1b\\x\x1b]8;;\x1b\\\r\n" % (i, b"a" * 8000)
        for i in range(60)
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rows, "MAX_LINK_CHARS", budget)
        transcript = Transcript()
        transcript.feed(stream)
        transcript.finish()
        lines = transcript.lines()
        assert [line.text for line in lines] == ["x"] * 60 + [""]
        links = [style.link for line in lines[:60] for _, style in line.runs]
        kept = [link for link in links if link is not None]
        assert 0 < len(kept) < 60
        assert links[: len(kept)] == kept  # the first ones, in order
        assert sum(link.size for link in kept) <= budget
