"""Output bounded by input (DESIGN.md invariant 6, SECURITY.md "output
amplification"): at most 64 output characters per input byte, plus a
constant that depends only on the options, in every mode and format.

Each hostile unit makes many cells (or much markup) from a few bytes; it is
repeated until the input is large enough that the constant no longer hides
an amplification, then rendered in every mode and format, fed whole and in
chunks. The constant is computed here from its documented formula.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

import pytest
from chunking import chunks_random, transcript_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termscribe import Transcript, cli
from termscribe._budget import OUTPUT_PER_BYTE, output_constant
from termscribe._lines import MAX_REACH
from termscribe.acp import TerminalStore
from termscribe.cli._render import LOG_ROWS

ESC = b"\x1b"
CSI = b"\x1b["
URL = b"https://example.com/" + b"a" * 1900
SIZE = 16_000

UNITS: dict[str, bytes] = {
    "CUF 65535": CSI + b"65535Cx\n",
    "CHA 65535": CSI + b"65535Gx\n",
    "HPA 65535": CSI + b"65535`x\n",
    "CUP column 65535": CSI + b"1;65535Hx\n",
    "CHT 9999": CSI + b"9999Ix\n",
    "TBC then HT": CSI + b"3g\tx\n",
    "ICH 65535": b"ab\b" + CSI + b"65535@\n",
    "REP": b"a" + CSI + b"999b\n",
    "REP of an escaped character": b"'" + CSI + b"999b\n",
    "REP of a marker": "\u202e".encode() + CSI + b"999b\n",
    "IND staircase": b"x" + ESC + b"D",
    "IND staircase of quotes": b"'" + ESC + b"D",
    "C1 IND staircase": "x\u0084".encode(),
    "RI staircase": b"x" + ESC + b"M",
    "CUD staircase": b"x" + CSI + b"B",
    "VPR staircase": b"x" + CSI + b"e",
    "DECRC staircase": ESC + b"7" + CSI + b"24;65535H" + ESC + b"7" + (ESC + b"8x\n") * 50,
    "DECALN and scroll": ESC + b"#8" + CSI + b"999H" + b"\n" * 24,
    "wide staircase": "界".encode() + ESC + b"D",
    "ECH in colour": CSI + b"41m" + CSI + b"65535X" + CSI + b"65535Cx\n",
    "alternate screen frames": CSI + b"?1049h" + CSI + b"65535Cx\n" * 24 + CSI + b"?1049l",
    "link on every line": ESC + b"]8;;" + URL + b"\x07" + b"x\n" * 200,
    "link split by cursor moves": ESC + b"]8;;" + URL + b"\x07" + b"x" + CSI + b"C",
    "truecolor on every line": CSI + b"1;2;3;4;5;9;53;38;2;1;2;3;48;2;250;251;252m" + b"x\n" * 200,
    "style churn": b"".join(b"\x1b[%d;%dmx" % (31 + i % 7, 41 + i % 5) for i in range(35)),
    "SGR 256-colour churn": b"".join(
        b"\x1b[38;5;%d;48;5;%dmx" % (i, i * 7 % 256) for i in range(256)
    ),
}

OPTIONS: dict[str, dict[str, object]] = {
    "lines": {},
    "lines 80": {"columns": 80},
    "lines 1000": {"columns": 1000, "rows": 30},
    "lines snapshot": {"alt_screen": "snapshot"},
    "strip": {"mode": "strip"},
    "screen": {"mode": "screen"},
    "screen 500x200": {"mode": "screen", "columns": 500, "rows": 200},
}

FORMATS: dict[str, Callable[[Transcript], str]] = {
    "text": Transcript.text,
    "html": Transcript.html,
    "html standalone": lambda t: t.html(standalone=True),
    "ansi": Transcript.ansi,
    "ansi hyperlinks": lambda t: t.ansi(hyperlinks=True),
}


def constant(options: dict[str, object]) -> int:
    """The documented constant: the window the model can fill without input
    (the screen; in the lines model, the columns a movement reaches; twice
    the rows with a snapshot of the alternate screen; one row in strip)."""
    mode = options.get("mode", "lines")
    columns = options.get("columns")
    rows = int(options.get("rows", 24))  # type: ignore[call-overload]
    if mode == "screen":
        return output_constant(int(columns or 80), rows)  # type: ignore[call-overload]
    reach = min(int(columns or MAX_REACH), MAX_REACH)  # type: ignore[call-overload]
    if mode == "strip":
        rows = 1
    elif options.get("alt_screen") == "snapshot":
        rows *= 2
    return output_constant(reach, rows)


def bound(data: bytes, options: dict[str, object]) -> int:
    return OUTPUT_PER_BYTE * len(data) + constant(options)


def repeated(unit: bytes, size: int = SIZE) -> bytes:
    return unit * max(1, size // len(unit))


def test_the_constant_is_small_beside_the_inputs() -> None:
    # Else the bound would hide amplification: every input here is big
    # enough that 64 characters a byte is many times the constant.
    for options in OPTIONS.values():
        if options.get("mode") != "screen":
            assert constant(options) * 4 < OUTPUT_PER_BYTE * SIZE


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("name", UNITS)
def test_hostile_units_stay_within_64_characters_a_byte(
    name: str, options: dict[str, object]
) -> None:
    data = repeated(UNITS[name])
    whole = transcript_of([data], **options)
    chunked = transcript_of(chunks_random(data, 1, 4096), **options)
    assert whole.output_limit() == bound(data, options)
    for fmt, render in FORMATS.items():
        out = render(whole)
        assert len(out) <= bound(data, options), f"{fmt}: {len(out) / len(data):.0f} a byte"
        assert render(chunked) == out, fmt


@pytest.mark.parametrize("name", ["CUF 65535", "IND staircase", "link on every line"])
def test_byte_by_byte_feeding_gives_the_same_bounded_output(name: str) -> None:
    data = repeated(UNITS[name], 6000)
    whole = transcript_of([data])
    bytewise = transcript_of([data[i : i + 1] for i in range(len(data))])
    for render in FORMATS.values():
        assert render(bytewise) == render(whole)
        assert len(render(whole)) <= bound(data, {})


# Pieces of streams: each makes cells or markup without printing much.
_PIECES = st.sampled_from(
    [
        b"x",
        b"'",
        b"ab",
        "\u202e".encode(),
        "界".encode(),
        b"\n",
        b"\r",
        b"\t",
        b"\b",
        ESC + b"D",
        ESC + b"M",
        ESC + b"E",
        ESC + b"7",
        ESC + b"8",
        ESC + b"#8",
        ESC + b"c",
        ESC + b"H",
        CSI + b"3g",
        CSI + b"65535C",
        CSI + b"65535G",
        CSI + b"65535`",
        CSI + b"9;65535H",
        CSI + b"999I",
        CSI + b"999@",
        CSI + b"999b",
        CSI + b"999X",
        CSI + b"99e",
        CSI + b"B",
        CSI + b"A",
        CSI + b"4h",
        CSI + b"4l",
        CSI + b"?7l",
        CSI + b"?1049h",
        CSI + b"?1049l",
        CSI + b"2;5r",
        CSI + b"r",
        CSI + b"41m",
        CSI + b"1;38;2;1;2;3;48;2;200;201;202m",
        CSI + b"0m",
        ESC + b"]8;;https://example.com/" + b"p" * 200 + b"\x07",
        ESC + b"]8;;\x07",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    unit=st.lists(_PIECES, min_size=1, max_size=12).map(b"".join),
    options=st.sampled_from(list(OPTIONS.values())),
    fmt=st.sampled_from(list(FORMATS)),
)
def test_any_repeated_stream_stays_within_64_characters_a_byte(
    unit: bytes, options: dict[str, object], fmt: str
) -> None:
    data = repeated(unit, 20_000)
    transcript = transcript_of(chunks_random(data, 3, 2048), **options)
    out = FORMATS[fmt](transcript)
    assert len(out) <= bound(data, options), f"{len(out) / len(data):.0f} a byte"


def test_through_the_terminal_store() -> None:
    store = TerminalStore()
    data = b""
    for name in ("CUF 65535", "IND staircase", "link on every line", "DECALN and scroll"):
        chunk = repeated(UNITS[name], 10_000)
        data += chunk
        store.apply(
            {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "t1",
                "data": base64.b64encode(chunk).decode(),
            }
        )
    (state,) = store.terminals()
    limit = OUTPUT_PER_BYTE * len(data) + constant({})
    assert len(state.text()) <= limit
    assert len(state.html()) <= limit


# -- the decisions, pinned ---------------------------------------------------


def _rows(data: bytes, **options: object) -> list[str]:
    transcript = Transcript(**options)  # type: ignore[arg-type]
    transcript.feed(data)
    transcript.finish()
    return transcript.text().split("\n")


def test_cursor_movements_reach_160_columns_of_an_unbounded_row() -> None:
    assert MAX_REACH == 160
    for move in (b"65535C", b"65535G", b"65535`", b"65535a", b"1;65535H", b"99I"):
        assert _rows(CSI + move + b"x\n")[0] == " " * 159 + "x", move
    # As xterm does in a window of that width (1000 columns: the same reach).
    assert _rows(CSI + b"65535Cx\n", columns=80)[0] == " " * 79 + "x"
    assert _rows(CSI + b"500Gx\n", columns=1000)[0] == " " * 159 + "x"
    # Printing goes on past the reach; a movement from there never goes
    # further right, and moves left from where the cursor is.
    assert _rows(b"y" * 300 + CSI + b"5Cx\n")[0] == "y" * 300 + "x"
    assert _rows(b"y" * 300 + CSI + b"5Dx\n")[0] == "y" * 295 + "x" + "y" * 4
    # A TAB from past the reach still moves to the next stop (8 columns).
    assert _rows(b"y" * 300 + b"\tx\n")[0] == "y" * 300 + " " * 4 + "x"


def test_a_move_to_another_row_comes_back_within_reach() -> None:
    # x ESC D: each row would start one column further right, for ever.
    rows = _rows((b"x" + ESC + b"D") * 400)
    assert [len(row) for row in rows[:3]] == [1, 2, 3]
    assert {len(row) for row in rows[160:400]} == {160}
    # DECRC too: saved on the bottom row, restored there after a scroll.
    saved = _rows(CSI + b"24H" + b"y" * 300 + ESC + b"7\n" + ESC + b"8x\n")
    assert saved[-3:] == ["y" * 300, " " * 159 + "x", ""]


def test_ich_inserts_at_most_the_reach() -> None:
    assert _rows(b"ab\b" + CSI + b"65535@\n")[0] == "a" + " " * 160 + "b"
    assert _rows(b"ab\b" + CSI + b"65535@\n", columns=10)[0] == "a"


def test_rep_repeats_at_most_256_output_characters() -> None:
    assert _rows(b"a" + CSI + b"999b\n")[0] == "a" * 257
    # A character HTML escapes counts 6 (&#x27;), a marker its escaped length.
    assert _rows(b"'" + CSI + b"999b\n")[0] == "'" * 43
    # Also in whole lines after a line end (a batch of them).
    assert _rows(b"x\n" + (b"'" + CSI + b"999b\n") * 3)[1:4] == ["'" * 43] * 3
    # A marker: 19 of them (14 output characters each in HTML), which take
    # no cell and decorate the one before, 16 at most (MAX_COMBINING code
    # points, a marker's tag counted); the rest counted as omitted.
    marker = "<U+202E>"
    rows = _rows("\u202e".encode() + CSI + b"999b\n")
    assert rows[0] == marker * 16 + " [termscribe: 3 characters omitted]"
    assert _rows("\ue123".encode() + CSI + b"999b\n")[0] == "<U+E123>" * 19
    assert _rows(b"'" + CSI + b"999b\n", mode="strip")[0] == "'" * 43


def test_decaln_fills_the_window_four_times_per_transcript() -> None:
    fill = ESC + b"#8" + CSI + b"24H" + b"\n" * 24
    rows = _rows(fill * 6, columns=20)
    assert rows.count("E" * 20) == 4 * 24
    # In an unbounded row, 80 columns (as before), never more than the reach.
    assert _rows(ESC + b"#8")[0] == "E" * 80
    assert _rows(ESC + b"#8", columns=1000)[0] == "E" * MAX_REACH


def test_html_drops_styles_past_the_limit_and_keeps_the_text() -> None:
    data = repeated(UNITS["link on every line"])
    transcript = transcript_of([data])
    html = transcript.html()
    assert len(html) <= transcript.output_limit()
    # Styled up to the limit, then plain: the text is all there.
    assert "<a href=" in html
    assert html.rstrip("\n</pre>").endswith("\nx")
    assert html.count("\nx") + html.count(">x</a>") == transcript.text().count("x")
    # Within the limit, nothing changes.
    small = Transcript()
    small.feed(ESC + b"]8;;" + URL + b"\x07" + b"x\n" * 10)
    assert small.html().count("<a href=") == 10


@pytest.mark.parametrize("fmt", ["text", "html", "ansi"])
def test_the_render_command_streams_within_the_limit(fmt: str) -> None:
    # It writes committed lines as it reads: the limit is that of the bytes
    # read so far, and lines past it are written unstyled.
    data = repeated(UNITS["link on every line"])
    out = io.BytesIO()
    argv = ["render", "--format", fmt, "-"] + (["--hyperlinks"] if fmt == "ansi" else [])
    assert cli.main(argv, stdin=io.BytesIO(data), stdout=out, stderr=io.StringIO()) == 0
    text = out.getvalue().decode("utf-8")
    # The command's window is LOG_ROWS high unless told (docs/cli.md).
    assert len(text) <= bound(data, {"rows": LOG_ROWS})
    assert text.count("x") >= transcript_of([data]).text().count("x")
