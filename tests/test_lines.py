"""The ``lines`` model: each case pins a decision of ``_lines`` (xterm with
convertEol), fed whole, byte by byte and in random splits."""

from __future__ import annotations

import pytest
from chunking import assert_chunking_invariant, chunks_bytewise, transcript_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termscribe import Transcript, render_html, render_text
from termscribe._lines import MAX_REPEAT, LinesModel
from termscribe._lines import _model as lines_module
from termscribe._lines import _print as lines_print
from termscribe._lines import _unicode as lines_unicode
from termscribe._lines._csi import MAX_REACH
from termscribe._parser import Parser
from termscribe._rows import MAX_LINE_CELLS

ESC = "\x1b"
CSI = "\x1b["


def lines(data: str | bytes, **options: object) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return assert_chunking_invariant(raw, **options)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("", ""),
        ("hello", "hello"),
        ("hello\n", "hello\n"),
        ("a\r\nb\r\n", "a\nb\n"),
        ("a\nb", "a\nb"),  # bare LF returns to column 0 (convertEol)
        ("a\n\n\nb", "a\n\n\nb"),
        ("abc\rX", "Xbc"),  # CR overwrite
        ("50%\r100%\n", "100%\n"),
        ("a\bb", "b"),  # overstrike
        ("_\bx", "x"),
        ("N\bNA\bAM\bME\bE", "NAME"),
        ("\bx", "x"),  # BS at column 0 stays
        ("a\tb", "a       b"),  # HT to 8-column stops, blanks are spaces
        ("1234567\tX", "1234567 X"),
        ("a\nb\x0bc\x0cd", "a\nb\nc\nd"),  # VT and FF are line feeds (see test_newline)
        ("trailing   \n", "trailing   \n"),  # printed spaces stay (xterm)
        (f"trail   {CSI}3D{CSI}K\n", "trail\n"),  # erased cells do not
        ("a\x07b\x00c", "abc"),  # other C0 controls do nothing visible
    ],
)
def test_basic_controls(data: str, expected: str) -> None:
    assert lines(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # erase in line
        (f"abcdef{CSI}3D{CSI}K", "abc"),
        (f"abcdef{CSI}3D{CSI}1K", "    ef"),
        (f"abcdef{CSI}3D{CSI}2Kxy", "   xy"),
        # erase in display
        (f"one\ntwo\nthree{CSI}2A{CSI}J", "one"),
        (f"one\ntwo\nthree{CSI}1A{CSI}1J", "\n\nthree"),
        (f"one\ntwo{CSI}2J", "\n"),
        (f"one\ntwo{CSI}3J", "one\ntwo"),  # ED 3 never erases lines
        # insert / delete / erase characters
        (f"abcdef{CSI}4G{CSI}2@XY", "abcXYdef"),
        (f"abcdef{CSI}2G{CSI}2P", "adef"),
        (f"abcdef{CSI}2G{CSI}2X", "a  def"),
        # cursor movement
        (f"abc{CSI}2Dx", "axc"),
        (f"abc{CSI}5Cx", "abc     x"),
        (f"a\nb{CSI}Ax", "ax\nb"),
        (f"a{CSI}2Bb", "a\n\n b"),
        (f"x\ny{CSI}1Fz", "z\ny"),
        (f"x{CSI}2Ey", "x\n\ny"),
        (f"abc{CSI}2Gz", "azc"),
        (f"abc{CSI}2`z", "azc"),
        (f"a{CSI}3ab", "a   b"),
        (f"{CSI}3;4Hx", "\n\n   x"),
        (f"{CSI}3;4fx", "\n\n   x"),
        (f"abc{CSI}2dz", "abc\n   z"),
        (f"a{CSI}2eb", "a\n\n b"),
        # save and restore the cursor
        (f"ab{ESC}7cd{ESC}8X", "abXd"),
        (f"ab{CSI}scd{CSI}uX", "abXd"),
        # in origin mode, back inside the scroll region (xterm.js), also
        # where leaving the alternate screen restores it
        (f"{CSI}?6haaaaa{ESC}7{CSI}2;4raaa{ESC}8b", "aaaaa\naaa  b"),
        (f"{CSI}?6haaaaa{ESC}7{CSI}2;4raaa{CSI}?1049lb", "aaaaa\naaa  b"),
        (f"aaaaa{ESC}7{CSI}2;4raaa{ESC}8b", "aaaaab"),  # not in origin mode
        # REP
        (f"ab{CSI}3b", "abbbb"),
        (f"a\n{CSI}3bX", "a\nX"),  # REP needs a directly preceding character
        # index, next line, reverse index
        (f"a{ESC}Db", "a\n b"),
        (f"a{ESC}Eb", "a\nb"),
        (f"a\nb{ESC}Mc", "ac\nb"),
        # alternate screen: not part of the transcript; normal screen restored
        (f"before{CSI}?1049hALT SCREEN{CSI}?1049lafter", "beforeafter"),
        (f"x{CSI}?47hALT{CSI}?47l", "x"),
        (f"x{CSI}?1047hALT{CSI}?1047l", "x"),
        # window operations and queries are ignored
        (f"a{CSI}8;100000;100000t{CSI}6n{CSI}cb", "ab"),
        # DEC special graphics
        (f"{ESC}(0lqqk{ESC}(B", "┌──┐"),
        (f"{ESC})0a\x0eq\x0fq", "a─q"),
        # RIS keeps lines already shown
        (f"one\ntwo{ESC}cthree", "three"),
    ],
)
def test_sequences(data: str, expected: str) -> None:
    assert lines(data) == expected


