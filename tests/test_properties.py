"""Hypothesis properties over arbitrary and terminal-flavoured bytes."""

from __future__ import annotations

import pytest
from chunking import chunks_bytewise, chunks_random, transcript_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textcheck import assert_safe_text

from termscribe import Transcript, _parser, render_text
from termscribe._rows import seal
from termscribe._style import DEFAULT

PIECES = [
    b"\x1b",
    b"\x1b[",
    b"\x1b]",
    b"\x1bP",
    b"\x1b_",
    b"\x1b\\",
    b"\x07",
    b"\x18",
    b"\r",
    b"\n",
    b"\x08",
    b"\t",
    b"\x1b[31m",
    b"\x1b[0m",
    b"\x1b[2K",
    b"\x1b[1A",
    b"\x1b[3;5H",
    b"\x1b[?1049h",
    b"\x1b[?1049l",
    b"\x1b[5b",
    b"\x1b]8;;https://x.example/\x07",
    b"\x1b]8;;\x1b\\",
    b"\xc2\x9b",
    b"\xe2\x80\xae",
    b"\xe2\x80\x8d",
    b"\xef\xb8\x8f",
    b"\xcc\x81",
    "中".encode(),
    "😀".encode(),
    b"\xf0\x9f",
    b"\xe2",
    b"\x80",
    b";",
    b"1",
    b"abc",
    b" ",
]

terminal_bytes = st.lists(
    st.one_of(st.sampled_from(PIECES), st.binary(max_size=8)), max_size=40
).map(b"".join)
any_bytes = st.one_of(st.binary(max_size=300), terminal_bytes)
options = st.sampled_from(
    [
        {},
        {"mode": "strip"},
        {"columns": 7, "rows": 3},
        {"columns": 1, "rows": 1},
        {"columns": 80, "rows": 24},
        {"rows": 2},
    ]
)


def feed_split(data: bytes, cuts: list[int], **opts: object) -> str:
    transcript = Transcript(**opts)  # type: ignore[arg-type]
    previous = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        transcript.feed(data[previous:cut])
        previous = cut
    transcript.feed(data[previous:])
    transcript.finish()
    return transcript.text()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(data=any_bytes, cuts=st.lists(st.integers(min_value=0), max_size=8), opts=options)
def test_chunking_invariance(data: bytes, cuts: list[int], opts: dict[str, object]) -> None:
    assert feed_split(data, cuts, **opts) == render_text(data, **opts)


@settings(max_examples=400)
@given(data=any_bytes, opts=options)
def test_output_is_safe_text(data: bytes, opts: dict[str, object]) -> None:
    assert_safe_text(render_text(data, **opts))


@settings(max_examples=200)
@given(data=any_bytes)
def test_byte_by_byte_equals_whole(data: bytes) -> None:
    transcript = Transcript()
    for i in range(len(data)):
        transcript.feed(data[i : i + 1])
    transcript.finish()
    assert transcript.text() == render_text(data)


@settings(max_examples=300)
@given(data=any_bytes, mode=st.sampled_from(["lines", "strip"]))
def test_idempotent_on_own_output_but_for_its_markers(data: bytes, mode: str) -> None:
    # Fed back, a marker is input that spells one: escaped, and only that.
    once = render_text(data, mode=mode)
    escaped = seal(((once, DEFAULT),), once)[1] if "<U+" in once or "[termscribe:" in once else once
    assert render_text(once.encode("utf-8"), mode=mode) == escaped


@settings(max_examples=200)
@given(data=any_bytes)
def test_printable_ascii_text_is_never_lost_in_strip_mode(data: bytes) -> None:
    # Every printable character that reaches GROUND appears in the audit view;
    # here: plain text with only CR/LF/BS between words survives in order.
    words = [w for w in data.split(b" ") if w.isalnum() and w.isascii()]
    plain = b"\r".join(words)
    assert render_text(plain, mode="strip").replace("\n", "") == plain.replace(b"\r", b"").decode()


