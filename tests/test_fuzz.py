"""Each coverage-guided fuzz harness of fuzz/ runs for a short fixed time and finds nothing.

A short run on a corpus seeded from corpus/ and the example session logs
(see ``fuzz/run.py``): the test fails when a harness finds a failing input
(it is saved under ``fuzz/artifacts/``, and the output says how to replay
it), exits abnormally, or never gets past its seeds (a harness that stalls:
the time is a limit to wait for fuzzing to happen, not a speed to meet).
``TERMSCRIBE_FUZZ_SECONDS`` changes the time per harness (default 25 in the
deep profile, 3 in the default one).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from profiles import is_deep

ROOT = Path(__file__).resolve().parent.parent
SECONDS = int(os.environ.get("TERMSCRIBE_FUZZ_SECONDS", "25" if is_deep() else "3"))
TARGETS = ["bridge", "cli", "store", "transcript"]


@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_harness_finds_nothing(target: str) -> None:
    # The inputs found so far seed every run: each must keep passing.
    command = [sys.executable, "fuzz/run.py", target, "--seconds", str(SECONDS), "--with-findings"]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=SECONDS * 4 + 120, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"fuzz {target} failed:\n{output[-8000:]}"
    seeded = re.search(r"\((\d+) seeds written\)", output)
    assert seeded and int(seeded.group(1)) > 0, output[-2000:]
    runs = re.search(rf"^fuzz {target}: (\d+) runs \((\d+) on the seeds\)", output, re.MULTILINE)
    assert runs, output[-2000:]
    fuzzed = int(runs.group(1)) - int(runs.group(2))
    assert fuzzed > 0, output[-2000:]
