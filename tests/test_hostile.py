"""Hostile inputs of SECURITY.md finish in linear time with bounded output.

A benchmark-style test with generous bounds, not a tight timer. Each
hostile input is made at SIZE and at a quarter of that, and each is timed
(best of three, interleaved, so that a change in the machine's load hits
both):

* linear: the whole costs at most LINEAR_FACTOR times the quarter (four
  times the work; a quadratic path would cost sixteen times). The factor
  leaves room for one cost that grows faster than the input below a cap:
  a row is a string, so a cell appended to it copies the row, and a row
  written one cell at a time costs its length squared until it reaches
  MAX_LINE_CELLS. The style churn replayed one event at a time
  (``TERMSCRIBE_ONE_BY_ONE=1``) makes rows of 11,111 and 44,444 cells and
  measures 6.2 to 6.6 times; past the cap each row costs the same;
* bounded: per byte, at most HOSTILE_FACTOR times ordinary coloured output
  in the same run. Ordinary output goes through the fast paths a run of
  lines at a time (4 to 30 ns a byte with the C extension), a flood of one
  short control after another through the parser's general path one event
  at a time: the scroll-region churn (five events in 20 bytes) measures up
  to about 120 times in the strip mode, 0.5 µs a byte; the ZWJ flood in a
  window of 80 columns about 1 µs a byte. The factor catches a cost that
  grows by an order of magnitude, and leaves room for a loaded machine.

Below NOISE_SECONDS at SIZE, the timer's, the caches' and the page
faults' noise is the measurement (4 times an input that takes 1 ms
measured up to 10 times the time, under load, once the batch path made
most of these inputs take a few ms), and no quadratic cost hides there
that matters: the per-byte bound still holds.

Neither may blow up the output (see the assertions). The timings are the
deep profile's (``pytest --deep``); the default profile renders each input
once, for its output.
"""

from __future__ import annotations

import gc
import random
import time
import tracemalloc
import unicodedata
from collections.abc import Callable

import pytest
from textcheck import assert_safe_text

from termscribe import Transcript, render_text
from termscribe._rows import MAX_LINE_CELLS

HOSTILE_FACTOR = 250
LINEAR_FACTOR = 8
NOISE_SECONDS = 0.05
SIZE = 400_000


