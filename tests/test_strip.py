"""The ``strip`` audit view: every printed character appears, in order."""

from __future__ import annotations

import pytest
from chunking import assert_chunking_invariant, chunks_bytewise, transcript_of

from termscribe import render_html

ESC = "\x1b"
CSI = "\x1b["


def strip(data: str) -> str:
    return assert_chunking_invariant(data.encode(), mode="strip")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("hello\nworld", "hello\nworld"),
        ("a\r\nb\r\n", "a\nb\n"),
        ("50%\r100%\n", "50%\n100%\n"),  # what the overwrite hid
        ("abc\rX", "abc\nX"),
        ("a\r\r\rb", "a\nb"),  # several breaks make one
        ("a\bb", "ab"),  # BS dropped, both characters kept
        ("_\bx", "_x"),
        ("a\tb", "a       b"),
        (f"a{CSI}3Cb", "a   b"),
        (f"done{CSI}1A{CSI}2Knew", "done\nnew"),
        (f"x{CSI}Ky", "x\ny"),
        (f"x{CSI}5;5Hy", "x\ny"),
        (f"{CSI}31mred{CSI}0m plain", "red plain"),
        (f"before{CSI}?1049hALT{CSI}?1049lafter", "beforeALTafter"),  # nothing hidden
        (f"a{ESC}Db{ESC}Ec", "a\nb\nc"),
        (f"a{ESC}Mb", "a\nb"),
        (f"ab{ESC}7cd{ESC}8X", "abcd\nX"),
        (f"a{ESC}]0;title\x07b", "ab"),
        (f"{ESC}(0qq{ESC}(B", "──"),
        (f"ab{CSI}2b", "abbb"),
        (f"{CSI}5Cx", "     x"),
        ("a\u0301\u200b", "a\u0301<U+200B>"),
    ],
)
def test_strip(data: str, expected: str) -> None:
    assert strip(data) == expected


def test_strip_shows_hidden_progress_frames() -> None:
    frames = "".join(f"\r{i}%" for i in range(0, 101, 25))
    assert strip(frames + "\n") == "\n".join(f"{i}%" for i in range(0, 101, 25)) + "\n"


def test_strip_shows_every_frame_of_bars_redrawn_line_after_line() -> None:
    data = "start\n\r10%\r100%\r\n\rabcdef\rxy\r\n\r\ndone\n"
    assert strip(data) == "start\n10%\n100%\nabcdef\nxy\n\ndone\n"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (f"{CSI}Hx{CSI}Hy{CSI}5;5Hz", "x\ny\nz"),  # each text after a break
        (f"{CSI}Hx{CSI}H\x07z", "x\nz"),  # the break after the run holds
        (f"{CSI}Hx{CSI}Hy\x08z", "x\nyz"),  # and only then
        (f"{CSI}Hx{CSI}H{CSI}Hy", "x\ny"),
        (f"a{CSI}31mb{CSI}Hc{CSI}3Cd", "ab\nc   d"),
        (f"{CSI}Hx\u0085y\u008dz\u0080w{CSI}Kv", "x\ny\nzw\nv"),
        # SGR sequences go with the texts; alone they break nothing.
        (f"{CSI}H{CSI}1mx{CSI}m{CSI}5;5H{CSI}31m{CSI}m{CSI}Hy{CSI}1m", "x\ny"),
        (f"a{CSI}31mb{CSI}H{CSI}1mc{CSI}0m{CSI}3Cd", "ab\nc   d"),
        # Only a run of breaks alone is taken as one: not with a move right,
        # a private mode or a break with an intermediate among them.
        (f"{CSI}Hx{CSI}3Cy", "x   y"),
        (f"{CSI}Hx{CSI}2;2Hy{CSI}?25lz", "x\nyz"),
        (f"{CSI}Hx{CSI}2;2Hy{CSI}1 Az", "x\nyz"),
    ],
)
def test_runs_of_sequences_and_c1_controls_at_once(data: str, expected: str) -> None:
    assert strip(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # IND and NEL end the line, RI breaks it, HTS and the inert C1
        # controls (and strings, ST) do nothing: the lines between the first
        # line end and the last are made at once.
        ("a\x84b\x85c\x8dd\x88e\x80f", "a\nb\nc\ndef"),
        ("\x84\x84x", "\n\nx"),  # empty lines
        ("a\x8d\x84b", "a\nb"),  # a break with no text after it
        ("x\x84a\x8d\x8db\x84c", "x\na\nb\nc"),
        ("x\x84\x8d\x8d\x84y", "x\n\ny"),  # breaks alone make one empty line
        ("a\x84\x9dtitle\x85b\x80\x9cc\x84\x84d\x8d", "a\n\nbc\n\nd"),
        # Control sequences that break the line, or do nothing here.
        ("x\x84a\x1b[Hb\x84c", "x\na\nb\nc"),
        ("x\x84a\x1b[5nb\x84", "x\nab\n"),
        # Blank cells and SGR take the items one by one.
        ("x\x84a\x1b[3Cb\x84", "x\na   b\n"),
        ("x\x84\x1b[1ma\x84", "x\na\n"),
        # Wide characters and marks; a mark after a break joins nothing.
        ("x\x84中\u0301\x84e\u0301\x8d\u0301y", "x\n中\u0301\ne\u0301\n \u0301y"),
        ("\x1b(0x\x84lq\x84", "│\n┌─\n"),  # line drawing
    ],
)
def test_runs_of_c1_line_ends_at_once(data: str, expected: str) -> None:
    assert strip(data) == expected