def test_ris_never_erases_committed_lines() -> None:
    data = "".join(f"line {i}\n" for i in range(30)) + f"{ESC}c" + "after"
    text = lines(data, rows=5)
    assert text.startswith("line 0\nline 1\n")
    assert text.endswith("line 25\nafter")


def test_ed3_and_ed2_keep_committed_lines() -> None:
    data = "".join(f"l{i}\n" for i in range(10)) + f"{CSI}H{CSI}2J{CSI}3Jtop"
    text = lines(data, rows=4)
    assert text.splitlines()[:7] == [f"l{i}" for i in range(7)]
    assert text.endswith("top")


def test_progress_bar_with_cursor_up_and_erase() -> None:
    frames = "".join(f"{CSI}2A{CSI}2Kjob a {i}%\n{CSI}2Kjob b {i * 2}%\n" for i in range(50))
    assert lines("start\n\n\n" + frames) == "start\njob a 49%\njob b 98%\n"


def test_bars_redrawn_after_crs_line_after_line_keep_what_stays_visible() -> None:
    # tqdm's shape: each bar redrawn after CRs, ended by CR LF, the next one
    # started after it. Each line keeps, for each column, the last text
    # that reached it; a shorter text leaves the end of a longer one.
    bars = "".join(f"\r{i:3d}%|{'#' * i}" for i in range(0, 11, 2))
    data = f"start\n{bars}\r\n\rabcdef\rxy\r\n\r\ndone\n"
    assert lines(data) == "start\n 10%|##########\nxycdef\n\ndone\n"
    # A bare LF keeps its column under the lf policy: then the bars are
    # drawn one by one, as they would be.
    assert lines("s\r\n\rabc\rx\nyz\r\n", newline="lf") == "s\nxbc\n yz\n"
    # In a row of known width the texts wrap (a CR returns to the first
    # column of the row below): drawn one by one too.
    assert lines("s\n\rabcdef\rxy\r\n", columns=4) == "s\nabcdxy\n"


def test_wrap_joins_rows_into_one_logical_line() -> None:
    assert lines("abcdefghij\nk", columns=4) == "abcdefghij\nk"
    # Long line scrolled through a small window is joined too.
    data = "x" * 50 + "\n" + "\n".join("y" * 3 for _ in range(10))
    assert lines(data, columns=7, rows=3) == "x" * 50 + "\n" + "\n".join(["yyy"] * 10)


def test_pending_wrap_is_cancelled_by_cr() -> None:
    # Writing the last column leaves the cursor there; CR before wrapping
    # keeps the line unwrapped, as in xterm.
    assert lines("abcd\rX", columns=4) == "Xbcd"
    assert lines("abcd\r\nX", columns=4) == "abcd\nX"


def test_autowrap_off_overwrites_last_column() -> None:
    assert lines(f"{CSI}?7labcdefgh{CSI}?7h", columns=4) == "abch"


def test_wide_character_that_does_not_fit_wraps_early() -> None:
    assert lines("abc中", columns=4) == "abc 中"


def test_wide_and_combining_characters() -> None:
    assert lines("中文ok") == "中文ok"
    assert lines("中文\rX") == "X 文"  # half a wide character becomes blank
    assert lines("ab\b\b中") == "中"
    assert lines("e\u0301") == "e\u0301"
    assert lines("\u0301x") == " \u0301x"  # a mark with no base shows on a space


