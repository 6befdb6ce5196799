"""Small terminal_output_chunk messages through TerminalStore.apply.

    python benchmarks/small_chunks.py [--chunk 200] [--rounds 5] [--min-bytes 262144]
                                      [--only npm-install cargo_build] [--json] [--profile]

Real terminal output is cut into ``--chunk``-byte pieces and sent as ACP
``session/update`` notifications carrying ``terminal_output_chunk`` updates,
the way an agent streams a command's output.  For each input and store
configuration it times, per message and as MB/s of output (10^6 bytes of
terminal output, before base64):

* ``Transcript()``: the chunks fed one by one to a `Transcript` with its
  default options (``styled`` as the store's);
* ``as stored``: the same into a `Transcript` made as the store makes one
  (``TerminalStore._new_transcript``), the floor the store's own work sits on;
* ``store``: ``TerminalStore.apply`` of the notifications as dicts;
* ``store+json``: ``TerminalStore.apply(json.loads(line))`` of each
  notification as the JSON text it arrives as (json.loads included);
* ``store+take``: ``apply``, then ``take_lines()`` of the terminal after
  every message, as a consumer that streams final lines out as they come.

Each timing ends with ``finish()``, so work a transcript holds back is
counted.  ``overhead`` is store minus as-stored, per message: what
validation, base64 decoding and dispatch add.  Each figure is the best of
``--rounds`` rounds; the variants alternate within each round so that a
noisy machine slows all of them alike.  Inputs smaller than ``--min-bytes``
are repeated to that size so that their timings are not dominated by the
timer.  ``--json`` prints the best seconds instead of the tables (to combine
runs of two versions); ``--profile`` prints cProfile's top functions for the
store variant of the first input.  It runs against any version of
termscribe that has ``termscribe.acp``; a configuration its store does
not take is left out.
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import gc
import json
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from termscribe import Transcript
from termscribe.acp import TerminalStore

ROOT = Path(__file__).resolve().parent.parent
INPUTS = {
    "npm-install": ROOT / "benchmarks" / "data" / "npm-install.raw",
    "docker-compose-pull": ROOT / "benchmarks" / "data" / "docker-compose-pull.raw",
    "cargo_build": ROOT / "corpus" / "recordings" / "cargo_build.raw",
    "pytest_color": ROOT / "corpus" / "recordings" / "pytest_color.raw",
    "git_clone": ROOT / "corpus" / "recordings" / "git_clone.raw",
    "tqdm_progress": ROOT / "corpus" / "recordings" / "tqdm_progress.raw",
}
# Store configurations: a label and the TerminalStore keyword arguments.
CONFIGS: dict[str, dict[str, Any]] = {
    "TerminalStore()": {},
    'TerminalStore(mode="lines")': {"mode": "lines"},
    "TerminalStore(styled=False)": {"styled": False},
}
SESSION = "sess_1"
TERMINAL = "term_1"
VARIANTS = ("Transcript()", "as stored", "store", "store+json", "store+take")


def notification(update: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": SESSION, "update": update},
    }


def chunk_message(piece: bytes) -> dict[str, Any]:
    return notification(
        {
            "sessionUpdate": "terminal_output_chunk",
            "terminalId": TERMINAL,
            "data": base64.b64encode(piece).decode("ascii"),
        }
    )


def opening_messages() -> list[dict[str, Any]]:
    """What precedes the output: the tool call showing the terminal, its command."""
    anchor = {"type": "terminal", "terminalId": TERMINAL}
    return [
        notification(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "call_1",
                "status": "in_progress",
                "content": [anchor],
            }
        ),
        notification(
            {"sessionUpdate": "terminal_update", "terminalId": TERMINAL, "command": "make"}
        ),
    ]


@dataclass(frozen=True)
class Workload:
    name: str
    size: int  # bytes of terminal output
    pieces: list[bytes]
    messages: list[dict[str, Any]]
    texts: list[str]  # the messages as JSON text


def load(name: str, path: Path, chunk: int, min_bytes: int) -> Workload:
    raw = path.read_bytes()
    data = raw * max(1, -(-min_bytes // len(raw)))
    pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    messages = [chunk_message(piece) for piece in pieces]
    texts = [json.dumps(m, separators=(",", ":")) for m in messages]
    return Workload(name, len(data), pieces, messages, texts)


def stored_transcript(options: dict[str, Any]) -> Transcript:
    """A Transcript made as a TerminalStore given `options` makes one."""
    return TerminalStore(**options)._new_transcript()


def opened_store(options: dict[str, Any]) -> TerminalStore:
    store = TerminalStore(**options)
    for message in opening_messages():
        store.apply(message)
    return store


def feed_all(transcript: Transcript, work: Workload) -> float:
    feed = transcript.feed
    pieces = work.pieces
    start = time.perf_counter()
    for piece in pieces:
        feed(piece)
    transcript.finish()
    return time.perf_counter() - start


def run_default(work: Workload, options: dict[str, Any]) -> float:
    return feed_all(Transcript(styled=options.get("styled", True)), work)


def run_as_stored(work: Workload, options: dict[str, Any]) -> float:
    return feed_all(stored_transcript(options), work)


def run_store(work: Workload, options: dict[str, Any]) -> float:
    store = opened_store(options)
    apply = store.apply
    messages = work.messages
    start = time.perf_counter()
    for message in messages:
        apply(message)
    store.finish()
    return time.perf_counter() - start


def run_store_json(work: Workload, options: dict[str, Any]) -> float:
    store = opened_store(options)
    apply = store.apply
    loads = json.loads
    texts = work.texts
    start = time.perf_counter()
    for text in texts:
        apply(loads(text))
    store.finish()
    return time.perf_counter() - start


def run_store_take(work: Workload, options: dict[str, Any]) -> float:
    store = opened_store(options)
    terminal = store.get(SESSION, TERMINAL)
    assert terminal is not None
    apply = store.apply
    take = terminal.take_lines
    messages = work.messages
    start = time.perf_counter()
    for message in messages:
        apply(message)
        take()
    store.finish()
    return time.perf_counter() - start


RUNNERS: dict[str, Callable[[Workload, dict[str, Any]], float]] = {
    "Transcript()": run_default,
    "as stored": run_as_stored,
    "store": run_store,
    "store+json": run_store_json,
    "store+take": run_store_take,
}


def check_same_output(work: Workload, options: dict[str, Any]) -> None:
    """The store's transcript is the transcript fed directly: both time the same work."""
    transcript = stored_transcript(options)
    for piece in work.pieces:
        transcript.feed(piece)
    store = opened_store(options)
    for message in work.messages:
        store.apply(message)
    terminal = store.get(SESSION, TERMINAL)
    assert terminal is not None
    if terminal.text() != transcript.text():
        sys.exit(f"{work.name}: the store's transcript differs from the transcript's")


