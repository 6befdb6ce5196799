"""The bridge's bookkeeping is linear: 4x the work within 6x the time (see
tests/scaling.py for how it is timed); and what meta mode resends after a
redraw is paid for by new output, whatever the width of the lines."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from typing import Any

from bridge_wire import check_v1, chunk, notify, terminal_update, tool_call
from scaling import assert_linear

from termscribe.acp import V2ToV1Bridge
from termscribe.acp.bridge._meta import REDRAW_CHARS_PER_BYTE
from termscribe.cli import _bridge
from termscribe.cli._bridge import _LineReader


def anchor_one_terminal_from_n_tool_calls(n: int) -> Callable[[], object]:
    messages = [tool_call(f"call_{i}", "t") for i in range(n)]

    def run() -> V2ToV1Bridge:
        bridge = V2ToV1Bridge(mode="meta")  # less work per tool call than a text block
        for message in messages:
            bridge.apply(message)
        return bridge

    return run


def test_anchoring_one_terminal_from_many_tool_calls_is_linear() -> None:
    bridge = anchor_one_terminal_from_n_tool_calls(3)()
    assert bridge.store.get("sess_1", "t").tool_call_ids == ("call_0", "call_1", "call_2")  # type: ignore[union-attr]
    assert_linear(anchor_one_terminal_from_n_tool_calls, 800)


def pending_after_each_line(n: int) -> Callable[[], object]:
    """n tool calls the client knows, then n output lines, reading `pending` after each
    (as the CLI's flush timer does)."""
    bridge = V2ToV1Bridge()
    for i in range(n):
        bridge.apply(notify({"sessionUpdate": "tool_call_update", "toolCallId": f"c{i}"}))
    bridge.apply(tool_call("shown", "t"))
    lines = [chunk("t", b"x" * 10 + b"\n") for _ in range(n)]

    def run() -> int:
        total = 0
        for line in lines:
            bridge.apply(line)
            total = bridge.pending
        return total

    return run


def test_pending_is_linear_in_the_lines_whatever_the_tool_calls() -> None:
    assert pending_after_each_line(3)() == 3 * 11  # output bytes not sent yet
    assert_linear(pending_after_each_line, 1500)


def read_one_long_line(n: int) -> Callable[[], object]:
    source = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the test
    source.write(b"x" * n + b"\n" + b"y\n")
    source.flush()

    def run() -> None:
        for _ in range(16):
            source.seek(0)
            reader = _LineReader(source)  # type: ignore[arg-type]
            line = reader.next(None)
            assert isinstance(line, bytes) and len(line) == n + 1
            assert reader.next(None) == b"y\n"

    return run


def test_the_cli_line_reader_is_linear_in_the_line_length(monkeypatch: Any) -> None:
    # Small blocks: many reads per line, and lines that fit in the CPU caches,
    # so that the time is the reader's work, not the memory's.
    monkeypatch.setattr(_bridge, "_READ_SIZE", 1024)
    assert_linear(read_one_long_line, 512 << 10, fresh=False)


# -- meta mode resends --------------------------------------------------------------


def redraw_session(columns: int, redraws: int) -> tuple[float, list[dict[str, Any]]]:
    """A progress count redrawn on the line above the cursor, under 23 lines
    `columns` wide, flushed after each redraw: (bytes emitted per output byte
    while redrawing, every message)."""
    bridge = V2ToV1Bridge(mode="meta", columns=columns)
    sent: list[dict[str, Any]] = []
    sent += bridge.apply(tool_call("c", "t", title="progress")).messages
    sent += bridge.apply(terminal_update("t", command="make", cwd="/w")).messages
    screen = b"".join(b"%02d" % i + b"=" * (columns - 2) + b"\r\n" for i in range(23))
    sent += bridge.apply(chunk("t", screen)).messages
    sent += bridge.flush()
    emitted = received = 0
    for i in range(redraws):
        data = b"\x1b[A\r%d\n" % (i % 10)  # up, rewrite the first character, down
        received += len(data)
        out = [*bridge.apply(chunk("t", data)).messages, *bridge.flush()]
        emitted += sum(len(json.dumps(m).encode()) for m in out)
        sent += out
    sent += bridge.apply(terminal_update("t", exit_status={"exitCode": 0})).messages
    sent += bridge.finish()
    return emitted / received, sent


def meta_text(messages: list[dict[str, Any]]) -> str:
    return "".join(
        m["params"]["update"]["_meta"]["terminal_output"]["data"]
        for m in messages
        if "terminal_output" in m["params"]["update"].get("_meta", {})
    )


def test_meta_mode_resends_are_paid_for_by_output_whatever_the_width() -> None:
    ratios = {}
    for columns in (80, 500, 2000):
        ratios[columns], sent = redraw_session(columns, 400)
        for message in sent:
            check_v1(message)
        text = meta_text(sent)
        assert text.endswith(f"92{'=' * (columns - 2)}\n")  # the last count got out, final
        assert text.count("changed on screen") < 400  # most redraws waited
    print({c: round(r, 1) for c, r in ratios.items()})
    assert ratios[2000] <= 2 * REDRAW_CHARS_PER_BYTE  # it was about 380 bytes per byte
    assert ratios[2000] <= ratios[80]  # the envelope of frequent small resends dominates


def test_meta_mode_redraws_are_linear_in_time() -> None:
    def redraws(n: int) -> Callable[[], object]:
        return lambda: redraw_session(2000, n)

    assert_linear(redraws, 200)
