"""benchmarks/live.py runs end to end (quick sizes) and prints every table
with a number in each cell."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_prints_every_table_with_numbers() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "live.py"), "--quick"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    out = done.stdout
    for title in ("## Per update", "## Memory", "## The cyclic GC"):
        assert title in out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    data = [row for row in rows if re.match(r"\| (\d|defaults|max_|styled|on|off)", row)]
    assert len(data) == 2 + 3 + 2
    for row in data:
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        assert cells and all(re.fullmatch(r"\d+\.\d+", cell) for cell in cells), row
    assert re.search(r"An idle Transcript: \d+\.\d KB", out)
