"""The README and docs/ as a reader uses them: short enough to read, every
example runs as written and shows what it says, every link and path named
exists, and the documented command lines are the ones the CLI takes.

Shell examples run in a scratch directory that sees the repository's
`corpus` and `src`, with `termscribe` on PATH running this tree's code.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from readme import DOCUMENTS, README, ROOT, doc_section, run_example

from termscribe.cli import build_parser

README_LIMIT = 12 * 1024


def _blocks(path: Path, language: str) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.fixture
def shell(tmp_path: Path) -> Path:
    """A scratch directory with `corpus` and `src`, and a bin/termscribe."""
    for name in ("corpus", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "termscribe"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m termscribe "$@"\n')
    shim.chmod(0o755)
    return tmp_path


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = f"{cwd / 'bin'}{os.pathsep}{env['PATH']}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_readme_is_short() -> None:
    assert len(README.read_bytes()) <= README_LIMIT


def test_quick_start_is_two_commands() -> None:
    section = re.search(r"^## Quick start\n(.*?)^## ", README.read_text(), re.S | re.M)
    assert section is not None
    (block,) = re.findall(r"^```sh\n(.*?)^```$", section.group(1), re.S | re.M)
    commands = [line.split("  #")[0].strip() for line in block.splitlines()]
    demo = "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/termscribe demo"
    assert commands == [demo, "bash scripts/test.sh"]
    # CI runs both: the demo's install as the README says, in a scratch folder.
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/test.sh" in ci
    assert "python3 -m venv .venv && .venv/bin/pip install -q ." in ci
    assert '"$root/.venv/bin/termscribe" demo' in ci


PYTHON_DOCS = [p for p in DOCUMENTS if _blocks(p, "python")]


@pytest.mark.parametrize("path", PYTHON_DOCS, ids=_ids(PYTHON_DOCS))
def test_python_examples_run(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples name files of the repository
    for block in _blocks(path, "python"):
        run_example(block, path)


def test_an_example_that_logs_an_error_fails() -> None:
    # The SDK logs an exception raised in a client callback and goes on: an
    # example that only logs must fail all the same.
    block = "import logging\nlogging.getLogger('acp').error('AttributeError in session_update')\n"
    with pytest.raises(AssertionError, match="AttributeError in session_update"):
        run_example(block, README)


def test_readme_python_example_prints_the_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    (block,) = _blocks(README, "python")
    lines = run_example(block, README).splitlines()
    assert lines[0] == "100%"
    assert any(line.startswith("FAILED test_calc.py::test_mean") for line in lines)


SH_COMMANDS = [
    (path, line.split("  # ")[0].strip())
    for path in DOCUMENTS
    for block in _blocks(path, "sh")
    for line in block.splitlines()
    if line.startswith("termscribe ")
]


@pytest.mark.parametrize(
    ("path", "command"), SH_COMMANDS, ids=[f"{p.name}:{c[:60]}" for p, c in SH_COMMANDS]
)
def test_shell_examples_run(path: Path, command: str, shell: Path) -> None:
    before = set(shell.iterdir())
    result = _run(command, shell)
    assert result.returncode == 0, result.stderr
    made = set(shell.iterdir()) - before
    assert result.stdout or any(p.stat().st_size for p in made), "no output"


def _sessions(block: str) -> list[tuple[str, list[str]]]:
    """($ command, expected output lines) pairs of a console block."""
    sessions: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        elif sessions:
            sessions[-1][1].append(line)
    return [(command, _trim(expected)) for command, expected in sessions]


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a line of `...` (or `... text ...`) stands for one or more lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.startswith("..."):
        return any(_matches(rest, actual[skip:]) for skip in range(1, len(actual) + 1))
    return bool(actual) and actual[0] == head and _matches(rest, actual[1:])


CONSOLE = [
    (path, command, expected)
    for path in DOCUMENTS
    for block in _blocks(path, "console")
    for command, expected in _sessions(block)
]


@pytest.mark.parametrize(
    ("path", "command", "expected"),
    CONSOLE,
    ids=[f"{p.name}:{c[:60]}" for p, c, _ in CONSOLE],
)
def test_console_examples_show_what_they_say(
    path: Path, command: str, expected: list[str], shell: Path
) -> None:
    result = _run(command + " 2>&1", shell)
    actual = _trim(result.stdout.split("\n"))
    assert _matches(expected, actual), "\n".join(actual[:40])


def test_every_example_is_tested() -> None:
    assert len(SH_COMMANDS) >= 7 and len(CONSOLE) >= 7 and len(PYTHON_DOCS) >= 3
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        languages = set(re.findall(r"^```(\w*)\n", text, re.M)) - {""}
        assert languages <= {"python", "sh", "console", "json"}, (path.name, languages)


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# Files named in backquotes (directories made at run time are not checked).
PATH = re.compile(r"`((?:src|tests|docs|scripts|corpus|benchmarks|fuzz)/[\w./-]+\.\w+)`")


@pytest.mark.parametrize("path", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_links_and_paths_exist(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"\w+:", target):
            continue  # a web address
        assert (path.parent / target).exists(), (path.name, target)
    for named in PATH.findall(text):
        assert (ROOT / named).exists(), (path.name, named)


def _usage(command: str) -> list[str]:
    """The documented usage lines of ``termscribe COMMAND`` (README and docs)."""
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        found += re.findall(rf"^termscribe {command}\b.*(?:\n {{10,}}\[.*)*", text, re.M)
    return found


def _choices(command: str) -> dict[str, list[str]]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command")
    options: dict[str, list[str]] = {}
    for action in sub.choices[command]._actions:  # type: ignore[union-attr]
        for flag in action.option_strings:
            options[flag] = list(action.choices or [])
    return options


@pytest.mark.parametrize("command", ["render", "acp", "demo", "bridge"])
def test_documented_command_lines_match_the_cli(command: str) -> None:
    usages = _usage(command)
    assert usages, command
    options = _choices(command)
    for usage in usages:
        for flag, values in re.findall(r"\[(--?[\w-]+)(?: ([\w|-]+))?\]", usage):
            assert flag in options, (usage, flag)
            if "|" in values:
                assert values.split("|") == options[flag], (usage, flag)


def test_recording_a_raw_file_as_documented(shell: Path) -> None:
    # docs/cli.md's way to record a .raw file (through a pseudo-terminal,
    # so that ls colours its output), then render it.
    section = doc_section(ROOT / "docs" / "cli.md", "## Recording a stream to render")
    (block,) = re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)
    (record,) = [line for line in block.splitlines() if line.endswith("> ls.raw")]
    # As in a terminal: ls colours only for a TERM it knows.
    assert _run(f"TERM=xterm {record}", shell).returncode == 0
    raw = (shell / "ls.raw").read_bytes()
    assert b"\x1b[" in raw  # coloured: ls saw a terminal
    result = _run("termscribe render ls.raw", shell)
    assert result.returncode == 0, result.stderr
    names = result.stdout.split()
    assert "usr" in names and "\x1b" not in result.stdout
