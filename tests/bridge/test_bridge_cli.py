"""`termscribe bridge`: a streaming stdio filter, v2 NDJSON in, v1 NDJSON out."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
from typing import Any

from bridge_wire import block_parts, check_v1, chunk, last_blocks, terminal_update, tool_call

from termscribe.cli import main


def ndjson(*messages: Any) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def run_cli(args: list[str], data: bytes) -> tuple[int, list[dict[str, Any]], str]:
    stdout, stderr = io.BytesIO(), io.StringIO()
    status = main(["bridge", *args], stdin=io.BytesIO(data), stdout=stdout, stderr=stderr)
    lines = stdout.getvalue().decode().splitlines()
    return status, [json.loads(line) for line in lines], stderr.getvalue()


SESSION = (
    tool_call("c", "t", title="ls"),
    terminal_update("t", command="ls", cwd="/w"),
    chunk("t", b"a.txt\nb.txt\n"),
    terminal_update("t", exit_status={"exitCode": 0}),
)


def test_text_mode_end_to_end() -> None:
    status, out, err = run_cli([], ndjson(*SESSION))
    assert status == 0 and err == ""
    for message in out:
        check_v1(message)
    assert block_parts(last_blocks(out)["c"]) == (
        "Command `ls` in `/w`",
        "a.txt\nb.txt\n",
        "Status: exit code 0",
    )


def test_meta_mode_end_to_end() -> None:
    status, out, _ = run_cli(["--mode", "meta"], ndjson(*SESSION))
    assert status == 0
    metas = [m["params"]["update"].get("_meta") or {} for m in out]
    data = "".join(m["terminal_output"]["data"] for m in metas if "terminal_output" in m)
    assert data == "a.txt\nb.txt\n"
    assert any("terminal_exit" in m for m in metas)


def test_bad_lines_get_one_stderr_line_each_and_the_rest_goes_on() -> None:
    bad_chunk = {
        **chunk("t", b""),
        "params": {
            "sessionId": "s",
            "update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "%%"},
        },
    }
    data = (
        ndjson(SESSION[0])
        + b"{not json\n"
        + b"\xff\xfe\n"
        + ndjson(bad_chunk)
        + b"\n"
        + ndjson(*SESSION[1:])
    )
    status, out, err = run_cli([], data)
    assert status == 1
    lines = err.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["line 2", "line 3", "line 4"]
    assert "not valid JSON" in lines[0]
    assert "base64" in lines[2]
    assert block_parts(last_blocks(out)["c"])[1] == "a.txt\nb.txt\n"


def test_lines_that_break_the_json_parser_are_rejected_one_by_one() -> None:
    data = (
        ndjson(SESSION[0])
        + b'{"a":' + b"[" * 3000 + b"\n"  # RecursionError in json.loads
        + b'{"a": NaN}\n'
        + b"{\x00}\x00\n"  # UTF-16
        + ndjson(*SESSION[1:])
    )  # fmt: skip
    status, out, err = run_cli([], data)
    assert status == 1
    assert err.splitlines() == [
        "termscribe bridge: line 2: not valid JSON: nested too deeply",
        "termscribe bridge: line 3: not valid JSON: NaN is not allowed",
        "termscribe bridge: line 4: not valid JSON: Expecting property name enclosed in "
        "double quotes (column 2)",
    ]
    assert block_parts(last_blocks(out)["c"])[1] == "a.txt\nb.txt\n"


def test_bad_usage_exits_2() -> None:
    status, _, err = run_cli(["--max-text-chars", "10"], b"")
    assert status == 2
    assert "max_chars" in err


def test_streams_through_a_pipe_before_input_ends() -> None:
    """One line out as soon as a flush happens, while the agent is still writing."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "termscribe.cli", "bridge", "--flush-ms", "50"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(ndjson(SESSION[0], SESSION[1], chunk("t", b"first line\n")))
        proc.stdin.flush()
        seen = b""
        deadline = time.monotonic() + 20
        while b"first line" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                seen += os.read(proc.stdout.fileno(), 65536)
        assert b"first line" in seen  # output arrived with stdin still open
        assert proc.poll() is None
    finally:
        proc.stdin.close()
        proc.wait(timeout=20)
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()
    assert proc.returncode == 0
