"""``termscribe render`` on asciinema recordings and ``script`` typescripts,
told apart from raw bytes by their content."""

from __future__ import annotations

import io
import json
import select
import subprocess
import sys
from pathlib import Path

from termscribe import Transcript, render_text
from termscribe._budget import OUTPUT_PER_BYTE, output_constant
from termscribe.cli import main
from termscribe.cli._render import RenderOptions


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def cast(header: dict[str, object], *events: list[object], comments: bool = False) -> bytes:
    lines = [json.dumps(header)]
    for event in events:
        if comments:
            lines.append("# a comment")
        lines.append(json.dumps(event))
    return ("\n".join(lines) + "\n").encode()


OUTPUT = [
    [0.1, "o", "one \u001b[31mred\u001b[0m\r\n"],
    [0.2, "i", "typed: never shown\r"],
    [0.3, "m", "a marker"],
    [0.4, "o", "two\r\nthree\u001b"],  # a sequence split across events
    [0.5, "o", "[32m green\r\n"],
]
STREAM = b"one \x1b[31mred\x1b[0m\r\ntwo\r\nthree\x1b[32m green\r\n"


def test_asciicast_v2_renders_its_output_events(tmp_path: Path) -> None:
    recording = tmp_path / "session.txt"  # told by content, not by name
    recording.write_bytes(cast({"version": 2, "width": 80, "height": 24}, *OUTPUT))
    status, out, err = run(["render", str(recording)])
    assert (status, err) == (0, "")
    assert out.decode() == render_text(STREAM)
    status, out, _ = run(["render", "--format", "ansi", str(recording)])
    assert "\x1b[0;31mred" in out.decode()


def test_asciicast_v3_with_comments_and_exit() -> None:
    data = cast(
        {"version": 3, "term": {"cols": 80, "rows": 24}},
        *OUTPUT,
        [0.6, "x", "0"],
        comments=True,
    )
    assert run(["render"], data) == (0, render_text(STREAM).encode(), "")


def test_the_recording_size_applies_unless_given() -> None:
    for version, header in [
        (2, {"version": 2, "width": 5, "height": 2}),
        (3, {"version": 3, "term": {"cols": 5, "rows": 2}}),
    ]:
        data = cast(header, [0.1, "o", "abcdefgh\r\n1\r\n2"])
        status, out, _ = run(["render", "--mode", "screen"], data)
        assert (status, out) == (0, b"1\n2\n"), version  # 5 x 2: "abcde fgh" scrolled away
        status, out, _ = run(["render", "--mode", "screen", "--columns", "10", "--rows", "5"], data)
        assert (status, out) == (0, b"abcdefgh\n1\n2\n"), version
    huge = cast({"version": 2, "width": 100000, "height": 100000}, [0.1, "o", "x"])
    assert run(["render", "--mode", "screen"], huge)[:2] == (0, b"x\n")  # clamped


def test_bad_lines_and_bad_resizes_are_counted() -> None:
    data = cast(
        {"version": 2, "width": 10, "height": 5},
        [0.1, "r", "20x5"],
        [0.2, "o", "x"],
        [0.3, "r", "0x5"],
        [0.4, "r", "wide"],
    )
    data += b"not an event\n[1]\n"
    status, out, err = run(["render"], data)
    assert (status, out) == (0, b"x\n")
    assert err.splitlines() == [
        "termscribe: -: 4 lines of the recording are not events (skipped)",
    ]


# At 5 columns "abcdefgh" wraps after "e", and CR returns to the start of
# the wrapped row; at 10 it does not wrap.
WRAPPED = [0.1, "o", "abcdefgh\r1\r\n"]


