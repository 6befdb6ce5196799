"""The ``screen`` mode: each case pins a decision of ``_screen._model`` or
``_screen._cells``, fed whole, byte by byte and in random splits; the corpus
against its screen goldens; safety of text, HTML and ANSI; the CLI."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pyte
import pytest
from chunking import assert_chunking_invariant
from htmlcheck import check_html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textcheck import assert_safe_text

from termscribe import Transcript
from termscribe._lines import MAX_REPEAT
from termscribe._screen._cells import sgr_params, style_of
from termscribe._screen._model import MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS, ScreenModel
from termscribe._screen._snapshot import ALT_BEGIN, ALT_END
from termscribe._style import (
    BLINK,
    BOLD,
    DEFAULT,
    INVERSE,
    ITALIC,
    RGB_FLAG,
    STRIKE,
    Style,
)
from termscribe._unicode import MAX_COMBINING
from termscribe.cli import main

CSI = "\x1b["
CORPUS = Path(__file__).resolve().parent.parent / "corpus"
CASES = sorted([*CORPUS.glob("recordings/*.json"), *CORPUS.glob("hostile/*.json")])
BYTEWISE_LIMIT = 64 * 1024


def shown(data: str | bytes, columns: int = 20, rows: int = 5, **options: object) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return assert_chunking_invariant(raw, mode="screen", columns=columns, rows=rows, **options)


def transcript(
    data: str | bytes, columns: int = 20, rows: int = 5, **options: object
) -> Transcript:
    result = Transcript(mode="screen", columns=columns, rows=rows, **options)  # type: ignore[arg-type]
    result.feed(data.encode() if isinstance(data, str) else data)
    result.finish()
    return result


# -- the lines model's decisions hold ------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("", ""),
        ("hello", "hello"),
        ("a\nb", "a\nb"),  # a bare LF returns to column 0 (convertEol)
        ("a\nb\x0bc\x0cd", "a\nb\nc\nd"),  # VT and FF are line feeds (see test_newline)
        ("abc\rX", "Xbc"),
        ("a\bb", "b"),  # BS never erases
        ("\bx", "x"),
        ("a\tb", "a       b"),
        ("trailing   \n", "trailing"),  # rows are right-trimmed
        ("a\n\n\n", "a"),  # blank rows at the bottom are left out
        ("\n\nb", "\n\nb"),  # blank rows above are kept
        (f"{CSI}3;4Hx", "\n\n   x"),
        (f"{CSI}999999;999999Hx", "\n\n\n\n                   x"),  # clamped
        (f"abcdef{CSI}3D{CSI}K", "abc"),
        (f"abcdef{CSI}3D{CSI}1K", "    ef"),
        (f"abcdef{CSI}3D{CSI}2Kxy", "   xy"),
        (f"one\ntwo\nthree{CSI}2A{CSI}J", "one"),
        (f"one\ntwo\nthree{CSI}1A{CSI}1J", "\n\nthree"),
        (f"one\ntwo{CSI}3J", "one\ntwo"),  # ED 3: scrollback only
        (f"abcdef{CSI}4G{CSI}2@XY", "abcXYdef"),
        (f"abcdef{CSI}2G{CSI}2P", "adef"),
        (f"abcdef{CSI}2G{CSI}2X", "a  def"),
        ("ab\x1b7cd\x1b8X", "abXd"),
        (f"a{CSI}5bX", "aaaaaaX"),  # REP
        (f"\r{CSI}5bX", "X"),  # REP after a control does nothing
        ("\x1b(0lqk\x1b(B q", "┌─┐ q"),  # DEC line drawing
        (f"x{CSI}8;100;100ty{CSI}6n{CSI}c", "xy"),  # window ops, reports
        ("a\x1b]0;title\x07b\x1bPq#0;payload\x1b\\c", "abc"),  # OSC, DCS dropped
    ],
)
def test_decisions(data: str, expected: str) -> None:
    assert shown(data) == expected


def test_default_size_is_80_by_24() -> None:
    model = Transcript(mode="screen")._model
    assert isinstance(model, ScreenModel)
    assert (model.width, model.height) == (80, 24)
    assert transcript("x" * 81, columns=None, rows=24).text() == "x" * 80 + "\nx"  # type: ignore[arg-type]


def test_wrap_and_scroll() -> None:
    assert shown("0123456789ABC", columns=10) == "0123456789\nABC"
    assert shown("1\n2\n3\n4\n5\n6", rows=5) == "2\n3\n4\n5\n6"  # 1 scrolled away
    assert shown(f"{CSI}?7l0123456789ABC", columns=10) == "012345678C"


def test_line_feed_below_the_scroll_region_stays_below() -> None:
    """pyte's own line feed would move a cursor below the region up into it."""
    assert shown(f"{CSI}1;2r{CSI}5;1Ha\nb", rows=5) == "\n\n\n\nb"
    assert shown(f"{CSI}1;2r{CSI}5;1Ha{CSI}Ab", rows=5) == "\n\n\n b\na"


