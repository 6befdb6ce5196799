"""benchmarks/kinds.py runs end to end and prints its tables.

A script, not a timed test: this checks that ``--quick`` finishes with a
number for every implementation on every kind and every full-screen
recording, and a verdict for every target, never what the numbers are.
"""

from __future__ import annotations

import importlib.util
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
]
FULL_SCREEN = ["vim_edit", "top", "htop", "less_view"]
NUMBER = r"\d+(?:\.\d+)?"


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
    start = output.index(f"\n{title}\n")
    end = output.find("\n\n", start + 1)
    return output[start : end if end != -1 else len(output)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_its_numbers(output: str, kind: str) -> None:
    peer = NUMBER if _peers_installed() else rf"(?:{NUMBER}|not installed)"
    throughput = _table(output, "Throughput")
    row = rf"^{re.escape(kind)}\s+.+MB\s+{NUMBER}\s+{peer}\s+{NUMBER}\s+{peer}$"
    assert re.search(row, throughput, re.M), throughput
    ratios = _table(output, "Ratios (termscribe over peer; target at least 1)")
    cell = rf"{NUMBER}×\s+(?:PASS|FAIL)" if _peers_installed() else r"\S+\s+not measured"
    assert re.search(rf"^{re.escape(kind)}\s+{cell}\s+{cell}$", ratios, re.M), ratios


@pytest.mark.parametrize("name", FULL_SCREEN)
def test_every_full_screen_recording_has_its_speed(output: str, name: str) -> None:
    table = _table(output, "Screen mode (target 5 MB/s as one stream)")
    row = rf"^{name}\s+\d+ B x \d+\s+{NUMBER}\s+{NUMBER}\s+(?:PASS|FAIL)$"
    assert re.search(row, table, re.M), table


def test_targets_are_counted(output: str) -> None:
    targets = _table(output, "Targets")
    assert re.search(r"^termscribe at least as fast as its peer\s+\d+\s+18$", targets, re.M)
    assert re.search(r"^screen mode at least 5 MB/s\s+\d+\s+4$", targets, re.M)


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
        assert len(item.make(50_000)) >= 50_000 or item.source == "benchmarks/data"
