"""Emitted bytes stay linear in the output (the agent-shell #342 failure, avoided)."""

from __future__ import annotations

import json

import pytest
from bridge_wire import check_v1, chunk, terminal_update, tool_call

from termscribe.acp import V2ToV1Bridge

MIB = 1024 * 1024
CHUNK = 4096


def output(size: int) -> bytes:
    line = b"%07d: Compiling crate-%d v0.1.%d (/workspace/project/crates/x)\n"
    out = bytearray()
    n = 0
    while len(out) < size:
        out += line % (n, n % 97, n % 13)
        n += 1
    return bytes(out[:size])


def emitted_ratio(mode: str, size: int, flush_every_chunk: bool = True) -> tuple[float, int]:
    """(JSON bytes emitted / output bytes, messages) for one command streamed in 4 KiB chunks."""
    data = output(size)
    bridge = V2ToV1Bridge(mode=mode)
    sent: list[dict[str, object]] = []
    sent += bridge.apply(tool_call("c", "t", title="build")).messages
    sent += bridge.apply(terminal_update("t", command="cargo build", cwd="/w")).messages
    sent += bridge.flush()
    for start in range(0, len(data), CHUNK):
        sent += bridge.apply(chunk("t", data[start : start + CHUNK])).messages
        if flush_every_chunk:
            sent += bridge.flush()
    sent += bridge.apply(terminal_update("t", exit_status={"exitCode": 0})).messages
    sent += bridge.finish()
    total = sum(len(json.dumps(m, ensure_ascii=False).encode()) for m in sent)
    for message in sent[:3] + sent[-3:]:
        check_v1(message)
    return total / len(data), len(sent)


@pytest.mark.parametrize("mode", ["text", "meta"])
def test_one_mib_in_4k_chunks_with_a_flush_after_each_costs_a_small_constant(mode: str) -> None:
    ratio, messages = emitted_ratio(mode, MIB)
    print(f"{mode}: {ratio:.2f} bytes emitted per output byte, {messages} messages")
    assert ratio < 3.0
    assert messages > 10  # it did stream, not just send at the end


def test_ratio_does_not_grow_with_the_output() -> None:
    small, _ = emitted_ratio("text", MIB // 4)
    large, _ = emitted_ratio("text", 4 * MIB)
    assert large <= small * 1.1 + 0.1


def test_a_naive_resend_would_be_quadratic() -> None:
    """What the policy prevents: resending the capped text after every chunk."""
    data = output(MIB)
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("c", "t"))
    naive = 0
    for start in range(0, len(data), CHUNK):
        bridge.apply(chunk("t", data[start : start + CHUNK]))
        naive += sum(len(json.dumps(m)) for m in bridge.flush(force=True))
    assert naive / len(data) > 8  # already 8x at 1 MiB, and growing with the cap
