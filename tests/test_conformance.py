"""Other terminals' own test suites, run through ``mode="screen"``.

The data is in corpus/conformance (copied byte for byte, with each
upstream's license and SOURCE.txt; see corpus/conformance/README.md):

* ``xtermjs/``: xterm.js's escape_sequence_files, 76 inputs at 80 x 25
  whose expected screens were made with real xterm. As upstream runs them,
  each input goes through a PTY, so every LF arrives as CR LF; the
  Transcript keeps its default line feed policy (``auto``, which takes such
  a stream for a PTY stream). Rows are compared right-trimmed.
* ``vt100/``: the vt100 crate's fixtures, 34 of them, 367 steps at 80 x 24:
  step *i* is typescripts 1..*i* (raw bytes, no CR/LF conversion: the
  ``lf`` line feed policy), compared with ``i.json``'s cells. Steps are
  compared before ``finish()``: some end inside an escape sequence or a
  UTF-8 sequence, and the fixture shows the screen without it.

Both compare characters only (no colours). Run this file as a script for
the per-fixture results and the counts::

    PYTHONPATH=src python tests/test_conformance.py

Each fixture that does not pass is listed below with the reason: every one
is a place where the fixture and real xterm (today's, ``xterm-snapshots``)
disagree, with the xterm functions that decide it, and termscribe does what
xterm does (alternate_buffer/6 aside: there termscribe blanks a re-entered
alternate screen, as xterm.js does, where xterm keeps it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from termscribe import Transcript

ROOT = Path(__file__).resolve().parent.parent / "corpus" / "conformance"
XTERMJS = sorted((ROOT / "xtermjs").glob("*.in"))
VT100 = sorted(path for path in (ROOT / "vt100").iterdir() if path.is_dir())

#: xterm.js fixtures whose expected screen is not real xterm's today.
XTERMJS_DIFFERS = {
    "t0060-DECSC": (
        "DECSC at a pending wrap, DECRC, then a character: the fixture's xterm"
        " (2010) dropped the wrap; xterm today saves and restores it (cursor.c"
        " CursorSave2 stores do_wrap, CursorRestoreFlags sets it back), as the"
        " VT100 does, so the character wraps"
    ),
    "t0061-CSI_s": "as t0060-DECSC, with SCOSC/SCORC (CSI s, CSI u)",
}

_ALT_CURSOR = (
    "the vt100 crate gives the alternate screen its own cursor, at the top"
    " left; xterm has one cursor for both screens: charproc.c's ToAlternate"
    " only swaps the buffers (SwitchBufs) and leaves cur_row/cur_col alone,"
    " for mode 47 (ToAlternate(xw, False)) as for 1049 (CursorSave,"
    " ToAlternate(xw, True), ClearScreen), so the text goes on at the cursor"
)
_MARK_AT_CURSOR = (
    "a combining mark after a cursor movement: the vt100 crate joins it to"
    " the cell left of the cursor; xterm joins it to the cell at the cursor"
    " (charproc.c doparsing: use_col is last_written_col only while"
    " char_was_written, which ResetWrap clears (ptyx.h), and CursorSet and"
    " CursorForward end with ResetWrap; addXtermCombining then adds it to"
    " that cell, an erased one being a space)"
)
_LF_ENDS_WRAP = (
    "a raw LF (VT, FF) at a pending wrap: the vt100 crate keeps the wrap, so"
    " the next character goes to the next row's first column; xterm's"
    " CASE_VMOT calls xtermIndex, whose CursorDown ends with ResetWrap"
    " (do_wrap = False), so the next character overwrites the next row's"
    " last column"
)
_IL_RETURNS = (
    "IL at a pending wrap or past column 0: the vt100 crate keeps the"
    " cursor's column (and the wrap); xterm's InsertLine (util.c) calls"
    " set_cur_col(screen, ScrnLeftMargin(xw)) and ResetWrap, as DEC's IL"
    " puts the cursor in the first column"
)
_ICH_SPLITS = (
    "ICH on the right half of a wide character: the vt100 crate keeps the"
    " character; xterm's InsertChar (util.c) blanks it: DamagedCurCells finds"
    " the wide character's left column (kl < cur_col) and ClearInLine erases"
    " both halves before the insert"
)

#: vt100 crate steps whose expected screen is not real xterm's.
VT100_DIFFERS = {
    "alternate_buffer/4": _ALT_CURSOR,
    "alternate_buffer/6": (
        _ALT_CURSOR + "; after leaving and entering again with mode 47, xterm"
        " also keeps the alternate screen's content (47 clears nothing), so"
        " it shows foobar on the last row, where it was written; termscribe"
        " blanks the alternate screen whenever it is entered (xterm.js, see"
        " _screen/_model.py), so its screen is blank"
    ),
    "alternate_buffer/11": _ALT_CURSOR,
    "combining/4": _MARK_AT_CURSOR,
    "combining/5": _MARK_AT_CURSOR,
    "combining/6": (
        "a combining mark in the first column after CR LF: the vt100 crate"
        " drops it (no cell to its left); xterm joins it to the cell at the"
        " cursor, a space since RIS (CarriageReturn's ResetWrap clears"
        " char_was_written; ClearScreen's ClearBufRows stores ' ' through"
        " ClearCells, and doparsing calls addXtermCombining when"
        " getXtermCell(use_row, use_col) >= ' ')"
    ),
    "combining/7": _MARK_AT_CURSOR,
    "combining/8": _MARK_AT_CURSOR,
    "combining/13": _MARK_AT_CURSOR,
    "ff/5": _LF_ENDS_WRAP,
    "lf/5": _LF_ENDS_WRAP,
    "vt/5": _LF_ENDS_WRAP,
    "ich_dch_ech/15": _ICH_SPLITS,
    "wide/9": _ICH_SPLITS,
    "il_dl/12": _IL_RETURNS,
    "il_dl/17": _IL_RETURNS,
    "wide/24": (
        "BS after a wide character printed in the last two columns: in the"
        " vt100 crate the cursor is past the last column, BS puts it on the"
        " last one and the next wide character wraps; in xterm, dotext leaves"
        " the cursor on the last column with do_wrap set (WriteText's"
        " CursorForward stops at max_col), CursorBack moves it to the column"
        " before (the wide character's left half, ResetWrap) and the next"
        " wide character overwrites the first"
    ),
}


def rows_of(rows: list[str]) -> list[str]:
    """Rows right-trimmed, blank rows at the bottom left out."""
    out = [row.rstrip(" ") for row in rows]
    while out and not out[-1]:
        out.pop()
    return out


# -- xterm.js's escape_sequence_files ------------------------------------------


def xtermjs_screens(path: Path) -> tuple[list[str], list[str]]:
    """(termscribe's screen, real xterm's) for one ``.in``."""
    transcript = Transcript(mode="screen", columns=80, rows=25)
    transcript.feed(path.read_bytes().replace(b"\n", b"\r\n"))  # the PTY's onlcr
    transcript.finish()
    expected = path.with_suffix(".text").read_text(encoding="utf-8").split("\n")
    return rows_of(transcript.text().split("\n")), rows_of(expected)


def xtermjs_results() -> dict[str, bool]:
    results = {}
    for path in XTERMJS:
        shown, expected = xtermjs_screens(path)
        results[path.stem] = shown == expected
    return results


@pytest.mark.parametrize("path", XTERMJS, ids=lambda path: path.stem)
def test_xtermjs_fixture(path: Path) -> None:
    shown, expected = xtermjs_screens(path)
    if path.stem in XTERMJS_DIFFERS:
        assert shown != expected
    else:
        assert shown == expected


# -- the vt100 crate's fixtures ------------------------------------------------


def vt100_expected(step: Path) -> list[str]:
    cells = json.loads(step.read_text(encoding="utf-8"))["cells"]
    rows = [[" "] * 80 for _ in range(24)]
    for key, cell in cells.items():
        row, column = map(int, key.split(","))
        if cell.get("is_wide_continuation"):
            rows[row][column] = ""
        else:
            rows[row][column] = cell.get("contents") or " "
    return rows_of(["".join(row) for row in rows])


def vt100_steps(fixture: Path) -> dict[str, bool]:
    """Each step of one fixture: does termscribe show the expected screen?"""
    transcript = Transcript(mode="screen", columns=80, rows=24, newline="lf")
    results = {}
    step = 1
    while (fixture / f"{step}.typescript").exists():
        transcript.feed((fixture / f"{step}.typescript").read_bytes())
        shown = rows_of(transcript.text().split("\n"))  # before finish(), see above
        results[f"{fixture.name}/{step}"] = shown == vt100_expected(fixture / f"{step}.json")
        step += 1
    return results


def vt100_results() -> dict[str, bool]:
    results: dict[str, bool] = {}
    for fixture in VT100:
        results.update(vt100_steps(fixture))
    return results


@pytest.mark.parametrize("fixture", VT100, ids=lambda path: path.name)
def test_vt100_fixture(fixture: Path) -> None:
    results = vt100_steps(fixture)
    failing = {step for step, passed in results.items() if not passed}
    assert failing == {step for step in VT100_DIFFERS if step.startswith(f"{fixture.name}/")}


# -- the counts ----------------------------------------------------------------


def test_counts() -> None:
    """Every fixture is accounted for: it passes or is listed above."""
    xtermjs = xtermjs_results()
    vt100 = vt100_results()
    assert len(xtermjs) == 76
    assert len(vt100) == 367
    assert sum(xtermjs.values()) == len(xtermjs) - len(XTERMJS_DIFFERS) == 74
    assert sum(vt100.values()) == len(vt100) - len(VT100_DIFFERS) == 350
    assert set(XTERMJS_DIFFERS) <= set(xtermjs)
    assert set(VT100_DIFFERS) <= set(vt100)


def main() -> int:
    for name, results in (("xterm.js", xtermjs_results()), ("vt100", vt100_results())):
        differs = XTERMJS_DIFFERS if name == "xterm.js" else VT100_DIFFERS
        for case, passed in results.items():
            reason = "" if passed else f"  ({differs.get(case, 'NOT LISTED')})"
            print(f"{name:8} {case:32} {'pass' if passed else 'FAIL'}{reason}")
        print(f"{name}: {sum(results.values())}/{len(results)} pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
