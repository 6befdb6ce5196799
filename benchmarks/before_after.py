#!/usr/bin/env python3
"""termscribe against another installation of itself, side by side.

Runs the same inputs (bench.py's public logs and generated ordinary logs)
through two Python interpreters, each importing its own termscribe, in
alternating rounds, so that a stretch of load on the machine slows one
round of both rather than every run of one. Prints MB/s (best of the
rounds) per input and renderer, and the ratio after/before.

Usage (the "before" interpreter has the other version installed, for
example in a second virtual environment):

    python benchmarks/before_after.py --before /path/to/venv/bin/python
    python benchmarks/before_after.py --before ... --after python3 --rounds 5 --markdown

On a machine whose speed drifts between processes, ``--in-process DIR``
times both in this one process instead, alternating run by run: DIR is the
other version's installed ``termscribe`` package directory (for example
``venv/lib/python3.11/site-packages/termscribe``), imported under another
name from a temporary copy. Only the four renderers that need no pyte are
timed that way.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
RENDERERS = ("text lines", "text strip", "html", "ansi", "text screen")


def _worker(rounds: int) -> None:
    """One round in this interpreter: {input: {renderer: best seconds}}."""
    sys.path.insert(0, str(HERE))
    import bench

    from termscribe import render_ansi, render_html, render_text

    impls: dict[str, Callable[[bytes], str]] = {
        "text lines": render_text,
        "text strip": lambda data: render_text(data, mode="strip"),
        "html": render_html,
        "ansi": render_ansi,
        "text screen": lambda data: render_text(data, mode="screen"),
    }
    inputs = {name: bench._public(name)(False) for name in bench.PUBLIC}
    for name, (_, size, maker) in bench.NORMAL.items():
        inputs[name] = maker(size)
    out: dict[str, dict[str, float | int]] = {}
    for name, data in inputs.items():
        row: dict[str, float | int] = {"bytes": len(data)}
        for label, impl in impls.items():
            best = float("inf")
            for _ in range(rounds):
                started = time.perf_counter()
                impl(data)
                best = min(best, time.perf_counter() - started)
            row[label] = best
        out[name] = row
    json.dump(out, sys.stdout)


def _round(python: str, repeat: int) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", "--repeat", str(repeat)],
        capture_output=True,
        check=True,
        text=True,
        cwd="/",  # never the checkout's src: each interpreter's own termscribe
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def _in_process(package: str, repeat: int, markdown: bool) -> None:
    """Both versions in this process, alternating run by run (see above)."""
    import gc
    import importlib
    import math
    import shutil
    import tempfile

    sys.path.insert(0, str(HERE))
    import bench

    copy = tempfile.mkdtemp()
    shutil.copytree(package, Path(copy) / "termscribe_before")
    sys.path.insert(0, copy)
    before = importlib.import_module("termscribe_before")
    after = importlib.import_module("termscribe")
    renderers = RENDERERS[:4]

    def impls(module: object) -> list[Callable[[bytes], str]]:
        text, html, ansi = (getattr(module, f"render_{k}") for k in ("text", "html", "ansi"))
        return [text, lambda data: text(data, mode="strip"), html, ansi]

    inputs = {name: bench._public(name)(False) for name in bench.PUBLIC}
    for name, (_, size, maker) in bench.NORMAL.items():
        inputs[name] = maker(size)
    header = ["input", *(f"{r} before → after MB/s (×)" for r in renderers)]
    print(
        ("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        if markdown
        else "  ".join(header)
    )
    ratios = []
    for name, data in inputs.items():
        cells = [name]
        for old, new in zip(impls(before), impls(after), strict=True):
            best = [float("inf"), float("inf")]
            for run in range(repeat):
                for side in (0, 1) if run % 2 == 0 else (1, 0):
                    gc.collect()
                    started = time.process_time()
                    (old, new)[side](data)
                    best[side] = min(best[side], time.process_time() - started)
            ratios.append(best[0] / best[1])
            mb = len(data) / 1e6
            cells.append(f"{mb / best[0]:.2f} → {mb / best[1]:.2f} ({best[0] / best[1]:.2f})")
        print(("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells), flush=True)
    mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"\nslowest ratio after/before: {min(ratios):.2f}, geometric mean {mean:.2f}")
    print(f"(best of {repeat} runs each, alternating in one process)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="Python with the other termscribe (required)")
    parser.add_argument("--after", default=sys.executable, help="Python with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each in a round")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--in-process", metavar="DIR", help="the other termscribe package")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.repeat)
        return 0
    if args.in_process is not None:
        _in_process(args.in_process, args.repeat, args.markdown)
        return 0
    if args.before is None:
        parser.error("--before (or --in-process) is required")
    best: dict[str, dict[str, dict[str, float]]] = {"before": {}, "after": {}}
    sizes: dict[str, float] = {}
    for number in range(args.rounds):
        for side in ("before", "after") if number % 2 == 0 else ("after", "before"):
            print(f"round {number + 1}: {side}", file=sys.stderr)
            for name, row in _round(getattr(args, side), args.repeat).items():
                sizes[name] = row["bytes"]
                kept = best[side].setdefault(name, {})
                for label in RENDERERS:
                    kept[label] = min(kept.get(label, float("inf")), row[label])
    header = ["input", *(f"{r} before → after MB/s (×)" for r in RENDERERS)]
    rows = []
    worst = float("inf")
    for name, size in sizes.items():
        cells = [name]
        for label in RENDERERS:
            before = size / best["before"][name][label] / 1e6
            after = size / best["after"][name][label] / 1e6
            worst = min(worst, after / before)
            cells.append(f"{before:.2f} → {after:.2f} ({after / before:.2f})")
        rows.append(cells)
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for cells in rows:
            print("| " + " | ".join(cells) + " |")
    else:
        for cells in [header, *rows]:
            print("  ".join(cells))
    runs = args.rounds * args.repeat
    print(f"\nslowest ratio after/before: {worst:.2f} (best of {runs} runs: {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
