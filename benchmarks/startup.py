#!/usr/bin/env python3
"""How long ``termscribe render`` takes as a whole process on empty input.

Runs each command N times (default 20) with stdin from /dev/null and its
output thrown away, in rounds (every command once per round, so that a
stretch of load slows one run of each), and prints the best and the median
wall-clock time of each, beside ``python -c pass`` (the interpreter's own
start) of the Python running this script. The target is 40 ms for ``termscribe render``.

Commands are run with bytecode writing allowed (``PYTHONDONTWRITEBYTECODE``
removed from their environment) after one untimed run, so that the modules'
``.pyc`` files exist, as they do for anyone who installed termscribe.

``--importtime`` then runs the first command under ``python -X importtime``
and lists the modules whose own import took longest (the least over the
runs), and the total of termscribe's.

Usage:

    python benchmarks/startup.py                      # this environment's termscribe render
    python benchmarks/startup.py --importtime         # and the slowest imports
    python benchmarks/startup.py "/old/venv/bin/termscribe render" "termscribe render"
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 20
TARGET_MS = 40.0
SHOWN = 25  # modules listed by --importtime


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _default_command() -> str:
    script = Path(sys.executable).parent / "termscribe"
    found = str(script) if script.exists() else shutil.which("termscribe")
    if found is None:
        raise SystemExit("no termscribe command found: pip install -e . first")
    return f"{found} render"


def measure(commands: list[list[str]], runs: int) -> list[list[float]]:
    """Seconds of each run of each command, in rounds."""
    env = _env()
    for argv in commands:  # untimed: writes the .pyc files
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for argv, kept in zip(commands, times, strict=True):
            started = time.perf_counter()
            subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env, check=True
            )
            kept.append(time.perf_counter() - started)
    return times


def _python_of(argv: list[str]) -> list[str]:
    """The interpreter that runs ``argv`` (a console script's shebang), and
    the arguments that run the same command under it."""
    path = Path(argv[0] if os.sep in argv[0] else shutil.which(argv[0]) or argv[0])
    if path.name.startswith("python"):
        return argv
    first = path.read_bytes().split(b"\n", 1)[0]
    if not first.startswith(b"#!"):
        raise SystemExit(f"{path} is not a script: give the python command instead")
    return [*first[2:].decode().split(), str(path), *argv[1:]]


def importtime(argv: list[str], runs: int) -> None:
    """The slowest imports of ``argv`` (self time, least over ``runs``)."""
    python, *rest = _python_of(argv)
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(
            [python, "-X", "importtime", *rest],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=_env(),
            check=True,
        )
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            self_us, cumulative_us, name = line.split(":", 1)[1].split("|")
            name = name.strip()
            own[name] = min(own.get(name, 1 << 60), int(self_us))
            total[name] = min(total.get(name, 1 << 60), int(cumulative_us))
    print(f"\nslowest imports of {shlex.join(argv)} (µs, least of {runs} runs):")
    print(f"{'self':>7} {'cumulative':>10}  module")
    for name in sorted(own, key=own.__getitem__, reverse=True)[:SHOWN]:
        print(f"{own[name]:7d} {total[name]:10d}  {name}")
    ours = sum(us for name, us in own.items() if name.split(".")[0] == "termscribe")
    print(f"\n{len(own)} modules; termscribe's own: {ours / 1000:.1f} ms, all: "
          f"{sum(own.values()) / 1000:.1f} ms (importtime adds its own overhead)")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="*", help="commands to time (default: termscribe render)")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--importtime", action="store_true", help="list the slowest imports")
    args = parser.parse_args(argv)
    commands = [shlex.split(c) for c in args.commands or [_default_command()]]
    baseline = [sys.executable, "-c", "pass"]
    times = measure([baseline, *commands], args.runs)
    print(f"wall-clock time of a whole process, {args.runs} runs each, stdin /dev/null")
    print(f"{'best':>8} {'median':>8}  command")
    for argv_, kept in zip([baseline, *commands], times, strict=True):
        best, median = min(kept) * 1000, statistics.median(kept) * 1000
        print(f"{best:6.1f}ms {median:6.1f}ms  {shlex.join(argv_)}")
    print(f"(target for termscribe render: {TARGET_MS:g} ms)")
    if args.importtime:
        importtime(commands[0], min(args.runs, 10))
    return 0


if __name__ == "__main__":
    sys.exit(main())
