"""Random v2 sessions: the bridge never raises on valid input and every v1 message validates."""

from __future__ import annotations

import random
from typing import Any

import pytest
from bridge_wire import (
    check_v1,
    chunk,
    notify,
    permission,
    snapshot,
    terminal_items,
    terminal_update,
    text_item,
    tool_call,
)

from termscribe.acp import V2ToV1Bridge

OUTPUTS = [
    b"a\n",
    b"\x1b[2A\rredraw\n",
    b"x" * 5000,
    b"``` \xe2\x80\xae\n",
    b"\x1b[2J",
    b"\xf0\x9f",
]


def random_message(rng: random.Random) -> Any:
    t = rng.choice(["t1", "t2"])
    c = rng.choice(["c1", "c2", "c3"])
    kind = rng.randrange(12)
    if kind == 0:
        return tool_call(
            c,
            *rng.sample(["t1", "t2"], rng.randint(0, 2)),
            status=rng.choice(["pending", "cancelled", "_custom", None]),
            kind=rng.choice(["execute", "_custom", None]),
            title=rng.choice(["T", None]),
        )
    if kind == 1:
        item = rng.choice(
            [
                {"type": "terminal", "terminalId": t},
                text_item("hey"),
                {"type": "diff", "changes": []},
            ]
        )
        return notify(
            {"sessionUpdate": "tool_call_content_chunk", "toolCallId": c, "content": item}
        )
    if kind in (2, 3, 4):
        return chunk(t, rng.choice(OUTPUTS))
    if kind == 5:
        return snapshot(t, b"snap\n")
    if kind == 6:
        return terminal_update(
            t,
            exit_status=rng.choice([None, {"exitCode": 1}, {}]),
            cwd=rng.choice(["/a", "/b", None]),
            command=rng.choice(["ls", None]),
        )
    if kind == 7:
        extra = rng.choice([{}, {"toolCallId": c}, {"terminalId": t}])
        return permission(rng.randrange(5), type="command", command="ls", cwd="/w", **extra)
    if kind == 8:
        anchor = {"type": "terminal", "terminalId": "t9"}
        return permission(1, type="tool_call", toolCall={"toolCallId": c, "content": [anchor]})
    if kind == 9:
        return permission(rng.randrange(5))
    if kind == 10:
        return [chunk(t, b"b1\n"), tool_call(c, t)]
    text = {"type": "text", "text": "x"}
    return notify({"sessionUpdate": "agent_message_chunk", "messageId": "m", "content": text})


def counted_pending(bridge: V2ToV1Bridge) -> int:
    """`pending` as its definition says, counted from scratch (the bridge keeps a tally)."""
    total = 0
    for call in bridge._calls.values():
        if call.announced and call.key[0] is not None:
            total += call.pending + (1 if call.urgent else 0)
    total += sum(v.pending for v in bridge._views.values() if v.primary is not None)
    return total


@pytest.mark.parametrize("mode", ["text", "meta"])
@pytest.mark.parametrize("seed", range(25))
def test_random_sessions_emit_only_valid_v1(mode: str, seed: int) -> None:
    rng = random.Random(seed)
    bridge = V2ToV1Bridge(mode=mode, max_text_chars=512)
    out: list[dict[str, Any]] = []
    for step in range(rng.randint(1, 40)):
        out += bridge.apply(random_message(rng)).messages
        assert bridge.pending == counted_pending(bridge)
        if rng.random() < 0.5:
            out += bridge.flush(now_ms=step * rng.choice([0, 100, 600]))
            assert bridge.pending == counted_pending(bridge)
    out += bridge.finish()
    assert bridge.pending == counted_pending(bridge)
    for message in out:
        check_v1(message)
    if mode == "text":
        assert terminal_items(out) == []