# Text redrawn after CRs ("\r10%\r20%") and whole lines of text after a line
# end are handed over as one event each (OVERWRITE_RUN, LINES: see Performer.run), which
# the lines and strip models draw at once when they can; byte by byte every
# event comes on its own (a line end at the end of a chunk cannot be
# followed by anything yet). Both must agree.
GROUPED_PIECES = [
    b"\r",
    b"\r\n",
    b"\n",
    b"\ry",
    b"\r10%",
    b"\r[=====>    ] 55%",
    b"x" * 70,
    b"ab",
    b" ",
    "é".encode(),
    "中".encode(),
    "\u0301".encode(),
    "\u202e".encode(),
    "\ufdd0".encode(),
    b"\x1b[31m",
    b"\x1b[0m",
    b"\x1b[4h",
    b"\x1b[4l",
    b"\x1b(0",
    b"\x1b(B",
    b"\x1b[5D",
    b"\x1b[3C",
    b"\x1b[1A",
    b"\x1b[K",
    b"\x1b]8;;https://x.example/\x07",
    b"\x1b[2b",
    b"line\n",
    b"\n\n",
    b"a\x1b[1mb\x1b[0m\r\n",
    b"\x1b[2;3r",
    b"\x1b[r",
    b"\x1b[?1049h",
    b"\x1b[?1049l",
    b"\x1b[?7l",
    b"\x1b_bk;t=1\x07",
    b"\x1b_a\nb\x1b\\",
    b"\x1bXsos\x07",
    b"\x1b[K",
    b"a\x1b[0K",
    b"\t",
    b"\x1bH",
    # Progress bars redrawn with EL and colour (cargo, pip, git).
    b"\r\x1b[K",
    b"\r\x1b[2K",
    b"\x1b[2K",
    b"\x1b[1K",
    b"\r\x1b[1m50%\x1b[0m",
    b"100K",
    b"\x1b[1G\x1b[0K",  # Node's spinners
    b"\x1b[G",
]
grouped_bytes = st.lists(st.sampled_from(GROUPED_PIECES), max_size=40).map(b"".join)
grouped_options = st.sampled_from(
    [
        {},
        {"rows": 3},
        {"rows": 3, "max_lines": 1},
        {"alt_screen": "snapshot"},
        {"mode": "strip"},
        {"max_lines": 2},
        {"mode": "strip", "max_lines": 2},
        {"mode": "strip", "max_lines": 0},
        {"columns": 12, "rows": 3},
        {"rows": 1},
        {"styled": False},
        {"mode": "strip", "styled": False},
    ]
)


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(data=grouped_bytes, opts=grouped_options)
def test_grouped_events_equal_byte_by_byte(data: bytes, opts: dict[str, object]) -> None:
    whole = transcript_of([data], **opts)
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    assert bytewise.text() == whole.text()
    if opts.get("styled", True):
        assert bytewise.html() == whole.html()
        assert bytewise.ansi() == whole.ansi()


# Progress bars redrawn after CRs, line after line (OVERWRITTEN_LINES):
# texts longer and shorter than the ones before, of every width, after and
# before line ends of each policy, with what breaks such runs among them.
# The usual pieces come five times as often as the rest, so that most
# examples hold such runs.
_PROGRESS_PIECES = [b"\r", b"\n", b"\r\n", b"\r\r\n", b"10%", b"[==>   ] 5/9", b"x" * 30, b"ab"]
_PROGRESS_PIECES = 5 * [*_PROGRESS_PIECES, "\u2588".encode()]
_PROGRESS_PIECES += [p.encode() for p in ("é", "中", "\u0301", "\u202e", "\ufdd0")]
_PROGRESS_PIECES += [b"\x1b[31m", b"\x1b[0m", b"\x1b[K", b"\x1b[4h", b"\x1b(0", b"\x1b(B", b"\t"]
_PROGRESS_PIECES += [b"\x1b[2D", b"\x1b[1A", b"x" * 2000]


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.sampled_from(_PROGRESS_PIECES), max_size=40).map(b"".join),
    opts=st.sampled_from(
        [
            {},
            {"newline": "lf"},
            {"newline": "crlf"},
            {"rows": 2, "max_lines": 1},
            {"mode": "strip"},
            {"mode": "strip", "newline": "lf"},
            {"mode": "screen", "columns": 20, "rows": 4},
            {"columns": 12, "rows": 3},
        ]
    ),
)
def test_progress_lines_equal_byte_by_byte(data: bytes, opts: dict[str, object]) -> None:
    whole = transcript_of([data], **opts)
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    assert bytewise.text() == whole.text()
    assert bytewise.html() == whole.html()


