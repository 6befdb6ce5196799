"""The ``screen`` mode's decisions taken from real xterm (see ``_screen._model``,
``_screen._edit``): each case fed whole, byte by byte and in random splits.
xterm's own test suite is run in test_conformance.py."""

from __future__ import annotations

import time

import pytest
from chunking import assert_chunking_invariant

CSI = "\x1b["


def shown(data: str, columns: int = 10, rows: int = 4, **options: object) -> str:
    return assert_chunking_invariant(
        data.encode(), mode="screen", columns=columns, rows=rows, newline="crlf", **options
    )


ROWS = "abcdefghij\r\nklmnopqrst\r\nuvwxyz0123"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # SL, SR: the rows of the scroll region shift; the cursor stays
        (f"{ROWS}{CSI}2;3r{CSI}2;5H{CSI}2 @", "abcdefghij\nmnopqrst\nwxyz0123"),
        (f"{ROWS}{CSI}2;3r{CSI}2;5H{CSI}3 A", "abcdefghij\n   klmnopq\n   uvwxyz0"),
        (f"{ROWS}{CSI}2;3r{CSI}1;5H{CSI}2 @", ROWS.replace("\r", "")),  # outside: nothing
        (f"{ROWS}\r{CSI}2 @X", "cdefghij\nmnopqrst\nXxyz0123"),  # no region: every row
        # DECIC, DECDC: columns at the cursor column
        (f"{ROWS}{CSI}2;5H{CSI}2'}}", "abcd  efgh\nklmn  opqr\nuvwx  yz01"),
        (f"{ROWS}{CSI}2;5H{CSI}3'~", "abcdhij\nklmnrst\nuvwx123"),
        (f"{ROWS}{CSI}1;2r{CSI}3;5H{CSI}3'~", ROWS.replace("\r", "")),  # outside the region
        (f"{ROWS}{CSI}H{CSI}99999'~", ""),  # clamped
    ],
)
def test_column_operations(data: str, expected: str) -> None:
    assert shown(data) == expected


def test_column_operations_use_the_erase_colour() -> None:
    from termscribe import Transcript

    transcript = Transcript(mode="screen", columns=4, rows=2)
    transcript.feed(f"abcd{CSI}41m{CSI}1 A".encode())
    transcript.finish()
    ((text, style), (rest, _)) = transcript.lines()[0].runs
    assert (text, style.bg, rest) == (" ", 1, "abc")


def _seconds_per_byte(data: str) -> float:
    from termscribe import Transcript

    transcript = Transcript(mode="screen", columns=80, rows=24)
    started = time.perf_counter()
    transcript.feed(data.encode())
    transcript.finish()
    transcript.text()
    return (time.perf_counter() - started) / len(data)


