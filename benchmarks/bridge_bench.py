"""Bytes a v1 client receives per byte of command output, through V2ToV1Bridge.

    python benchmarks/bridge_bench.py [--sizes 262144,1048576,4194304] [--chunk 4096]

A command's output is streamed as v2 ``terminal_output_chunk`` messages of
``--chunk`` bytes with ``flush()`` after every chunk (the worst case for a
bridge: the caller asks to send after each one).  For text and meta mode it
reports the JSON bytes emitted divided by the output bytes, the number of v1
messages and the time taken, next to the naive baseline that resends the
(capped) text after every chunk.  Linear means the ratio stays put as the
output grows; agent-shell #342 moved about 890 MB for 280 KB (ratio ~3000).
"""

from __future__ import annotations

import argparse
import base64
import json
import time
from typing import Any

from termscribe.acp import V2ToV1Bridge


def _notify(update: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": "s", "update": update},
    }


def _output(size: int) -> bytes:
    out = bytearray()
    n = 0
    while len(out) < size:
        out += b"%07d: Compiling crate-%d v0.1.%d (/workspace/project/crates/x)\n" % (
            n,
            n % 97,
            n % 13,
        )
        n += 1
    return bytes(out[:size])


def measure(mode: str, data: bytes, chunk: int, naive: bool = False) -> tuple[float, int, float]:
    """(emitted bytes / output bytes, messages, seconds)."""
    bridge = V2ToV1Bridge(mode=mode)
    start = time.perf_counter()
    sent: list[dict[str, Any]] = []
    anchor = {"type": "terminal", "terminalId": "t"}
    sent += bridge.apply(
        _notify({"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [anchor]})
    ).messages
    sent += bridge.apply(
        _notify({"sessionUpdate": "terminal_update", "terminalId": "t", "command": "cargo build"})
    ).messages
    for offset in range(0, len(data), chunk):
        piece = base64.b64encode(data[offset : offset + chunk]).decode()
        update = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": piece}
        sent += bridge.apply(_notify(update)).messages
        sent += bridge.flush(force=naive)
    sent += bridge.apply(
        _notify(
            {"sessionUpdate": "terminal_update", "terminalId": "t", "exitStatus": {"exitCode": 0}}
        )
    ).messages
    sent += bridge.finish()
    emitted = sum(
        len(json.dumps(m, ensure_ascii=False, separators=(",", ":")).encode()) for m in sent
    )
    return emitted / len(data), len(sent), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="262144,1048576,4194304")
    parser.add_argument("--chunk", type=int, default=4096)
    args = parser.parse_args()
    print(f"{'output':>10} {'mode':>6} {'ratio':>7} {'messages':>9} {'seconds':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        data = _output(size)
        for label, mode, naive in (
            ("text", "text", False),
            ("meta", "meta", False),
            ("naive", "text", True),
        ):
            ratio, messages, seconds = measure(mode, data, args.chunk, naive)
            print(f"{size:>10} {label:>6} {ratio:>7.2f} {messages:>9} {seconds:>8.2f}")


if __name__ == "__main__":
    main()
