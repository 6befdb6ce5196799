"""Markers take the cells the terminal gives their code point, checked
against xterm.js.

corpus/differential/markers.jsonl holds seeded streams of the differential
grammar (tests/vtgrammar.py) that also print marked code points (bidi
controls, U+200B, tags, private use, U+115F) and spell markers, and
markers.xterm.jsonl what xterm.js 6.0.0 shows for each (made by
scripts/make_differential_cases.py --markers and
scripts/xterm/differential.mjs). The screen mode must put every character
of ordinary text in the cell where xterm.js puts it: its rows read as
xterm.js's once each marker of a code point of one or two cells is that
code point, each zero-width one is left out (xterm.js keeps those in the
cell before, where nothing shows them), and each escape of an input ``<``
or ``[`` is that character.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_differential import LinesChoices, XtermJsScreen, lines_window, rows_of, screen

from termscribe._rows import MARKERS
from termscribe._unicode import MARK, char_info, width_of

DIFFERENTIAL = Path(__file__).resolve().parent.parent / "corpus" / "differential"


def _jsonl(name: str) -> list[dict[str, str]]:
    lines = (DIFFERENTIAL / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _as_code_point(match: re.Match[str]) -> str:
    marker = match.group()
    if not marker.startswith("<U+"):
        return marker
    cp = int(marker[3:-1], 16)
    if cp in (0x3C, 0x5B):  # an escape of what the input typed
        return chr(cp)
    return chr(cp) if width_of(cp) else ""


def ordinary(row: str) -> str:
    """A row of the screen mode with its markers as xterm.js shows them."""
    return MARKERS.sub(_as_code_point, row)


def without_zero_width_markers(row: str) -> str:
    """A row of xterm.js without the zero-width code points termscribe marks."""
    return "".join(ch for ch in row if ch < "\x80" or char_info(ch)[:2] != (0, MARK))


def test_the_marker_cases_print_markers() -> None:
    cases = _jsonl("markers.jsonl")
    assert len(cases) >= 300
    assert {case["name"] for case in cases} == {
        entry["name"] for entry in _jsonl("markers.xterm.jsonl")
    }
    shown = "".join(
        "".join(screen(case["text"], int(case["columns"]), int(case["rows"]))) for case in cases
    )
    # Markers of each kind end up on screen: zero-width, one or two cells,
    # and escapes of spelled ones.
    for marker in ("<U+200B>", "<U+202E>", "<U+E123>", "<U+115F>", "<U+003C>"):
        assert marker in shown, marker


def test_screen_mode_puts_ordinary_text_where_xterm_js_does() -> None:
    references = {entry["name"]: entry for entry in _jsonl("markers.xterm.jsonl")}
    failures = []
    compared = 0
    for case in _jsonl("markers.jsonl"):
        reference = references[case["name"]]
        if "error" in reference:  # xterm.js throws on ED 1 in the last cell
            assert "\x1b[1J" in case["text"]
            continue
        columns, rows = int(case["columns"]), int(case["rows"])
        expected = rows_of(
            [without_zero_width_markers(row) for row in reference["screen"].split("\n")]
        )
        shown = rows_of(
            [ordinary(row) for row in screen(case["text"], columns, rows, XtermJsScreen)]
        )
        compared += 1
        if shown != expected:
            failures.append(case["name"])
    assert compared >= 290
    assert not failures, f"{len(failures)} cases differ, first {failures[:5]}"


def test_lines_window_equals_the_screen_mode_on_the_marker_cases() -> None:
    """The lines model's window shows what the screen mode shows, markers
    included, with xterm.js's choices where real xterm differs (see
    test_differential.LinesChoices)."""
    failures = []
    for case in _jsonl("markers.jsonl"):
        text, columns, rows = case["text"], int(case["columns"]), int(case["rows"])
        if lines_window(text, columns, rows) != screen(text, columns, rows, LinesChoices):
            failures.append(case["name"])
    assert not failures, f"{len(failures)} cases differ, first {failures[:5]}"