def test_combining_storm_is_capped() -> None:
    text = lines(("e" + "\u0301" * 100_000 + "x").encode(), bytewise=False)
    assert text.startswith("e\u0301")
    assert text.endswith("x")
    assert len(text) < 100


def test_scroll_region_keeps_lines_outside_it() -> None:
    # Status line on row 1 kept; region 2-3 scrolls without committing.
    data = f"STATUS{CSI}2;3r{CSI}2;1H" + "".join(f"\nitem {i}" for i in range(6))
    assert lines(data, rows=4) == "STATUS\nitem 4\nitem 5"


def test_region_starting_at_top_commits_scrolled_lines() -> None:
    data = f"{CSI}1;2r" + "".join(f"l{i}\n" for i in range(5))
    assert lines(data, rows=4) == "l0\nl1\nl2\nl3\nl4\n"


def test_insert_and_delete_lines() -> None:
    assert lines(f"a\nb\nc{CSI}2;1H{CSI}Lx", rows=5) == "a\nx\nb\nc"
    assert lines(f"a\nb\nc{CSI}2;1H{CSI}M", rows=5) == "a\nc"


def test_huge_parameters_are_clamped() -> None:
    assert lines(f"a{CSI}1000000000;1Hb", rows=3) == "a\n\nb"
    assert lines(f"{CSI}1;1000000000Hb", columns=10) == "         b"
    assert lines(f"a{CSI}2147483647b", columns=10, rows=3) == "a" * 10
    assert lines(f"{CSI}5Ga{CSI}2147483647bX", columns=10, rows=3) == "    aaaaaaX"
    assert render_text(f"a{CSI}2147483647b|".encode()) == "a" * (MAX_REPEAT + 1) + "|"


def test_whole_lines_with_sequences_print_what_each_rep_prints() -> None:
    # Lines with REP after a line end.
    data = "x\n" + f"a{CSI}2147483647b\r\n" * 30 + f"b{CSI}b{CSI}31mc{CSI}0b|\n"
    repeated = "a" * (MAX_REPEAT + 1) + "\n"
    for mode in ("lines", "strip"):
        assert render_text(data.encode(), mode=mode) == "x\n" + repeated * 30 + "bbcc|\n"
    assert render_text(data.encode(), columns=10) == "x\n" + ("a" * 10 + "\n") * 30 + "bbcc|\n"
    html = render_html(data.encode())
    assert html.count("a" * (MAX_REPEAT + 1)) == 30
    assert "bb<span" in html  # the second c is red like the first


def test_whole_lines_with_overstrikes_show_the_character_printed_last() -> None:
    # Lines with BS after a line end.
    man = "N\x08NA\x08AM\x08ME\x08E\n     _\x08l_\x08s\x08s x\x08_\x1b[2b\n"
    data = "x\n" + man * 30
    expected = "NAME\n     ls ___\n"
    assert render_text(data.encode()) == "x\n" + expected * 30
    assert render_text(data.encode(), columns=20) == "x\n" + expected * 30
    assert render_text(data.encode(), rows=3) == "x\n" + expected * 30
    # strip shows every character printed, overstruck or not.
    assert render_text(data.encode(), mode="strip") == "x\n" + "NNAAMMEE\n     _l_ss x___\n" * 30
    # In insert mode, what comes after BS goes before what it was over.
    inserted = f"{CSI}4hx\n" + "ab\x08c\n" * 30
    assert render_text(inserted.encode()) == "x\n" + "acb\n" * 30
    assert render_text(inserted.encode(), mode="strip") == "x\n" + "abc\n" * 30
    html = render_html(f"x\n{CSI}1m_\x08a{CSI}0m\n".encode() * 30)
    assert html.count('<span class="ts-bold">a</span>') == 30
    # From the last column, BS goes back two: a TAB with no tab stops, or a
    # long line, takes the first N there.
    at_margin = render_text(f"x\n{CSI}3g\n\tN\x08N\n".encode(), columns=10).split("\n")
    assert at_margin[2] == " " * 8 + "NN"
    # In an unbounded row, that TAB goes only as far as a cursor movement
    # reaches (output amplification), where BS goes back one.
    no_stops = render_text(f"x\n{CSI}3g\n\tN\x08M\n".encode()).split("\n")
    assert no_stops[2] == " " * (MAX_REACH - 1) + "M"
    long_line = render_text(b"x\n" + b"y" * (MAX_LINE_CELLS - 1) + b"N\x08N\n")
    assert long_line.endswith("yNN\n")


