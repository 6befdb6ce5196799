#!/usr/bin/env python3
"""Record the logs of real programs that benchmarks/kinds.py measures, into
benchmarks/recordings/.

Each program runs on a fresh pseudo-terminal of 100 columns x 30 rows, as
``scripts/record_corpus.py`` runs its programs (its pty runner and
environment are used here: TERM=xterm-256color, LANG=C.UTF-8, a throw-away
HOME). Every byte a program writes is saved unchanged as
``benchmarks/recordings/<name>.raw``, with a sidecar ``<name>.json``:

    {"name", "command", "columns", "rows", "description", "recorded"}

These logs are for measuring speed only (corpus/recordings holds the ones
the tests check output on). Each is kept under MAX_BYTES; kinds.py repeats
it whole to the size it measures.

Fixtures live under a fixed scratch directory (``/tmp/termscribe-bench-logs``),
so that paths in the output are the same on every run. The Python programs
(tqdm, rich, uv, pip) run from a virtual environment made there with the
versions pinned below.

Usage (as root: the apt recording installs and removes packages):

    python scripts/record_bench_logs.py              # record everything
    python scripts/record_bench_logs.py apt_install  # re-record some
    python scripts/record_bench_logs.py --list

Needs: Debian 12 with apt (``apt-get update`` done), jq, cargo on PATH
(rustup), node and npm, and access to PyPI, the npm registry and the
Debian mirrors.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_corpus import COLUMNS, Plan, record_cli, run_in_scratch, save_recording, write

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "benchmarks" / "recordings"
SCRATCH = Path("/tmp/termscribe-bench-logs")
TOOLS = SCRATCH / "tools"  # a virtual environment with the Python programs
MAX_BYTES = 300_000
PYTHON_TOOLS = ("tqdm==4.67.1", "rich==13.9.4", "uv==0.5.11", "pip==24.3.1")
APT_PACKAGES = ("cowsay", "figlet", "sl", "toilet")
VITEST = "vitest@2.1.9"


@dataclass
class Log:
    name: str
    command: str
    description: str
    setup: Callable[[Path], Plan]


LOGS: dict[str, Log] = {}


def log(name: str, command: str, description: str):
    def register(func: Callable[[Path], Plan]) -> Callable[[Path], Plan]:
        LOGS[name] = Log(name, command, description, func)
        return func

    return register


def tools() -> Path:
    """The tools' Python, made once."""
    python = TOOLS / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(TOOLS)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
             *PYTHON_TOOLS],
            check=True,
        )  # fmt: skip
    return python


# --------------------------------------------------------------------------


TQDM_NESTED = """\
import time
from concurrent.futures import ThreadPoolExecutor
from tqdm import tqdm

for epoch in tqdm(range(3), desc="epochs", position=0, mininterval=0.05):
    for _ in tqdm(range(80), desc=f"epoch {epoch + 1} batches", position=1, leave=False,
                  mininterval=0.05, unit="batch"):
        time.sleep(0.01)


def fetch(n):
    with tqdm(total=40 + 15 * n, desc=f"shard-{n}", position=n, unit="B", unit_scale=True,
              mininterval=0.05, leave=True) as bar:
        for _ in range(40 + 15 * n):
            time.sleep(0.012)
            bar.update(1)


with ThreadPoolExecutor(4) as pool:
    list(pool.map(fetch, range(4)))
print("done")
"""


@log(
    "tqdm_nested",
    "python -c '<nested tqdm bars (position=0/1), then four bars from threads>'",
    "tqdm: an outer bar over epochs with an inner bar per epoch (leave=False, "
    "position=1), then four bars updated from threads at positions 0-3; every "
    "redraw of a lower bar is CR, text, then a cursor-up back.",
)
def _tqdm_nested(work: Path) -> Plan:
    return Plan([str(tools()), "-c", TQDM_NESTED], work)


RICH_PROGRESS = """\
import time
from rich.progress import (BarColumn, DownloadColumn, Progress, SpinnerColumn,
                           TextColumn, TimeRemainingColumn, TransferSpeedColumn)

columns = (SpinnerColumn(), TextColumn("[bold blue]{task.description}"), BarColumn(),
           DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn())
with Progress(*columns, refresh_per_second=20) as progress:
    sizes = [4_200_000, 9_800_000, 1_300_000, 6_600_000, 12_000_000]
    tasks = [progress.add_task(f"layer {i + 1}/5", total=size) for i, size in enumerate(sizes)]
    for step in range(120):
        for i, task in enumerate(tasks):
            progress.advance(task, sizes[i] / (40 + 25 * i))
        if step % 30 == 29:
            progress.console.print(f"[green]layer {step // 30 + 1} verified")
        time.sleep(0.03)
"""


