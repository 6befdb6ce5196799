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


def _round(python: str) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker"],
        capture_output=True,
        check=True,
        text=True,
        cwd="/",  # never the checkout's src: each interpreter's own termscribe
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="Python with the other termscribe (required)")
    parser.add_argument("--after", default=sys.executable, help="Python with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(1)
        return 0
    if args.before is None:
        parser.error("--before is required")
    best: dict[str, dict[str, dict[str, float]]] = {"before": {}, "after": {}}
    sizes: dict[str, float] = {}
    for number in range(args.rounds):
        for side in ("before", "after") if number % 2 == 0 else ("after", "before"):
            print(f"round {number + 1}: {side}", file=sys.stderr)
            for name, row in _round(getattr(args, side)).items():
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
    print(f"\nslowest ratio after/before: {worst:.2f} (best of {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