@pytest.mark.parametrize("end", ["\x88", "\x8d", "\x80", "\x9b5n", "\x1b[H"])
def test_a_run_of_c1_line_ends_forgets_the_last_character_at_its_end(end: str) -> None:
    # REP in the next chunk repeats nothing after a control that acts.
    chunks = [f"x\x84ab\x85cd{end}".encode(), b"\x1b[3b"]
    whole = transcript_of(chunks, mode="strip")
    assert whole.text() == transcript_of(chunks_bytewise(b"".join(chunks)), mode="strip").text()
    assert "dd" not in whole.text()


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        # grep --color: EL after each colour breaks the line before the text.
        (f"f.py:{CSI}31m{CSI}Kmatch{CSI}m{CSI}K rest", "f.py:\nmatch\n rest"),
        (f"{CSI}Ka{CSI}K{CSI}Kb{CSI}31m{CSI}K", "a\nb"),  # nothing before, nothing after
        (f"a{CSI}K{CSI}1m{CSI}0Kb{CSI}K", "a\nb"),
        # A mark or joiner after the break has nothing to join: a joiner is
        # marked, a combining mark gets a blank cell.
        (f"\U0001f4bb{CSI}K\u200d", "\U0001f4bb\n<U+200D>"),
        (f"\u00e9{CSI}K\u0301", "\u00e9\n \u0301"),
    ],
)
def test_whole_lines_with_el_break_before_the_next_text(line: str, shown: str) -> None:
    # Lines with EL after a line end.
    assert strip("x\n" + f"{line}\n" * 30) == "x\n" + f"{shown}\n" * 30


def test_lines_with_empty_sgr_after_lines_without_sgr() -> None:
    # "CSI m" after a batch whose first line had no SGR once raised ValueError.
    data = "x\nplain\nb\x1b[m\nc\n" * 3
    assert strip(data) == "x\nplain\nb\nc\n" * 3
    assert render_html(data.encode(), mode="strip").count("plain") == 3


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Progress bars redrawn after CR with EL and colour: each text once.
        (f"x\r{CSI}K{CSI}1mBuilding{CSI}0m 1/2\r{CSI}KDone 2/2\n", "x\nBuilding 1/2\nDone 2/2\n"),
        (f"\r 10%{CSI}K\r 100%{CSI}K, done.\n", " 10%\n 100%\n, done.\n"),  # git
        (f"\r 10%{CSI}K\r 100%{CSI}Kdone", " 10%\n 100%\ndone"),  # an EL at the end breaks
        (f"\r 10%\r 100K{CSI}m, done", " 10%\n 100K, done"),  # text ending in K does not
        (f"x{CSI}1G{CSI}0K\u2819 1{CSI}1G{CSI}0K\u2819 2{CSI}G3", "x\n\u2819 1\n\u2819 2\n3"),
    ],
)
def test_text_after_crs_with_el_and_sgr(data: str, expected: str) -> None:
    assert strip(data) == expected
    assert assert_chunking_invariant(data.encode(), mode="strip", styled=False) == expected


def test_styles_of_text_after_crs_in_strip() -> None:
    html = render_html(f"\r{CSI}31mred\r{CSI}2Kplain\r{CSI}1mbold".encode(), mode="strip")
    assert '<span class="ts-fg1">red</span>\n<span class="ts-fg1">plain</span>' in html
    assert '<span class="ts-fg1 ts-bold">bold</span>' in html


def test_whole_lines_of_wide_characters_at_once() -> None:
    # After a line end, lines of single and wide characters are committed
    # as whole lines, as printing them one by one would.
    assert strip("x\n" + f"编译 {CSI}32mok{CSI}0m ✅\n" * 30) == "x\n" + "编译 ok ✅\n" * 30
    # Marks joined to non-ASCII characters stay with them.
    assert strip("x\n" + "⚠️ 👩\u200d💻 é\u0301\n" * 30) == "x\n" + "⚠️ 👩\u200d💻 é\u0301\n" * 30
    # Other code points take the per-line path: a bidi control is marked.
    assert strip("x\n" + "中\u202e文\n" * 30) == "x\n" + "中<U+202E>文\n" * 30
    assert strip("x\n" + "中\u3000\u200d\n" * 30) == "x\n" + "中\u3000<U+200D>\n" * 30
    # A line wider than a row keeps what fits, and says what it dropped.
    long = "中" * 32768 + "a\n"
    omitted = "中" * 32768 + " [termscribe: 1 characters omitted]\n"
    assert strip("x\n" + long * 2) == "x\n" + omitted * 2