def test_whole_lines_with_el_erase_what_follows_the_cursor() -> None:
    # Lines with EL after a line end.
    grep = f"f.py:{CSI}01;31m{CSI}Kmatch{CSI}m{CSI}K rest\n"
    assert lines("x\n" + grep * 30) == "x\n" + "f.py:match rest\n" * 30
    # On rows that already hold text (the cursor went up), EL erases it.
    redrawn = f"aaaa\nbbbb\ncccc\ndddd{CSI}3A\nx{CSI}K\ny\n"
    assert lines(redrawn, rows=4) == "aaaa\nx\nyccc\ndddd"
    assert lines(f"aaaa\nbbbb\ncccc{CSI}A\nx{CSI}K\ny\n", rows=3) == "aaaa\nbbbb\nx\ny\n"
    assert lines(redrawn, rows=4, mode="strip") == "aaaa\nbbbb\ncccc\ndddd\nx\ny\n"


@pytest.mark.parametrize(
    ("data", "options", "expected"),
    [
        # After a line end, lines with TABs come as one event: on fresh rows,
        # blank cells up to the next tab stop; none at the end of a line.
        ("x\n" + "a\tbb\tc\t\n" * 30, {}, "x\n" + "a       bb      c\n" * 30),
        ("x\n" + "a\tbb\tc\t\n" * 30, {"rows": 3}, "x\n" + "a       bb      c\n" * 30),
        ("x\n" + "a\tb\n" * 30, {"mode": "strip"}, "x\n" + "a       b\n" * 30),
        # Line drawing: the same cells.
        (f"{ESC}(0x\n" + "\tq\n" * 30, {"mode": "strip"}, "│\n" + "        ─\n" * 30),
        (f"{ESC}(0x\n" + "\tq\n" * 30, {"rows": 3}, "│\n" + "        ─\n" * 30),
        # Tab stops set by HTS and TBC.
        (f"{CSI}3g{CSI}4C{ESC}H\n" + "a\tb\n" * 30, {}, "\n" + "a   b\n" * 30),
        # Wide characters take two columns.
        ("x\n" + "中\tb\n" * 30, {}, "x\n" + "中      b\n" * 30),
        # Other single cells one column each, the first line too.
        ("x\n" + "\tñ\tJosé\t1\n" * 30, {}, "x\n" + "        ñ       José    1\n" * 30),
        ("x\n" + "\tñ\tJosé\t1\n" * 30, {"rows": 1}, "x\n" + "        ñ       José    1\n" * 30),
        (
            "x\n" + "\tñ\tJosé\t1\n" * 30,
            {"mode": "strip"},
            "x\n" + "        ñ       José    1\n" * 30,
        ),
        # Over a row that holds text, a TAB moves the cursor only.
        (f"aaaaaaaaaaaa\nbbbb{CSI}A\nx\ty\nz\n", {"rows": 2}, "aaaaaaaaaaaa\nxbbb    y\nz\n"),
    ],
)
def test_whole_lines_with_tabs(data: str, options: dict[str, object], expected: str) -> None:
    assert lines(data, **options) == expected


def test_the_cells_a_tab_skips_keep_the_default_style() -> None:
    data = f"x{CSI}41m\n" + "a\tb\n" * 30
    for rows in (3, 24):
        html = render_html(data.encode(), rows=rows)
        assert html.count('<span class="ts-bg1">a</span>       <span class="ts-bg1">b</span>') == 30
        # In strip mode, a TAB prints blanks in the current style.
        strip = render_html(data.encode(), mode="strip")
        assert strip.count('<span class="ts-bg1">a       b</span>') == 30


def test_print_with_sgr_without_sgr_leaves_the_style_alone() -> None:
    # Remembered SGR codes for "no SGR" and for one empty SGR ("CSI m") once
    # shared a key, so that the second left the style red.
    model = LinesModel(None, 3, None)
    for run in (f"{CSI}31ma", "plain", f"b{CSI}m", "c"):
        model.print_with_sgr(run)
    [line] = model.lines()
    assert [(text, style.fg) for text, style in line.runs] == [("aplainb", 1), ("c", None)]


def test_overlong_line_is_capped_with_visible_marker() -> None:
    text = render_text(b"x" * (MAX_LINE_CELLS + 500) + b"\nnext")
    first, second = text.split("\n")
    assert first.startswith("x" * MAX_LINE_CELLS)
    assert first.endswith("[termscribe: 500 characters omitted]")
    assert second == "next"


