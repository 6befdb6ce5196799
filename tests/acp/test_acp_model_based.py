"""Random valid message sequences against a simple reference model, and order independence."""

from __future__ import annotations

import base64
import itertools
from dataclasses import dataclass, field
from typing import Any

from acp_wire import anchor, b64, chunk, notify, permission, terminal_update
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import render_text
from termscribe.acp import TerminalKey, TerminalStore

SESSIONS = ["s1", "s2"]
TERMINALS = ["t1", "t2", "t3"]
TOOL_CALLS = ["c1", "c2"]

byte_pieces = st.sampled_from(
    [
        b"a",
        b"ok\n",
        b"\r",
        b"\n",
        b"\x1b[",
        b"31m",
        b"\x1b[0m",
        b"\xe2",
        b"\x9c\x93",
        b"\xff",
        b"\x1b]0;title\x07",
        b"50%\r100%\n",
        b"\x1b[2K",
        b"\x08",
    ]
)
payloads = st.lists(byte_pieces, max_size=5).map(b"".join)


def _patch(value: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[str, Any]]:
    return st.one_of(
        st.just(("omit", None)), st.just(("null", None)), value.map(lambda v: ("set", v))
    )


@st.composite
def operations(draw: st.DrawFn) -> tuple[Any, ...]:
    session = draw(st.sampled_from(SESSIONS))
    terminal = draw(st.sampled_from(TERMINALS))
    kind = draw(st.sampled_from(["anchor", "update", "chunk", "chunk", "permission", "other"]))
    if kind == "anchor":
        return ("anchor", session, terminal, draw(st.sampled_from(TOOL_CALLS)))
    if kind == "update":
        fields = {
            "command": draw(_patch(st.sampled_from(["make", "ls -la", "cargo test"]))),
            "cwd": draw(_patch(st.sampled_from(["/a", "C:\\b"]))),
            "exitStatus": draw(
                _patch(st.sampled_from([{}, {"exitCode": 1}, {"signal": "SIGTERM"}]))
            ),
            "_meta": draw(_patch(st.sampled_from([{}, {"k": 1}]))),
            "output": draw(_patch(payloads.map(lambda d: {"data": b64(d)}))),
        }
        return ("update", session, terminal, fields)
    if kind == "chunk":
        return ("chunk", session, terminal, draw(payloads))
    return (kind, session, terminal)


def to_wire(op: tuple[Any, ...]) -> Any:
    kind, session, terminal = op[:3]
    if kind == "anchor":
        return anchor(op[3], terminal, session=session)
    if kind == "update":
        update = {"sessionUpdate": "terminal_update", "terminalId": terminal}
        update.update({k: v for k, (state, v) in op[3].items() if state == "set"})
        update.update({k: None for k, (state, _) in op[3].items() if state == "null"})
        return notify(update, session)
    if kind == "chunk":
        return chunk(terminal, op[3], session=session)
    if kind == "permission":
        return permission(session=session, terminalId=terminal, toolCallId="c1")
    return notify({"sessionUpdate": "plan_update", "entries": []}, session)


@dataclass
class Ref:
    command: str | None = None
    cwd: str | None = None
    exit: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None
    data: bytes = b""
    calls: list[str] = field(default_factory=list)
    generation: int = 0


def reference(ops: list[tuple[Any, ...]]) -> dict[TerminalKey, Ref]:
    refs: dict[TerminalKey, Ref] = {}
    for op in ops:
        kind, session, terminal = op[:3]
        if kind in ("permission", "other"):
            continue
        ref = refs.setdefault(TerminalKey(session, terminal), Ref())
        if kind == "anchor" and op[3] not in ref.calls:
            ref.calls.append(op[3])
        elif kind == "chunk":
            ref.data += op[3]
        elif kind == "update":
            for key, attr in [
                ("command", "command"),
                ("cwd", "cwd"),
                ("exitStatus", "exit"),
                ("_meta", "meta"),
            ]:
                state, value = op[3][key]
                if state != "omit":
                    setattr(ref, attr, value)
            state, value = op[3]["output"]
            if state != "omit":
                ref.data = b"" if value is None else base64.b64decode(value["data"])
                ref.generation += 1
    return refs


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(operations(), min_size=1, max_size=3), max_size=12))
def test_store_matches_reference_model(groups: list[list[tuple[Any, ...]]]) -> None:
    store = TerminalStore()
    ops: list[tuple[Any, ...]] = []
    for group in groups:
        wires = [to_wire(op) for op in group]
        store.apply(wires if len(wires) > 1 else wires[0])  # single messages and batches
        ops.extend(group)
    store.finish()
    refs = reference(ops)
    assert [t.key for t in store] == list(refs)
    for terminal in store:
        ref = refs[terminal.key]
        exit_wire = None if terminal.exit_status is None else terminal.exit_status.to_wire()
        assert (terminal.command, terminal.cwd, exit_wire, terminal.meta) == (
            ref.command,
            ref.cwd,
            ref.exit,
            ref.meta,
        )
        assert terminal.raw_bytes == ref.data
        assert terminal.text() == render_text(ref.data)
        assert list(terminal.tool_call_ids) == ref.calls
        assert terminal.snapshot_generation == ref.generation


def _state(store: TerminalStore) -> Any:
    return [
        (
            t.key,
            t.command,
            t.cwd,
            t.exit_status,
            t.meta,
            tuple(sorted(t.tool_call_ids)),
            t.text(),
            tuple(p.request_id for p in store.permissions_for(t)),
        )
        for t in sorted(store, key=lambda t: t.terminal_id)
    ]


def test_every_order_of_anchor_update_chunk_and_permission_gives_one_state() -> None:
    messages = [
        anchor("c1", "t1", title="Run"),
        terminal_update("t1", command="make", cwd="/w", exit_status={"exitCode": 2}, meta={"m": 1}),
        chunk("t1", b"\x1b[31mfailed\x1b[0m\n"),
        permission(command="make", cwd="/w", toolCallId="c1"),
    ]
    states = set()
    for order in itertools.permutations(messages):
        store = TerminalStore()
        for message in order:
            store.apply(message)
        states.add(repr(_state(store)))
    assert len(states) == 1


def test_every_order_across_two_terminals_and_two_tool_calls() -> None:
    messages = [
        anchor("c1", "t1"),
        anchor("c2", "t2"),
        anchor("c2", "t1"),
        terminal_update("t2", cwd="/x"),
        chunk("t1", b"one"),
        chunk("t2", b"two"),
    ]
    states = set()
    for order in itertools.permutations(messages):
        store = TerminalStore()
        for message in order:
            store.apply(message)
        states.add(repr(_state(store)))
    assert len(states) == 1


@given(payloads, st.lists(st.integers(0, 40), max_size=6))
def test_any_chunking_gives_the_snapshot_transcript(data: bytes, cuts: list[int]) -> None:
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    chunked = TerminalStore()
    chunked.apply(terminal_update("t1"))
    for start, end in itertools.pairwise(bounds):
        chunked.apply(chunk("t1", data[start:end]))
    whole = TerminalStore()
    whole.apply(terminal_update("t1", output={"data": b64(data)}))
    chunked.finish()
    whole.finish()
    assert chunked.get("sess_1", "t1").text() == whole.get("sess_1", "t1").text()  # type: ignore[union-attr]
