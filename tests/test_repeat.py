"""Batches that repeat one unit take a shortcut once the unit changes nothing
more (``termscribe._lines._repeat``): the result is the ordinary path's.

The reference is the same stream fed one code point at a time, where no
run of sequences can form and every sequence takes the state machine. The
units are drawn from the whole grammar: vtgrammar's families plus C1
controls, escape sequences, strings and links.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe import Transcript
from termscribe._grammar import batch_parts_by_regex
from termscribe._lines import LinesModel
from termscribe._lines._repeat import (
    MAX_TRIES,
    MIN_REPEATS,
    run_repeated,
    state_key,
    unit_of,
)

# Beyond vtgrammar: every C1 control (7-bit forms too), ST, strings aborted
# by a C1 control, escape sequences, OSC 8 links and titles, soft reset.
_MORE = (
    *(chr(c) for c in range(0x80, 0xA0) if c not in (0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F)),
    "\x9c",
    "\x9dtitle\x84",
    "\x1bc",
    "\x1b#8",
    "\x1b(0",
    "\x1b(B",
    "\x0e",
    "\x0f",
    "\x1b7",
    "\x1b8",
    "\x1b[!p",
    "\x1b]8;;https://example.com/\x07",
    "\x1b]8;;\x07",
    "\x1b]0;title\x1b\\",
    "\x1b[?1049h",
    "\x1b[?1049l",
)
# Moves that change nothing but the cursor, and printing that follows it.
_MOVES = (
    *(f"\x1b[{final}" for final in "ABCDEFGd`"),
    "\x1b[3G",
    "\x1b[2d",
    "\x1b[2;3H",
    "\x1bD",
    "\x1bM",
    "\x1bE",
    "x",
    "ab",
    "\x1b[3b",
)


_REVEALING = ("", "q#\x1b[3b", "\x1b[3bq", "q#\x1b[Kz\n", "\x1bMq\x1bDr\x1bDs", "\x1b8q\x1b[2Ar")
_RUN_FAMILIES = tuple(name for name in ALL if name != "control")


@st.composite
def _floods(draw: st.DrawFn) -> tuple[str, str, int | None, int, int | None]:
    mode = draw(st.sampled_from(["lines", "strip"]))
    columns = draw(st.sampled_from([None, 8, 20]))
    # Small windows, and windows taller than the items before a run forms
    # (they come one by one) can move the cursor down.
    rows = draw(st.one_of(st.integers(1, 5), st.integers(30, 40)))
    chooser = HypothesisChooser(draw(st.data()))  # type: ignore[arg-type]
    size = columns or 12
    parts = draw(
        st.lists(
            st.one_of(st.just(None), st.sampled_from(_MORE), st.sampled_from(_MOVES)),
            min_size=1,
            max_size=4,
        )
    )
    # Runs of sequences hold no C0 control: units mostly without, to form them.
    families = draw(st.sampled_from([_RUN_FAMILIES, ALL]))
    unit = "".join(
        stream(chooser, size, rows, families, tokens=2) if p is None else p for p in parts
    )
    count = draw(st.integers(MIN_REPEATS, 2 * MAX_TRIES))
    prefix = stream(chooser, size, rows, ALL, tokens=4)
    # What comes after shows the state the flood left: where the cursor is
    # (on the row and among the rows), the style, the character set, modes.
    suffix = draw(st.sampled_from(["", unit[: len(unit) // 2]])) + draw(st.sampled_from(_REVEALING))
    max_lines = draw(st.sampled_from([None, 1, 3, 100]))
    return mode, prefix + unit * count + suffix, columns, rows, max_lines


def _outputs(
    text: str, mode: str, columns: int | None, rows: int, max_lines: int | None, whole: bool
) -> tuple[str, str, str]:
    t = Transcript(mode=mode, columns=columns, rows=rows, max_lines=max_lines)
    if whole:
        t.feed(text.encode())
    else:
        for ch in text:
            t.feed(ch.encode())
    t.finish()
    return t.text(), t.html(), t.ansi()


@settings(max_examples=300)
@given(_floods())
def test_repeated_units_give_what_the_ordinary_path_gives(
    case: tuple[str, str, int | None, int, int | None],
) -> None:
    mode, text, columns, rows, max_lines = case
    assert _outputs(text, mode, columns, rows, max_lines, whole=True) == _outputs(
        text, mode, columns, rows, max_lines, whole=False
    )


N = MIN_REPEATS


def parts_of(run: str) -> list[str]:
    """The parts of the batch ``run`` is (all of it)."""
    end, parts = batch_parts_by_regex(run, 0)
    assert end == len(run)
    return parts


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ("\x1bc" * (N + 2), (2, N + 2)),
        ("\x1b7\x1b8" * (N + 1), (4, N + 1)),
        ("\x84x" * N + "\x84", (2, N)),  # a part of one more after
        ("\x84x" * (N - 1), None),  # too few
        ("\x84x\x84y" * 2 * N, (4, 2 * N)),
        ("\x84x\x84y" * 2 * N + "\x85", (4, 2 * N)),
        ("\x84a\x84b\x84c\x84d\x84e\x84f\x84g\x84h\x84i" * N, None),  # too many items
        ("x\x84" * (N + 2), (2, N + 1)),  # from the first item: the last has no x after it
        ("\x1b[1;2H" + "\x1b[2;1H" * 2 * N, None),
    ],
)
def test_unit_of(run: str, expected: tuple[int, int] | None) -> None:
    assert unit_of(parts_of(run)) == expected


def test_a_flood_settles_and_is_not_applied_one_by_one() -> None:
    # ESC D x: a staircase to the right edge of what movements reach, then
    # every repetition commits the same line.
    model = LinesModel(None, 24, None)
    flood = parts_of("\x84x" * 10_000)
    calls: list[list[str]] = []

    def apply(parts: list[str]) -> None:
        calls.append(parts)
        model._execute_batch(parts)

    run_repeated(model, flood, apply)
    assert len(calls) < MAX_TRIES and calls[0] == ["", "\x84", "x"]
    reference = LinesModel(None, 24, None)
    reference._execute_batch(flood)
    assert [line.text for line in model.lines()] == [line.text for line in reference.lines()]
    assert len(model.lines()) == 10_000 + 1


def test_a_unit_that_never_settles_takes_the_ordinary_path_after_max_tries() -> None:
    # In rows of 10 columns, text that never ends its line: the wrapped rows
    # of the logical line pile up, so no repetition leaves the state as it was.
    model = LinesModel(10, 2, None)
    run = parts_of(("\x8a" + "y" * 7) * (MAX_TRIES * 2))
    calls: list[list[str]] = []

    def apply(parts: list[str]) -> None:
        calls.append(parts)
        model._execute_batch(parts)

    run_repeated(model, run, apply)
    assert calls[:MAX_TRIES] == [["", "\x8a", "y" * 7]] * MAX_TRIES
    assert len(calls) == MAX_TRIES + 1
    assert [part for parts in calls for part in parts[1:]] == run[1:]
    reference = LinesModel(10, 2, None)
    reference._execute_batch(run)
    assert [line.text for line in model.lines()] == [line.text for line in reference.lines()]


def test_state_key_refuses_what_it_does_not_know() -> None:
    model = LinesModel(None, 2, None)
    state_key(model)
    model.extra = object()  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="object"):
        state_key(model)
    # ... and the run then takes the ordinary path.
    calls: list[list[str]] = []
    flood = parts_of("\x84x" * (MIN_REPEATS + 1))
    run_repeated(model, flood, calls.append)
    assert calls == [flood]


# Floods of every kind, each followed by what shows the state it left.
_FLOODS = [
    "\x1b[C",
    "\x1b[B",
    "\x1b[Cx",
    "\x1b[A\x1b[2C",
    "\x1bDx",
    "\x1bMx",
    "\x1bEx",
    "\x1bc",
    "\x1b7\x1b8",
    "\x1b7\x1b[C",
    "\x1b#8",
    "\x1b[2J\x1b[3J",
    "\x1b[99L\x1b[99M",
    "\x1b[2L",
    "\x1b[999999S\x1b[999999T",
    "\x1b[S",
    "\x1b[?1049h\x1b[?1049l",
    "\x1b[?1049hx",
    "\x1b[!p",
    "\x1bH\x1b[3g",
    "\x1bH\x1b[C",
    "\x1b[?7l\x1b[?7h\x1b[4h\x1b[4l\x1b[?6h\x1b[?6l",
    "\x1b[4hab\x1b[D",
    "\x1b(0q\x1b(B",
    "\x1b[31mx\x1b[1m",
    "\x1b]8;;https://example.com/\x07x",
    "x\x1b[3b",
    "\x1b[2;5r\x1bD",
]
_SHOW = "q#\x1b[3b\x1bMr\x1bDs\x1b8t\x1b[2Au\r\nend\n"


@pytest.mark.parametrize("unit", _FLOODS)
@pytest.mark.parametrize("mode", ["lines", "strip"])
@pytest.mark.parametrize("columns", [None, 12])
def test_floods_of_every_kind_give_what_the_ordinary_path_gives(
    unit: str, mode: str, columns: int | None
) -> None:
    for count in (MIN_REPEATS, 300):
        text = "ab\r\n" + unit * count + _SHOW
        whole = _outputs(text, mode, columns, 40, None, whole=True)
        assert whole == _outputs(text, mode, columns, 40, None, whole=False), (unit, count)
