#!/usr/bin/env python3
"""termscribe beside rich and ansi2html on each kind of log, with and without
a width, and the screen mode's speed on full-screen programs.

1. Kinds: 2 MB of each kind of log a transcript is made of: the plain
   application log generated from a fixed seed; each real recording of
   ``corpus/recordings`` and ``benchmarks/recordings`` (made by
   ``scripts/record_corpus.py`` and ``scripts/record_bench_logs.py``) and
   each public log of ``benchmarks/data``, repeated whole until it reaches
   2 MB. Each is rendered as text by ``render_text`` and as HTML by
   ``render_html``, with the default options and with ``columns=80``, and
   by the peers: rich (``Text.from_ansi(...).plain``) for text, ansi2html
   (``Ansi2HTMLConverter().convert``) for HTML. Peers decode the bytes
   inside their timing, as termscribe does. Printed: MB/s of input of each
   (MB = 10^6 bytes) with the spread of its runs, termscribe's ratio to its
   peer (0.95 to 1.05 counts as at par), and the targets: on the nine kinds
   measured since the first release (``OLD``), text at least rich's speed
   and HTML at least ansi2html's; on every kind, with and without a width,
   text at least 20 MB/s and HTML at least 8 MB/s.
2. Screen mode: MB/s of ``Transcript(mode="screen")`` at each recording's
   size (from its sidecar) on the full-screen recordings (vim, top, htop,
   less), repeated to 2 MB: fed as one stream, and copy by copy to a new
   transcript each (so that nothing one copy taught the model's caches
   helps the next). The target is 5 MB/s as one stream.

Every measurement is the best of N runs, made as N rounds of every
measurement in turn, so that a stretch of load on the machine slows one run
of each rather than every run of one. The spread is how much slower the
slowest run was than the best (a large spread: a noisy machine, measure
again).

``--before DIR`` times another version of termscribe in this same process,
alternating with this one round by round, and prints after ÷ before for
each kind: DIR is that version's ``termscribe`` package directory (with its
C extension built, if it is to be measured with it), for example a second
checkout's ``src/termscribe``, imported under another name from a copy.

Usage:

    python benchmarks/kinds.py                 # 2 MB of each, best of 5 (about 10 minutes)
    python benchmarks/kinds.py --quick         # 100 KB of each, 1 run (a few seconds)
    python benchmarks/kinds.py --only tqdm apt --runs 3
    python benchmarks/kinds.py --before ../old/src/termscribe --no-screen
    python benchmarks/kinds.py --markdown > table.md

Progress goes to stderr; the tables go to stdout.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import bench

import termscribe
from termscribe import Transcript

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE.parent / "corpus" / "recordings"
BENCH_RECORDINGS = HERE / "recordings"
MB = bench.MB
SIZE = 2 * MB
QUICK_SIZE = 100_000
RUNS = 5
SCREEN_TARGET_MBPS = 5.0
TEXT_TARGET_MBPS = 20.0
HTML_TARGET_MBPS = 8.0
WIDTH = 80
PAR = (0.95, 1.05)  # a ratio in this range: at par


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


def _file(directory: Path, name: str) -> Callable[[int], bytes]:
    return lambda size: repeated((directory / f"{name}.raw").read_bytes(), size)


#: The kinds measured since the first release; their targets are the peers'
#: speed.
OLD = [
    Kind("plain application log", "generated, no escapes", bench.plain_log),
    Kind("pytest --color=yes", "recording pytest_color", _file(RECORDINGS, "pytest_color")),
    Kind("tqdm bars", "recording tqdm_progress", _file(RECORDINGS, "tqdm_progress")),
    Kind("ls --color -l", "recording ls_color", _file(RECORDINGS, "ls_color")),
    Kind("cargo build", "recording cargo_build", _file(RECORDINGS, "cargo_build")),
    Kind("git log --graph --color", "recording git_log_graph", _file(RECORDINGS, "git_log_graph")),
    Kind("CJK and emoji, some colour", "recording cjk_git_log", _file(RECORDINGS, "cjk_git_log")),
    Kind("npm install", "benchmarks/data", _file(bench.DATA, "npm-install")),
    Kind("docker compose pull", "benchmarks/data", _file(bench.DATA, "docker-compose-pull")),
]


def _recorded(name: str, kind: str) -> Kind:
    return Kind(kind, f"recording {name}", _file(BENCH_RECORDINGS, name))


#: Logs of real programs recorded on the benchmark machine
#: (scripts/record_bench_logs.py; their commands in the .json sidecars).
NEW = [
    _recorded("tqdm_nested", "tqdm, nested and parallel bars"),
    _recorded("pip_install", "pip install, download bars"),
    _recorded("uv_install", "uv pip install, CSI n A redraw"),
    _recorded("rich_progress", "rich.progress, five tasks"),
    _recorded("apt_install", "apt-get, dpkg scroll region"),
    _recorded("cargo_diagnostics", "cargo diagnostics"),
    _recorded("vitest_run", "vitest run"),
    _recorded("jq_long_lines", "jq -C, very long lines"),
]
KINDS = OLD + NEW
FULL_SCREEN = ("vim_edit", "top", "htop", "less_view")

# Columns of the tables: (label, renderer, options).
TEXT = "text"
TEXT_WIDTH = f"text, columns={WIDTH}"
HTML = "HTML"
HTML_WIDTH = f"HTML, columns={WIDTH}"
RICH = "rich"
ANSI2HTML = "ansi2html"
OURS = (TEXT, TEXT_WIDTH, HTML, HTML_WIDTH)
PEER = {TEXT: RICH, TEXT_WIDTH: RICH, HTML: ANSI2HTML, HTML_WIDTH: ANSI2HTML}
TARGET = {
    TEXT: TEXT_TARGET_MBPS,
    TEXT_WIDTH: TEXT_TARGET_MBPS,
    HTML: HTML_TARGET_MBPS,
    HTML_WIDTH: HTML_TARGET_MBPS,
}
BEFORE = "before: "  # prefix of the labels of the other version
SCREEN = "screen, one stream"
SCREEN_COPIES = "screen, copy by copy"

Impl = Callable[[bytes], object]


def _rich() -> Impl | None:
    try:
        from rich.text import Text
    except ImportError:
        return None
    return lambda data: Text.from_ansi(data.decode("utf-8", "replace")).plain


def _ansi2html() -> Impl | None:
    try:
        from ansi2html import Ansi2HTMLConverter
    except ImportError:
        return None
    return lambda data: Ansi2HTMLConverter().convert(data.decode("utf-8", "replace"))


def renderers(module: ModuleType) -> dict[str, Impl]:
    """termscribe's four measurements, from ``module`` (this termscribe or
    another version)."""
    text, html = module.render_text, module.render_html
    return {
        TEXT: text,
        TEXT_WIDTH: lambda data: text(data, columns=WIDTH),
        HTML: html,
        HTML_WIDTH: lambda data: html(data, columns=WIDTH),
    }


def load_before(package: str) -> ModuleType:
    """Another termscribe, from a copy of its package directory imported as
    ``termscribe_before`` (its modules import each other relatively)."""
    copy = Path(tempfile.mkdtemp(prefix="termscribe-before-"))
    shutil.copytree(package, copy / "termscribe_before", ignore=shutil.ignore_patterns("*.pyc"))
    sys.path.insert(0, str(copy))
    return importlib.import_module("termscribe_before")


def implementations(before: ModuleType | None = None) -> dict[str, Impl | None]:
    impls: dict[str, Impl | None] = {
        **renderers(termscribe),
        RICH: _rich(),
        ANSI2HTML: _ansi2html(),
    }
    if before is not None:
        impls.update({BEFORE + label: impl for label, impl in renderers(before).items()})
    return impls


def screen_once(data: bytes, columns: int, rows: int) -> str:
    transcript = Transcript(mode="screen", columns=columns, rows=rows)
    transcript.feed(data)
    transcript.finish()
    return transcript.text()


def screen_copies(raw: bytes, copies: int, columns: int, rows: int) -> None:
    for _ in range(copies):
        screen_once(raw, columns, rows)


# ----------------------------------------------------------------- running


@dataclass
class Times:
    """The runs of one measurement: seconds each, or why it has none."""

    seconds: list[float]
    failure: str = ""

    @property
    def best(self) -> float | None:
        return min(self.seconds) if self.seconds and not self.failure else None

    @property
    def spread(self) -> float | None:
        """How much slower the slowest run was than the best (0.1: 10 %)."""
        best = self.best
        return None if best is None else max(self.seconds) / best - 1


Key = tuple[str, str]  # (kind or recording, label)


def in_rounds(jobs: dict[Key, Callable[[], object]], runs: int, budget: float) -> dict[Key, Times]:
    """Every job once per round, ``runs`` rounds; a job that ran past
    ``budget`` or raised is not run again."""
    times = {key: Times([]) for key in jobs}
    for round_ in range(runs):
        for key, func in jobs.items():
            if times[key].failure:
                continue
            bench.progress(f"  {key[0]}: {key[1]} (run {round_ + 1} of {runs})")
            outcome = bench.timed(func, budget)
            if isinstance(outcome, str):
                times[key].failure = outcome
            else:
                times[key].seconds.append(outcome)
    return times


def warm_up(kinds: list[Kind], impls: dict[str, Impl | None], screen: bool) -> None:
    """Each implementation once on a little of each kind, untimed: imports
    made when first used and first-use caches are not throughput."""
    for item in kinds:
        sample = item.make(1)[:4096]
        for impl in impls.values():
            if impl is not None:
                impl(sample)
    if screen:
        for name in FULL_SCREEN:
            screen_once((RECORDINGS / f"{name}.raw").read_bytes(), 100, 30)


def run_kinds(
    data: dict[str, bytes], impls: dict[str, Impl | None], runs: int, budget: float
) -> dict[Key, Times]:
    """Every implementation on every kind, in alternating rounds."""
    jobs: dict[Key, Callable[[], object]] = {}
    for kind, payload in data.items():
        for label, impl in impls.items():
            if impl is not None:
                jobs[kind, label] = lambda impl=impl, payload=payload: impl(payload)  # type: ignore[misc]
    return in_rounds(jobs, runs, budget)


def run_screen(size: int, runs: int, budget: float) -> dict[Key, Times]:
    jobs: dict[Key, Callable[[], object]] = {}
    for name in FULL_SCREEN:
        meta = json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))
        raw = (RECORDINGS / f"{name}.raw").read_bytes()
        data = repeated(raw, size)
        copies = len(data) // len(raw)
        columns, rows = meta["columns"], meta["rows"]
        jobs[name, SCREEN] = lambda d=data, c=columns, r=rows: screen_once(d, c, r)  # type: ignore[misc]
        jobs[name, SCREEN_COPIES] = (
            lambda raw=raw, n=copies, c=columns, r=rows: screen_copies(raw, n, c, r)  # type: ignore[misc]
        )
    return in_rounds(jobs, runs, budget)


# ------------------------------------------------------------------ report


def mbps(times: Times | None, nbytes: int) -> float | None:
    best = None if times is None else times.best
    return None if best is None else nbytes / MB / best


def fmt_speed(times: Times | None, nbytes: int) -> str:
    """MB/s with the spread of the runs, e.g. ``35.2 (4%)``."""
    if times is None:
        return "not installed"
    if times.failure:
        return "failed"
    spread = times.spread
    return f"{bench.fmt_num(mbps(times, nbytes) or 0)} ({(spread or 0) * 100:.0f}%)"


def ratio(ours: float | None, peer: float | None) -> float | None:
    return None if ours is None or peer is None else ours / peer


def compared(value: float | None) -> str:
    """A ratio and where it stands: faster, at par (within PAR) or slower."""
    if value is None:
        return "not measured"
    word = "faster" if value > PAR[1] else "slower" if value < PAR[0] else "at par"
    return f"{bench.fmt_ratio(value)} {word}"


def at_least(value: float | None, target: float) -> str:
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
    if args.before:
        facts.append(("before", f"the termscribe package of {args.before}"))
    if args.markdown:
        report.lines += ["# termscribe beside its peers, kind by kind", ""]
        report.lines += [f"- {key}: {value}" for key, value in facts]
        report.lines.append("")
    else:
        report.lines += [f"{key}: {value}" for key, value in facts]


Speeds = dict[Key, float | None]


def describe_kinds(
    report: bench.Report,
    kinds: list[Kind],
    data: dict[str, bytes],
    impls: dict[str, Impl | None],
    results: dict[Key, Times],
) -> Speeds:
    """The throughput, ratio and target tables; returns MB/s by (kind, label)."""
    report.heading("Kinds (MB/s of input)")
    speeds: Speeds = {}
    rows = []
    for item in kinds:
        nbytes = len(data[item.name])
        cells = []
        for label in impls:
            times = results.get((item.name, label)) if impls[label] is not None else None
            speeds[item.name, label] = mbps(times, nbytes)
            if not label.startswith(BEFORE):
                cells.append(fmt_speed(times, nbytes))
        rows.append([item.name, bench.fmt_mb(nbytes), *cells])
    labels = [label for label in impls if not label.startswith(BEFORE)]
    report.table(
        "Throughput (MB/s, best of the runs; in brackets how much slower the slowest was)",
        ["kind", "size", *labels],
        rows,
    )
    report.table(
        f"Ratios (termscribe ÷ peer; {PAR[0]:g} to {PAR[1]:g} is at par)",
        ["kind", *(f"{label} ÷ {PEER[label]}" for label in OURS)],
        [
            [
                item.name,
                *(
                    compared(ratio(speeds[item.name, label], speeds[item.name, PEER[label]]))
                    for label in OURS
                ),
            ]
            for item in kinds
        ],
    )
    report.table(
        f"Speed targets (text at least {TEXT_TARGET_MBPS:g} MB/s, "
        f"HTML at least {HTML_TARGET_MBPS:g} MB/s)",
        ["kind", *OURS],
        [
            [item.name, *(at_least(speeds[item.name, label], TARGET[label]) for label in OURS)]
            for item in kinds
        ],
    )
    if any(label.startswith(BEFORE) for label in impls):
        report.table(
            f"Before → after (MB/s; after ÷ before, {PAR[0]:g} to {PAR[1]:g} is at par)",
            ["kind", *OURS],
            [
                [item.name, *(_before_after(speeds, item.name, label) for label in OURS)]
                for item in kinds
            ],
        )
    return speeds


def _before_after(speeds: Speeds, kind: str, label: str) -> str:
    before, after = speeds[kind, BEFORE + label], speeds[kind, label]
    if before is None or after is None:
        return "not measured"
    change = compared(after / before)
    return f"{bench.fmt_num(before)} → {bench.fmt_num(after)} ({change})"


def describe_screen(
    report: bench.Report, size: int, results: dict[Key, Times]
) -> list[float | None]:
    report.heading("Screen mode on full-screen recordings (MB/s of input)")
    rows = []
    speeds = []
    for name in FULL_SCREEN:
        raw_size = (RECORDINGS / f"{name}.raw").stat().st_size
        nbytes = len(repeated(b"x" * raw_size, size))
        once = mbps(results.get((name, SCREEN)), nbytes)
        rows.append(
            [
                name,
                f"{raw_size} B x {nbytes // raw_size}",
                fmt_speed(results.get((name, SCREEN)), nbytes),
                fmt_speed(results.get((name, SCREEN_COPIES)), nbytes),
                at_least(once, SCREEN_TARGET_MBPS),
            ]
        )
        speeds.append(once)
    report.table(
        f"Screen mode (target {SCREEN_TARGET_MBPS:g} MB/s as one stream)",
        ["recording", "input", SCREEN, SCREEN_COPIES, ""],
        rows,
        text_columns=(0, 1),
    )
    return speeds


def describe_targets(
    report: bench.Report, kinds: list[Kind], speeds: Speeds, screen: list[float | None]
) -> None:
    """How many targets were met."""

    def row(what: str, verdicts: list[str]) -> list[str]:
        return [what, str(verdicts.count("PASS")), str(len(verdicts))]

    old = [item.name for item in kinds if item in OLD]
    names = [item.name for item in kinds]
    rows = []
    for label, peer in ((TEXT, RICH), (HTML, ANSI2HTML)):
        verdicts = [
            at_least(ratio(speeds[name, label], speeds[name, peer]), PAR[0]) for name in old
        ]
        rows.append(row(f"first kinds: {label} at least {peer}'s speed (or at par)", verdicts))
    for label in OURS:
        verdicts = [at_least(speeds[name, label], TARGET[label]) for name in names]
        rows.append(row(f"every kind: {label} at least {TARGET[label]:g} MB/s", verdicts))
    if screen:
        verdicts = [at_least(speed, SCREEN_TARGET_MBPS) for speed in screen]
        rows.append(row(f"screen mode at least {SCREEN_TARGET_MBPS:g} MB/s", verdicts))
    report.heading("Targets")
    report.table("Targets", ["target", "met", "of"], rows)


def select(only: list[str]) -> list[Kind]:
    """The kinds whose name or source contains one of ``only`` (all if empty)."""
    if not only:
        return KINDS
    chosen = [k for k in KINDS if any(word in f"{k.name} {k.source}" for word in only)]
    if not chosen:
        raise SystemExit(f"no kind matches {only}; kinds: {', '.join(k.name for k in KINDS)}")
    return chosen


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SIZE} bytes of each, 1 run")
    parser.add_argument("--runs", type=int, help=f"rounds (default {RUNS}, or 1 with --quick)")
    parser.add_argument("--size", type=int, help=f"bytes of each kind (default {SIZE})")
    parser.add_argument("--only", nargs="+", default=[], help="kinds whose name contains a word")
    parser.add_argument("--no-screen", action="store_true", help="skip the screen mode")
    parser.add_argument("--before", metavar="DIR", help="another termscribe package to compare")
    parser.add_argument("--markdown", action="store_true", help="tables in Markdown")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    runs = args.runs or (1 if args.quick else RUNS)
    size = args.size or (QUICK_SIZE if args.quick else SIZE)
    budget = bench.QUICK_TIMEOUT_S if args.quick else bench.TIMEOUT_S
    kinds = select(args.only)
    screen = not args.no_screen
    impls = implementations(load_before(args.before) if args.before else None)
    report = bench.Report(args.markdown)
    header(report, args, runs)
    bench.progress("making inputs")
    data = {item.name: item.make(size) for item in kinds}
    warm_up(kinds, impls, screen)
    bench.progress("kinds")
    speeds = describe_kinds(report, kinds, data, impls, run_kinds(data, impls, runs, budget))
    screen_speeds = []
    if screen:
        bench.progress("screen mode")
        screen_speeds = describe_screen(report, size, run_screen(size, runs, budget))
    describe_targets(report, kinds, speeds, screen_speeds)
    sys.stdout.write(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
