"""The command line, called in-process and as an installed console script."""

from __future__ import annotations

import argparse
import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from termscribe.cli import CHUNK_SIZE, main


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_render_stdin_to_stdout() -> None:
    status, out, err = run(["render"], b"\x1b[31mred\x1b[0m\r\nnext\n")
    assert (status, out, err) == (0, b"red\nnext\n", "")


def test_render_file_with_options(tmp_path: Path) -> None:
    source = tmp_path / "in.raw"
    source.write_bytes(b"abcdefgh\r1\n")
    status, out, _ = run(["render", "--columns", "4", "--rows", "5", str(source)])
    assert (status, out) == (0, b"abcd1fgh\n")  # CR returns to the wrapped row
    status, out, _ = run(["render", "--mode", "strip", str(source)])
    assert (status, out) == (0, b"abcdefgh\n1\n")


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    status, out, _ = run(["render", "-o", str(target), "-"], "é\u202e\n".encode())
    assert status == 0 and out == b""
    assert target.read_text(encoding="utf-8") == "é<U+202E>\n"


def test_streaming_output_equals_whole_rendering(tmp_path: Path) -> None:
    # More than one read chunk, many committed lines, a sequence split
    # across the chunk boundary.
    data = b"".join(b"\x1b[3%dmline %d\x1b[0m\r\n" % (i % 8, i) for i in range(20000))
    assert len(data) > 2 * CHUNK_SIZE
    source = tmp_path / "big.raw"
    source.write_bytes(data)
    status, out, _ = run(["render", str(source)])
    assert status == 0
    lines = out.decode().split("\n")
    assert lines[:2] == ["line 0", "line 1"] and lines[-2:] == ["line 19999", ""]


def test_bad_usage_exits_2_with_one_line(tmp_path: Path) -> None:
    # (A bare termscribe shows the usage and the commands: see below.)
    for argv in (
        ["render", "--columns", "0"],
        ["render", "--columns", "x"],
        ["render", "--rows", "100000"],
        ["render", "--mode", "nope"],
        ["render", str(tmp_path / "missing.raw")],
        ["render", "-o", str(tmp_path / "no" / "dir" / "out.txt")],
        ["render", str(tmp_path)],
    ):
        status, out, err = run(argv)
        assert status == 2, argv
        assert out == b""
        assert err.startswith("termscribe: ") and err.count("\n") == 1, (argv, err)


def test_console_script_runs() -> None:
    for module in ("termscribe.cli", "termscribe"):
        result = subprocess.run(
            [sys.executable, "-m", module, "render"],
            input=b"a\rb\n",
            capture_output=True,
            check=False,
        )
        assert (result.returncode, result.stdout, result.stderr) == (0, b"b\n", b"")


def test_output_ends_with_a_newline() -> None:
    assert run(["render"], b"no newline") == (0, b"no newline\n", "")
    assert run(["render", "--mode", "screen"], b"a\nb") == (0, b"a\nb\n", "")
    assert run(["render", "--mode", "strip"], b"a\rb") == (0, b"a\nb\n", "")
    assert run(["render", "--format", "ansi"], b"\x1b[31mx") == (0, b"\x1b[0;31mx\x1b[0m\n", "")
    assert run(["render"], b"") == (0, b"", "")
    assert run(["render"], b"a\n\n") == (0, b"a\n\n", "")


def test_option_errors_name_the_flag() -> None:
    for argv, message in [
        (["--format", "text", "--hyperlinks"], "--hyperlinks applies to --format ansi only"),
        (["--format", "html", "--hyperlinks"], "--hyperlinks applies to --format ansi only"),
        (["--mode", "strip", "--alt-screen", "snapshot"], "--alt-screen applies to --mode"),
        (["--columns", "70000"], "--columns must be at most 65536"),
        (["--mode", "screen", "--rows", "201"], "--rows must be at most 200 with --mode screen"),
        (["--format", "ansi", "--fragment"], "--fragment and --standalone apply to --format html"),
        (["--alt-screen", "x"], "argument --alt-screen: invalid choice: 'x'"),
    ]:
        status, out, err = run(["render", *argv], b"x")
        assert (status, out) == (2, b""), argv
        assert err.startswith("termscribe: " + message) and err.count("\n") == 1, err


def test_output_equal_to_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "x.log"
    source.write_bytes(b"keep me\n")
    alias = tmp_path / "alias.log"
    alias.symlink_to(source)
    for argv in (["-o", str(source), str(source)], ["-o", str(alias), str(source)]):
        status, out, err = run(["render", *argv])
        assert (status, out) == (2, b"")
        assert err == f"termscribe: {argv[1]} is the input: choose another output file\n"
    with source.open("rb") as stdin:  # termscribe render -o x.log < x.log
        status = main(["render", "-o", str(source)], stdin=stdin, stderr=io.StringIO())
    assert status == 2
    assert source.read_bytes() == b"keep me\n"


class _FailingInput(io.BytesIO):
    def read1(self, size: int = -1) -> bytes:
        if self.tell() >= CHUNK_SIZE:
            raise OSError(5, "Input/output error")
        return super().read1(size)


