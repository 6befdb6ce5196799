"""The public API: options, errors for misuse, streaming."""

from __future__ import annotations

import pytest

import termscribe
from termscribe import Transcript, render_text


def test_public_names() -> None:
    for name in ["Transcript", "render_text", "Utf8Decoder", "Parser", "Performer"]:
        assert hasattr(termscribe, name)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "fancy"}, "mode must be one of"),
        ({"columns": 0}, "columns must be a positive integer"),
        ({"columns": "80"}, "columns must be a positive integer"),
        ({"columns": True}, "columns must be a positive integer"),
        ({"columns": 10**6}, "columns must be at most"),
        ({"rows": 0}, "rows must be an integer from 1"),
        ({"rows": 10**6}, "rows must be an integer from 1"),
        ({"max_lines": -1}, "max_lines must be"),
    ],
)
def test_bad_options_raise_value_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Transcript(**options)  # type: ignore[arg-type]


def test_feed_takes_bytes_only() -> None:
    transcript = Transcript()
    with pytest.raises(TypeError, match="feed\\(\\) takes bytes, not str"):
        transcript.feed("text")  # type: ignore[arg-type]
    transcript.feed(bytearray(b"ab"))
    transcript.feed(memoryview(b"cd"))
    assert transcript.text() == "abcd"


def test_feed_after_finish_is_an_error_and_finish_is_idempotent() -> None:
    transcript = Transcript()
    transcript.feed(b"x\xe2")
    transcript.finish()
    transcript.finish()
    assert transcript.finished
    assert transcript.text() == "x\ufffd"
    with pytest.raises(RuntimeError, match="after finish"):
        transcript.feed(b"more")


def test_text_before_finish_shows_state_so_far() -> None:
    transcript = Transcript()
    transcript.feed(b"done:\xe2\x82")
    assert transcript.text() == "done:"
    transcript.feed(b"\xac:\x1b[3")
    assert transcript.text() == "done:€:"
    transcript.feed(b"1mred")
    assert transcript.text() == "done:€:red"


def test_open_sequence_at_eof_is_dropped() -> None:
    assert render_text(b"visible\x1b]0;never closed") == "visible"
    assert render_text(b"visible\x1b[31") == "visible"


def test_render_text_accepts_transcript_options() -> None:
    assert render_text(b"abcdef\rX", mode="strip") == "abcdef\nX"
    with pytest.raises(TypeError):
        render_text(b"", colour=True)