_LINE_PIECES = ["ab", "x" * 30, " ", "1", "é", "中", "\u0301", "\u200d", "\u202e", "\u2066"]
_LINE_PIECES += ["#", "\ufe0f", "\u20e3", "\u0308"]
_LINE_PIECES += ["\ufdd0", "\x1b[31m", "\x1b[0m", "\x1b[1;31m", "\x1b[2b", "\x1b[b", "\x1b[300b"]
_LINE_PIECES += ["\x1b[K", "\x1b[0K", "\x1b[2K", "\t", "\t\t", "\x1b[m"]
_LINE_PIECES += ["\x08", "_\x08", "N\x08N", "a\x08\x08"]
_LINE_TEXT = st.lists(st.sampled_from(_LINE_PIECES), max_size=4).map("".join)
_LINE_END = st.sampled_from(["\n", "\r\n", "\r\r\n"])
line_streams = st.lists(
    st.one_of(
        st.tuples(_LINE_TEXT, _LINE_END).map("".join),
        st.sampled_from(["\x1b[A", "\rover", "\x1b[4h", "\x1b[4l", "\x1b[2;3r", "\x1b[r", "tail"]),
        st.sampled_from(["\x1b[3C\x1bH", "\x1b[3g", "\x1b[41m", "\x1b(0", "\x1b(B"]),
        st.sampled_from(["\x1b_bk;t=1\x07", "\x1b^p\nm\x1b\\", "\x1b]0;title\x07"]),
    ),
    max_size=40,
).map(lambda parts: "".join(parts).encode())


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=line_streams,
    opts=st.sampled_from(
        [
            {"rows": 1},
            {"rows": 2},
            {"rows": 3, "max_lines": 4},
            {"mode": "strip", "max_lines": 3},
            {"styled": False, "rows": 2},
            {},
        ]
    ),
)
def test_lines_of_text_equal_byte_by_byte(data: bytes, opts: dict[str, object]) -> None:
    whole = transcript_of([data], **opts)
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    assert bytewise.text() == whole.text()
    assert bytewise.lines() == whole.lines()


# Many lines past a small window, their colour carried from line to line
# through lines with no SGR sequence: the lines that scroll off are
# committed together (_grouped.commit_styled), which must equal the same
# bytes one by one. Wide characters take the same path; a marker to seal
# takes the slower one.
_STYLED_PIECES = ["a", "bc", " ", "中", "\x1b[31m", "\x1b[1;32m", "\x1b[0m", "\x1b[m", "\x1b[7m"]
_STYLED_LINE = st.lists(st.sampled_from([*_STYLED_PIECES, "<U+41>"]), max_size=4).map("".join)
styled_line_streams = st.lists(_STYLED_LINE, min_size=1, max_size=30).map(
    lambda lines: ("\n".join(lines) + "\n").encode()
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=styled_line_streams,
    opts=st.sampled_from([{"rows": 1}, {"rows": 3}, {"rows": 2, "max_lines": 3}, {"max_lines": 1}]),
)
def test_styled_lines_past_the_window_equal_byte_by_byte(
    data: bytes, opts: dict[str, object]
) -> None:
    whole = transcript_of([data], **opts)
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    assert bytewise.lines() == whole.lines()
    assert bytewise.html() == whole.html()