@log(
    "rich_progress",
    "python -c '<rich.progress with five download tasks, refresh 20/s>'",
    "rich.progress with five tasks (spinner, bar, sizes, speed, time left) redrawn "
    "as a block of lines every frame: cursor up over the block and erase line by "
    "line, hidden cursor, a log line printed above the block now and then.",
)
def _rich_progress(work: Path) -> Plan:
    return Plan([str(tools()), "-c", RICH_PROGRESS], work)


@log(
    "pip_install",
    "pip install --no-cache-dir pandas==2.2.2 matplotlib==3.9.2 scipy==1.13.1  (into a new venv)",
    "pip installing three large packages and their dependencies from PyPI into a new "
    "virtual environment: a Collecting line and a rich download bar redrawn in place "
    "with 256 colours for each of about fifteen wheels, then the install lines.",
)
def _pip_install(work: Path) -> Plan:
    venv = work / "venv"
    subprocess.run([str(tools()), "-m", "venv", "--without-pip", str(venv)], check=True)
    argv = [
        str(tools()), "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
        "--no-cache-dir", "--only-binary", ":all:", "pandas==2.2.2", "matplotlib==3.9.2",
        "scipy==1.13.1",
    ]  # fmt: skip
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    return Plan(argv, work, env, timeout=300)


@log(
    "uv_install",
    "uv pip install --no-cache --no-deps numpy==1.26.4 pandas==2.2.2 scipy==1.13.1  (new venv)",
    "uv installing three large wheels: indicatif's bars, one line per download, "
    "redrawn together with a cursor-up over the block (CSI n A) every frame.",
)
def _uv_install(work: Path) -> Plan:
    uv = tools().parent / "uv"
    venv = work / "venv"
    subprocess.run([str(uv), "venv", "-q", str(venv)], check=True, cwd=work)

    argv = [
        str(uv), "pip", "install", "--no-cache", "--python", str(venv / "bin" / "python"),
        "numpy==1.26.4", "pandas==2.2.2", "scipy==1.13.1", "--no-deps",
    ]  # fmt: skip
    # uv reads the system's certificates only when asked to.
    return Plan(argv, work, {"UV_NATIVE_TLS": "1"}, timeout=300)


@log(
    "apt_install",
    "apt-get install -y -o Dpkg::Progress-Fancy=1 -o Dpkg::Use-Pty=1 cowsay figlet sl toilet"
    " && apt-get purge (the same)",
    "apt-get installing then purging four small packages with dpkg's fancy "
    "progress: a scroll region over all rows but the last (DECSTBM), and a "
    "status line with a bar drawn on the bottom row with save and restore "
    "cursor after each log line.",
)
def _apt_install(work: Path) -> Plan:
    packages = " ".join(APT_PACKAGES)
    options = "-y -o Dpkg::Progress-Fancy=1 -o Dpkg::Use-Pty=1"
    script = f"apt-get install {options} {packages} && apt-get purge {options} {packages}"
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    return Plan(["sh", "-c", script], work, env, timeout=300)


CARGO_MAIN = """\
use std::collections::HashMap;
use std::fmt::Write;

mod config;

#[derive(Debug)]
struct Entry {
    name: String,
    size: u64,
    tags: Vec<String>,
}

fn summarize(entries: &[Entry]) -> HashMap<String, u64> {
    let mut totals = HashMap::new();
    let unused_count = entries.len();
    for entry in entries {
        for tag in &entry.tags {
            *totals.entry(tag.clone()).or_insert(0) += entry.size;
        }
    }
    totals
}

fn largest(entries: &Vec<Entry>) -> &Entry {
    let mut best = &entries[0];
    for e in entries {
        if e.size > best.size { best = e }
    }
    best
}

fn main() {
    let mut entries = vec![Entry { name: "a".into(), size: 3, tags: vec!["x".into()] }];
    let first = &entries[0];
    entries.push(Entry { name: "b".into(), size: 5, tags: vec![] });
    println!("{}", first.name);
    let total: u32 = summarize(&entries).values().sum();
    let label: &str = largest(&entries).size;
    println!("{total} {label} {}", config::LIMIT);
}
"""

CARGO_CONFIG = """\
pub const LIMIT: usize = 10;
pub const unused_limit: usize = 20;

pub fn parse(text: &str) -> Option<usize> {
    let trimmed = text.trim();
    match trimmed.parse::<usize>() {
        Ok(n) => Some(n),
        Err(e) => None,
    }
}
"""


