"""The line feed policy, ``Transcript(newline=...)``: what a bare LF does.

``crlf``: it also returns to column 0 (a log captured through a pipe);
``lf``: it only moves down (a terminal behind a PTY, whose program wrote a
raw line feed); ``auto`` (the default): ``lf`` if the stream's first LF
comes right after a CR (the PTY turned every LF into CR LF), else ``crlf``.
Every case is fed whole, byte by byte and in random splits.
"""

from __future__ import annotations

import pytest
from chunking import assert_chunking_invariant

from termscribe import Transcript, render_text

PIPE_LOG = b"ab\ncd\n  e"
PTY_STREAM = b"$ vim\r\nline\r\n\x1b[?1049hab\ncd"  # a raw LF from a full-screen program


def shown(data: bytes, mode: str, **options: object) -> str:
    return assert_chunking_invariant(data, mode=mode, columns=20, rows=6, **options)


@pytest.mark.parametrize("mode", ["lines", "screen"])
def test_a_pipe_log_returns_to_column_0(mode: str) -> None:
    assert shown(PIPE_LOG, mode) == "ab\ncd\n  e"
    assert shown(PIPE_LOG, mode, newline="crlf") == "ab\ncd\n  e"
    assert shown(PIPE_LOG, mode, newline="lf") == "ab\n  cd\n      e"


def test_a_pty_stream_moves_down_only() -> None:
    assert shown(PTY_STREAM, "screen") == "\n\nab\n  cd"  # the alternate screen
    assert shown(PTY_STREAM, "screen", newline="lf") == "\n\nab\n  cd"
    assert shown(PTY_STREAM, "screen", newline="crlf") == "\n\nab\ncd"


@pytest.mark.parametrize("mode", ["lines", "screen"])
def test_auto_decides_at_the_first_lf(mode: str) -> None:
    # the CR and the LF in different chunks: every chunking decides alike
    assert shown(b"a\r\nb\nc", mode) == "a\nb\n c"
    assert shown(b"a\r\x1b[mb\nc", mode) == "b\nc"  # something between: a pipe
    assert shown(b"\nx\r\ny\nz", mode) == "\nx\ny\nz"  # only the first LF decides


@pytest.mark.parametrize("mode", ["lines", "screen"])
def test_vt_and_ff_follow_the_policy(mode: str) -> None:
    assert shown(b"a\nb\x0bc\x0cd", mode) == "a\nb\nc\nd"
    assert shown(b"a\r\nb\x0bc\x0cd", mode) == "a\nb\n c\n  d"
    assert shown(b"a\x0bb\x0cc", mode) == "a\n b\n  c"  # before any LF: only down
    assert shown(b"a\x0bb", mode, newline="crlf") == "a\nb"
    # VT in the same chunk as the first LF: still before it, so only down.
    assert shown(b"x\x0by\nz", mode) == "x\n y\nz"
    assert shown(b"a\x0cb\nc\x0cd", mode) == "a\n b\nc\nd"


def test_lnm_returns_in_screen_mode() -> None:
    assert shown(b"a\r\nb\x1b[20hc\nd\x1b[20le\nf", "screen") == "a\nbc\nde\n  f"


def test_strip_mode_starts_a_line_either_way() -> None:
    for newline in ("auto", "crlf", "lf"):
        assert render_text(b"a\nb\r\nc", mode="strip", newline=newline) == "a\nb\nc"


def test_lines_mode_keeps_long_lf_streams_fast_and_right() -> None:
    """A PTY stream with many lines takes LF's bulk form; a raw LF among
    them is still only a move down."""
    data = b"line\r\n" * 200 + b"ab\ncd\r\n" + b"x\r\n" * 3
    text = render_text(data, columns=20, rows=24)
    assert text.endswith("line\nab\n  cd\nx\nx\nx\n")


def test_newline_is_validated() -> None:
    with pytest.raises(ValueError, match="newline must be one of auto, crlf, lf"):
        Transcript(newline="cr")
    assert Transcript().newline == "auto"