def test_resize_events_change_the_size_from_there_on() -> None:
    for header in (
        {"version": 2, "width": 5, "height": 3},
        {"version": 3, "term": {"cols": 5, "rows": 3}},
    ):
        data = cast(header, WRAPPED, [0.2, "r", "10x3"], WRAPPED, [0.3, "r", "5x3"], WRAPPED)
        assert run(["render"], data) == (0, b"abcde1gh\n1bcdefgh\nabcde1gh\n", "")
        # Screen: the screen of each size as it stood when the size changed.
        status, out, _ = run(["render", "--mode", "screen"], data)
        assert (status, out) == (0, b"abcde\n1gh\n1bcdefgh\nabcde\n1gh\n")
        # --columns stays; strip has no size.
        status, out, _ = run(["render", "--columns", "5"], data)
        assert (status, out) == (0, b"abcde1gh\n" * 3)
        status, out, _ = run(["render", "--mode", "strip"], data)
        assert (status, out) == (0, b"abcdefgh\n1\n" * 3)


def test_a_resize_keeps_the_window_and_its_rows_apply() -> None:
    # The window's lines stay as they were shown; the rows of the new size
    # bound how far the cursor goes back up.
    data = cast(
        {"version": 2, "width": 20, "height": 3},
        [0.1, "o", "one\r\ntwo\r\n"],
        [0.2, "r", "20x1"],
        [0.3, "o", "three\r\n\x1b[Afour\r\n"],  # cursor up: one row
    )
    assert run(["render"], data) == (0, b"one\ntwo\nthree\nfour\n", "")  # three scrolled off
    data = data.replace(b'"20x1"', b'"20x3"')
    assert run(["render"], data) == (0, b"one\ntwo\nfoure\n", "")  # no resize: "four" over it


