"""benchmarks/bench.py and small_chunks.py run end to end and print every table.

The benchmarks are scripts, not timed tests: this only checks that bench.py's
``--quick`` finishes and reports a number for every implementation on every
input (and small_chunks.py for every variant), never what the numbers are.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from profiles import deep_only

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "bench.py"
SMALL_CHUNKS = REPO / "benchmarks" / "small_chunks.py"

TERMSCRIBE = [
    "termscribe render_text lines",
    "termscribe render_text strip",
    "termscribe render_html",
    "termscribe render_ansi",
    "termscribe render_text screen",
]
# Peers measured when their package is installed (the test extra has them all).
PEERS = {
    "pyte HistoryScreen": "pyte",
    "ansi2html convert": "ansi2html",
    "rich Text.from_ansi": "rich",
    "regex ANSI stripper": None,
}
INPUTS = [
    "npm-install",
    "docker-compose-pull",
    "plain-log",
    "colour-log",
    "cjk-emoji",
    "cjk-log",
    "nfd-names",
    "grep-colour",
    "tab-columns",
    "man-page",
    "progress-bars",
    "osc-unterminated",
    "dcs-unterminated",
    "csi-100k-params",
    "redos-digits",
    "rep-2^31",
    "cup-10^9",
    "combining-storm",
    "newline-flood",
    "huge-line",
    "style-churn",
    "c1-flood",
    "bidi-flood",
    "decaln-flood",
    "ris-flood",
    "ri-flood",
    "ind-flood",
    "decstbm-flood",
    "ed-flood",
    "alt-screen-flood",
    "decsc-decrc-flood",
    "su-sd-flood",
    "il-dl-flood",
    "decstr-flood",
    "tab-stop-flood",
    "mode-flood",
    "mixed-flood",
]
NUMBER = r"\d+(?:\.\d+)?"


@pytest.fixture(scope="module")
def output() -> str:
    deep_only("runs benchmarks/bench.py --quick, a minute or more")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _implementations() -> list[str]:
    installed = [
        name
        for name, package in PEERS.items()
        if package is None or importlib.util.find_spec(package) is not None
    ]
    return TERMSCRIBE + installed


def _section(output: str, heading: str) -> str:
    """The text of one input's throughput table, up to the next blank line."""
    start = output.index(heading)
    end = output.find("\n\n", start)
    return output[start : end if end != -1 else len(output)]


def test_prints_every_section(output: str) -> None:
    for heading in (
        "== Throughput (MB/s of input) ==",
        "Ratios termscribe/peer",
        "Hostile inputs: time per byte over colour-log's",
        "== Per-chunk cost ==",
        "== Streamed export ==",
        "== Targets ==",
    ):
        assert heading in output


def test_names_whether_the_c_extension_is_built(output: str) -> None:
    assert "C extension: built (termscribe._speedups)" in output


@pytest.mark.parametrize("name", INPUTS)
def test_every_implementation_has_a_number_on_every_input(output: str, name: str) -> None:
    table = _section(output, f"\n{name} (")
    for impl in _implementations():
        # A throughput, or an explicit failure (a peer timing out or raising
        # on a hostile input): never a missing row.
        assert re.search(rf"^{re.escape(impl)}\s+({NUMBER}|failed)\b", table, re.M), (
            f"{impl} on {name}:\n{table}"
        )


def _peers_installed() -> bool:
    return all(importlib.util.find_spec(package) for package in ("ansi2html", "rich"))


def test_ratios_have_a_number_for_every_input(output: str) -> None:
    ratios = _section(output, "Ratios termscribe/peer")
    # Three ratios a row; a peer that failed leaves no ratio to print.
    cell = rf"({NUMBER}×|peer failed)" if _peers_installed() else r"\S+"
    for name in INPUTS:
        assert re.search(rf"^{re.escape(name)}\s+{cell}\s+{cell}\s+{cell}$", ratios, re.M), name


def test_chunk_and_stream_tables_have_numbers(output: str) -> None:
    chunks = output[output.index("== Per-chunk cost ==") :]
    for name in ("npm-install", "colour-log"):
        table = _section(chunks, f"\n{name} (")
        for label in ("1 B", "64 B", "4096 B", "one feed"):
            assert re.search(rf"^{label}\s+{NUMBER}\s+{NUMBER}×$", table, re.M), label
    stream = _section(output, "Streamed export\nformat")
    for name in ("text", "html"):
        assert re.search(rf"^{name}\s+20\.0 MB\s.*\s{NUMBER} MB\s", stream, re.M), name


def test_every_target_is_judged(output: str) -> None:
    targets = _section(output, "Targets\ntarget")
    verdicts = re.findall(r"\s(PASS|FAIL|not measured)$", targets, re.M)
    # Five throughput ratios, two chunking, two memory, four hostile (3×),
    # five floods (10×, the screen mode too).
    assert len(verdicts) == 18
    if _peers_installed():
        assert "not measured" not in verdicts


def _bench_module(monkeypatch: pytest.MonkeyPatch) -> object:
    spec = importlib.util.spec_from_file_location("termscribe_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # for its dataclasses
    spec.loader.exec_module(module)
    return module


def test_runs_are_rounds_of_every_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench_module(monkeypatch)
    calls: list[str] = []

    def job(name: str) -> None:
        calls.append(name)

    def failing() -> None:
        calls.append("bad")
        raise RuntimeError("no")

    jobs = {"a": lambda: job("a"), "bad": failing, "b": lambda: job("b")}
    outcomes = bench.best_in_rounds(jobs, 3, 60.0)  # type: ignore[attr-defined]
    # Each round runs every job in turn; one that failed is not run again.
    assert calls == ["a", "bad", "b", "a", "b", "a", "b"]
    assert outcomes["bad"] == "raised RuntimeError"
    assert isinstance(outcomes["a"], float) and isinstance(outcomes["b"], float)


def test_small_chunks_has_a_number_for_every_variant() -> None:
    inputs = ["cargo_build", "tqdm_progress"]
    done = subprocess.run(
        [sys.executable, str(SMALL_CHUNKS), "--rounds", "1", "--min-bytes", "1", "--only", *inputs],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for label in ("TerminalStore()", 'TerminalStore(mode="lines")', "TerminalStore(styled=False)"):
        assert f"\n{label}\n" in done.stdout
    # Messages, then µs and MB/s of each of the five variants, then the overhead.
    row = rf"^(cargo_build|tqdm_progress|all)\s+\d+(\s+-?{NUMBER}){{11}}$"
    assert len(re.findall(row, done.stdout, re.M)) == 9, done.stdout