def test_scroll_region() -> None:
    data = f"top\n1\n2\n3\nbottom{CSI}2;4r{CSI}4;1H\nx"
    assert shown(data) == "top\n2\n3\nx\nbottom"
    assert shown(f"a\nb\nc{CSI}2;3r{CSI}2;1H{CSI}S") == "a\nc"  # SU in the region
    assert shown(f"a\nb\nc{CSI}2;3r{CSI}2;1H{CSI}T") == "a\n\nb"  # SD
    assert shown(f"a\nb\nc{CSI}2;1H\x1bMX") == "X\nb\nc"  # RI below the top moves up
    assert shown(f"a\nb\nc{CSI}2;3r{CSI}2;1H\x1bMX") == "a\nX\nb"  # at the top: scrolls


def test_delete_line_below_an_unwritten_row() -> None:
    """pyte's delete_lines keeps a row when the one below was never written."""
    assert shown(f"a\n\nc{CSI}H{CSI}M") == "\nc"
    raw = pyte.Screen(20, 5)
    pyte.Stream(raw).feed(f"a\r\n\r\nc{CSI}H{CSI}M")
    assert raw.display[0].rstrip() == "a"  # the pyte bug this guards against


def test_insert_then_delete_does_not_bring_back_a_pushed_out_cell() -> None:
    assert shown(f"abcde{CSI}1G{CSI}@{CSI}P", columns=5) == "abcd"
    assert shown(f"{CSI}4habcde{CSI}1GX{CSI}1G{CSI}P", columns=5) == "abcd"


def test_saved_cursor_is_one_slot_not_a_stack() -> None:
    assert shown("ab\x1b7cd\x1b7\x1b8\x1b8X") == "abcdX"


def test_pending_wrap_ends_before_edits_and_survives_tabs() -> None:
    """xterm and xterm.js; the lines model too (see test_differential)."""
    assert shown(f"abcde{CSI}PX", columns=5) == "abcdX"
    assert shown("abcde\x1bDX", columns=5) == "abcde\n    X"
    assert shown("abcde\tX", columns=5) == "abcde\nX"


def test_pending_wrap_with_xterm() -> None:
    """Where xterm.js differs, xterm (test_differential differences 8, 9,
    11): EL 0 and ED 0 erase the last column and end the wrap; DECRC
    restores a pending wrap; CBT moves left of it and the wrap stays."""
    assert shown(f"abcde{CSI}K", columns=5) == "abcd"
    assert shown(f"abcde{CSI}KX", columns=5) == "abcdX"
    assert shown(f"abcde{CSI}JX", columns=5) == "abcdX"
    assert shown("abcde\x1b7\r\n\x1b8X", columns=5) == "abcde\nX"
    assert shown(f"{'x' * 20}{CSI}ZY") == "x" * 20 + "\nY"  # CBT, then the wrap
    assert shown(f"\n{'x' * 20}{CSI}Z\x1bM\x1bDY") == "\n" + "x" * 16 + "Yxxx"  # RI, IND end it
    assert shown(f"{'x' * 20}{CSI}2Z\x08Y") == "x" * 7 + "Y" + "x" * 12  # BS ends it