# Control sequences and C1 controls each followed by text are handed over as
# one run (SEQUENCE_RUN) once many have come one by one; here from the
# start, which byte by byte never happens.
SEQUENCE_PIECES = [
    *(f"\x1b[{seq}".encode() for seq in ["5;1H", "H", "2A", "3C", "K", "2b", "b", "31m", "0m"]),
    *(f"\x1b[{seq}".encode() for seq in ["?25l", "4h", "4l", "2;3r", "!p", " q", "?1049h"]),
    *(f"\x1b[{seq}".encode() for seq in ["?6h", "?6l", "2;2f", "9;1H"]),  # origin mode
    *(f"\x1b[{seq}".encode() for seq in ["A", "1A", "1A\x1b[1A\x1b[A"]),  # merged
    *(chr(c).encode() for c in [0x80, 0x84, 0x85, 0x88, 0x8D, 0x8E, 0x91, 0x9A, 0x9C]),
    *(chr(c).encode() for c in [0x90, 0x98, 0x9D, 0x9E, 0x9F]),  # strings
    "\x9b2a".encode(),
    "\x9b?7l".encode(),
    b"\x1b(0",
    b"\x1b(B",
    b"\x1b\\",
    b"\x07",
    b"\x08",
    b"\r",
    b"\n",
    b"x",
    b"qu",
    "é".encode(),
    "中".encode(),
    "\u0301".encode(),
    "\u202e".encode(),
]


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.sampled_from(SEQUENCE_PIECES), max_size=40).map(b"".join),
    opts=st.sampled_from(
        [{}, {"rows": 3}, {"columns": 5, "rows": 3}, {"mode": "strip"}, {"styled": False}]
    ),
)
def test_sequence_runs_equal_byte_by_byte(data: bytes, opts: dict[str, object]) -> None:
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parser, "_GROUP_AFTER", 0)
        whole = transcript_of([data], **opts)
    assert whole.text() == bytewise.text()
    assert whole.lines() == bytewise.lines()
    if opts.get("styled", True):
        assert whole.html() == bytewise.html()
        assert whole.ansi() == bytewise.ansi()


# Floods of C1 controls: the strip model makes the lines between line ends
# at once, the lines model prints single cells straight into the row.
_C1_PIECES = [
    *(chr(c).encode() for c in [0x84, 0x85, 0x8D, 0x88, 0x80, 0x8E, 0x9A, 0x9C]),
    *(c.encode() for c in ["\x9dt", "\x90q", "\x9b2A", "\x9b5n", "\x9b3C", "\x9b1m"]),
    *(f"\x1b[{seq}".encode() for seq in ["H", "2;3H", "K", "b", "31m", "4h", "4l", "?6h"]),
    *(c.encode() for c in ["ab", "x", "é", "e\u0301", "\u0301", "中", "\u200d", "\u202e"]),
    *(c.encode() for c in ["\U0001f469\u200d\U0001f4bb", "1\ufe0f\u20e3", " "]),
    b"\x1b(0",
    b"\x1b(B",
    b"\r",
    b"\n",
]


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.sampled_from(_C1_PIECES), max_size=60).map(b"".join),
    opts=st.sampled_from(
        [
            {"mode": "strip"},
            {"mode": "strip", "styled": False},
            {"mode": "strip", "max_lines": 2},
            {},
            {"rows": 2, "max_lines": 3},
            {"columns": 6, "rows": 3},
        ]
    ),
    seed=st.integers(0, 2**16),
)
def test_c1_floods_equal_byte_by_byte(data: bytes, opts: dict[str, object], seed: int) -> None:
    bytewise = transcript_of(chunks_bytewise(data), **opts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parser, "_GROUP_AFTER", 0)
        for chunks in ([data], chunks_random(data, seed, 12)):
            whole = transcript_of(chunks, **opts)
            assert whole.lines() == bytewise.lines()
            if opts.get("styled", True):
                assert whole.html() == bytewise.html()
                assert whole.ansi() == bytewise.ansi()


# Runs of sequences that only break the line take a path of their own in
# the strip model.
_BREAKS = [b"\x1b[H", b"\x1b[2;5H", b"\x1b[A", b"\x1b[K", b"\x1b[2J", b"\x1b[3d", b"\x1b[r"]
_BREAKS += [b"x", b"yz", b"\x08", b"\x07", b"\n", b"\r", b"\x1b[31m", "é".encode(), b"\x1b[3C"]
_BREAKS += [b"\x1b[1;32m", b"\x1b[m"]


@settings(max_examples=500)
@given(
    data=st.lists(st.sampled_from(_BREAKS), max_size=30).map(b"".join),
    styled=st.booleans(),
)
def test_strip_runs_of_line_breaks_equal_byte_by_byte(data: bytes, styled: bool) -> None:
    bytewise = transcript_of(chunks_bytewise(data), mode="strip", styled=styled)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parser, "_GROUP_AFTER", 0)
        whole = transcript_of([data], mode="strip", styled=styled)
    assert whole.lines() == bytewise.lines()
    if styled:
        assert whole.html() == bytewise.html()
