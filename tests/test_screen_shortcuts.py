"""The screen model's shortcuts around pyte give what pyte's own path gives.

``ScreenModel.shortcuts`` is True; ``Reference`` below turns it off, so
that every event takes the path the shortcuts stand in for: pyte's
``draw`` for printing; pyte's ``select_graphic_rendition`` after every SGR
sequence, each parsed again (no remembered run); one ``execute`` per CR
and LF (pyte's ``index`` per scroll); pyte's ``erase_in_line`` and
``erase_characters`` for EL and ECH; every column of each row rewritten by
a column operation. Both models are fed the same generated streams
(vtgrammar's whole grammar, with protected characters, non-ASCII text,
markers, long text and column operations added) and must end in the same
state: every cell with its class, every row of both screens, the cursor
and its attributes, pyte's own fields, and the transcript.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyte.screens import Char
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe._parser import Parser
from termscribe._screen import _cells
from termscribe._screen._model import ScreenModel

CSI = "\x1b["

# Beyond vtgrammar: DECSCA protection (a ProtectedChar cursor) and the
# selective erases, non-ASCII single cells, markers (bidi controls),
# combining marks, line drawing, CR/LF runs, long text, SGR runs, wide
# characters in insert mode and without autowrap.
_MORE = (
    f'{CSI}1"q',
    f'{CSI}0"q',
    f"{CSI}?2J",
    f"{CSI}?K",
    "é─│▽✓",
    "\u202eab",
    "e\u0301",
    "\x1b(0lqk\x1b(B",
    "\r\n\r\n\n",
    "\n" * 40,
    "x" * 130,
    f"{CSI}1m{CSI}31mab{CSI}m{CSI}44m{CSI}7m",
    f"{CSI}38;5;208m{CSI}48;2;1;2;3mz{CSI}0m",
    f"{CSI}2;5r",
    f"{CSI}20h",
    f"{CSI}?45h\b\b",
    f"{CSI}41m{CSI}2 @",  # SL, SR, DECIC, DECDC
    f"{CSI} A",
    f"{CSI}3'}}",
    f"{CSI}'~",
    "中文字😀",  # two-cell characters, drawn by their pairs of cells
    f"{CSI}4h中x{CSI}4l",  # in insert mode (IRM), pyte's own draw
    f"{CSI}?7l中文字😀{CSI}?7h",  # without autowrap, at the margin
)


class Reference(ScreenModel):
    """The screen model without its shortcuts."""

    shortcuts = False


def _rows(buffer: dict[int, dict[int, Char]]) -> Iterator[object]:
    for y in sorted(buffer):
        row = buffer[y]
        yield y, row.default, type(row.default)  # type: ignore[attr-defined]
        yield tuple((x, row[x], type(row[x])) for x in sorted(row))


def state(model: ScreenModel) -> tuple[object, ...]:
    screen = model.screen
    cursor = screen.cursor
    normal = model._normal
    return (
        tuple(_rows(screen.buffer)),
        None if normal is None else (tuple(_rows(normal[0])), sorted(normal[2])),
        None if model._left_alt is None else tuple(_rows(model._left_alt)),
        (cursor.x, cursor.y, cursor.attrs, type(cursor.attrs)),
        (screen.margins, sorted(screen.mode), sorted(screen.tabstops), sorted(screen.dirty)),
        (model.style, model._wrote, model._held, model._last, model.insert, model.lnm),
        tuple(line.runs for line in model.lines()),
    )


def _feed(model: ScreenModel, data: str, cut: int) -> ScreenModel:
    parser = Parser(model)
    for start in range(0, len(data), cut):
        parser.feed(data[start : start + cut])
    parser.finish()
    return model


def assert_same(data: str, columns: int, rows: int, cut: int) -> None:
    fast = _feed(ScreenModel(columns, rows, snapshot=True), data, cut)
    slow = _feed(Reference(columns, rows, snapshot=True), data, cut)
    assert state(fast) == state(slow)


@st.composite
def _streams(draw: st.DrawFn) -> tuple[str, int, int, int]:
    columns = draw(st.sampled_from([1, 2, 8, 20, 80]))
    rows = draw(st.sampled_from([1, 3, 5, 24]))
    chooser = HypothesisChooser(draw(st.data()))  # type: ignore[arg-type]
    parts = draw(
        st.lists(st.one_of(st.just(None), st.sampled_from(_MORE)), min_size=1, max_size=12)
    )
    data = "".join(
        stream(chooser, columns, rows, ALL, tokens=8) if part is None else part for part in parts
    )
    cut = draw(st.sampled_from([1, 7, 1 << 20]))
    return data, columns, rows, cut


@settings(max_examples=300)
@given(_streams())
def test_shortcuts_match_pytes_own_path(case: tuple[str, int, int, int]) -> None:
    data, columns, rows, cut = case
    assert_same(data, columns, rows, cut)


# The patched limits are the same for every example.
@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_streams())
def test_shortcuts_match_with_caches_that_fill(
    monkeypatch: pytest.MonkeyPatch, case: tuple[str, int, int, int]
) -> None:
    """With tiny caches, so that clearing a full one is exercised."""
    monkeypatch.setattr(_cells, "_MAX_GLYPHS", 3)
    monkeypatch.setattr(_cells, "_MAX_GLYPH_ATTRS", 2)
    monkeypatch.setattr(_cells, "_MAX_RUN_CELLS", 10)
    monkeypatch.setattr(_cells, "_MAX_CACHED", 2)
    monkeypatch.setattr(_cells, "MAX_CACHED_RUNS", 2)
    monkeypatch.setattr(_cells, "MAX_PLANNED_RUN", 12)
    data, columns, rows, cut = case
    assert_same(data, columns, rows, cut)


@pytest.mark.parametrize(
    "data",
    [
        "a\n" * 100,  # scrolls: the run of LFs at once
        f"{CSI}3;6r" + "b\r\n" * 50 + f"{CSI}30;1H" + "\n" * 7 + "c",  # region, and below it
        f'{CSI}1"q{CSI}31mprotected{CSI}0"q{CSI}31mnot{CSI}?2J',  # one style, two classes
        "x" * 1000 + f"y{CSI}300b",  # REP of ASCII: printed
        # Column operations on rows in column order, and on blank rows
        "x" * 300 + f"{CSI}41m{CSI}1 @{CSI}1'}}{CSI}1'~{CSI}1 A" * 3 + f"{CSI}2J{CSI}3 @",
    ],
)
def test_shortcuts_on_chosen_streams(data: str) -> None:
    for columns, rows in ((20, 5), (80, 24)):
        assert_same(data, columns, rows, 1 << 20)
        assert_same(data, columns, rows, 3)
