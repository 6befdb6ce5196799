"""``termscribe render`` starts quickly: it loads what rendering needs and
nothing else, and builds no table it does not use.

Wall-clock limits are not tested (a loaded machine makes them flaky either
way); what makes the time is: the modules a command loads, and the regexes
built from the Unicode class table when first needed.
``benchmarks/startup.py`` measures the time (its history is in
benchmarks/RESULTS.md).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from termscribe._accel import speedups
from termscribe.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = "ls -l\n\x1b[01;34mdocs\x1b[0m  naïve.txt  ✓ 漢字\n".encode()

# Never needed to render text: the ACP layer and the bridge, pyte (screen
# mode only), wcwidth (its widths are copied into _unicode_data), the HTML
# and ANSI renderers and their colours and stylesheet, json (recordings
# only), the asyncio machinery, shutil with the compression modules it
# loads (argparse's help formatter would import it for the terminal's
# width), and dataclasses with the inspect, ast, dis and tokenize modules
# it loads (6 ms of a 40 ms start).
_NOT_FOR_TEXT = (
    "termscribe.acp",
    "termscribe.cli._acp",
    "termscribe.cli._bridge",
    "termscribe._screen",
    "termscribe._render._html",
    "termscribe._render._theme",
    "termscribe._render._ansi",
    "pyte",
    "wcwidth",
    "html",
    "json",
    "asyncio",
    "shutil",
    "dataclasses",
    "inspect",
)


def _run_without_site(args: list[str], stdin: bytes) -> tuple[bytes, list[str]]:
    """Run ``python -S -X importtime -m termscribe ARGS`` on this tree's
    source: without site-packages, so that a third-party import fails."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-m", "termscribe", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    log = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, log[-2000:]
    modules = [
        line.rsplit("|", 1)[1].strip()
        for line in log.splitlines()
        if line.startswith("import time:") and "|" in line
    ]
    return result.stdout, modules[1:]  # the first line is the header


def _in_process(args: list[str], stdin: bytes) -> bytes:
    out = io.BytesIO()
    assert main(args, stdin=io.BytesIO(stdin), stdout=out, stderr=io.StringIO()) == 0
    return out.getvalue()


def test_render_runs_on_the_standard_library_alone() -> None:
    out, modules = _run_without_site(["render"], SAMPLE)
    assert out == _in_process(["render"], SAMPLE) == "ls -l\ndocs  naïve.txt  ✓ 漢字\n".encode()
    assert "termscribe._lines" in modules  # the log sees termscribe's modules
    assert [m for m in modules if m.startswith(_NOT_FOR_TEXT)] == []


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (["render", "--help"], ()),
        (["render", "--format", "html"], ("termscribe._render._html", "termscribe._render._theme")),
        (["render", "--format", "ansi"], ("termscribe._render._ansi", "termscribe._render._theme")),
        (["render", "--mode", "strip"], ("termscribe._lines._strip",)),
    ],
)
def test_each_render_loads_only_what_it_uses(args: list[str], needed: tuple[str, ...]) -> None:
    _, modules = _run_without_site(args, SAMPLE)
    assert set(needed) <= set(modules)
    unneeded = tuple(m for m in _NOT_FOR_TEXT if m not in needed and m != "html")
    assert [m for m in modules if m.startswith(unneeded)] == []


def test_render_loads_few_modules() -> None:
    # Python's own start loads about 20; argparse, re and typing about 35
    # more; termscribe's text path 40 (the lines package's __init__, and the
    # class table and line layouts apart from the modules that use them, among
    # them): 95 in all.  Each module is a file to find, read and run: a
    # command that grows past this budget starts slower.
    _, modules = _run_without_site(["render"], SAMPLE)
    assert len(modules) <= 99, sorted(modules)


def test_a_raw_ascii_log_builds_no_unicode_regex() -> None:
    # The class table's regexes (a few ms each) are made when text that is
    # not ASCII first needs them, not at import; with the C extension, whose
    # scans read the table itself, this text needs none.
    code = (
        "import io\n"
        "from termscribe import _classes, _unicode\n"
        "from termscribe.cli import main\n"
        "main(['render'], stdin=io.BytesIO(STDIN), stdout=io.BytesIO())\n"
        "print(_unicode._single_run.cache_info().currsize,"
        " _unicode._cell_run.cache_info().currsize,"
        " _unicode.zero_width_marked_ranges.cache_info().currsize,"
        " _classes._table_runs.cache_info().currsize)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    needed = "0 0 0 0" if speedups is not None else "1 0 0 1"
    for stdin, built in ((b"make all\r\nok\n", "0 0 0 0"), (SAMPLE, needed)):
        result = subprocess.run(
            [sys.executable, "-S", "-c", code.replace("STDIN", repr(stdin))],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=True,
        )
        assert result.stdout.split() == built.split()


def _help(columns: int) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": str(columns)}
    result = subprocess.run(
        [sys.executable, "-m", "termscribe", "render", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    return result.stdout.splitlines()


def test_help_still_fits_the_terminal() -> None:
    # argparse wraps the descriptions to the width (usage items it never
    # breaks, such as "[--sections {github,buildkite,off}]").
    narrow = [line for line in _help(50) if not line.lstrip().startswith("[")]
    assert len(narrow) > 40 and max(map(len, narrow)) <= 50
    assert max(map(len, _help(200))) > 100
