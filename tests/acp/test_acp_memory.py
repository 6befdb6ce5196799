"""What a `TerminalStore` keeps: finished terminals cost their raw bytes and
little more (tracemalloc: everything the store holds, raw bytes included),
and a terminal whose transcript was let go reads as it did."""

from __future__ import annotations

import base64
import gc
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from termscribe import render_text
from termscribe.acp import TerminalStore
from termscribe.acp._terminal import TranscriptFactory

OUTPUT = b"\x1b[1mbuilding\x1b[0m module 1 ... ok\r\n" * 3 + b"progress 10%\rprogress 100%\n"


def _update(update: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": "sess_1", "update": update},
    }


def _chunk(terminal_id: str, data: bytes) -> dict[str, Any]:
    encoded = base64.b64encode(data).decode()
    return _update(
        {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id, "data": encoded}
    )


def _exit(terminal_id: str) -> dict[str, Any]:
    update = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
    return _update({**update, "exitStatus": {"exitCode": 0}})


def _measured(messages: Iterator[dict[str, Any]]) -> tuple[TerminalStore, int]:
    gc.collect()
    tracemalloc.start()
    try:
        store = TerminalStore()
        for message in messages:
            store.apply(message)
        store.finish()
        gc.collect()
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return store, size


def test_big_finished_terminals_cost_little_more_than_their_bytes() -> None:
    # The 200 terminals of 100 KB held 2.64 heap bytes per output
    # byte; the bound is 2.5.  Here 20 of them, in 4 KiB chunks.
    data = b"".join(b"compiling unit %05d ... ok\n" % i for i in range(4000))[:100_000]

    def messages() -> Iterator[dict[str, Any]]:
        for i in range(20):
            for k in range(0, len(data), 4096):
                yield _chunk(f"t{i}", data[k : k + 4096])
            yield _exit(f"t{i}")

    store, size = _measured(messages())
    assert size / (20 * len(data)) <= 1.5  # 1.01 measured
    assert store.get("sess_1", "t0").text() == render_text(data)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "n",
    [
        2000,
        pytest.param(100_000, marks=pytest.mark.deep(reason="a minute under tracemalloc")),
    ],
)
def test_many_short_finished_terminals(n: int) -> None:
    # The log: one terminal_update a terminal, output and exit at once.

    def messages() -> Iterator[dict[str, Any]]:
        for i in range(n):
            data = base64.b64encode(f"hello {i}\n".encode()).decode()
            yield _update(
                {
                    "sessionUpdate": "terminal_update",
                    "terminalId": f"t{i:06d}",
                    "command": f"echo {i}",
                    "cwd": "/work/project",
                    "output": {"data": data},
                    "exitStatus": {"exitCode": 0},
                }
            )

    store, size = _measured(messages())
    kept = sum(len(t.raw_bytes) + len(t.text()) for t in store)
    # The issue asks at most 300 bytes a terminal beyond text and raw bytes
    # for 100,000 of them: 282 measured with 2,000, 294 with 100,000 (a
    # fuller dict); 412 and 428 before terminals were kept by id and shared
    # their traits.
    assert (size - kept) / n <= 300


def test_a_terminal_let_go_reads_as_before_and_takes_more_output() -> None:
    live = TerminalStore()
    store = TerminalStore()
    for s in (live, store):
        s.apply(_chunk("a", OUTPUT))
    store.apply(_exit("a"))  # exited: its transcript is let go
    terminal = store.get("sess_1", "a")
    before = live.get("sess_1", "a")
    assert terminal is not None and before is not None
    assert isinstance(terminal._transcript, TranscriptFactory)
    assert (terminal.text(), terminal.html(), terminal.ansi()) == (
        before.text(),
        before.html(),
        before.ansi(),
    )
    assert [line.text for line in terminal.lines()] == [line.text for line in before.lines()]
    for s in (live, store):  # output after the exit: made again, kept
        s.apply(_chunk("a", b"late line\n"))
        s.finish()
    assert not isinstance(terminal._transcript, TranscriptFactory)
    assert terminal.text() == before.text() and terminal.text().endswith("late line\n")
    assert terminal.raw_bytes == OUTPUT + b"late line\n"


def test_what_is_not_let_go() -> None:
    truncated = TerminalStore(max_retained_bytes=10)  # the transcript is all there is
    truncated.apply(_chunk("a", OUTPUT))
    truncated.apply(_exit("a"))
    assert not isinstance(truncated.get("sess_1", "a")._transcript, TranscriptFactory)  # type: ignore[union-attr]
    taken = TerminalStore()
    taken.apply(_chunk("a", OUTPUT))
    first = taken.get("sess_1", "a").take_lines()  # type: ignore[union-attr]
    taken.apply(_exit("a"))
    taken.finish()
    terminal = taken.get("sess_1", "a")
    assert terminal is not None and not isinstance(terminal._transcript, TranscriptFactory)
    assert "".join(f"{line.text}\n" for line in first) + terminal.text() == render_text(OUTPUT)


def test_finish_lets_go_of_terminals_that_never_exited() -> None:
    store = TerminalStore()
    store.apply(_chunk("a", b"no newline at the end"))
    before = store.get("sess_1", "a").text()  # type: ignore[union-attr]
    store.finish()
    terminal = store.get("sess_1", "a")
    assert terminal is not None and isinstance(terminal._transcript, TranscriptFactory)
    assert terminal.text() == render_text(b"no newline at the end") and before in terminal.text()


def test_what_terminals_share_and_what_they_do_not() -> None:
    store = TerminalStore()
    for terminal_id, meta in (("a", None), ("b", None), ("c", {"k": 1})):
        update = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
        update |= {"cwd": "/work", "exitStatus": {"exitCode": 1}}
        store.apply(_update(update if meta is None else {**update, "_meta": meta}))
    a, b, c = store
    assert a._traits is b._traits  # one object for the fields they have alike
    assert (a.meta, b.meta, c.meta) == (None, None, {"k": 1})
    assert c.cwd == "/work" and c.exit_status == a.exit_status
    store.apply(_update({"sessionUpdate": "terminal_update", "terminalId": "b", "cwd": None}))
    assert (a.cwd, b.cwd, b.exit_status) == ("/work", None, a.exit_status)
    assert a._traits is not b._traits
    other = _chunk("a", b"x")  # the same id in a second session: another terminal
    store.apply({**other, "params": {**other["params"], "sessionId": "sess_2"}})
    store.apply(_chunk("d", b"y"))  # first-seen order across sessions
    assert [t.key for t in store] == [
        ("sess_1", "a"),
        ("sess_1", "b"),
        ("sess_1", "c"),
        ("sess_2", "a"),
        ("sess_1", "d"),
    ]
    assert ("sess_2", "a") in store and ("sess_2", "b") not in store and "a" not in store
    assert [t.session_id for t in store.find("a")] == ["sess_1", "sess_2"]
    call = {"sessionUpdate": "tool_call", "toolCallId": "x", "title": "Run"}
    store.apply({**_update(call), "params": {"sessionId": "sess_3", "update": call}})
    assert store.terminals_for_tool_call("sess_3", "x") == ()
    assert store.tool_call("sess_3", "x").title == "Run"  # type: ignore[union-attr]