def test_huge_parameters_are_clamped() -> None:
    big = "65535"
    data = (
        f"abc{CSI}{big}@{CSI}{big}P{CSI}{big}X{CSI}{big}L{CSI}{big}M{CSI}{big}S"
        f"{CSI}{big}T{CSI}{big}I{CSI}{big}Z{CSI}{big}C{CSI}{big}A{CSI}{big}b"
        f"{CSI}{'9' * 300}Hz{CSI}2147483648;2147483648HZ"
    )
    assert shown(data).split("\n")[-1] == " " * 19 + "Z"


def test_rep_is_capped_and_wraps() -> None:
    """REP wraps at the margin as printing does (xterm), at most MAX_REPEAT."""
    text = shown(f"ab{CSI}2147483647b", columns=10, rows=40)
    assert text.replace("\n", "") == "a" + "b" * (1 + MAX_REPEAT)
    assert shown(f"abcdefghij{CSI}12b", columns=10) == "abcdefghij\njjjjjjjjjj\njj"
    assert shown(f"\x1b(0q{CSI}3b", columns=10) == "────"  # translated, slow path
    assert shown(f"{CSI}4hab{CSI}1Gc{CSI}2b", columns=10) == "cccab"  # insert mode
    assert shown(f"{CSI}?7labc{CSI}10b", columns=5) == "abccc"  # no autowrap: last column
    assert shown(f"a漢{CSI}4b", columns=5) == "a漢漢\n漢漢\n漢"  # wide, across rows
    assert shown(f"abc\u200f{CSI}3b", columns=40) == "abc" + "<U+200F>" * 4


@pytest.mark.parametrize("base", ["a", "é", "漢"])
@pytest.mark.parametrize("count", [2, 5, 30])
def test_a_mark_after_rep_joins_the_last_copy(base: str, count: int) -> None:
    """As if the copies were printed (xterm, and the lines model)."""
    data = f"x{base}{CSI}{count}b\u0301"
    assert shown(data, columns=80) == f"x{base * count}{base}\u0301"
    lines = Transcript(columns=80)
    lines.feed(data.encode())
    lines.finish()
    assert lines.text() == f"x{base * count}{base}\u0301"


# -- what pyte would get wrong or crash on --------------------------------


def test_private_sgr_is_not_sgr() -> None:
    """``CSI > 4 ; 2 m`` (vim's modifyOtherKeys) makes pyte's Stream raise."""
    result = transcript(f"{CSI}>4;2mplain{CSI}>4;m")
    assert result.text() == "plain"
    assert result.lines()[0].runs == (("plain", DEFAULT),)


def test_column_and_reverse_video_modes_are_not_applied() -> None:
    assert shown(f"{CSI}?3h{'x' * 12}", columns=10) == "x" * 10 + "\nxx"
    result = transcript(f"{CSI}?5hab")
    assert result.lines()[0].runs == (("ab", DEFAULT),)


def test_zero_width_joiner_keeps_the_rest_of_the_text() -> None:
    """pyte's draw stops at the first zero-width non-combining character."""
    assert shown("👩\u200d💻 ok") == "👩\u200d💻 ok"
    assert shown("a \u200db") == "a <U+200D>b"  # no join base: shown
    assert shown("1\ufe0f\u20e3 keycap") == "1\ufe0f\u20e3 keycap"


@pytest.mark.parametrize("between", ["\x00", "\x07", f"{CSI}D{CSI}C", f"{CSI}5C"])
@pytest.mark.parametrize("joiner", ["\ufe00", "\ufe0f", "\u200d", "\u200c"])
def test_a_joiner_that_takes_a_cell_of_its_own_is_shown(between: str, joiner: str) -> None:
    """After a control the cell at the cursor is the one a zero-width
    character joins (xterm); a joiner or selector that would stand alone
    there is shown, never kept raw after a space (the digit left of the
    cursor is not its base)."""
    text = shown("8" + between + joiner + "x")
    assert_safe_text(text)
    assert f"<U+{ord(joiner):04X}>" in text and joiner not in text
    assert shown("\u2764" + f"{CSI}D" + "\ufe0f") == "\u2764\ufe0f"  # at the cursor: joined


