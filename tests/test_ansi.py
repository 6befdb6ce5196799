"""The safe-ANSI renderer: only rebuilt SGR (and OSC 8), text unchanged."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from types import SimpleNamespace

import pytest
from chunking import assert_chunking_invariant, chunks_random, transcript_of
from contrastcheck import MIN_RATIO, NAMED_CASES, hostile_sample, ratio
from htmlcheck import Case, corpus_cases
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import Line, Link, Style, Transcript, ansi_lines, render_ansi, safe_url
from termscribe._rows import MAX_LINE_CELLS, seal
from termscribe._style import BOLD, CONCEAL, DIM, INVERSE, RGB_FLAG
from termscribe.cli import main

CSI = b"\x1b["
OSC = b"\x1b]"
ST = b"\x1b\\"
BEL = b"\x07"

# Everything the renderer may emit besides text: SGR with digits, ";" and
# ":", and OSC 8 with a printable-ASCII URL, ended with ST.
_ALLOWED = re.compile(r"\x1b\[[0-9;:]*m|\x1b\]8;;[!-~]*?\x1b\\")
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def check_ansi(ansi: str, text: str) -> None:
    """The ANSI output is safe and is the text transcript plus styling."""
    stripped = _ALLOWED.sub("", ansi)
    match = _CONTROL.search(stripped)
    assert match is None, f"control {match.group()!r} outside an allowed sequence"
    assert stripped == text
    for line in ansi.split("\n"):
        sgrs = re.findall(r"\x1b\[[0-9;:]*m", line)
        if sgrs:
            assert sgrs[-1] == "\x1b[0m", f"a line leaves a style open: {line!r}"
        links = re.findall(r"\x1b\]8;;([!-~]*?)\x1b\\", line)
        if links:
            assert links[-1] == "", "a line leaves no link open"


def visible_runs(
    lines: Sequence[Line] | Sequence[SimpleNamespace], *, hyperlinks: bool
) -> list[list[tuple[str, Style]]]:
    """What the renderer promises to keep of each run: everything but
    concealment, an underline colour without underline, and unsafe links
    (and, for a pair under 3:1, its colours: see ``assert_round_trip``)."""
    out = []
    for line in lines:
        runs: list[tuple[str, Style]] = []
        for text, style in line.runs:
            url = safe_url(style.link.uri) if hyperlinks and style.link else None
            kept = Style.make(
                style.fg,
                style.bg,
                style.ul_color if style.underline else None,
                style.flags & ~CONCEAL,
                style.underline,
                Link.make(url) if url else None,
            )
            if runs and runs[-1][1] == kept:
                runs[-1] = (runs[-1][0] + text, kept)
            elif text:
                runs.append((text, kept))
        out.append(runs)
    return out


# ---------------------------------------------------------------- the contrast rule

#: xterm's default 16 colours, written out here independently of the renderer.
XTERM = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
    (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip
_LEVELS = (0, 95, 135, 175, 215, 255)


def drawn(value: int) -> tuple[int, int, int]:
    """The colour xterm draws for a Style colour."""
    if value & RGB_FLAG:
        return value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF
    if value < 16:
        return XTERM[value]
    if value >= 232:
        return (8 + 10 * (value - 232),) * 3
    value -= 16
    return _LEVELS[value // 36], _LEVELS[value // 6 % 6], _LEVELS[value % 6]


def pair_ratios(style: Style) -> list[float]:
    """Every contrast a terminal may draw an explicit pair with: SGR 7
    swaps the two, bold 30-37 may be drawn bright, faint is the foreground
    at half opacity. Empty when a side is the terminal's default."""
    if style.fg is None or style.bg is None:
        return []
    fgs = [drawn(style.fg)]
    if style.flags & BOLD and style.fg < 8:
        fgs.append(XTERM[style.fg + 8])
    bgs = [drawn(style.bg)]
    fronts, backs = (bgs, fgs) if style.flags & INVERSE else (fgs, bgs)
    out = []
    for front in fronts:
        for back in backs:
            shown = front
            if style.flags & DIM:
                mixed = zip(front, back, strict=True)
                shown = tuple(int(f * 0.5 + b * 0.5 + 0.5) for f, b in mixed)
            out.append(ratio(shown, back))
    return out