def test_retained_lines_cap_shows_marker() -> None:
    data = b"".join(b"%d\n" % i for i in range(100))
    text = render_text(data, rows=5, max_lines=10)
    first = text.split("\n")[0]
    assert first == "[termscribe: 86 earlier lines omitted]"
    assert text.endswith("99\n")


def test_take_lines_streams_committed_lines() -> None:
    transcript = Transcript(rows=3)
    taken = []
    for i in range(10):
        transcript.feed(b"line %d\n" % i)
        taken.extend(line.text for line in transcript.take_lines())
    transcript.finish()
    assert taken == [f"line {i}" for i in range(8)]
    assert transcript.text() == "line 8\nline 9\n"
    whole = transcript_of([b"".join(b"line %d\n" % i for i in range(10))], rows=3)
    assert "\n".join([*taken, transcript.text()]) == whole.text()


def test_osc_and_dcs_payloads_never_reach_text() -> None:
    data = (
        f"a{ESC}]0;title\x07b{ESC}]52;c;ZXZpbA=={ESC}\\c{ESC}P1000p%secret{ESC}\\d"
        f"{ESC}_Gpayload{ESC}\\e{ESC}]1337;File=x\x07f"
    )
    assert lines(data) == "abcdef"


def test_link_text_is_kept_without_target() -> None:
    assert lines(f"{ESC}]8;;https://evil.example/\x07https://github.com/x{ESC}]8;;\x07") == (
        "https://github.com/x"
    )


class _GroupByGroup(LinesModel):
    """The lines model printing every run group by group of one class: the
    reference for the runs that unbounded rows store at once."""

    def _print_unicode(self, text: str) -> None:
        self._print_groups(text)


_UNICODE_PIECES = st.sampled_from(
    [
        *("a", "ab", "5", "#", " ", "é", "中", "😀", "\u202e", "\ufdd0"),
        *("\u0301", "\u0308" * 20, "\u0308" * 40, "\u200d", "\ufe0f", "\u034f", "x\u200d\u200d"),
        *("\u200b", "\u200b" * 20, "\U000e0041", "\ue123", "\u115f", "a\u200d" * 10),
        *("\r", "\n", "\x1b[31m", "\x1b[4h"),
    ]
)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_UNICODE_PIECES, max_size=40).map("".join), st.sampled_from([8, 30, 400]))
def test_runs_stored_at_once_equal_group_by_group(text: str, cap: int) -> None:
    # A small row cap, so that runs also meet it (dropped cells, marks on
    # the last cell past the cap).
    with pytest.MonkeyPatch.context() as patch:
        for module in (lines_module, lines_print, lines_unicode):
            patch.setattr(module, "MAX_LINE_CELLS", cap)
        models = [LinesModel(None, 2, None), _GroupByGroup(None, 2, None)]
        for model in models:
            parser = Parser(model)
            parser.feed(text)
            parser.finish()
        fast, reference = (
            [(row.text, row.styles, row.marks, row.omitted) for row in m.screen_rows()]
            for m in models
        )
        assert fast == reference
        assert models[0].lines() == models[1].lines()


def test_a_cell_redrawn_as_it_was_leaves_the_row_as_it_was() -> None:
    # Redrawing cells unchanged (cursor addressing, then the same text) is
    # skipped without copying the row; anything else still changes it.
    data = b"abc\x1b[1;2Hb\x1b[1;2H\x1b[31mb\x1b[1;3Hz"
    assert render_text(data) == "abz"
    assert render_text(data, columns=10, rows=2) == "abz"
    html = Transcript()
    html.feed(data)
    html.finish()
    # The same b in red is not the same cell: it (and z after it) are red.
    assert [text for text, _ in html.lines()[0].runs] == ["a", "bz"]
    # Nor is an e that had a mark: the redrawn e has none.
    assert render_text("e\u0301x\x1b[1;1He".encode()) == "ex"


@pytest.mark.parametrize("options", [{"rows": 1}, {"rows": 2}, {}, {"mode": "strip"}])
def test_lines_committed_at_once_merge_runs_of_one_style(options: dict[str, object]) -> None:
    # Lines scrolled off the bottom row are committed from their text and
    # SGR: parts of one style are one run, as when the row is drawn first.
    data = b"x\n" + b"a\x1b[0mb\x1b[31mc\x1b[31md\x1b[m\n" * 5
    whole = transcript_of([data], **options)
    bytewise = transcript_of([data[i : i + 1] for i in range(len(data))], **options)
    assert whole.lines() == bytewise.lines()
    assert [text for text, _ in whole.lines()[2].runs] == ["ab", "cd"]