def test_combining_marks() -> None:
    assert shown("e\u0301") == "e\u0301"  # not normalised (pyte would NFC it)
    assert shown("\u0301x") == " \u0301x"  # no base: shown on a space
    assert shown("a\n\u0301") == "a\n \u0301"  # never joined to the row above
    assert shown("漢\u0301x") == "漢\u0301x"  # joined to a wide character
    storm = shown("e" + "\u0301" * 10_000 + "!")
    assert storm == "e" + "\u0301" * MAX_COMBINING + "!"


@pytest.mark.parametrize("edit", [f"{CSI}@", f"{CSI}P"])
def test_an_edit_at_the_right_half_of_an_overwritten_wide_character(edit: str) -> None:
    """ICH and DCH blank a wide character they split (xterm); a character
    printed over its left half is no longer wide, and stays."""
    assert shown(f"xx漢yz\r{CSI}2Ca{edit}") == ("xxa  yz" if edit.endswith("@") else "xxayz")
    assert shown(f"xx漢yz\r{CSI}3C{edit}") == ("xx   yz" if edit.endswith("@") else "xx yz")


def test_wide_characters() -> None:
    assert shown("漢字") == "漢字"
    assert shown("abcd漢", columns=5) == "abcd\n漢"  # does not fit: wraps
    assert shown("漢\bX") == " X"  # right half overwritten: blank
    assert shown("漢\rX") == "X"  # left half overwritten: blank
    assert shown(f"{CSI}?7labcd漢", columns=5) == "abc漢"
    assert shown("漢", columns=1) == ""  # cannot fit at all


def test_sanitisation_is_the_lines_models() -> None:
    data = "a\u202eb\u200bc\ufdd0d\u2028e\x9b31mf\U000e0041"
    text = shown(data, columns=60)
    assert text == "a<U+202E>b<U+200B>c\ufffdd<U+2028>ef<U+E0041>"
    assert_safe_text(text)


# -- the alternate screen -------------------------------------------------


def test_alternate_screen_active_at_the_end_is_shown() -> None:
    assert shown(f"main{CSI}?1049halt") == "    alt"
    assert shown(f"main{CSI}?1049h{CSI}Halt{CSI}?1049l") == "main"
    assert shown(f"main{CSI}?47halt{CSI}?47l") == "main"


def test_alternate_screen_is_blank_when_entered_again() -> None:
    assert shown(f"{CSI}?47hA{CSI}?47l{CSI}?47hB") == " B"


def test_alternate_screen_snapshot() -> None:
    data = f"main{CSI}?1049h{CSI}Hvim frame{CSI}?1049l"
    assert shown(data, alt_screen="snapshot") == f"main\n{ALT_BEGIN}\nvim frame\n{ALT_END}"
    # Still active at the end: the screen is the frame, no block.
    assert shown(f"main{CSI}?1049hx", alt_screen="snapshot") == "    x"
    # Left by RIS.
    assert shown(f"{CSI}?1049hgone\x1bc", alt_screen="snapshot") == f"{ALT_BEGIN}\ngone\n{ALT_END}"


def test_lines_mode_snapshot() -> None:
    data = f"$ vim\n{CSI}?1049h{CSI}Hline 1\nline 2  \n{CSI}?1049l$ "
    text = assert_chunking_invariant(data.encode(), alt_screen="snapshot", columns=20, rows=5)
    assert text == f"$ vim\n$ \n{ALT_BEGIN}\nline 1\nline 2\n{ALT_END}"
    still = assert_chunking_invariant(f"a{CSI}?1049hb".encode(), alt_screen="snapshot")
    assert still == f"a\n{ALT_BEGIN}\n b\n{ALT_END}"
    assert assert_chunking_invariant(b"no alternate\n", alt_screen="snapshot") == "no alternate\n"


# -- styles ---------------------------------------------------------------


def _style(data: str) -> Style:
    runs = transcript(data).lines()[0].runs
    return runs[-1][1]