def assert_pairs_readable(lines: list[Line]) -> tuple[int, float]:
    """Every explicit pair in lines keeps 3:1; (pairs checked, lowest)."""
    checked, lowest = 0, 99.0
    for line in lines:
        for text, style in line.runs:
            for value in pair_ratios(style):
                assert value >= MIN_RATIO - 1e-9, (text[:20], style, value)
                checked += 1
                lowest = min(lowest, value)
    return checked, lowest


def _aligned(
    a: list[tuple[str, Style]], b: list[tuple[str, Style]]
) -> Iterator[tuple[str, Style, Style]]:
    """The two run lists of the same text, cut where either changes style."""
    i = j = 0
    ta, tb = (a[0][0] if a else ""), (b[0][0] if b else "")
    while i < len(a) and j < len(b):
        n = min(len(ta), len(tb))
        yield ta[:n], a[i][1], b[j][1]
        ta, tb = ta[n:], tb[n:]
        if not ta:
            i += 1
            ta = a[i][0] if i < len(a) else ""
        if not tb:
            j += 1
            tb = b[j][0] if j < len(b) else ""
    assert i == len(a) and j == len(b), "texts differ"


def truecolor_ratio(style: Style) -> float:
    """The contrast of a set pair drawn in 24-bit colours (xterm's for
    palette indices, never brightened by bold), after SGR 7 and faint."""
    assert style.fg is not None and style.bg is not None
    front, back = drawn(style.fg), drawn(style.bg)
    if style.flags & INVERSE:
        front, back = back, front
    if style.flags & DIM:
        front = tuple(int(f * 0.5 + b * 0.5 + 0.5) for f, b in zip(front, back, strict=True))
    return ratio(front, back)