@pytest.mark.deep(reason="times floods against a coloured log (invariant 4)")
def test_column_operation_floods_cost_little() -> None:
    """SECURITY.md: a flood within 10 times an ordinary coloured log per
    byte (a column operation is a pass over each row of the region). Each
    is timed three times, in turn, and the best taken, so that a stretch of
    load on the machine (or the first run's imports) slows one run of each
    rather than one of them (the second flood measures about 7 times the
    log)."""
    log = "\x1b[31mab\x1b[0m cd \r\n" * 20_000
    floods = (
        f"{CSI}41m{CSI}1 @" * 20_000,
        ("x" * 80 + f"{CSI}41m{CSI}1 @{CSI}1'}}{CSI}1'~{CSI}1 A") * 500,
    )
    best = [float("inf")] * (1 + len(floods))
    for _ in range(3):
        for index, data in enumerate((log, *floods)):
            best[index] = min(best[index], _seconds_per_byte(data))
    for flood in best[1:]:
        assert flood < 10 * best[0]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # DECSCA protects; DECSEL and DECSED spare protected characters
        (f'{CSI}1"qAB{CSI}0"qCD{CSI}1G{CSI}?K', "AB"),
        (f'ab{CSI}1"qCD{CSI}2"qef{CSI}1G{CSI}?2K', "  CD"),
        (f'{CSI}1"qAB{CSI}"qcd\r\nxy{CSI}?1J', "AB"),
        (f'{CSI}1"qAB{CSI}0"qcd{CSI}1G{CSI}K', ""),  # EL erases everything
        (f'{CSI}1"qAB\x1b[!pcd{CSI}1G{CSI}?K', "AB"),  # DECSTR: no longer protecting
        (f"abcdef{CSI}1;3H{CSI}?0J", "ab"),  # nothing protected: ED
        (f"abcdef{CSI}1;3H{CSI}?5J", "abcdef"),  # unknown mode
    ],
)
def test_selective_erase(data: str, expected: str) -> None:
    assert shown(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("漢字ab\x08\x08\x08\x08\x08" + f"{CSI}2P", "  ab"),  # DCH from a right half
        ("漢字ab\x08\x08\x08\x08\x08\x08" + f"{CSI}3P", " ab"),  # cuts 字: both halves go
        ("漢ab\x08\x08\x08" + f"{CSI}@", "   ab"),  # ICH in a wide character
        ("\x1b(0_qx\x1b(B_", " ─│_"),  # DEC line drawing: 0x5F is a blank
    ],
)
def test_characters(data: str, expected: str) -> None:
    assert shown(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("ab\x08\u0301", "ab\u0301"),  # after BS: the cell at the cursor
        ("ab\r\u0301", "a\u0301b"),
        (f"abc{CSI}1;2H\u0301", "ab\u0301c"),  # after CUP too
        ("ab\tc\u0301", "ab      c\u0301"),
        ("ab\t\u0301", "ab́"),  # after HT: the cell last written (xterm)
        (f"ab{CSI}1m\u0301", "ab́"),  # SGR changes nothing
        (f"{CSI}3C\u0301x", "    ́x"),  # never written: on a space, the cursor moves on
        ("漢\x08\u0301", "漢́"),  # a right half: its wide character
    ],
)
def test_combining_marks(data: str, expected: str) -> None:
    assert shown(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("a\nb\x0bc\x0cd", "a\n b\n  c\n   d"),
        (f"a{CSI}20hb\nc\x0bd\x0ce{CSI}20lf\ng", "ab\nc\nd\nef\n  g"),  # LNM
        ("abcdefghij\nk", "abcdefghij\n         k"),  # the wrap ends
    ],
)
def test_line_feeds_without_return(data: str, expected: str) -> None:
    assert shown_lf(data) == expected


def shown_lf(data: str) -> str:
    return assert_chunking_invariant(data.encode(), mode="screen", columns=10, rows=5, newline="lf")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("ab\r\ncd\x08\x08\x08X", "ab       X\ncd"),  # to the last column of the row above
        (f"ab\r\ncd{CSI}?45l\x08\x08\x08X", "ab\nXd"),  # off: stops at column 0
        (f"ab\r\ncd{CSI}?7l\x08\x08\x08X", "ab\nXd"),  # needs autowrap
        (f"{CSI}H\x08X", "\n\n\n         X"),  # from the top to the bottom
        (f"{CSI}2;3r{CSI}2;1H\x08X", "\n\n         X"),  # within the scroll region
        ("abcdefghij\x08X", "abcdefghiX"),  # a pending wrap only ends
    ],
)
def test_reverse_wraparound(data: str, expected: str) -> None:
    assert shown(f"{CSI}?45h{data}") == expected
    assert shown(f"{CSI}?1045h{data.replace('?45l', '?1045l')}") == expected


def test_scroll_region_survives_the_alternate_screen() -> None:
    """xterm: the margins are the terminal's (test_differential 10)."""
    assert shown(f"{CSI}?1049h{CSI}1;2r{CSI}?1049l{CSI}2;1Hx\r\ny\r\nz") == "y\nz"
    assert shown(f"{CSI}1;2r{CSI}?1049h{CSI}2;1Hx\r\ny") == "x\ny"
