"""The store's OutputObserver: sees accepted output in application order, nothing else."""

from __future__ import annotations

import base64

import pytest

from termscribe.acp import InvalidMessageError, TerminalState, TerminalStore


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, bytes]] = []

    def output_replaced(self, terminal: TerminalState) -> None:
        self.events.append(("replaced", terminal.terminal_id, b""))

    def output_appended(self, terminal: TerminalState, data: bytes) -> None:
        self.events.append(("appended", terminal.terminal_id, data))


def _update(update: dict[str, object]) -> dict[str, object]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": "s", "update": update},
    }


def test_observer_sees_snapshots_chunks_and_clears_in_order() -> None:
    recorder = Recorder()
    store = TerminalStore(observer=recorder, max_retained_bytes=2)
    store.apply(
        _update({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": _b64(b"ab")})
    )
    store.apply(
        _update(
            {
                "sessionUpdate": "terminal_update",
                "terminalId": "t",
                "output": {"data": _b64(b"xyz")},
            }
        )
    )
    store.apply(
        _update({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": _b64(b"!")})
    )
    store.apply(_update({"sessionUpdate": "terminal_update", "terminalId": "t", "output": None}))
    assert recorder.events == [
        ("appended", "t", b"ab"),
        ("replaced", "t", b""),
        ("appended", "t", b"xyz"),  # whole, although only 2 bytes are retained
        ("appended", "t", b"!"),
        ("replaced", "t", b""),
    ]


def test_rejected_message_calls_nothing() -> None:
    recorder = Recorder()
    store = TerminalStore(observer=recorder)
    good = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": _b64(b"ok")}
    bad = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "not base64!"}
    with pytest.raises(InvalidMessageError):
        store.apply([_update(good), _update(bad)])
    assert recorder.events == []