@log(
    "cargo_diagnostics",
    "cargo build --color=always  (a crate with warnings and errors)",
    "cargo building a crate with warnings (unused imports and variables, naming) "
    "and errors (a borrow conflict, mismatched types): coloured diagnostics with "
    "source snippets, labels, notes and help, and cargo's summary lines.",
)
def _cargo(work: Path) -> Plan:
    crate = work / "inventory"
    write(
        crate / "Cargo.toml",
        '[package]\nname = "inventory"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    )
    write(crate / "src" / "main.rs", CARGO_MAIN)
    write(crate / "src" / "config.rs", CARGO_CONFIG)
    env = {
        "CARGO_TARGET_DIR": str(work / "target"),
        "CARGO_TERM_PROGRESS_WHEN": "always",
        "CARGO_TERM_PROGRESS_WIDTH": str(COLUMNS),
    }
    return Plan(["cargo", "build", "--color=always"], crate, env, timeout=300)


VITEST_SOURCE = """\
export function add(a, b) { return a + b }
export function slugify(text) { return text.toLowerCase().replace(/ /g, '-') }
export function median(values) {
  const sorted = [...values].sort()
  return sorted[Math.floor(sorted.length / 2)]
}
export async function fetchUser(id) {
  return { id, name: `user ${id}`, roles: ['reader'], created: '2020-01-01' }
}
"""

VITEST_TESTS = {
    "math.test.js": """\
import { describe, expect, it } from 'vitest'
import { add, median } from '../src/lib.js'

describe('add', () => {
  it('adds numbers', () => { expect(add(2, 3)).toBe(5) })
  it('concatenates strings', () => { expect(add('a', 'b')).toBe('ab') })
  it('adds floats', () => { expect(add(0.1, 0.2)).toBe(0.3) })
})

describe('median', () => {
  it('of odd length', () => { expect(median([3, 1, 2])).toBe(2) })
  it('of numbers above 9', () => { expect(median([10, 9, 100])).toBe(10) })
})
""",
    "text.test.js": """\
import { describe, expect, it, test } from 'vitest'
import { fetchUser, slugify } from '../src/lib.js'

describe('slugify', () => {
  it('lowercases', () => { expect(slugify('Hello')).toBe('hello') })
  it('joins words', () => { expect(slugify('a b c')).toBe('a-b-c') })
  it('drops punctuation', () => { expect(slugify('Hello, World!')).toBe('hello-world') })
})

test('fetchUser', async () => {
  expect(await fetchUser(7)).toEqual({ id: 7, name: 'user 7', roles: ['reader', 'writer'],
    created: '2020-01-01' })
})
test.skip('slow path', () => {})
test.todo('unicode slugs')
""",
}


@log(
    "vitest_run",
    "npx vitest run  (FORCE_COLOR=1; two files, passing, failing, skipped and todo tests)",
    "vitest 2 running two test files: per-file lines, failures with coloured "
    "diffs, code frames and stack lines, and the summary.",
)
def _vitest(work: Path) -> Plan:
    proj = work / "app"
    write(proj / "package.json", '{"name": "app", "private": true, "type": "module"}\n')
    write(proj / "src" / "lib.js", VITEST_SOURCE)
    for name, text in VITEST_TESTS.items():
        write(proj / "test" / name, text)
    subprocess.run(
        ["npm", "install", "-s", "--no-audit", "--no-fund", "--save-dev", VITEST],
        cwd=proj,
        check=True,
    )
    env = {"FORCE_COLOR": "1", "CI": "", "npm_config_update_notifier": "false"}
    return Plan(["npx", "vitest", "run"], proj, env, timeout=180)


@log(
    "jq_long_lines",
    "pip inspect | jq -C -c '.installed[]'  (one package's metadata a line)",
    "jq colouring the compact JSON of pip inspect: one line per installed package, "
    "most several kilobytes long (the package's whole description), with a colour "
    "change every few bytes.",
)
def _jq(work: Path) -> Plan:
    python = tools()
    script = f"{python} -m pip inspect --local 2>/dev/null | jq -C -c '.installed[]'"
    return Plan(["sh", "-c", script], work, {"PIP_DISABLE_PIP_VERSION_CHECK": "1"})


# --------------------------------------------------------------------------


def record(item: Log) -> None:
    data, code, took = run_in_scratch(SCRATCH, item.name, item.setup, str(TOOLS / "bin"))
    meta = {"name": item.name, "command": item.command, "description": item.description}
    save_recording(OUT_DIR, meta, data, code, took, MAX_BYTES)


def main(argv: list[str] | None = None) -> int:
    return record_cli(
        argv,
        __doc__.split("\n\n")[0],
        LOGS,
        lambda item: f"{item.name:20s} {item.command}",
        record,
    )


if __name__ == "__main__":
    sys.exit(main())
