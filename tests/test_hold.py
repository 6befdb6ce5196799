"""Transcript(hold_bytes=...): feeds held and interpreted together.

Holding must never change what is read: a transcript that holds, read at
any moment by any reader, gives what one that interprets every feed at once
(``hold_bytes=0``, the default) gives after the same feeds.  Generated
streams of terminal output (code points split across feeds, sequences
split, line ends, SGR) are fed in random pieces with random reads between
them, in every mode.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termscribe import Transcript
from termscribe._transcript import HOLD_BYTES

_PIECES = [
    b"plain text ",
    b"\x1b[31mred\x1b[0m ",
    b"\x1b[1;32m",
    b"\r\n",
    b"\n",
    b"\r",
    b"\rover",
    b"\x1b[K",
    b"\x1b[2A",
    b"\t",
    "é中\u0301".encode(),
    "é".encode()[:1],
    b"\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
    b"\x1b[?1049h",
    b"\x1b[?1049l",
    b"\x1b",
    b"[3",
    b"\xff",
    b"x" * 50 + b"\n",
]
_STREAMS = st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join)
_READS = ["text", "lines", "html", "ansi", "take_lines", "changes", "output_limit", None]
_OPTIONS = [
    {},
    {"rows": 2},
    {"columns": 7, "rows": 3},
    {"mode": "strip"},
    {"mode": "screen", "columns": 20, "rows": 4},
    {"alt_screen": "snapshot"},
    {"styled": False, "max_lines": 3},
]


def _read(transcript: Transcript, how: str | None, since: dict[str, Any]) -> object:
    if how is None:
        return None
    if how == "changes":
        changes = transcript.changes(since.get("position"))
        since["position"] = changes.position
        return (changes.committed, changes.window, changes.reset)
    return getattr(transcript, how)()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=_STREAMS,
    cuts=st.lists(st.integers(min_value=0), max_size=12),
    reads=st.lists(st.sampled_from(_READS), min_size=13, max_size=13),
    hold=st.sampled_from([1, 3, 16, 100, HOLD_BYTES]),
    options=st.sampled_from(_OPTIONS),
)
def test_holding_never_changes_what_is_read(
    data: bytes, cuts: list[int], reads: list[str | None], hold: int, options: dict[str, Any]
) -> None:
    held = Transcript(hold_bytes=hold, **options)
    direct = Transcript(**options)
    held_since: dict[str, Any] = {}
    direct_since: dict[str, Any] = {}
    bounds = [0, *sorted(cut % (len(data) + 1) for cut in cuts), len(data)]
    for index, (start, end) in enumerate(itertools.pairwise(bounds)):
        held.feed(data[start:end])
        direct.feed(data[start:end])
        how = reads[index]
        assert _read(held, how, held_since) == _read(direct, how, direct_since), how
    held.finish()
    direct.finish()
    assert held.lines() == direct.lines()
    assert held.html() == direct.html()


def test_small_feeds_wait_until_read_or_hold_bytes_wait() -> None:
    transcript = Transcript(hold_bytes=100)
    for _ in range(9):
        transcript.feed(b"0123456789")
    assert transcript._held_bytes == 90  # nothing interpreted yet
    assert transcript.text() == "0123456789" * 9
    assert transcript._held_bytes == 0
    for _ in range(10):
        transcript.feed(b"abcdefghij")
    assert transcript._held_bytes == 0  # 100 bytes waited: interpreted
    transcript.feed(b"x" * 100)  # as large as the hold: interpreted at once
    assert transcript._held_bytes == 0


def test_a_buffer_changed_after_feed_does_not_change_the_transcript() -> None:
    buffer = bytearray(b"kept\n")
    transcript = Transcript(hold_bytes=1000)
    transcript.feed(buffer)
    transcript.feed(memoryview(buffer))
    buffer[:] = b"GONE\n"
    assert transcript.text() == "kept\nkept\n"
    direct = Transcript()
    direct.feed(b"kept\nkept\n")
    assert transcript.output_limit() == direct.output_limit()


def test_finish_interprets_what_is_held() -> None:
    transcript = Transcript(hold_bytes=1000)
    transcript.feed(b"last line, no end")
    transcript.feed("é".encode()[:1])
    transcript.finish()
    assert transcript._held_bytes == 0
    assert transcript.text() == "last line, no end\ufffd"


@pytest.mark.parametrize("hold", [-1, True, 1.5, "16"])
def test_bad_hold_bytes_raise_value_error(hold: object) -> None:
    with pytest.raises(ValueError, match="hold_bytes must be a non-negative integer"):
        Transcript(hold_bytes=hold)  # type: ignore[arg-type]