def assert_round_trip(
    transcript: Transcript, *, hyperlinks: bool = False, pairs: str = "truecolor"
) -> None:
    """Feeding the ANSI output to a terminal model gives back the styles,
    but for a set foreground on a set background: that comes back as a
    24-bit pair ("truecolor"): the colours xterm's palette gives the two
    where they keep 3:1, else the same background and a foreground moved
    to 3:1, without faint if faint fell short; or ("terminal") without its
    colours and faint."""
    lines = transcript.lines()
    if any(len(line.text) >= MAX_LINE_CELLS for line in lines):
        return  # the omission marker itself would be cut on the way back
    out = transcript.ansi(hyperlinks=hyperlinks, pairs=pairs)
    again = transcript_of([out.encode()], max_lines=None)
    assert_pairs_readable(again.lines())
    # Fed back, the markers are input that spells a marker: escaped.
    escaped = [SimpleNamespace(runs=seal(line.runs, line.text)[0]) for line in lines]
    got = visible_runs(again.lines(), hyperlinks=True)
    want = visible_runs(escaped, hyperlinks=hyperlinks)
    assert len(got) == len(want)
    for got_runs, want_runs in zip(got, want, strict=True):
        for text, kept, back in _aligned(want_runs, got_runs):
            if kept.fg is None or kept.bg is None:
                assert back == kept, (text, kept, back)
                continue
            assert back.link == kept.link
            assert (back.underline, back.ul_color) == (kept.underline, kept.ul_color)
            if pairs == "terminal":
                assert (back.fg, back.bg, back.flags) == (None, None, kept.flags & ~DIM)
                continue
            assert back.fg is not None and back.bg is not None
            assert back.fg & back.bg & RGB_FLAG, (text, back)
            if truecolor_ratio(kept) >= MIN_RATIO:
                rgb = [
                    RGB_FLAG | r << 16 | g << 8 | b for r, g, b in map(drawn, (kept.fg, kept.bg))
                ]
                assert [back.fg, back.bg, back.flags] == [*rgb, kept.flags], (text, kept, back)
                continue
            assert back.flags == kept.flags & ~DIM or back.flags == kept.flags
            shown_bg = back.fg if kept.flags & INVERSE else back.bg
            assert drawn(shown_bg) == drawn(kept.fg if kept.flags & INVERSE else kept.bg)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"plain", "plain"),
        (CSI + b"1;31mred" + CSI + b"0m x", "\x1b[0;1;31mred\x1b[0m x"),
        (CSI + b"2;3;5;7;9;53mx", "\x1b[0;2;3;5;7;9;53mx\x1b[0m"),
        (CSI + b"6mx", "\x1b[0;5mx\x1b[0m"),
        (CSI + b"4mx", "\x1b[0;4mx\x1b[0m"),
        (CSI + b"21mx", "\x1b[0;4:2mx\x1b[0m"),
        (CSI + b"4:3mx", "\x1b[0;4:3mx\x1b[0m"),
        # A colour alone is kept as it is; a pair becomes 24-bit (xterm's colours).
        (CSI + b"38;5;3mx", "\x1b[0;33mx\x1b[0m"),
        (CSI + b"37;40mx", "\x1b[0;38;2;229;229;229;48;2;0;0;0mx\x1b[0m"),
        (CSI + b"91;107mx", "\x1b[0;38;2;255;0;0;48;2;255;255;255mx\x1b[0m"),
        (CSI + b"38:5:196;48;5;17mx", "\x1b[0;38;2;255;0;0;48;2;0;0;95mx\x1b[0m"),
        (CSI + b"38:2::201:2:3;48;2;4;5;6mx", "\x1b[0;38;2;201;2;3;48;2;4;5;6mx\x1b[0m"),
        # Underline colour in the colon form only, and only with an underline.
        (CSI + b"4;58;5;196mx", "\x1b[0;4;58:5:196mx\x1b[0m"),
        (CSI + b"4;58;2;1;2;3mx", "\x1b[0;4;58:2::1:2:3mx\x1b[0m"),
        (CSI + b"58;5;196mx", "x"),
        # Concealment is never re-emitted; the rest of the style is.
        (CSI + b"8mx", "x"),
        (CSI + b"8;31mx", "\x1b[0;31mx\x1b[0m"),
        # Malformed values never pass.
        (CSI + b"38;2;300;-1;99999mx", "x"),
        (CSI + b"38;5;999;1mx", "\x1b[0;1mx\x1b[0m"),
        # Each run has a complete SGR; plain text after styles is reset first.
        (
            CSI + b"31ma" + CSI + b"1mb" + CSI + b"0mc" + CSI + b"32md",
            "\x1b[0;31ma\x1b[0;1;31mb\x1b[0mc\x1b[0;32md\x1b[0m",
        ),
        # Every styled line is closed; the next line starts afresh.
        (CSI + b"31mone\r\ntwo", "\x1b[0;31mone\x1b[0m\n\x1b[0;31mtwo\x1b[0m"),
    ],
)
def test_sgr_is_rebuilt(data: bytes, expected: str) -> None:
    assert render_ansi(data) == expected
    check_ansi(expected, text_of(data))


@pytest.mark.parametrize(
    ("sgr", "expected"),
    [
        # Same colour, near colour: a truecolor pair, background as xterm shows it.
        (b"31;41", "38;2;238;168;168;48;2;205;0;0"),
        (b"38;2;1;2;3;48;2;4;5;6", "38;2;91;91;92;48;2;4;5;6"),
        (b"34;40", "38;2;56;56;242;48;2;0;0;0"),  # xterm's blue on black is 2.2:1
        (b"97;42", "38;2;94;94;94;48;2;0;205;0"),
        # SGR 7 is kept; the colour that ends up in front is the one moved.
        (b"7;31;41", "7;38;2;205;0;0;48;2;238;168;168"),
        # Bold 30-37 may be drawn bright, but never in 24-bit: black stays black.
        (b"1;30;100", "1;38;2;0;0;0;48;2;127;127;127"),
        (b"7;1;30;100", "1;7;38;2;0;0;0;48;2;127;127;127"),
        # Faint is folded into the colour when it would fall under 3:1.
        (b"2;90;40", "38;2;90;90;90;48;2;0;0;0"),
        # Concealment is not re-emitted, and its colours are made readable.
        (b"8;30;40", "38;2;90;90;90;48;2;0;0;0"),
        # Readable pairs are xterm's colours, in 24-bit; half pairs are left as they are.
        (b"2;37;40", "2;38;2;229;229;229;48;2;0;0;0"),
        (b"30;47", "38;2;0;0;0;48;2;229;229;229"),
        (b"1;31;40", "1;38;2;205;0;0;48;2;0;0;0"),
        (b"35;103", "38;2;205;0;205;48;2;255;255;0"),  # 1.02:1 in Solarized Dark as 35;103
        (b"97", "97"),
        (b"38;5;16", "38;5;16"),
        (b"7;48;5;231", "7;48;5;231"),
    ],
)
def test_explicit_pairs_keep_three_to_one(sgr: bytes, expected: str) -> None:
    assert render_ansi(CSI + sgr + b"mx") == f"\x1b[0;{expected}mx\x1b[0m"


