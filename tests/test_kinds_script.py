"""benchmarks/kinds.py runs end to end and prints its tables.

A script, not a timed test: this checks that ``--quick`` finishes with a
number for every implementation on every kind and every full-screen
recording, and a verdict for every target, never what the numbers are.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "kinds.py"
KINDS = [
    "plain application log",
    "pytest --color=yes",
    "tqdm bars",
    "ls --color -l",
    "cargo build",
    "git log --graph --color",
    "CJK and emoji, some colour",
    "npm install",
    "docker compose pull",
    "tqdm, nested and parallel bars",
    "pip install, download bars",
    "uv pip install, CSI n A redraw",
    "rich.progress, five tasks",
    "apt-get, dpkg scroll region",
    "cargo diagnostics",
    "vitest run",
    "jq -C, very long lines",
]
FULL_SCREEN = ["vim_edit", "top", "htop", "less_view"]
NUMBER = r"\d+(?:\.\d+)?"
SPEED = rf"{NUMBER} \(\d+%\)"  # MB/s and the spread of the runs
RATIO = rf"{NUMBER}× (?:faster|at par|slower)"


@pytest.fixture(scope="module")
def output() -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _peers_installed() -> bool:
    return all(importlib.util.find_spec(package) for package in ("ansi2html", "rich"))


def _table(output: str, title: str) -> str:
    start = output.index(f"\n{title}")
    end = output.find("\n\n", start + 1)
    return output[start : end if end != -1 else len(output)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_its_numbers(output: str, kind: str) -> None:
    peer = SPEED if _peers_installed() else rf"(?:{SPEED}|not installed)"
    throughput = _table(output, "Throughput")
    row = rf"^{re.escape(kind)}\s+{NUMBER} MB" + rf"\s+{SPEED}" * 4 + rf"\s+{peer}" * 2 + "$"
    assert re.search(row, throughput, re.M), throughput
    ratios = _table(output, "Ratios")
    cell = RATIO if _peers_installed() else "not measured"
    assert re.search(rf"^{re.escape(kind)}" + rf"\s+{cell}" * 4 + "$", ratios, re.M), ratios
    targets = _table(output, "Speed targets")
    assert re.search(rf"^{re.escape(kind)}" + r"\s+(?:PASS|FAIL)" * 4 + "$", targets, re.M)


@pytest.mark.parametrize("name", FULL_SCREEN)
def test_every_full_screen_recording_has_its_speed(output: str, name: str) -> None:
    table = _table(output, "Screen mode (target 5 MB/s as one stream)")
    row = rf"^{name}\s+\d+ B x \d+\s+{SPEED}\s+{SPEED}\s+(?:PASS|FAIL)$"
    assert re.search(row, table, re.M), table


def test_targets_are_counted(output: str) -> None:
    targets = _table(output, "Targets")
    for target, of in [
        ("first kinds: text at least rich's speed", 9),
        ("first kinds: HTML at least ansi2html's speed", 9),
        ("every kind: text at least 20 MB/s", len(KINDS)),
        ("every kind: text, columns=80 at least 20 MB/s", len(KINDS)),
        ("every kind: HTML at least 8 MB/s", len(KINDS)),
        ("every kind: HTML, columns=80 at least 8 MB/s", len(KINDS)),
        ("screen mode at least 5 MB/s", 4),
    ]:
        assert re.search(rf"^{re.escape(target)}.*\s+\d+\s+{of}$", targets, re.M), targets


def test_another_version_is_compared_in_the_same_process() -> None:
    # This tree's own package stands for the other version: the table of
    # before and after has a cell for every measurement of the chosen kind.
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--only", "vitest", "--no-screen",
         "--before", str(REPO / "src" / "termscribe")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    table = _table(done.stdout, "Before → after")
    cell = rf"{NUMBER} → {NUMBER} \({RATIO}\)"
    assert re.search(r"^vitest run" + rf"\s+{cell}" * 4 + "$", table, re.M), table
    assert "jq -C" not in done.stdout and "Screen mode" not in done.stdout


def _kinds_module(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPT.parent))  # it imports bench
    spec = importlib.util.spec_from_file_location("termscribe_kinds", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # for its dataclasses
    spec.loader.exec_module(module)
    return module


def test_recordings_are_repeated_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    kinds = _kinds_module(monkeypatch)
    assert kinds.repeated(b"ab\n", 7) == b"ab\nab\nab\n"  # never a cut copy
    assert kinds.repeated(b"ab\n", 6) == b"ab\nab\n"
    assert kinds.repeated(b"one\ntwo\nthree\n", 9) == b"one\ntwo\n"  # longer: whole lines
    for item in kinds.KINDS:
        assert len(item.make(400_000)) >= 400_000 or item.source == "benchmarks/data"
    assert len(kinds.NEW) >= 6 and {k.name for k in kinds.OLD} == set(KINDS[:9])


def test_the_recorded_logs_are_small_and_described() -> None:
    recordings = REPO / "benchmarks" / "recordings"
    for raw in sorted(recordings.glob("*.raw")):
        meta = json.loads(raw.with_suffix(".json").read_text(encoding="utf-8"))
        assert meta["name"] == raw.stem and meta["command"] and meta["description"]
        assert 1_000 < raw.stat().st_size <= 300_000, raw.name