def best_times(work: Workload, options: dict[str, Any], rounds: int) -> dict[str, float]:
    best = dict.fromkeys(VARIANTS, float("inf"))
    for round_ in range(rounds):
        # Alternate the order too, so that no variant always runs first.
        order = VARIANTS if round_ % 2 == 0 else tuple(reversed(VARIANTS))
        for variant in order:
            gc.collect()
            best[variant] = min(best[variant], RUNNERS[variant](work, options))
    return best


def measure(workloads: list[Workload], rounds: int) -> dict[str, dict[str, dict[str, float]]]:
    """{configuration: {input: {variant: best seconds}}}."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for label, options in CONFIGS.items():
        try:
            TerminalStore(**options)
        except TypeError:  # an older version
            continue
        out[label] = {}
        for work in workloads:
            check_same_output(work, options)
            out[label][work.name] = best_times(work, options, rounds)
    return out


def print_tables(
    results: dict[str, dict[str, dict[str, float]]], workloads: list[Workload], chunk: int
) -> None:
    """One table per configuration: µs per message and MB/s of each variant."""
    print(f"{chunk}-byte terminal_output_chunk messages: µs per message, MB/s of output")
    for label, by_input in results.items():
        print()
        print(label)
        header = f"{'input':<20} {'msgs':>5}"
        for variant in VARIANTS:
            header += f" {variant:>12} {'MB/s':>5}"
        print(f"{header} {'overhead':>8}")
        totals = dict.fromkeys(VARIANTS, 0.0)
        size = count = 0
        for work in workloads:
            best = by_input[work.name]
            row = f"{work.name:<20} {len(work.messages):>5}"
            for variant in VARIANTS:
                row += f" {best[variant] / len(work.messages) * 1e6:>12.1f}"
                row += f" {work.size / best[variant] / 1e6:>5.1f}"
                totals[variant] += best[variant]
            overhead = (best["store"] - best["as stored"]) / len(work.messages) * 1e6
            print(f"{row} {overhead:>8.1f}")
            size += work.size
            count += len(work.messages)
        row = f"{'all':<20} {count:>5}"
        for variant in VARIANTS:
            row += f" {totals[variant] / count * 1e6:>12.1f} {size / totals[variant] / 1e6:>5.1f}"
        overhead = (totals["store"] - totals["as stored"]) / count * 1e6
        print(f"{row} {overhead:>8.1f}")


def profile(work: Workload, options: dict[str, Any]) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    run_store(work, options)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chunk", type=int, default=200, help="output bytes per message")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-bytes", type=int, default=256 * 1024)
    parser.add_argument("--only", nargs="*", choices=sorted(INPUTS), help="inputs by name")
    parser.add_argument("--json", action="store_true", help="best seconds as JSON")
    parser.add_argument("--profile", action="store_true", help="cProfile the store variant")
    args = parser.parse_args()
    names = args.only or list(INPUTS)
    workloads = [load(name, INPUTS[name], args.chunk, args.min_bytes) for name in names]
    if args.profile:
        profile(workloads[0], {})
        return
    results = measure(workloads, args.rounds)
    if args.json:
        sizes = {work.name: [work.size, len(work.messages)] for work in workloads}
        print(json.dumps({"sizes": sizes, "results": results}))
    else:
        print_tables(results, workloads, args.chunk)


if __name__ == "__main__":
    main()