_MANY_KINDS_OF_LINES = (
    b"\x1b[33mcommit 1\x1b[m\r\n"
    + "Author: 张伟 <z@example.cn>\r\n\x1b[32mgreen\r\n".encode()
    + "    \u26a1\ufe0f 検索 \U0001f469\u200d\U0001f4bb e\u0301\x1b[m\r\n".encode()
    + b"x" * 30
    + b"\x1b[1m"
    + b"y" * 30
    + b"\x1b[m\r\n"
    + "中文字".encode() * 4
    + b"\r\n"
) * 12


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"columns": 12},
        {"columns": 25},
        {"columns": 80, "rows": 3},
        {"rows": 1},
        {"mode": "strip"},
    ],
)
@pytest.mark.parametrize("styled", [True, False])
def test_lines_of_every_kind_scroll_off_at_once_as_one_by_one(
    options: dict[str, object], styled: bool
) -> None:
    # LF's bulk form takes wide characters, SGR sequences, lines that wrap,
    # and (where a line cannot wrap) lines with marks and markers, printed
    # on a row of their own in the style the lines before left: the lines
    # are those event by event gives.
    whole = transcript_of([_MANY_KINDS_OF_LINES], styled=styled, **options)
    one = transcript_of([_MANY_KINDS_OF_LINES], styled=styled, _one_by_one=True, **options)
    assert whole.lines() == one.lines()
    assert whole.text() == one.text()
    assert "Author: 张伟 <z@example.cn>\n" in whole.text()
    assert "x" * 30 + "y" * 30 in whole.text().replace("\n", "")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Printed over wholly: only the last of each length is the row's.
        (b"10%\r20%\r30%\r100%\rdone\n", "done\n"),
        (b"loading...\r50%\r60%\r70%\n", "70%ding...\n"),
        # A shorter text leaves the longer one's end; a longer one after it
        # prints over both.
        (b"abcdef\rxy\rXYZ\r12\r\n", "12Zdef\n"),
        # The last of the longest prints over all before it; the shorter
        # ones after it print over it in turn.
        (b"ab\rabcd\rwxyz\rabc\rx\r\n", "xbcz\n"),
        # Printing over half of a wide character blanks its other half.
        ("\u4e2d\u6587x\rabc\ra\r\n".encode(), "abc x\n"),
        # SGR and wide characters between them are printed as they come.
        (b"aaaa\r\x1b[1mbb\x1b[m\rc\r\n", "cbaa\n"),
        ("aaaa\r\u4e2d\rb\r\n".encode(), "b aa\n"),
        # Insert mode inserts each: none is printed over.
        (b"\x1b[4haa\rbb\rcc\x1b[4l\n", "ccbbaa\n"),
    ],
)
@pytest.mark.parametrize("options", [{}, {"columns": 5}, {"columns": 80}])
def test_texts_printed_over_from_column_0_at_once_as_one_by_one(
    data: bytes, expected: str, options: dict[str, object]
) -> None:
    # CR's bulk form skips a text a later one at least as long prints over
    # wholly; the row is the one the events one by one make.
    whole = transcript_of([data], **options)
    one = transcript_of([data], _one_by_one=True, **options)
    assert whole.lines() == one.lines()
    if "columns" not in options or options["columns"] == 80:
        assert whole.text() == expected


