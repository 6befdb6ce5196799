"""scripts/test.sh installs into a virtual environment, never the system's
Python, fails when pytest does (exit 5, "no tests collected", too), and
runs the profile asked for with the switches each one reruns.

The script runs in a copy of the checkout's layout with stub commands on
PATH: `python3` makes a stub virtual environment whose `python` records
what it is asked to do (after the TERMSCRIBE_ variables it sees), so the
test checks the script's decisions without installing anything.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "test.sh"

# A `python` of a virtual environment: logs the TERMSCRIBE_ variables of its
# environment and its arguments; pytest's exit status comes from
# $STUB_PYTEST_STATUS.
STUB_PYTHON = """#!/bin/sh
echo "$(env | grep '^TERMSCRIBE_' | sort | tr '\\n' ' ')$0 $*" >> "$STUB_LOG"
case "$*" in *"-m pytest"*) exit "${STUB_PYTEST_STATUS:-0}" ;; esac
exit 0
"""

# The system's python3: answers the script's checks, makes stub venvs,
# and logs anything else (which the script must not ask of it).
STUB_PYTHON3 = """#!/bin/sh
if [ "$1" = "-c" ]; then exit 0; fi
if [ "$1 $2" = "-m venv" ]; then
    mkdir -p "$3/bin"
    cp "$STUB_DIR/venv-python" "$3/bin/python"
    echo "python3 $*" >> "$STUB_LOG"
    exit 0
fi
echo "python3 $*" >> "$STUB_LOG"
exit 0
"""


def _run(tmp_path: Path, *args: str, **env: str) -> tuple[int, list[str]]:
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True, exist_ok=True)
    shutil.copy(SCRIPT, checkout / "scripts" / "test.sh")
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    for name, text in [("python3", STUB_PYTHON3), ("venv-python", STUB_PYTHON)]:
        (stubs / name).write_text(text)
        (stubs / name).chmod(0o755)
    for name in ("chromium", "chromedriver", "cc"):  # present: no apt-get
        (stubs / name).write_text("#!/bin/sh\nexit 0\n")
        (stubs / name).chmod(0o755)
    log = tmp_path / "log"
    log.write_text("")
    environment = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "STUB_LOG": str(log),
        "STUB_DIR": str(stubs),
        **env,
    }
    result = subprocess.run(
        ["bash", str(checkout / "scripts" / "test.sh"), *args],
        env=environment,
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    lines = log.read_text().replace(str(checkout), "CHECKOUT").splitlines()
    return result.returncode, lines


def test_makes_and_uses_dot_venv(tmp_path: Path) -> None:
    status, log = _run(tmp_path, "-q", "tests/test_cli.py")
    assert status == 0
    assert log == [
        "python3 -m venv .venv",
        ".venv/bin/python -m pip install -q --disable-pip-version-check -e .[test,fuzz]",
        ".venv/bin/python -c import termscribe._speedups",
        ".venv/bin/python -m pytest -q tests/test_cli.py",
    ]
    status, log = _run(tmp_path)  # again: .venv is there, reused
    assert status == 0 and not any(line.startswith("python3 ") for line in log[4:])


def test_uses_the_active_virtual_environment(tmp_path: Path) -> None:
    active = tmp_path / "active"
    (active / "bin").mkdir(parents=True)
    (active / "bin" / "python").write_text(STUB_PYTHON)
    (active / "bin" / "python").chmod(0o755)
    status, log = _run(tmp_path, VIRTUAL_ENV=str(active))
    assert status == 0
    programs = [line.removeprefix("TERMSCRIBE_PURE_PYTHON=1 ").split()[0] for line in log]
    assert programs == [f"{active}/bin/python"] * 4
    assert not (tmp_path / "checkout" / ".venv").exists()


def test_pytest_failures_fail_the_script(tmp_path: Path) -> None:
    for pytest_status in ("1", "5"):
        status, _ = _run(tmp_path, STUB_PYTEST_STATUS=pytest_status)
        assert status == int(pytest_status)


CORE_RUN = ".venv/bin/python -m pytest -p no:cacheprovider tests/test_pure_python.py"


def _core_tests(line: str, prefix: str, *, deep: bool = True) -> list[str]:
    """The test modules of a core rerun, each one of the repository (the
    deep profile's with the hostile inputs)."""
    assert line.startswith(f"{prefix}{CORE_RUN}"), line
    tests = line.removeprefix(prefix).split()[5:]
    assert "tests/test_properties.py" in tests
    assert ("tests/test_hostile.py" in tests) == deep
    for test in tests:
        assert (Path(__file__).resolve().parent.parent / test).is_file(), test
    return tests


def test_the_whole_suite_runs_its_core_again_without_the_extension(tmp_path: Path) -> None:
    status, log = _run(tmp_path)
    assert status == 0
    assert log[-2] == ".venv/bin/python -m pytest"  # the default profile
    fast = _core_tests(log[-1], "TERMSCRIBE_PURE_PYTHON=1 ", deep=False)
    _, deep = _run(tmp_path, "--deep")
    assert set(fast) < set(_core_tests(deep[-2], "TERMSCRIBE_DEEP=1 TERMSCRIBE_PURE_PYTHON=1 "))
    # With arguments, or when the first run failed, no second run.
    _, log = _run(tmp_path, "tests/test_cli.py")
    assert log[-1] == ".venv/bin/python -m pytest tests/test_cli.py"
    _, log = _run(tmp_path, STUB_PYTEST_STATUS="1")
    assert log[-1] == ".venv/bin/python -m pytest"


def test_the_deep_profile_runs_its_core_again_with_each_switch(tmp_path: Path) -> None:
    for args, env in ((["--deep"], {}), ([], {"TERMSCRIBE_DEEP": "1"})):
        status, log = _run(tmp_path, *args, **env)
        assert status == 0
        assert log[-3] == "TERMSCRIBE_DEEP=1 .venv/bin/python -m pytest"
        pure = _core_tests(log[-2], "TERMSCRIBE_DEEP=1 TERMSCRIBE_PURE_PYTHON=1 ")
        one_by_one = _core_tests(log[-1], "TERMSCRIBE_DEEP=1 TERMSCRIBE_ONE_BY_ONE=1 ")
        assert one_by_one == pure
    # --deep is the script's, wherever it is; the rest go to pytest.
    _, log = _run(tmp_path, "-x", "--deep", "tests/test_cli.py")
    assert log[-1] == "TERMSCRIBE_DEEP=1 .venv/bin/python -m pytest -x tests/test_cli.py"
    assert not any("-p no:cacheprovider" in line for line in log)


def test_the_default_profile_runs_no_one_by_one_rerun(tmp_path: Path) -> None:
    _, log = _run(tmp_path)
    assert not any("TERMSCRIBE_ONE_BY_ONE" in line or "TERMSCRIBE_DEEP" in line for line in log)


def test_a_missing_extension_fails_the_script(tmp_path: Path) -> None:
    stub = STUB_PYTHON.replace("exit 0\n", 'case "$*" in *_speedups*) exit 1 ;; esac\nexit 0\n', 1)
    active = tmp_path / "active"
    (active / "bin").mkdir(parents=True)
    (active / "bin" / "python").write_text(stub)
    (active / "bin" / "python").chmod(0o755)
    status, log = _run(tmp_path, VIRTUAL_ENV=str(active))
    assert status == 1
    assert not any("-m pytest" in line for line in log)