def _ordinary() -> bytes:
    line = b"\x1b[32mPASS\x1b[0m tests/test_module.py::test_case_%d \x1b[2m(0.01s)\x1b[0m\r\n"
    out = b"".join(line % i for i in range(SIZE // 50))
    return out[:SIZE]


CASES: dict[str, Callable[[int], bytes]] = {
    "unterminated OSC": lambda n: b"\x1b]0;" + b"a" * n,
    "unterminated DCS": lambda n: b"\x1bP" + b"a" * n,
    "kitty APC": lambda n: b"\x1b_G" + b"A" * n + b"\x1b\\ok",
    "million CSI params": lambda n: b"\x1b[" + b"1;" * (n // 2) + b"m",
    "ReDoS digits": lambda n: b"\x1b[" + b"9" * (n // 2) + b";" + b"9" * (n // 2) + b"m",
    "REP 2^31": lambda n: b"a\x1b[2147483647b\n" * (n // 16),
    "CUP 10^9": lambda n: b"\x1b[1000000000;1000000000Hx" * (n // 25),
    "window op": lambda n: b"\x1b[8;100000;100000t" * (n // 19),
    "combining storm": lambda n: b"e" + "\u0301".encode() * (n // 2),
    "newline flood": lambda n: b"\n" * n,
    "one huge line": lambda n: b"x" * n,
    "style churn": lambda n: b"".join(
        b"\x1b[%d;%dmx" % (31 + i % 7, 41 + i % 5) for i in range(n // 9)
    ),
    "C1 flood": lambda n: "\u009b".encode() * (n // 2),
    "bidi flood": lambda n: "\u202e".encode() * (n // 3),
    "ZWJ flood": lambda n: "a\u200d".encode() * (n // 4),
    "ICH/DCH 10^9": lambda n: b"ab\x1b[1000000000@\x1b[1000000000P\x1b[1000000000X" * (n // 40),
    "IL/DL 10^9": lambda n: b"a\n\x1b[1000000000L\x1b[1000000000M" * (n // 30),
    "scroll region churn": lambda n: b"\x1b[2;3r\x1b[3;1H\n\n\x1b[r" * (n // 20),
    "invalid UTF-8": lambda n: b"\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xff" * (n // 10),
    "alt screen toggling": lambda n: b"\x1b[?1049hA\x1b[?1049l" * (n // 20),
    "CR overwrite on the longest row": lambda n: b"x" * MAX_LINE_CELLS + b"\ry" * (n // 2),
    "spinner": lambda n: b"\r|\r/\r-\r\\" * (n // 8),
    "every code point": lambda n: "\n".join(
        "".join(map(chr, range(start, start + 500))) for start in range(0xA0, 0xA0 + n // 8, 500)
    ).encode(),
    "NFD text": lambda n: (
        unicodedata.normalize("NFD", "Crème brûlée, déjà vu, naïve façade.\n").encode() * (n // 50)
    ),
}

OPTIONS = [{}, {"columns": 80, "rows": 24}, {"mode": "strip"}]


def _time_per_byte(data: bytes, **options: object) -> tuple[float, str]:
    best = float("inf")
    out = ""
    for _ in range(3):
        start = time.perf_counter()
        out = render_text(data, **options)
        best = min(best, time.perf_counter() - start)
    return best / len(data), out


def _times(quarter: bytes, data: bytes, **options: object) -> tuple[float, float, str]:
    """Best of three of ``quarter`` (the input made at a quarter of the
    size) and of ``data``, interleaved; and the output of ``data``. The
    cyclic garbage collector is off while they run: a collection's cost is
    the size of the whole test process's heap, not of this input's work."""
    small = whole = float("inf")
    out = ""
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            start = time.perf_counter()
            render_text(quarter, **options)
            small = min(small, time.perf_counter() - start)
            start = time.perf_counter()
            out = render_text(data, **options)
            whole = min(whole, time.perf_counter() - start)
    finally:
        gc.enable()
    return small, whole, out


@pytest.fixture(scope="module")
def baseline() -> dict[str, float]:
    data = _ordinary()
    return {str(o): _time_per_byte(data, **o)[0] for o in OPTIONS}


@pytest.mark.deep(reason="times each input at two sizes against ordinary output (invariant 4)")
@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("options", OPTIONS, ids=["lines", "columns80", "strip"])
def test_hostile_input_is_linear_and_bounded(
    name: str, options: dict[str, object], baseline: dict[str, float]
) -> None:
    data = CASES[name](SIZE)
    quarter = CASES[name](SIZE // 4)
    small, whole, out = _times(quarter, data, **options)
    if whole > LINEAR_FACTOR * small and whole > NOISE_SECONDS:
        small, whole, out = _times(quarter, data, **options)  # once more: a busy moment
    assert whole <= LINEAR_FACTOR * small or whole <= NOISE_SECONDS, (
        f"4 times the input took {whole / small:.1f} times the time"
    )
    per_byte = whole / len(data)
    limit = HOSTILE_FACTOR * baseline[str(options)]
    assert per_byte <= limit, f"{per_byte * 1e9:.0f} ns/B > {limit * 1e9:.0f} ns/B"
    _assert_bounded(out, data, options)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("options", OPTIONS, ids=["lines", "columns80", "strip"])
def test_hostile_input_gives_bounded_safe_output(name: str, options: dict[str, object]) -> None:
    data = CASES[name](SIZE)
    _assert_bounded(render_text(data, **options), data, options)


def _assert_bounded(out: str, data: bytes, options: dict[str, object]) -> None:
    assert_safe_text(out)
    # Output never grows beyond 64 characters an input byte (plus a
    # constant: see test_amplification), and no line exceeds the line cap:
    # committed cells, plus the rows still in the window when wrapping, plus
    # the omission marker.
    assert len(out) <= 64 * len(data) + 100_000
    window = 80 * 24 if options.get("columns") else 0
    assert max(len(line) for line in out.split("\n")) <= MAX_LINE_CELLS + window + 128


def test_newline_flood_keeps_bounded_lines_with_marker() -> None:
    out = render_text(b"\n" * 300_000, max_lines=1000)
    lines = out.split("\n")
    assert lines[0].startswith("[termscribe: ") and lines[0].endswith(" earlier lines omitted]")
    assert len(lines) <= 1000 + 24 + 2


def test_style_churn_on_long_lines_keeps_a_stream_in_bounded_memory() -> None:
    # Every line a different sequence of thousands of SGR changes: no cache
    # (per transcript or shared by the process) may keep them all.
    rng = random.Random(7)
    transcript = Transcript(max_lines=10)

    def feed(lines: int) -> None:
        for _ in range(lines):
            parts = [b"\x1b[38;5;%dmx" % rng.randrange(256) for _ in range(2000)]
            transcript.feed(b"".join(parts) + b"\r\n")
            transcript.take_lines()

    tracemalloc.start()
    try:
        feed(30)
        before = tracemalloc.get_traced_memory()[0]
        feed(90)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 2_000_000, f"grew by {(after - before) / 1e6:.1f} MB"


# Floods of one short sequence that a naive screen does a screen's work for
# (pyte rewrites every cell on DECALN). In the screen mode each must cost at
# most FLOOD_FACTOR times the time per byte of coloured output there.
FLOOD_FACTOR = 10
FLOOD_SIZE = 60_000
FLOODS = {
    "DECALN": b"\x1b#8",
    "RIS": b"\x1bc",
    "RI at the top": b"\x1bMx",
    "IND staircase": b"\x1bDx",
    "DECSTBM": b"\x1b[2;20r",
    "ED 2 and 3": b"\x1b[2J\x1b[3J",
    "alternate screen": b"\x1b[?1049h\x1b[?1049l",
    "DECSC/DECRC": b"\x1b7\x1b8",
    "SU/SD 10^6": b"\x1b[999999S\x1b[999999T",
    "IL/DL": b"\x1b[99L\x1b[99M",
    "DECSTR": b"\x1b[!p",
    "tab stops": b"\x1bH\x1b[3g",
    "modes": b"\x1b[?7l\x1b[?7h\x1b[4h\x1b[4l\x1b[?6h\x1b[?6l",
    "REP of a marker": "\u202e".encode() + b"\x1b[999b\n",
}


def _best_per_byte(data: bytes, **options: object) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        render_text(data, **options)
        best = min(best, time.perf_counter() - start)
    return best / len(data)


@pytest.mark.deep(reason="times each flood against coloured output (invariant 4)")
@pytest.mark.parametrize("name", FLOODS)
def test_floods_cost_about_as_much_as_coloured_output_in_screen_mode(name: str) -> None:
    unit = FLOODS[name]
    data = unit * (FLOOD_SIZE // len(unit))
    # Measured in turn with the flood, so that both see the same load.
    normal = _best_per_byte(_ordinary()[:FLOOD_SIZE], mode="screen")
    flood = _best_per_byte(data, mode="screen")
    assert flood <= FLOOD_FACTOR * normal, f"{flood / normal:.1f} times coloured output"