def test_hostile_sample_pairs_are_readable() -> None:
    data = hostile_sample()
    transcript = transcript_of([data])
    before = sum(1 for line in transcript.lines() for _, style in line.runs
                 if any(value < MIN_RATIO for value in pair_ratios(style)))  # fmt: skip
    assert before > 1000  # the sample does hide text in a terminal
    out = transcript.ansi()
    check_ansi(out, transcript.text())
    again = transcript_of([out.encode()], max_lines=None)
    checked, lowest = assert_pairs_readable(again.lines())
    assert checked > 8000 and MIN_RATIO <= lowest < 3.2
    assert_round_trip(transcript)
    print(f"ansi contrast: {checked} explicit pairs checked, lowest {lowest}")
    assert len(NAMED_CASES) > 40


def text_of(data: bytes) -> str:
    return transcript_of([data]).text()


def test_passthrough_sequences_never_appear() -> None:
    data = (
        OSC + b"0;title" + BEL + OSC + b"52;c;eA==" + BEL + CSI + b"6n" + CSI + b"?1049h"
        + b"\x1bP$q\"p" + ST + CSI + b"2J" + b"\xc2\x9b31m" + b"text"
    )  # fmt: skip
    out = render_ansi(data, hyperlinks=True)
    check_ansi(out, text_of(data))
    assert "\x1b" not in out


def link(uri: bytes, text: bytes) -> bytes:
    return OSC + b"8;;" + uri + ST + text + OSC + b"8;;" + ST


def test_links_only_when_asked_and_only_safe_ones() -> None:
    data = (
        link(b"HTTPS://Example.COM/a b", b"ok") + b" "
        + link(b"javascript:alert(1)", b"bad") + b" "
        + link(b"https://a.example/\x1b]8;;x", b"odd")
    )  # fmt: skip
    assert render_ansi(data) == "ok bad odd"
    assert render_ansi(data, hyperlinks=True) == (
        "\x1b]8;;https://example.com/a%20b\x1b\\ok\x1b]8;;\x1b\\ bad odd"
    )


def test_link_with_styles_and_open_at_end_of_line() -> None:
    data = OSC + b"8;;https://a.example/" + BEL + CSI + b"1ma" + CSI + b"0mb\r\nc"
    out = render_ansi(data, hyperlinks=True)
    assert out == (
        "\x1b]8;;https://a.example/\x1b\\\x1b[0;1ma\x1b[0mb\x1b]8;;\x1b\\\n"
        "\x1b]8;;https://a.example/\x1b\\c\x1b]8;;\x1b\\"
    )
    check_ansi(out, "ab\nc")


def test_per_line_api() -> None:
    transcript = transcript_of([CSI + b"31mx\r\ny"])
    assert ansi_lines(transcript.lines()) == transcript.ansi()
    assert ansi_lines([]) == ""