@pytest.mark.parametrize(
    ("sgr", "expected"),
    [
        ("1;3;4;5;7;9", Style.make(flags=BOLD | ITALIC | BLINK | INVERSE | STRIKE, underline=1)),
        ("31;42", Style.make(fg=1, bg=2)),
        ("95;105", Style.make(fg=13, bg=13)),  # pyte spells 105 "bfightmagenta"
        ("38;5;9;48;5;200", Style.make(fg=9, bg=200)),
        ("38;2;1;2;3", Style.make(fg=RGB_FLAG | 0x010203)),
        ("38;2;255;0;0", Style.make(fg=196)),  # a palette colour comes back as its index
        ("2;53;4:3;58;5;1", Style.make(underline=1)),  # dim, overline, curly, ul colour
        ("1;22", DEFAULT),
    ],
)
def test_styles_round_trip_through_pyte(sgr: str, expected: Style) -> None:
    assert _style(f"{CSI}{sgr}mX") == expected


def test_sgr_params_always_take_pytes_general_path() -> None:
    assert sgr_params(DEFAULT) == (0, 39)
    assert sgr_params(Style.make(fg=3, bg=12)) == (0, 33, 104)


def test_style_of_unknown_colour_name_is_default() -> None:
    assert style_of(pyte.screens.Char("x", fg="nonsense")) == DEFAULT


def test_erase_uses_the_background_only() -> None:
    runs = transcript(f"abc{CSI}1G{CSI}1;44m{CSI}X").lines()[0].runs
    assert runs[0] == (" ", Style.make(bg=4))
    runs = transcript(f"abc{CSI}1G{CSI}44m{CSI}2@").lines()[0].runs
    assert runs[0] == ("  ", Style.make(bg=4))


def test_links_are_dropped_text_stays() -> None:
    result = transcript("\x1b]8;;https://example.com/\x07site\x1b]8;;\x07")
    assert result.text() == "site"
    assert all(style.link is None for _, style in result.lines()[0].runs)


def test_unstyled_transcript_has_the_same_text() -> None:
    data = f"{CSI}31mred{CSI}0m plain"
    assert transcript(data, styled=False).text() == transcript(data).text() == "red plain"
    assert transcript(data, styled=False).lines()[0].runs == (("red plain", DEFAULT),)


# -- limits and errors ----------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"columns": MAX_SCREEN_COLUMNS + 1},
        {"rows": MAX_SCREEN_ROWS + 1},
        {"alt_screen": "always"},
    ],
)
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Transcript(mode="screen", **options)  # type: ignore[arg-type]


def test_strip_has_no_alternate_screen_option() -> None:
    with pytest.raises(ValueError, match="alt_screen"):
        Transcript(mode="strip", alt_screen="snapshot")


def test_nothing_is_committed_before_the_end() -> None:
    result = Transcript(mode="screen", columns=10, rows=2)
    result.feed(b"1\n2\n3\n4\n")
    assert result.take_lines() == []
    result.finish()
    assert result.text() == "4"


def _seconds(data: bytes) -> float:
    started = time.perf_counter()
    transcript(data, columns=80, rows=24)
    return time.perf_counter() - started