@pytest.mark.parametrize("styled", [True, False])
def test_a_row_made_by_a_batch_and_changed_later_is_committed_as_changed(styled: bool) -> None:
    # Whole lines at the bottom of a 3-row window: the rows left in the
    # window are made with the line they would be committed as; a row
    # changed afterwards must be committed as it is then.
    data = b"a\nb\nc\nd\ne\x1b[1mE\x1b[m\nf\n" + b"\x1b[2AX\r\n\n\n" + b"g\nh\ni\n"
    whole = transcript_of([data], rows=3, styled=styled)
    bytewise = transcript_of([data[i : i + 1] for i in range(len(data))], rows=3, styled=styled)
    assert whole.text() == bytewise.text() == "a\nb\nc\nd\nXE\nf\n\ng\nh\ni\n"
    assert whole.lines() == bytewise.lines()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (f"{CSI}Hx\u0080{CSI}3by", "xy"),  # an inert C1 control forgets the x
        (f"{CSI}Hx\u0080y{CSI}2b", "xyyy"),  # texts around it are one
        (f"{CSI}Hab\u009dtitle\u0091cd\u009c\u0090q\u0098z\u009ep\u009fa\u0080e", "abcde"),
        (f"a{CSI}1;1H\u0084b\u0085c\u008dd\u0088", "a\nbd\nc"),  # IND, NEL, RI, HTS
        (f"{CSI}2;3Hx{CSI}1;1Hy{CSI}31mz", "yz\n  x"),
        # SGR sequences are printed with the text around them; they do not
        # forget the last character, an SGR-only text prints nothing.
        (f"{CSI}1;1H{CSI}1mx{CSI}m{CSI}2by", "xxxy"),
        (f"{CSI}2;2H{CSI}1m{CSI}m{CSI}1;1Ha", "a"),
        (f"{CSI}1;1H{CSI}1mx{CSI}m\u0080{CSI}1m{CSI}2by", "xy"),
        # Where a CUP goes is worked out once per run for the same
        # parameters, but not across origin mode (relative to the margins).
        (f"{CSI}3;1Hc{CSI}1;2Hb{CSI}3;1HC", " b\n\nC"),
        (f"{CSI}1;1Hx{CSI}1;1f{CSI}2Cy{CSI}1;1Hz", "z y"),
        (f"{CSI}2;3r{CSI}1;1Hx{CSI}?6h{CSI}1;1Hy{CSI}?6l{CSI}1;1Hz", "z\ny"),
        # Single cells go straight into the row, but not in insert mode or
        # with line drawing on.
        (f"ab{CSI}4h{CSI}Hx{CSI}4l{CSI}1;4Hy", "xaby"),
        ("\x1b(0x\u0084lq\u0085x", "│\n ┌─\n│"),
        ("\x1b(0a_b\x1b(B_", "▒ ␉_"),  # 0x5F: xterm's blank glyph, then ASCII again
        ("x\u0084中\u0301\u0085é\u008d\u0301", "x\n \u0301中\u0301\né"),
    ],
)
def test_runs_of_sequences_and_c1_controls_at_once(data: str, expected: str) -> None:
    assert assert_chunking_invariant(data.encode()) == expected


def test_sgr_in_runs_of_sequences_styles_the_text_after_it() -> None:
    data = b"".join(b"\x1b[%d;1H\x1b[1;32m%d\x1b[0m" % (row, row) for row in range(1, 41))
    html = render_html(data, rows=40)
    text = render_text(data, rows=40)
    assert html.count('<span class="ts-fg2 ts-bold">') == 40
    assert text == "\n".join(str(row) for row in range(1, 41))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Progress bars redrawn after CR with EL and colour: one event each.
        (f"x\r{CSI}K{CSI}1mBuilding{CSI}0m 1/2\r{CSI}KDone 2/2\n", "Done 2/2\n"),
        (f"x\r 10% (1/9){CSI}K\r 100% (9/9){CSI}K, done.\n", " 100% (9/9), done.\n"),  # git
        (f"abcdef\r{CSI}2Kxy\rz", "zy"),
        (f"abcdef\rxy{CSI}2K\rz", "z"),  # EL 2 after the text: the row is blank
        (f"abcdef\rxy{CSI}K\rz", "zy"),
        (f"abcdef\rxy{CSI}K\rzzz\r1", "1zz"),
        ("abcdef\r100K\r99", "990Kef"),  # text that ends in K
        (f"abcdef\r{CSI}31mxy{CSI}0m\r{CSI}1mz", "zycdef"),
        # CHA to the first column stands for CR (Node's spinners).
        (f"x{CSI}1G{CSI}0K\u2819 1/3{CSI}1G{CSI}0K\u2819 2/3{CSI}G3", "3 2/3"),
    ],
)
def test_text_after_crs_with_el_and_sgr(data: str, expected: str) -> None:
    assert lines(data) == expected
    assert lines(data, styled=False) == expected


def test_styles_of_text_after_crs_with_el_and_sgr() -> None:
    def html(data: str) -> str:
        return assert_chunking_invariant(data.encode(), Transcript.html)

    # What an EL erased still changed the style.
    assert '<span class="ts-fg1">after</span>' in html(f"\r{CSI}31mred\r{CSI}2Kplain\nafter")
    # Each column shows the last text that reached it, in its style.
    shown = html(f"\r{CSI}1mabcdef{CSI}0m\r{CSI}32mxy{CSI}0m\rq")
    assert '\nq<span class="ts-fg2">y</span><span class="ts-bold">cdef</span></pre>' in shown
    # The style the texts leave stays.
    assert '<span class="ts-bold">c</span>' in html(f"\r{CSI}1ma\rb\nc")


