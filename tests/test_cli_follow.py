"""``render --follow`` (the default on a terminal) and the window a log is
rendered in by default."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from termscribe.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "benchmarks" / "data" / "docker-compose-pull.raw"
#: Generous: the reader waits for an event, never for a time.
WAIT = 60.0


def _start(*options: str, stdout: int = subprocess.PIPE) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "termscribe", "render", *options],
        stdin=subprocess.PIPE,
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )


def _read_until(fd: int, wanted: bytes) -> bytes:
    """What ``fd`` gives until ``wanted`` is in it (or WAIT seconds pass)."""
    got = b""
    while wanted not in got:
        ready, _, _ = select.select([fd], [], [], WAIT)
        assert ready, f"nothing more after {got!r}"
        chunk = os.read(fd, 4096)
        assert chunk, f"the output ended after {got!r}"
        got += chunk
    return got


def test_follow_writes_a_slow_producers_first_line_before_its_input_ends() -> None:
    process = _start("--follow")
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"line 1\n")
        process.stdin.flush()
        # The input is still open: the line is written because it paused.
        assert _read_until(process.stdout.fileno(), b"line 1\n") == b"line 1\n"
        assert process.poll() is None
        process.stdin.write(b"line 2\n\x1b[31mline 3\x1b[0m")
        process.stdin.close()
        rest = process.stdout.read()
    finally:
        process.kill()
        process.wait()
    assert rest == b"line 2\nline 3\n"


def test_follow_is_the_default_when_stdout_is_a_terminal() -> None:
    controller, terminal = pty.openpty()
    process = _start(stdout=terminal)
    os.close(terminal)
    assert process.stdin is not None
    try:
        process.stdin.write(b"building...\n")
        process.stdin.flush()
        got = _read_until(controller, b"building...")
        assert process.poll() is None
        assert got.startswith(b"building...")
        process.stdin.close()
        assert process.wait(WAIT) == 0
    finally:
        process.kill()
        process.wait()
        os.close(controller)


def test_without_a_terminal_output_waits_for_final_lines() -> None:
    # Not on a terminal (a pipe here): a line is written once it is final,
    # so the output is the same for any timing. It arrives at the end.
    process = _start()
    assert process.stdin is not None and process.stdout is not None
    out, _ = process.communicate(b"one\ntwo\n", timeout=WAIT)
    assert out == b"one\ntwo\n"


def test_a_line_written_early_is_not_changed_by_a_later_cursor_up() -> None:
    # What --follow gives up (see _follow): "one" was written when the
    # input paused; the cursor-up that rewrites it comes too late.
    process = _start("--follow")
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"one\ntwo\n")
        process.stdin.flush()
        _read_until(process.stdout.fileno(), b"two\n")
        process.stdin.write(b"\x1b[2AONE\n")
        process.stdin.close()
        rest = process.stdout.read()
    finally:
        process.kill()
        process.wait()
    assert rest == b""  # the final lines "ONE", "two" were written as "one", "two"
    out = io.BytesIO()
    main(["render"], stdin=io.BytesIO(b"one\ntwo\n\x1b[2AONE\n"), stdout=out)
    assert out.getvalue() == b"ONE\ntwo\n"


def test_follow_only_in_lines_mode_and_for_one_input() -> None:
    for argv in (["--follow", "--mode", "screen"], ["--follow", "--out-dir", "x", "a", "b"]):
        err = io.StringIO()
        assert main(["render", *argv], stdin=io.BytesIO(b""), stderr=err) == 2
        assert "--follow" in err.getvalue()


def test_a_tall_redraw_comes_out_once_with_the_defaults() -> None:
    # docker compose pull redraws its [+] Pulling block (up to 30 lines)
    # with cursor-ups: the default window (100 rows, as a CI runner's
    # terminal) holds it, as xterm at 160x100 does.
    data = DOCKER.read_bytes()
    for options in ([], ["--format", "html"]):
        out = io.BytesIO()
        assert main(["render", *options], stdin=io.BytesIO(data), stdout=out) == 0
        assert out.getvalue().count(b"[+] Pulling") == 1, options
    out = io.BytesIO()
    assert main(["render", "--rows", "24"], stdin=io.BytesIO(data), stdout=out) == 0
    assert out.getvalue().count(b"[+] Pulling") > 100  # a 24-row window repeats it


def test_a_followed_page_shows_its_first_lines_before_the_input_ends() -> None:
    process = _start("--follow", "--format", "html", "--line-anchors")
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"::group::Build\ncompiling\n")
        process.stdin.flush()
        got = _read_until(process.stdout.fileno(), b"compiling\n")
        assert process.poll() is None
        assert b"<summary" in got and b'id="L2"' in got
        process.stdin.write(b"::endgroup::\ndone\n")
        process.stdin.close()
        rest = process.stdout.read()
    finally:
        process.kill()
        process.wait()
    assert rest.endswith(b"</html>\n") and b"done" in rest
    # The same page as without following, here: nothing was redrawn.
    out = io.BytesIO()
    argv = ["render", "--format", "html", "--line-anchors"]
    data = b"::group::Build\ncompiling\n::endgroup::\ndone\n"
    assert main(argv, stdin=io.BytesIO(data), stdout=out) == 0
    assert got + rest == out.getvalue()