@pytest.mark.deep(reason="times floods against as many bytes of text (invariant 4)")
@pytest.mark.parametrize(
    "sequence", [b"\n", b"\x1b[2J", b"\x1b[41m\x1b[J", b"\x1b[P", b"\x1b[M", b"a\x1b[99b"]
)
def test_repeated_sequences_cost_about_as_much_as_text(sequence: bytes) -> None:
    """A scroll costs a pass over the rows in pyte, an insert or delete one
    over the columns, REP at most a row: at 80 x 24 a flood of any of them
    stays within a few times the time of as many bytes of plain text."""
    size = 200_000
    fill = b"x" * 80 * 24
    flood = _seconds(fill + sequence * (size // len(sequence)))
    text = _seconds(fill + b"y" * size)
    assert flood < 5 * text + 0.5


# -- the corpus -----------------------------------------------------------


@pytest.mark.parametrize("sidecar", CASES, ids=lambda p: p.stem)
def test_golden_and_chunking(sidecar: Path) -> None:
    meta = json.loads(sidecar.read_text(encoding="utf-8"))
    data = sidecar.with_suffix(".raw").read_bytes()
    text = assert_chunking_invariant(
        data,
        bytewise=len(data) <= BYTEWISE_LIMIT,
        seeds=(1, 2) if len(data) <= BYTEWISE_LIMIT else (1,),
        mode="screen",
        columns=meta["columns"],
        rows=meta["rows"],
    )
    assert_safe_text(text)
    golden = CORPUS / "golden" / f"{sidecar.stem}.screen.txt"
    assert text == golden.read_bytes().decode("utf-8")
    assert len(text.split("\n")) <= meta["rows"]


_SGR = re.compile("\x1b\\[[0-9;:]*m|\x1b\\]8;;[^\x1b]*\x1b\\\\")


@pytest.mark.parametrize("sidecar", CASES, ids=lambda p: p.stem)
def test_html_and_ansi_are_safe(sidecar: Path) -> None:
    meta = json.loads(sidecar.read_text(encoding="utf-8"))
    result = Transcript(
        mode="screen", columns=meta["columns"], rows=meta["rows"], alt_screen="snapshot"
    )
    result.feed(sidecar.with_suffix(".raw").read_bytes())
    result.finish()
    text = result.text()
    check_html(result.html(), text)
    check_html(result.html(standalone=True), text, standalone=True)
    ansi = result.ansi(hyperlinks=True)
    assert _SGR.sub("", ansi) == text


# -- generated bytes ------------------------------------------------------

PIECES = [
    b"\x1b[",
    b"\x1b[?",
    b"\x1b",
    b"\x9b",
    b";",
    b"0",
    b"1",
    b"7",
    b"65535",
    b"99999999999",
    b"1049",
    b"47",
    b"h",
    b"l",
    b"m",
    b"H",
    b"J",
    b"K",
    b"X",
    b"P",
    b"@",
    b"L",
    b"M",
    b"S",
    b"T",
    b"b",
    b"r",
    b"\x1b7",
    b"\x1b8",
    b"\x1bc",
    b"\x1b(0",
    b"\r",
    b"\n",
    b"\x08",
    b"\t",
    b"text",
    "漢".encode(),
    "\u0301".encode(),
    "\u200d".encode(),
    "\u202e".encode(),
    b"\xc2\x8d",
    b"\xe2",
    b">4;2m",
    b"\x1b]8;;https://x.example/\x07",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join),
    size=st.tuples(st.integers(1, 12), st.integers(1, 6)),
)
def test_any_bytes(data: bytes, size: tuple[int, int]) -> None:
    """Never raises, safe text, same for every chunking, HTML visible text
    equals the text."""
    columns, rows = size
    text = assert_chunking_invariant(
        data, bytewise=True, seeds=(1,), mode="screen", columns=columns, rows=rows
    )
    assert_safe_text(text)
    lines = text.split("\n")
    assert len(lines) <= rows
    assert all(len(line) <= columns * (2 + MAX_COMBINING) for line in lines)
    check_html(transcript(data, columns, rows).html(), text)


# -- the command line -----------------------------------------------------


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_render_screen() -> None:
    status, out, err = run(["render", "--mode", "screen", "--columns", "5"], b"1\n2\nabcdefg")
    assert (status, out, err) == (0, b"1\n2\nabcde\nfg\n", "")  # a file ends in a newline


def test_cli_full_screen_recordings() -> None:
    top = str(CORPUS / "recordings" / "top.raw")
    status, out, _ = run(["render", "--mode", "screen", "--columns", "100", "--rows", "30", top])
    assert status == 0
    assert out.decode().split("\n")[0].startswith("Tasks:   6 total")
    vim = str(CORPUS / "recordings" / "vim_edit.raw")
    argv = ["render", "--mode", "screen", "--columns", "100", "--rows", "30"]
    status, out, _ = run([*argv, "--alt-screen", "snapshot", vim])
    rows = out.decode().split("\n")
    assert status == 0
    assert rows[0] == ALT_BEGIN and rows[-2:] == [ALT_END, ""]
    assert "  4 def greet(name):" in rows
    assert any(row.startswith("greet.py [+]") for row in rows)


def test_cli_bad_screen_options() -> None:
    status, out, err = run(["render", "--mode", "screen", "--columns", "1000"])
    assert (status, out) == (2, b"")
    assert err == "termscribe: --columns must be at most 500 with --mode screen\n"
    status, _, err = run(["render", "--mode", "strip", "--alt-screen", "snapshot"])
    assert status == 2 and err == "termscribe: --alt-screen applies to --mode lines and screen\n"
