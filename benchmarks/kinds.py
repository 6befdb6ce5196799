#!/usr/bin/env python3
"""termscribe beside rich and ansi2html on each kind of log, and the screen
mode's speed on full-screen programs.

1. Kinds: 2 MB of each kind of log a transcript is made of (the plain
   application log generated from a fixed seed; each real recording of
   ``corpus/recordings`` and each public log of ``benchmarks/data``
   repeated, whole, until it reaches 2 MB), rendered as text by
   ``render_text`` and by rich (``Text.from_ansi(...).plain``), and as HTML
   by ``render_html`` and by ansi2html (``Ansi2HTMLConverter().convert``).
   Each ratio is termscribe's throughput over the peer's; the target is at
   least 1 on every kind. Peers decode the bytes inside their timing, as
   termscribe does.
2. Screen mode: MB/s of ``Transcript(mode="screen")`` at each recording's
   size (from its sidecar) on the full-screen recordings (vim, top, htop,
   less), repeated to 2 MB: fed as one stream, and copy by copy to a new
   transcript each (so that nothing one copy taught the model's caches
   helps the next). The target is 5 MB/s as one stream.

Every measurement is the best of N runs, made as N rounds of every
measurement in turn (``bench.best_in_rounds``), so that a stretch of load on
the machine slows one run of each rather than every run of one.

Usage:

    python benchmarks/kinds.py                 # 2 MB of each, best of 3 (about 2 minutes)
    python benchmarks/kinds.py --quick         # 100 KB of each, 1 run (a few seconds)
    python benchmarks/kinds.py --runs 5 --markdown

Progress goes to stderr; the tables go to stdout.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import bench

from termscribe import Transcript, render_html, render_text

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE.parent / "corpus" / "recordings"
MB = bench.MB
SIZE = 2 * MB
QUICK_SIZE = 100_000
SCREEN_TARGET_MBPS = 5.0


@dataclass(frozen=True)
class Kind:
    name: str
    source: str
    make: Callable[[int], bytes]  # size in bytes -> at least that many


def repeated(raw: bytes, size: int) -> bytes:
    """Whole copies of ``raw`` until ``size`` bytes are reached (a copy is
    never cut: no split code point or sequence at the end); if ``raw`` is
    longer, its lines up to ``size`` bytes."""
    if len(raw) > size:
        end = raw.rfind(b"\n", 0, size) + 1
        return raw[: end or size]
    return raw * -(-size // len(raw))


def _recording(name: str) -> Callable[[int], bytes]:
    return lambda size: repeated((RECORDINGS / f"{name}.raw").read_bytes(), size)


def _public(name: str) -> Callable[[int], bytes]:
    return lambda size: repeated((bench.DATA / f"{name}.raw").read_bytes(), size)


KINDS = [
    Kind("plain application log", "generated, no escapes", bench.plain_log),
    Kind("pytest --color=yes", "recording pytest_color", _recording("pytest_color")),
    Kind("tqdm bars", "recording tqdm_progress", _recording("tqdm_progress")),
    Kind("ls --color -l", "recording ls_color", _recording("ls_color")),
    Kind("cargo build", "recording cargo_build", _recording("cargo_build")),
    Kind("git log --graph --color", "recording git_log_graph", _recording("git_log_graph")),
    Kind("CJK and emoji, some colour", "recording cjk_git_log", _recording("cjk_git_log")),
    Kind("npm install", "benchmarks/data", _public("npm-install")),
    Kind("docker compose pull", "benchmarks/data", _public("docker-compose-pull")),
]
FULL_SCREEN = ("vim_edit", "top", "htop", "less_view")

TEXT = "termscribe render_text"
RICH = "rich Text.from_ansi"
HTML = "termscribe render_html"
ANSI2HTML = "ansi2html convert"
SCREEN = "screen, one stream"
SCREEN_COPIES = "screen, copy by copy"


def _rich() -> Callable[[bytes], object] | None:
    try:
        from rich.text import Text
    except ImportError:
        return None
    return lambda data: Text.from_ansi(data.decode("utf-8", "replace")).plain


def _ansi2html() -> Callable[[bytes], object] | None:
    try:
        from ansi2html import Ansi2HTMLConverter
    except ImportError:
        return None
    return lambda data: Ansi2HTMLConverter().convert(data.decode("utf-8", "replace"))


def implementations() -> dict[str, Callable[[bytes], object] | None]:
    return {TEXT: render_text, RICH: _rich(), HTML: render_html, ANSI2HTML: _ansi2html()}


def screen_once(data: bytes, columns: int, rows: int) -> str:
    transcript = Transcript(mode="screen", columns=columns, rows=rows)
    transcript.feed(data)
    transcript.finish()
    return transcript.text()


def screen_copies(raw: bytes, copies: int, columns: int, rows: int) -> None:
    for _ in range(copies):
        screen_once(raw, columns, rows)


# ----------------------------------------------------------------- running

Outcome = float | str  # seconds, or why there is no time


def warm_up() -> None:
    """Each implementation once on a little of each kind, untimed: imports
    made when first used and first-use caches are not throughput."""
    impls = [impl for impl in implementations().values() if impl is not None]
    for item in KINDS:
        sample = item.make(1)[:4096]
        for impl in impls:
            impl(sample)
    for name in FULL_SCREEN:
        screen_once((RECORDINGS / f"{name}.raw").read_bytes(), 100, 30)


def run_kinds(data: dict[str, bytes], runs: int, budget: float) -> dict[tuple[str, str], Outcome]:
    """Every implementation on every kind, in alternating rounds."""
    impls = implementations()
    jobs: dict[str, Callable[[], object]] = {}
    keys: dict[str, tuple[str, str]] = {}
    for kind, payload in data.items():
        for label, impl in impls.items():
            if impl is None:
                continue
            key = f"{kind}: {label}"
            jobs[key] = lambda impl=impl, payload=payload: impl(payload)  # type: ignore[misc]
            keys[key] = (kind, label)
    best = bench.best_in_rounds(jobs, runs, budget)
    return {keys[key]: outcome for key, outcome in best.items()}


def run_screen(size: int, runs: int, budget: float) -> dict[tuple[str, str], Outcome]:
    jobs: dict[str, Callable[[], object]] = {}
    keys: dict[str, tuple[str, str]] = {}
    for name in FULL_SCREEN:
        meta = json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))
        raw = (RECORDINGS / f"{name}.raw").read_bytes()
        data = repeated(raw, size)
        copies = len(data) // len(raw)
        columns, rows = meta["columns"], meta["rows"]
        jobs[f"{name}: {SCREEN}"] = lambda d=data, c=columns, r=rows: screen_once(d, c, r)  # type: ignore[misc]
        jobs[f"{name}: {SCREEN_COPIES}"] = (
            lambda raw=raw, n=copies, c=columns, r=rows: screen_copies(raw, n, c, r)  # type: ignore[misc]
        )
        keys[f"{name}: {SCREEN}"] = (name, SCREEN)
        keys[f"{name}: {SCREEN_COPIES}"] = (name, SCREEN_COPIES)
    best = bench.best_in_rounds(jobs, runs, budget)
    return {keys[key]: outcome for key, outcome in best.items()}


# ------------------------------------------------------------------ report


def mbps(outcome: Outcome | None, nbytes: int) -> float | None:
    return outcome and nbytes / MB / outcome if isinstance(outcome, float) else None


def fmt_mbps(value: float | None, outcome: Outcome | None) -> str:
    if value is not None:
        return bench.fmt_num(value)
    return "not installed" if outcome is None else "failed"


def ratio(ours: float | None, peer: float | None) -> float | None:
    return None if ours is None or peer is None else ours / peer


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "not measured"
    return "PASS" if value >= target else "FAIL"


def header(report: bench.Report, args: argparse.Namespace, runs: int) -> None:
    versions = ", ".join(
        f"{name} {bench._version(name)}" for name in ("termscribe", "pyte", "ansi2html", "rich")
    )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    facts = [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("machine", f"{platform.platform()}; {bench._cpu_model()}; {os.cpu_count()} cores"),
        ("load average at start", load),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("packages", versions),
        ("C extension", bench._speedups_state()),
        ("commit", bench._commit()),
        ("command", "python benchmarks/kinds.py " + " ".join(sys.argv[1:])),
        ("method", f"best of {runs}, as {runs} rounds of every measurement; MB = 10^6 bytes"),
    ]
    if args.markdown:
        report.lines += ["# termscribe beside its peers, kind by kind", ""]
        report.lines += [f"- {key}: {value}" for key, value in facts]
        report.lines.append("")
    else:
        report.lines += [f"{key}: {value}" for key, value in facts]


def describe_kinds(
    report: bench.Report, data: dict[str, bytes], results: dict[tuple[str, str], Outcome]
) -> list[tuple[str, float | None, float | None]]:
    """The throughput and ratio tables; returns (kind, text ratio, HTML ratio)."""
    report.heading("Kinds (MB/s of input)")
    rows = []
    ratios = []
    for item in KINDS:
        nbytes = len(data[item.name])
        speeds = {
            label: mbps(results.get((item.name, label)), nbytes) for label in implementations()
        }
        cells = [
            fmt_mbps(speeds[label], results.get((item.name, label)))
            for label in (TEXT, RICH, HTML, ANSI2HTML)
        ]
        rows.append([item.name, item.source, bench.fmt_mb(nbytes), *cells])
        ratios.append(
            (item.name, ratio(speeds[TEXT], speeds[RICH]), ratio(speeds[HTML], speeds[ANSI2HTML]))
        )
    report.table(
        "Throughput",
        ["kind", "input", "size", TEXT, RICH, HTML, ANSI2HTML],
        rows,
        text_columns=(0, 1),
    )
    report.table(
        "Ratios (termscribe over peer; target at least 1)",
        ["kind", "text ÷ rich", "", "HTML ÷ ansi2html", ""],
        [
            [
                name,
                bench.fmt_ratio(text),
                verdict(text, 1.0),
                bench.fmt_ratio(html),
                verdict(html, 1.0),
            ]
            for name, text, html in ratios
        ],
    )
    return ratios


def describe_screen(
    report: bench.Report, size: int, results: dict[tuple[str, str], Outcome]
) -> list[tuple[str, float | None]]:
    report.heading("Screen mode on full-screen recordings (MB/s of input)")
    rows = []
    speeds = []
    for name in FULL_SCREEN:
        raw_size = (RECORDINGS / f"{name}.raw").stat().st_size
        nbytes = len(repeated(b"x" * raw_size, size))
        once = mbps(results.get((name, SCREEN)), nbytes)
        copies = mbps(results.get((name, SCREEN_COPIES)), nbytes)
        rows.append(
            [
                name,
                f"{raw_size} B x {nbytes // raw_size}",
                fmt_mbps(once, results.get((name, SCREEN))),
                fmt_mbps(copies, results.get((name, SCREEN_COPIES))),
                verdict(once, SCREEN_TARGET_MBPS),
            ]
        )
        speeds.append((name, once))
    report.table(
        f"Screen mode (target {SCREEN_TARGET_MBPS:g} MB/s as one stream)",
        ["recording", "input", SCREEN, SCREEN_COPIES, ""],
        rows,
        text_columns=(0, 1),
    )
    return speeds


def describe_targets(
    report: bench.Report,
    ratios: list[tuple[str, float | None, float | None]],
    speeds: list[tuple[str, float | None]],
) -> None:
    """How many targets were met."""
    verdicts = [verdict(value, 1.0) for _, *values in ratios for value in values]
    screen = [verdict(speed, SCREEN_TARGET_MBPS) for _, speed in speeds]
    report.heading("Targets")
    report.table(
        "Targets",
        ["target", "met", "of"],
        [
            [
                "termscribe at least as fast as its peer",
                str(verdicts.count("PASS")),
                str(len(verdicts)),
            ],
            [
                f"screen mode at least {SCREEN_TARGET_MBPS:g} MB/s",
                str(screen.count("PASS")),
                str(len(screen)),
            ],
        ],
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SIZE} bytes of each, 1 run")
    parser.add_argument("--runs", type=int, help="rounds (default 3, or 1 with --quick)")
    parser.add_argument("--markdown", action="store_true", help="tables in Markdown")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    runs = args.runs or (1 if args.quick else 3)
    size = QUICK_SIZE if args.quick else SIZE
    budget = bench.QUICK_TIMEOUT_S if args.quick else bench.TIMEOUT_S
    report = bench.Report(args.markdown)
    header(report, args, runs)
    bench.progress("making inputs")
    data = {item.name: item.make(size) for item in KINDS}
    warm_up()
    bench.progress("kinds")
    ratios = describe_kinds(report, data, run_kinds(data, runs, budget))
    bench.progress("screen mode")
    speeds = describe_screen(report, size, run_screen(size, runs, budget))
    describe_targets(report, ratios, speeds)
    sys.stdout.write(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