def test_cli_ansi_streams_the_same_output() -> None:
    data = b"".join(CSI + b"3%dm<%d>" % (i % 8, i) + link(b"https://a.example/", b"l") + b"\r\n"
                    for i in range(3000))  # fmt: skip
    for args, hyperlinks in (([], False), (["--hyperlinks"], True)):
        out = io.BytesIO()
        status = main(
            ["render", "--format", "ansi", "--rows", "3", *args],
            stdin=io.BytesIO(data),
            stdout=out,
            stderr=io.StringIO(),
        )
        assert status == 0
        assert out.getvalue().decode() == render_ansi(data, rows=3, hyperlinks=hyperlinks)


def test_cli_pairs_option() -> None:
    data = CSI + b"2;35;103mpair" + CSI + b"0;31m red\r\n" + CSI + b"7;30;47mkey\r\n"
    for args, pairs in (([], "truecolor"), (["--pairs", "truecolor"], "truecolor"),
                        (["--pairs", "terminal"], "terminal")):  # fmt: skip
        out, err = io.BytesIO(), io.StringIO()
        argv = ["render", "--format", "ansi", *args]
        assert main(argv, stdin=io.BytesIO(data), stdout=out, stderr=err) == 0
        assert out.getvalue().decode() == render_ansi(data, pairs=pairs)
    assert render_ansi(data, pairs="terminal") == (
        "pair\x1b[0;31m red\x1b[0m\n\x1b[0;7mkey\x1b[0m\n"
    )
    err = io.StringIO()
    status = main(["render", "--pairs", "terminal"], stdin=io.BytesIO(data), stderr=err)
    assert status == 2 and err.getvalue() == "termscribe: --pairs applies to --format ansi only\n"


# ---------------------------------------------------------------- corpus

CASES = corpus_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_ansi(case: Case) -> None:
    data = case.data()
    transcript = transcript_of([data], **case.options())
    text = transcript.text()
    for hyperlinks in (False, True):
        check_ansi(transcript.ansi(hyperlinks=hyperlinks), text)
        assert_round_trip(transcript, hyperlinks=hyperlinks)
    if len(data) <= 16 * 1024:
        assert_chunking_invariant(data, Transcript.ansi, bytewise=False, **case.options())
    else:
        split = transcript_of(chunks_random(data, 1, max_size=8192), **case.options())
        assert split.ansi() == transcript.ansi()


# ---------------------------------------------------------------- generated

_FRAGMENTS = st.sampled_from(
    [
        b"a", b"text ", b"\r", b"\n", b"\r\n", b"\t", b"\x08", b"\x9b", b"\xc2\x9b",
        b"\xe2\x80\xae", b"\xf0\x9f\x98\x80", b"e\xcc\x81", b"\xff",
        CSI + b"31m", CSI + b"1;2;3;4:3;5;7;8;9;53m", CSI + b"0m", CSI + b"22;23;24;27;28;29m",
        CSI + b"38;5;200m", CSI + b"48;2;1;2;3m", CSI + b"4;58:2::9:8:7m", CSI + b"59m",
        CSI + b"38;5;", CSI + b"2K", CSI + b"A", CSI + b"3D", CSI + b"?1049h", CSI + b"?1049l",
        OSC + b"8;;https://a.example/?q=1" + BEL, OSC + b"8;;file:///etc" + ST, OSC + b"8;;" + BEL,
        OSC + b"0;t" + BEL, b"\x1b", b"\x18",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_FRAGMENTS, max_size=40).map(b"".join),
    st.sampled_from([None, 6]),
    st.booleans(),
    st.lists(st.integers(0, 300), max_size=6),
    st.sampled_from(["truecolor", "terminal"]),
)
def test_generated_streams(
    data: bytes, columns: int | None, hyperlinks: bool, cuts: list[int], pairs: str
) -> None:
    transcript = transcript_of([data], columns=columns, rows=3)
    out = transcript.ansi(hyperlinks=hyperlinks, pairs=pairs)
    check_ansi(out, transcript.text())
    assert_round_trip(transcript, hyperlinks=hyperlinks, pairs=pairs)
    points = sorted({min(cut, len(data)) for cut in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    split = transcript_of(pieces, columns=columns, rows=3)
    assert split.ansi(hyperlinks=hyperlinks, pairs=pairs) == out
