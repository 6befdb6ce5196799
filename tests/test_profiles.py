"""The two profiles of conftest.py, on a suite of three tests run in a
process of its own (each profile sets process-wide Hypothesis settings): the
default one runs a property with its share of the examples and skips a test
marked deep with its reason; the deep one runs everything as written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from profiles import DEEP_ENVIRONMENT, default_examples

HERE = Path(__file__).resolve().parent

SUITE = """
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import scaling


@settings(max_examples=400, database=None)
@given(st.binary(min_size=16, max_size=16))
def test_property(data):
    with open(Path(__file__).with_name("examples"), "a") as log:
        log.write(data.hex() + "\\n")


@pytest.mark.deep(reason="costs minutes")
def test_slow():
    Path(__file__).with_name("slow").touch()


def test_scaling(monkeypatch):
    Path(__file__).with_name("scaling").touch()
    monkeypatch.setattr(scaling, "best_times", lambda *args, **kwargs: (1.0, 4.0))  # no timing
    scaling.assert_linear(lambda n: lambda: None, 10)
"""


def _run(tmp_path: Path, *args: str, **env: str) -> tuple[str, int]:
    for name in ("conftest.py", "profiles.py", "scaling.py"):
        shutil.copy(HERE / name, tmp_path / name)
    (tmp_path / "test_suite.py").write_text(SUITE)
    for name in ("examples", "slow", "scaling"):
        (tmp_path / name).unlink(missing_ok=True)
    environment = {k: v for k, v in os.environ.items() if k != DEEP_ENVIRONMENT}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", *args],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    examples = (tmp_path / "examples").read_text().split()
    return done.stdout, len(examples)


def test_the_default_profile_runs_a_share_of_the_examples_and_skips_deep_tests(
    tmp_path: Path,
) -> None:
    out, examples = _run(tmp_path)
    assert examples == default_examples(400) == 40
    assert not (tmp_path / "slow").exists()
    assert "deep profile only (--deep or TERMSCRIBE_DEEP=1): costs minutes" in out
    # A scaling check runs its test up to the timing, then skips.
    assert (tmp_path / "scaling").exists()
    assert "times 4x the work against the work" in out
    assert "1 passed, 2 skipped" in out


def test_the_deep_profile_runs_everything(tmp_path: Path) -> None:
    for args, env in ((["--deep"], {}), ([], {DEEP_ENVIRONMENT: "1"})):
        out, examples = _run(tmp_path, *args, **env)
        assert examples == 400
        assert (tmp_path / "slow").exists() and (tmp_path / "scaling").exists()
        assert "3 passed" in out
