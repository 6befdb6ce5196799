"""Hypothesis properties over arbitrary and terminal-flavoured bytes."""

from __future__ import annotations

import pytest
import vtgrammar
from chunking import chunks_bytewise, chunks_random, transcript_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textcheck import assert_safe_text

from termscribe import Transcript, render_text
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


# The oracle of the batch executors (DESIGN.md, invariant 9): a stream fed
# whole, byte by byte and in random chunks, and with every batch replayed
# event by event (``_one_by_one``, as TERMSCRIBE_ONE_BY_ONE=1 does), gives
# the same text, HTML and ANSI, in every mode, line feed policy and width.
# The generator draws from the whole grammar: the pieces of every shape a
# model takes in bulk (lines of text, progress bars redrawn after CRs,
# redraws by cursor-ups, floods of C1 controls and sequences), the shapes
# that break them, vtgrammar's streams and arbitrary bytes.
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
_PROGRESS_PIECES = [b"\r", b"\n", b"\r\n", b"\r\r\n", b"10%", b"[==>   ] 5/9", b"x" * 30, b"ab"]
_PROGRESS_PIECES = 5 * [*_PROGRESS_PIECES, "\u2588".encode()]
_PROGRESS_PIECES += [p.encode() for p in ("é", "中", "\u0301", "\u202e", "\ufdd0")]
_PROGRESS_PIECES += [b"\x1b[31m", b"\x1b[0m", b"\x1b[K", b"\x1b[4h", b"\x1b(0", b"\x1b(B", b"\t"]
_PROGRESS_PIECES += [b"\x1b[2D", b"\x1b[1A", b"x" * 2000]


_LINE_PIECES = ["ab", "x" * 30, " ", "1", "é", "中", "\u0301", "\u200d", "\u202e", "\u2066"]
_LINE_PIECES += ["#", "\ufe0f", "\u20e3", "\u0308"]
_LINE_PIECES += ["\ufdd0", "\x1b[31m", "\x1b[0m", "\x1b[1;31m", "\x1b[2b", "\x1b[b", "\x1b[300b"]
_LINE_PIECES += ["\x1b[K", "\x1b[0K", "\x1b[2K", "\t", "\t\t", "\x1b[m"]
_LINE_PIECES += ["\x08", "_\x08", "N\x08N", "a\x08\x08"]
_LINE_TEXT = st.lists(st.sampled_from(_LINE_PIECES), max_size=4).map("".join)
_LINE_END = st.sampled_from(["\n", "\r\n", "\r\r\n"])
_STYLED_PIECES = ["a", "bc", " ", "中", "\x1b[31m", "\x1b[1;32m", "\x1b[0m", "\x1b[m", "\x1b[7m"]
_STYLED_LINE = st.lists(st.sampled_from([*_STYLED_PIECES, "<U+41>"]), max_size=4).map("".join)
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


_BREAKS = [b"\x1b[H", b"\x1b[2;5H", b"\x1b[A", b"\x1b[K", b"\x1b[2J", b"\x1b[3d", b"\x1b[r"]
_BREAKS += [b"x", b"yz", b"\x08", b"\x07", b"\n", b"\r", b"\x1b[31m", "é".encode(), b"\x1b[3C"]
_BREAKS += [b"\x1b[1;32m", b"\x1b[m"]


_ALL_PIECES = sorted(
    {
        *PIECES,
        *GROUPED_PIECES,
        *_PROGRESS_PIECES,
        *(piece.encode() for piece in _LINE_PIECES),
        *(piece.encode() for piece in _STYLED_PIECES),
        b"<U+41>",
        *SEQUENCE_PIECES,
        *_C1_PIECES,
        *_BREAKS,
        b"\r\n",
        b"\x1b[3A",
        b"\x1b[0G",
        b"\x1b[?2026h",
        b"\x1b[?2026l",
        b"\x1b7",
        b"\x1b8",
        b"\x1b[1;23r",
        b"\x1b[24;1H",
        b"\x1bc",
        b"\x7f",
        b"\x1b[>4;2m",
        b"\x9b31m",
        # Markers of code points of no cell, one and two, and spelled ones.
        *(ch.encode() for ch in ["\u200b", "\U000e0041", "\ue000", "\ue123", "\u115f"]),
        b"<U+202E>",
        b"\xe2\x80\x8b\x1b[3b",
    }
)
_LINE = st.lists(st.sampled_from(_ALL_PIECES), max_size=6).map(b"".join)


@st.composite
def vt_streams(draw: st.DrawFn) -> bytes:
    """vtgrammar's streams, for a window of about 8 by 4, markers too."""
    chooser = vtgrammar.HypothesisChooser(draw(st.data()))
    return vtgrammar.stream(chooser, 8, 4).encode()


any_stream = st.one_of(
    # Lines: what most logs are, so that whole runs of them form.
    st.lists(
        st.tuples(_LINE, st.sampled_from([b"\n", b"\r\n", b"\r\r\n", b""])).map(b"".join),
        max_size=30,
    ).map(b"".join),
    st.lists(st.sampled_from(_ALL_PIECES), max_size=60).map(b"".join),
    st.lists(st.one_of(st.sampled_from(_ALL_PIECES), st.binary(max_size=6)), max_size=40).map(
        b"".join
    ),
    vt_streams(),
)
oracle_options = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["lines", "strip", "screen"]),
        "newline": st.sampled_from(["auto", "crlf", "lf"]),
        "columns": st.sampled_from([None, 1, 5, 12, 80]),
        "rows": st.sampled_from([1, 2, 3, 24]),
    },
    optional={
        "max_lines": st.sampled_from([0, 1, 3]),
        "styled": st.just(False),
        "alt_screen": st.just("snapshot"),
    },
).filter(lambda o: not (o["mode"] == "strip" and "alt_screen" in o))


def _outputs(transcript: Transcript) -> tuple[str, str, str]:
    return transcript.text(), transcript.html(), transcript.ansi()


@settings(
    max_examples=1500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=any_stream, opts=oracle_options, seed=st.integers(0, 2**16))
def test_every_chunking_and_one_by_one_give_the_same_output(
    data: bytes, opts: dict[str, object], seed: int
) -> None:
    whole = _outputs(transcript_of([data], **opts))
    assert _outputs(transcript_of([data], _one_by_one=True, **opts)) == whole, "one by one"
    assert _outputs(transcript_of(chunks_bytewise(data), **opts)) == whole, "byte by byte"
    assert _outputs(transcript_of(chunks_random(data, seed, 12), **opts)) == whole, "chunks"


@pytest.mark.parametrize(
    ("data", "options", "expected"),
    [
        # A CR after a line end, under each policy (the case that once
        # changed with chunking).
        (b"10%\n\r10%\r\n", {"newline": "lf"}, "10%\n10%\n"),
        (b"10%\n\r10%\r\n", {"newline": "crlf"}, "10%\n10%\n"),
        (b"a\nb\n", {"newline": "lf"}, "a\n b\n"),
        (b"a\r\nb\r\n", {"newline": "lf", "rows": 1}, "a\nb\n"),
    ],
)
def test_line_ends_after_text_under_each_policy(
    data: bytes, options: dict[str, object], expected: str
) -> None:
    for chunks in ([data], chunks_bytewise(data)):
        assert transcript_of(chunks, **options).text() == expected
        assert transcript_of(chunks, _one_by_one=True, **options).text() == expected
