#!/usr/bin/env python3
"""What a live client pays: per-update cost, memory per terminal, the GC.

1. Per update: a transcript already holding 1 MB or 10 MB of real output
   gets 4 KB more; a client then renders what changed
   (``changes(position)`` and ``render_lines_*`` of the pieces) or, the old
   way, the whole transcript (``text()``, ``html()``). Mean milliseconds per
   update over many updates. Changes should cost the same at 1 MB and 10 MB.
2. Memory: a ``TerminalStore`` fed 200 terminals of 100 KB of real coloured
   output (slices of the two public logs and of the line recordings), in
   4 KB ``terminal_output_chunk`` messages; heap bytes (tracemalloc, after a
   collection) per output byte, with the store's defaults, without retained
   raw bytes, and unstyled; and the heap of an idle terminal.
3. The cyclic GC: the time to build that store with the collector on and
   off, and one full collection of the result.

Transcripts here keep every line (``max_lines=None``): past ``max_lines`` a
view resets on every update (see ``termscribe._changes``).

Usage:

    python benchmarks/live.py            # everything
    python benchmarks/live.py --quick    # smaller, for a smoke test
"""

from __future__ import annotations

import argparse
import base64
import datetime
import functools
import gc
import platform
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from termscribe import Transcript, render_lines_html, render_lines_text
from termscribe._changes import ChangePosition
from termscribe.acp import TerminalStore

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
RECORDINGS = ROOT / "corpus" / "recordings"
LINE_RECORDINGS = (
    "git_diff",
    "git_log_graph",
    "ls_color",
    "pytest_color",
    "cargo_build",
    "man_overstrike",
    "pip_download",
)
UPDATE = 4096


def sources() -> list[bytes]:
    recordings = b"".join((RECORDINGS / f"{name}.raw").read_bytes() for name in LINE_RECORDINGS)
    return [
        (DATA / "npm-install.raw").read_bytes(),
        (DATA / "docker-compose-pull.raw").read_bytes(),
        recordings * 40,
    ]


def repeated(data: bytes, size: int) -> bytes:
    return (data * (size // len(data) + 1))[:size]


# -- 1. per update ------------------------------------------------------------


def per_update(size: int, updates: int) -> dict[str, float]:
    """Mean ms per update of each way of showing a transcript of ``size``."""
    data = repeated((DATA / "npm-install.raw").read_bytes(), size + UPDATE * updates)
    out: dict[str, float] = {}
    for way in ("changes text", "changes html", "text()", "html()"):
        transcript = Transcript(max_lines=None)
        transcript.feed(data[:size])
        position: ChangePosition | None = transcript.changes().position
        shown: list[str] = []
        spent = 0.0
        for index in range(updates):
            at = size + index * UPDATE
            transcript.feed(data[at : at + UPDATE])
            start = time.perf_counter()
            if way.startswith("changes"):
                render = render_lines_text if way == "changes text" else render_lines_html
                changes = transcript.changes(position)
                if changes.committed:
                    shown.append(render(changes.committed))
                render(changes.window)
                position = changes.position
            elif way == "text()":
                transcript.text()
            else:
                transcript.html()
            spent += time.perf_counter() - start
        out[way] = spent / updates * 1000
    return out


# -- 2. and 3. memory and the GC --------------------------------------------------


def messages(terminals: int, size: int) -> list[dict[str, object]]:
    logs = sources()
    out: list[dict[str, object]] = []
    for number in range(terminals):
        log = logs[number % len(logs)]
        start = (number * 7919) % max(1, len(log) - size)
        data = repeated(log[start:], size)
        for at in range(0, size, UPDATE):
            update = {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": f"t{number}",
                "data": base64.b64encode(data[at : at + UPDATE]).decode(),
            }
            out.append(
                {
                    "jsonrpc": "2.0",
                    "method": "session/update",
                    "params": {"sessionId": "s", "update": update},
                }
            )
    return out


def heap_of(build: Callable[[], object]) -> tuple[int, object]:
    gc.collect()
    tracemalloc.start()
    try:
        made = build()
        gc.collect()
        return tracemalloc.get_traced_memory()[0], made
    finally:
        tracemalloc.stop()


def store_of(batch: list[dict[str, object]], **options: object) -> TerminalStore:
    store = TerminalStore(**options)  # type: ignore[arg-type]
    for message in batch:
        store.apply(message)
    return store


def build_time(batch: list[dict[str, object]], collector: bool) -> tuple[float, float]:
    """Seconds to build the store with the collector on or off, and one full
    collection of it afterwards."""
    gc.collect()
    (gc.enable if collector else gc.disable)()
    try:
        start = time.perf_counter()
        store = store_of(batch)
        built = time.perf_counter() - start
    finally:
        gc.enable()
    start = time.perf_counter()
    gc.collect()
    collected = time.perf_counter() - start
    del store
    return built, collected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    args = parser.parse_args()
    sizes = (100_000, 1_000_000) if args.quick else (1_000_000, 10_000_000)
    updates = 5 if args.quick else 40
    terminals, size = (20, 20_000) if args.quick else (200, 100_000)
    print(f"{datetime.date.today()}, Python {platform.python_version()} on {platform.machine()}")

    print(f"\n## Per update ({UPDATE} bytes more each; mean ms of {updates} updates)\n")
    print(
        "| transcript | " + " | ".join(("changes text", "changes html", "text()", "html()")) + " |"
    )
    print("|---|---|---|---|---|")
    for total in sizes:
        result = per_update(total, updates)
        cells = " | ".join(f"{value:.2f}" for value in result.values())
        print(f"| {total / 1e6:g} MB | {cells} |", flush=True)

    batch = messages(terminals, size)
    output = terminals * size
    print(f"\n## Memory: {terminals} terminals of {size // 1000} KB of real coloured output\n")
    print("| store | heap MB | bytes per output byte |")
    print("|---|---|---|")
    for label, options in (
        ("defaults", {}),
        ("max_retained_bytes=0", {"max_retained_bytes": 0}),
        ("styled=False, max_retained_bytes=0", {"styled": False, "max_retained_bytes": 0}),
    ):
        heap, _ = heap_of(functools.partial(store_of, batch, **options))
        print(f"| {label} | {heap / 1e6:.1f} | {heap / output:.2f} |", flush=True)
    idle, _ = heap_of(lambda: [Transcript() for _ in range(100)])
    print(f"\nAn idle Transcript: {idle / 100 / 1000:.1f} KB.")

    print("\n## The cyclic GC (building that store; best of 3)\n")
    print("| collector | build s | then one gc.collect() ms |")
    print("|---|---|---|")
    for collector in (True, False):
        runs = [build_time(batch, collector) for _ in range(3)]
        built = min(run[0] for run in runs)
        collected = min(run[1] for run in runs)
        print(f"| {'on' if collector else 'off'} | {built:.2f} | {collected * 1000:.1f} |")


if __name__ == "__main__":
    main()