def test_whole_lines_with_wide_characters_at_once() -> None:
    # After a line end, lines of single and wide characters are done as
    # whole lines; the rows left in the window hold each wide character's
    # two cells, as printing them one by one would.
    data = "x\n" + "编译成功 ok\n" * 30 + f"{CSI}3A{CSI}3Cz{CSI}5D{CSI}1m{CSI}31m错{CSI}0m\n"
    shown = lines(data)
    # z over the second half of 译 blanks it; 错 then takes 编's two cells.
    assert shown == "x\n" + "编译成功 ok\n" * 27 + "错 z成功 ok\n" + "编译成功 ok\n编译成功 ok"
    html = assert_chunking_invariant(data.encode(), Transcript.html)
    assert '<span class="ts-fg1 ts-bold">错</span>' in html
    # Other code points take the per-line path: a bidi control is marked.
    assert lines("x\n" + "中\u202e文\n" * 30, rows=3) == "x\n" + "中<U+202E>文\n" * 30
    # Lines after them (BEL ends the batch) scroll those rows off.
    after = "x\n" + "编译 ok\n" * 30 + "\x07" + "y\n" * 30
    assert lines(after) == "x\n" + "编译 ok\n" * 30 + "y\n" * 30
    styled = "x\n" + f"{CSI}32m中{CSI}0mb\n" * 30 + f"{CSI}2A{CSI}2C{CSI}K\n"
    assert lines(styled, rows=5) == "x\n" + "中b\n" * 28 + "中\n" + "中b"


def test_whole_lines_with_marks_joined_to_wide_characters_at_once() -> None:
    # Emoji with a variation selector or a joiner, and marks after
    # non-ASCII letters: committed as printed, and the rows left in the
    # window printed one by one.
    line = "⚠️ warn 👩\u200d💻 dev é\u0301\n"
    data = "x\n" + line * 30 + f"{CSI}2A{CSI}2Cz\n"
    edited = "⚠️ zarn 👩\u200d💻 dev é\u0301\n"  # ⚠ is one cell, its selector a mark
    assert lines(data, rows=3) == "x\n" + line * 28 + edited + line.rstrip("\n")
    # A mark after an ASCII letter or a space goes one line at a time.
    assert lines("x\n" + "中 e\u0301\n" * 30, rows=3) == "x\n" + "中 e\u0301\n" * 30
    assert lines("x\n" + "中\u3000\u200d\n" * 30, rows=3) == "x\n" + "中\u3000<U+200D>\n" * 30


M = "\u0301"  # a combining mark


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # REP fills the cell a mark made (on a space: nothing before it).
        (M + "\x1b[300b\ufe0f\ufe0f\n", " " + M * 32 + "\n"),
        # A full cell, then joiners: they join it, and are dropped.
        ("e" + M * 40 + "\ufe0f\ufe0f\u200d\n", "e" + M * 32 + "\n"),
        # Room for one more: the first is kept, the next judged after it: a
        # marker with no room in the cell, counted as omitted; the ZWJ after
        # the selector joins, and is dropped.
        (
            "e" + M * 31 + "\ufe0f\ufe0f\u200dx\n",
            "e" + M * 31 + "\ufe0fx [termscribe: 1 characters omitted]\n",
        ),
        ("\u4e00" + M * 32 + "\ufe0f\u200d\n", "\u4e00" + M * 32 + "\n"),
    ],
)
@pytest.mark.parametrize("columns", [None, 80])
def test_joiners_after_a_full_cell_are_dropped_in_any_chunking(
    text: str, expected: str, columns: int | None
) -> None:
    # A cell keeps MAX_COMBINING zero-width code points; a joiner that
    # would join it past them is dropped, and the next is judged after the
    # last one kept, whether the joiners come in one run or one by one.
    assert assert_chunking_invariant(text.encode(), columns=columns, rows=1) == expected


def test_cursor_ups_one_a_line_go_back_to_the_same_row() -> None:
    # docker compose redraws its frame with one CUU a line.
    frame = b"top\r\n" + b"".join(b"line %d\r\n" % n for n in range(30))
    data = frame + (b"\x1b[1A" * 31 + b"\x1b[0G" + frame) * 3
    grouped = transcript_of([data], rows=40)
    assert grouped.lines() == transcript_of(chunks_bytewise(data), rows=40).lines()
    assert grouped.text().count("top") == 1  # each redraw went back to the same row
