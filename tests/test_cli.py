"""The command line, called in-process and as an installed console script."""

from __future__ import annotations

import io
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
    for argv in (
        [],
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
    result = subprocess.run(
        [sys.executable, "-m", "termscribe.cli", "render"],
        input=b"a\rb\n",
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout == b"b\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("termscribe._cli_progress._AFTER", 0.0)
    monkeypatch.setattr("termscribe._cli_progress._EVERY", 0.0)
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