def test_resizes_apply_when_output_comes_and_pays_for_the_window() -> None:
    # Of a burst of resizes, the last applies; one to the size in force
    # does nothing.
    burst = [[0.2, "r", f"{c}x3"] for c in (6, 7, 8, 9)]
    data = cast(
        {"version": 2, "width": 5, "height": 3}, WRAPPED, *burst, [0.3, "r", "10x3"], WRAPPED
    )
    assert run(["render"], data) == (0, b"abcde1gh\n1bcdefgh\n", "")
    same = cast({"version": 2, "width": 8, "height": 4}, WRAPPED, [0.2, "r", "8x4"], WRAPPED)
    assert run(["render"], same) == (0, b"1bcdefgh\n" * 2, "")
    # A window of 1000 rows of 160 cells costs 2.6 MB of output: it waits
    # for the output that pays for it (40 kB), then applies.
    options = RenderOptions()
    cost = options.window_cost(160, 1000)
    assert cost == Transcript(columns=160, rows=1000).output_limit() - output_constant(0, 0)
    big = [0.2, "r", "160x1000"]
    data = cast({"version": 2, "width": 5, "height": 3}, big, WRAPPED)
    assert run(["render"], data)[1] == b"abcde1gh\n"  # not applied
    filler = [0.3, "o", "y" * (cost // OUTPUT_PER_BYTE) + "\r\n"]
    data = cast({"version": 2, "width": 5, "height": 3}, big, filler, WRAPPED)
    assert run(["render"], data)[1].endswith(b"yyy\n1bcdefgh\n")  # 160 wide: no wrap


def test_resizes_do_not_multiply_the_window() -> None:
    # Each event sends the cursor to the window's last row: a window of
    # blank rows for 15 bytes. Alternating sizes would make a new window
    # each time if every resize applied.
    events = []
    for i in range(400):
        events += [[0.1, "r", f"{100 + i % 2}x1000"], [0.2, "o", "\u001b[1000Hx"]]
    data = cast({"version": 2, "width": 100, "height": 1000}, *events)
    status, out, _ = run(["render"], data)
    fed = 400 * len(b"\x1b[1000Hx")
    first = Transcript(columns=100, rows=1000).output_limit()
    assert status == 0 and len(out) <= 2 * OUTPUT_PER_BYTE * fed + first
    assert out.count(b"\n") < 3000  # 400 windows would be 400 000 lines


def test_raw_input_that_looks_like_json_stays_raw() -> None:
    for data in (b'{"version": 4}\n', b'{"not": "a cast"\n', b'[0.1, "o", "x"]\n'):
        assert run(["render"], data) == (0, data, "")
    recording = cast({"version": 2, "width": 80, "height": 24}, [0.1, "o", "x"])
    assert run(["render", "--input-format", "raw"], recording)[1] == recording


# A first line that json.loads cannot take for want of stack (its C scanner
# counts nesting against the recursion limit): RecursionError, not ValueError.
DEEP = b'{"a":' + b"[" * 3000


def test_input_that_breaks_the_json_parser_stays_raw(tmp_path: Path) -> None:
    for data in (
        DEEP + b"\nhello\n",  # the sniffed first line
        DEEP,  # no newline within the first 4 KiB
        b'{"version": 2, "a": ' + b"9" * 5000 + b"}\n",  # too many digits: ValueError
        b'{"version": 2, "a": NaN}\n',
        b'{"version": 2, "a": "\xff"}\n',  # not UTF-8
        b'{\x00"\x00v\x00"\x00:\x002\x00}\x00\n',  # UTF-16: not taken as JSON
    ):
        raw = run(["render", "--input-format", "raw"], data)
        assert raw[0] == 0 and raw[1].startswith(b"{") and raw[2] == ""
        assert run(["render"], data) == raw, data[:30]  # auto: raw, no traceback
        log = tmp_path / "log.raw"
        log.write_bytes(data)
        assert run(["render", str(log)]) == raw


def test_a_recording_header_that_breaks_the_json_parser_is_skipped() -> None:
    events = b'[0.1, "o", "one\\r\\n"]\n' + DEEP + b"]\n" + b'[0.2, "o", "two\\r\\n"]\n'
    status, out, err = run(["render", "--input-format", "asciicast"], DEEP + b"\n" + events)
    assert (status, out) == (0, b"one\ntwo\n")
    assert err == "termscribe: -: 1 lines of the recording are not events (skipped)\n"


TYPESCRIPT = (
    b'Script started on 2026-12-01 23:56:29+00:00 [TERM="xterm" TTY="/dev/pts/1" '
    b'COLUMNS="6" LINES="3"]\n'
    b"\x1b[31mred\x1b[0m\r\nabcdefgh\r\n"
    b'\nScript done on 2026-12-01 23:56:30+00:00 [COMMAND_EXIT_CODE="0"]\n'
)


def test_typescript_header_and_trailer_are_dropped() -> None:
    assert run(["render"], TYPESCRIPT) == (0, b"red\nabcdefgh\n", "")
    status, out, _ = run(["render", "--mode", "screen"], TYPESCRIPT)
    assert (status, out) == (0, b"abcdef\ngh\n")  # COLUMNS="6" LINES="3"
    status, out, _ = run(["render", "--input-format", "raw"], TYPESCRIPT)
    lines = out.decode().split("\n")
    assert lines[0].startswith("Script started on") and lines[-2].startswith("Script done on")


def test_long_typescript_keeps_all_its_output() -> None:
    body = b"".join(b"line %d\r\n" % i for i in range(20000))
    data = b'Script started on 2026-12-01 [COMMAND="x"]\n' + body
    expected = render_text(body).encode()
    assert run(["render"], data + b"\nScript done on 2026-12-01\n")[1] == expected
    assert run(["render"], data)[1] == expected  # no trailer (killed): nothing lost
    assert (
        run(["render"], data + b"\nScript done on x\nmore\n")[1]
        == render_text(body + b"\nScript done on x\nmore\n").encode()
    )  # not the last line: output, kept


def test_recordings_stream_event_by_event() -> None:
    render = subprocess.Popen(
        [sys.executable, "-m", "termscribe", "render", "--rows", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert render.stdin is not None and render.stdout is not None
    try:
        render.stdin.write(cast({"version": 2, "width": 80, "height": 1}, [0.1, "o", "a\r\nb\r\n"]))
        render.stdin.flush()
        ready, _, _ = select.select([render.stdout], [], [], 30)
        assert ready, "nothing written while the recording stays open"
        assert render.stdout.readline() == b"a\n"
    finally:
        render.stdin.close()
    assert render.stdout.read() == b"b\n"
    assert render.wait(timeout=30) == 0
