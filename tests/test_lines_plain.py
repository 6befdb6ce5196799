"""A long run of plain lines without splitting it (``_lines._shortcuts._plain``) makes
the transcript that doing its lines as other whole lines makes.

The shortcut is taken on runs of PLAIN_MIN_CHARS code points or more; the
generated tests lower that to none, so that every run tries it, and
compare with the same input done with the shortcut turned off, before and
after streams of the whole grammar (which leave the model in any state,
and show what state the run left it in).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe import Transcript
from termscribe._committed import BLOCK
from termscribe._lines import _model
from termscribe._lines._shortcuts import _plain
from termscribe._lines._shortcuts._plain import lines_fit


@contextmanager
def shortcut_from(chars: int) -> Iterator[None]:
    """The shortcut tried on runs of ``chars`` code points or more."""
    with (
        mock.patch.object(_plain, "PLAIN_MIN_CHARS", chars),
        mock.patch.object(_model, "PLAIN_MIN_CHARS", chars),
    ):
        yield


def transcript_of(chunks: list[bytes], options: dict) -> Transcript:
    transcript = Transcript(**options)
    for chunk in chunks:
        transcript.feed(chunk)
    transcript.finish()
    return transcript


def assert_same(chunks: list[bytes], options: dict) -> None:
    with shortcut_from(0):
        taken = transcript_of(chunks, options)
    with shortcut_from(10**12):
        reference = transcript_of(chunks, options)
    assert taken.lines() == reference.lines()
    assert taken.text() == reference.text()
    assert taken.html() == reference.html()
    assert taken.ansi() == reference.ansi()
    mine = taken._model.committed  # type: ignore[union-attr]
    theirs = reference._model.committed  # type: ignore[union-attr]
    assert (mine.total, mine.dropped) == (theirs.total, theirs.dropped)
    for index in range(mine.cut, mine.total + 1, max(1, mine.total // 7)):
        assert mine.since(index) == theirs.since(index)


# Lines of a plain log, and what the precondition turns away: markers
# spelled in the input, escapes and TABs, non-ASCII text.
_PIECES = ["a", "bc", " ", "x" * 20, "&<>'\"", "<U+", "[termscribe: x]", "\x1b[1m", "\t", "é"]
_plain_line = st.lists(st.sampled_from(_PIECES[:5]), max_size=4).map("".join)
_any_line = st.lists(st.sampled_from(_PIECES), max_size=4).map("".join)
OPTIONS = st.fixed_dictionaries(
    {
        "rows": st.sampled_from([1, 2, 2, 3, 3, 5, 24]),
        "max_lines": st.sampled_from([None, 0, 1, 4, 100]),
        "styled": st.booleans(),
        "newline": st.sampled_from(["auto", "lf", "crlf"]),
    }
)


@settings(max_examples=300, deadline=None)
@given(
    st.data(),
    OPTIONS,
    st.lists(_plain_line, max_size=80),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_plain_runs_make_the_same_transcript(
    data: st.DataObject, options: dict, lines: list[str], end: str, odd: bool
) -> None:
    chooser = HypothesisChooser(data)
    before = stream(chooser, 12, 4, ALL)
    if data.draw(st.booleans()):
        # Back to the default style, the normal screen, no margins or
        # insert mode, no line drawing: where the shortcut may be taken.
        before += "\x1b[m\x1b[?1049l\x1b[r\x1b[4l\x1b(B"
    before += "\n"
    after = stream(chooser, 12, 4, ALL)
    if odd:
        lines = [*lines, data.draw(_any_line)]
    run = "".join(line + end for line in lines)
    whole = (before + run + after).encode()
    assert_same([whole], options)
    # In pieces, the run comes in several events.
    rng = random.Random(len(whole))
    cuts = sorted(rng.sample(range(len(whole) + 1), min(3, len(whole) + 1)))
    pieces = [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]
    assert_same(pieces, options)


def test_a_plain_log_is_committed_from_slices_of_the_run() -> None:
    lines = [f"2026-12-02 INFO line {n} <ok> & done" for n in range(5000)]
    data = ("\n".join(lines) + "\n").encode()
    transcript = transcript_of([data], {"max_lines": None})
    store = transcript._model.committed  # type: ignore[union-attr]
    assert any(count != BLOCK for _, _, count in store._blocks)  # the shortcut was taken
    assert transcript.text() == "\n".join(lines) + "\n"
    assert_same([data], {"max_lines": None})
    assert_same([data], {"max_lines": 3000})
    assert_same([data.replace(b"\n", b"\r\n")], {"rows": 1})


@given(st.text(alphabet="ab\n", max_size=30), st.integers(0, 6))
def test_lines_fit_is_every_line_short_enough(text: str, limit: int) -> None:
    assert lines_fit(text, limit) == all(len(line) <= limit for line in text.split("\n"))