def test_output_file_is_replaced_only_when_complete(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    err = io.StringIO()
    stdin = _FailingInput(b"line\n" * CHUNK_SIZE)
    assert main(["render", "-o", str(target)], stdin=stdin, stderr=err) == 2
    assert err.getvalue() == "termscribe: cannot read -: Input/output error\n"
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary left
    assert run(["render", "-o", str(target)], b"new\n")[0] == 0
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640  # the replaced file's mode
    fresh = tmp_path / "fresh.txt"
    assert run(["render", "-o", str(fresh)], b"x")[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert run(["render", "-o", str(link)], b"via link\n")[0] == 0
    assert link.is_symlink() and target.read_text() == "via link\n"
    assert run(["render", "-o", os.devnull], b"x")[0] == 0  # written in place, not replaced


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
def test_full_disk_gives_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "termscribe", "render", "-o", "/dev/full"],
        input=b"x\n" * 100000,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == b"termscribe: cannot write /dev/full: No space left on device\n"
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "termscribe", "render"],
            input=b"x\n" * 100000,
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr == b"termscribe: cannot write stdout: No space left on device\n"


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    source = tmp_path / "big.raw"
    source.write_bytes(b"line\n" * 200000)
    render = subprocess.Popen(
        [sys.executable, "-m", "termscribe", "render", "--rows", "1", str(source)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert render.stdout is not None and render.stderr is not None
    assert render.stdout.readline() == b"line\n"
    render.stdout.close()  # as `head -1` does
    assert render.stderr.read() == b""
    assert render.wait(timeout=60) == 0


def test_lines_are_written_as_they_become_final() -> None:
    render = subprocess.Popen(
        [sys.executable, "-m", "termscribe", "render", "--rows", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert render.stdin is not None and render.stdout is not None
    try:
        render.stdin.write(b"one\ntwo\nthree\n")  # "one" scrolls out of 2 rows
        render.stdin.flush()
        ready, _, _ = select.select([render.stdout], [], [], 30)
        assert ready, "nothing written while the input stays open"
        assert render.stdout.readline() == b"one\n"
        render.stdin.write(b"four\n")
        render.stdin.flush()
        assert render.stdout.readline() == b"two\n"
    finally:
        render.stdin.close()
    assert render.stdout.read() == b"three\nfour\n"
    assert render.wait(timeout=30) == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("termscribe.cli._progress._AFTER", 0.0)
    monkeypatch.setattr("termscribe.cli._progress._EVERY", 0.0)
    source = tmp_path / "big.raw"
    source.write_bytes(b"line\n" * (3 * CHUNK_SIZE // 5))
    terminal = _Terminal()
    status = main(["render", str(source)], stdout=io.BytesIO(), stderr=terminal)
    shown = terminal.getvalue()
    assert status == 0
    assert shown.startswith("\rtermscribe render: ") and shown.endswith("\r\x1b[K")
    plain = io.StringIO()
    assert main(["render", str(source)], stdout=io.BytesIO(), stderr=plain) == 0
    assert plain.getvalue() == ""


DEMO_LOG = Path(__file__).resolve().parent.parent / "src/termscribe/data/demo-session.ndjson"


def test_acp_output_is_atomic_and_not_the_input(tmp_path: Path) -> None:
    log = tmp_path / "session.ndjson"
    log.write_bytes(DEMO_LOG.read_bytes())
    status, out, err = run(["acp", "-o", str(log), str(log)])
    assert (status, out) == (2, b"")
    assert err == f"termscribe acp: -o {log} is the input: choose another output\n"
    assert log.read_bytes() == DEMO_LOG.read_bytes()
    report = tmp_path / "report.json"
    assert run(["acp", "--format", "json", "-o", str(report), str(log)])[0] == 0
    assert json.loads(report.read_text(encoding="utf-8"))["terminals"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "session.ndjson"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
def test_acp_to_a_full_disk_gives_one_line() -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "termscribe", "acp", str(DEMO_LOG)],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr == b"termscribe: No space left on device\n"


def test_render_loads_neither_the_acp_layer_nor_pyte() -> None:
    # Startup time: `termscribe render` imports only what rendering needs.
    code = (
        "import io, sys\n"
        "from termscribe.cli import main\n"
        "main(['render'], stdin=io.BytesIO(b'x\\n'), stdout=io.BytesIO())\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = result.stdout.split()
    assert "termscribe._lines" in loaded  # the check sees termscribe's modules
    heavy = ("pyte", "termscribe.acp", "termscribe.cli._acp", "termscribe.cli._bridge")
    assert [m for m in loaded if m.startswith(heavy)] == []
    result = subprocess.run(
        [sys.executable, "-c", code.replace("['render']", "['render', '--mode', 'screen']")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "pyte" in result.stdout.split()


def test_importing_every_module_runs_nothing() -> None:
    # Tools (the fuzzers' instrumentation, documentation builders) import
    # every module of the package; neither __main__ may run the CLI.
    code = (
        "import sys; sys.argv = ['x', 'not-a-command']; "
        "import termscribe.__main__, termscribe.cli.__main__; print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok\n", "")


def test_out_of_memory_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def render_file(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr("termscribe.cli._render.render_file", render_file)
    assert run(["render"], b"x") == (2, b"", "termscribe: out of memory\n")


def test_a_bare_command_shows_the_usage_and_the_commands() -> None:
    err = io.StringIO()
    assert main([], stdin=io.BytesIO(b""), stdout=io.BytesIO(), stderr=err) == 2
    shown = err.getvalue()
    assert shown.startswith("usage: termscribe")
    for command in ("render", "acp", "demo", "bridge"):
        assert f"    {command} " in shown
    assert "termscribe COMMAND --help" in shown


def test_every_option_has_help() -> None:
    from termscribe.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        for action in command._actions:
            if action.option_strings and action.help != argparse.SUPPRESS:
                assert action.help, (name, action.option_strings)


def test_out_dir_that_is_not_a_directory() -> None:
    err = io.StringIO()
    argv = ["render", "--out-dir", "/dev/full", "a.raw", "b.raw"]
    assert main(argv, stdin=io.BytesIO(b""), stderr=err) == 2
    assert err.getvalue() == "termscribe: --out-dir /dev/full is not a directory\n"
