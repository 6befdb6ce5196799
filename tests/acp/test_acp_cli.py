"""`termscribe acp` and `termscribe demo`, through termscribe.cli.main."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from acp_wire import DATA, anchor, chunk, terminal_update, validate

from termscribe.acp import SessionLog, TerminalStore, export_html, export_json, export_text
from termscribe.cli import _acp, main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "src" / "termscribe" / "data" / "demo-session.ndjson"


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue().decode("utf-8"), err.getvalue()


def ndjson(*messages: Any) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


LOG = ndjson(
    anchor("c1", "t1", title="Tests"),
    terminal_update("t1", command="pytest", cwd="/p"),
    chunk("t1", b"\x1b[32m3 passed\x1b[0m\n"),
    terminal_update("t1", exit_status={"exitCode": 0}),
    chunk("t2", b"other\n"),
)


def test_json_to_stdout_from_stdin() -> None:
    status, out, err = run(["acp", "--format", "json", "-"], LOG)
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert [t["terminalId"] for t in report["terminals"]] == ["t1", "t2"]
    assert report["terminals"][0] == {
        "terminalId": "t1",
        "sessionId": "sess_1",
        "command": "pytest",
        "cwd": "/p",
        "exitStatus": {"exitCode": 0},
        "meta": None,
        "toolCallIds": ["c1"],
        "text": "3 passed\n",
    }
    assert report["errors"] == []


def test_text_is_the_default_and_files_work(tmp_path: Path) -> None:
    log = tmp_path / "session.ndjson"
    log.write_bytes(LOG)
    target = tmp_path / "out.txt"
    status, out, err = run(["acp", "-o", str(target), str(log)])
    assert (status, out, err) == (0, "", "")
    text = target.read_text(encoding="utf-8")
    assert text.startswith("$ pytest\n  cwd /p · terminal t1\n")
    assert "│ 3 passed\n└ exit code 0\n" in text


def test_html_format_and_terminal_filter() -> None:
    status, out, _ = run(["acp", "--format", "html", "--terminal", "t2", "-"], LOG)
    assert status == 0
    assert out.startswith("<!DOCTYPE html>")
    assert "other" in out and "3 passed" not in out


def test_mode_strip_shows_overwritten_text() -> None:
    log = ndjson(chunk("t1", b"secret\rpublic\n"))
    assert run(["acp", "--format", "json", "-"], log)[1].count("secret") == 0
    status, out, _ = run(["acp", "--format", "json", "--mode", "strip", "-"], log)
    assert status == 0
    assert json.loads(out)["terminals"][0]["text"] == "secret\npublic\n"


def test_unknown_terminal_exits_1() -> None:
    status, out, err = run(["acp", "--format", "json", "--terminal", "nope", "-"], LOG)
    assert status == 1
    assert json.loads(out) == {"terminals": [], "errors": []}
    assert err == "termscribe acp: no terminal 'nope' in the log\n"


def test_bad_lines_exit_1_and_the_export_goes_on() -> None:
    bad_snapshot = terminal_update("t1", cwd="/x", output={"data": "?"})
    log = LOG + b"{oops\n" + ndjson(bad_snapshot, chunk("t2", b"more\n"))
    status, out, err = run(["acp", "--format", "json", "-"], log)
    assert status == 1
    report = json.loads(out)
    assert [(e["line"], e["terminalId"]) for e in report["errors"]] == [(6, None), (7, "t1")]
    assert report["terminals"][0]["cwd"] == "/p"
    assert report["terminals"][1]["text"] == "other\nmore\n"
    assert err == "termscribe acp: 2 rejected lines listed in the JSON errors\n"

    status, out, err = run(["acp", "-"], log)
    assert status == 1
    assert err.splitlines()[0].startswith("termscribe acp: line 6: not valid JSON")
    assert err.splitlines()[1].startswith("termscribe acp: line 7: invalid field")


def test_many_errors_are_counted_not_listed() -> None:
    status, _, err = run(["acp", "-"], b"x\n" * 25)
    assert status == 1
    lines = err.splitlines()
    assert len(lines) == _acp.MAX_ERRORS_SHOWN + 1
    assert lines[-1] == "termscribe acp: 5 rejected lines not shown"


def test_batch_warnings_go_to_stderr() -> None:
    status, _, err = run(["acp", "-"], ndjson([chunk("t1", b"a"), chunk("t1", b"b")]))
    assert status == 0
    assert err.startswith("termscribe acp: line 1: warning: batch holds 2")


def test_overlong_line_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_acp, "MAX_LINE_BYTES", 400)
    assert max(len(x) for x in LOG.splitlines()) < 400
    long_line = ndjson(chunk("t1", b"x" * 1000))
    status, out, _ = run(
        ["acp", "--format", "json", "-"], LOG + long_line + ndjson(chunk("t1", b"!"))
    )
    assert status == 1
    report = json.loads(out)
    assert report["errors"][0]["line"] == 6
    assert "longer than 400 bytes" in report["errors"][0]["message"]
    assert report["terminals"][0]["text"] == "3 passed\n!"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["acp", "/nonexistent/session.ndjson"],
            "termscribe acp: cannot read /nonexistent/session.ndjson",
        ),
        (["acp", "."], "termscribe acp: cannot read ."),
        (["acp", "-o", "/nonexistent/dir/out.txt", "-"], "termscribe acp: cannot write"),
        (["acp", "--format", "pdf", "-"], "termscribe: argument --format"),
        (["acp"], "termscribe: the following arguments are required"),
        (["demo", "-o", "/nonexistent/dir/demo.html"], "termscribe demo: cannot write"),
    ],
)
def test_bad_usage_and_unreadable_input_exit_2_with_one_line(argv: list[str], message: str) -> None:
    status, out, err = run(argv, LOG)
    assert status == 2
    assert out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_unreadable_stream_exits_2() -> None:
    class Broken(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            raise OSError(5, "Input/output error")

    err = io.StringIO()
    status = main(["acp", "-"], stdin=Broken(), stdout=io.BytesIO(), stderr=err)
    assert status == 2
    assert err.getvalue() == "termscribe acp: cannot read stdin: Input/output error\n"


def test_text_stdout_is_accepted_too() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    _acp.register(parser.add_subparsers())
    args = parser.parse_args(["acp", "--format", "json", "-"])
    out = io.StringIO()
    assert args.func(args, io.BytesIO(LOG), out, io.StringIO()) == 0
    assert json.loads(out.getvalue())["terminals"][0]["command"] == "pytest"


# -- the demo -------------------------------------------------------------------


def test_demo_prints_text_and_writes_html(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(["demo"])
    assert status == 0
    page = Path.cwd() / _acp.DEMO_HTML  # the path printed is absolute
    assert err == f"termscribe demo: wrote the HTML report to {page}\n"
    html = (tmp_path / _acp.DEMO_HTML).read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count('<section class="terminal"') == 5
    for command in ["npm install", "npm test -- --run", "npm run build", "npm run dev", "git log"]:
        assert f"$ {command}" in out
    assert "└ exit code 2" in out and "└ killed by SIGTERM" in out
    assert "permission: Start the dev server?: npm run dev" in out

    status, out, _ = run(["demo", "-o", str(tmp_path / "x.html")])
    assert status == 0 and (tmp_path / "x.html").exists()
    status, out, _ = run(["demo", "-o", "-"])
    assert status == 0 and out.startswith("<!DOCTYPE html>")


def test_demo_session_content() -> None:
    log = SessionLog()
    with DEMO.open("rb") as source:
        for number, raw in enumerate(source, 1):
            log.feed_line(raw, number)
    log.finish()
    assert log.errors == [] and log.warnings == []
    report = {t["terminalId"]: t for t in export_json(log)["terminals"]}
    assert list(report) == ["term_install", "term_test", "term_build", "term_dev", "term_git"]
    assert report["term_install"]["toolCallIds"] == ["call_install"]  # anchor came last
    assert report["term_test"]["text"].count("✓") == 3  # ✓ split across chunks
    assert report["term_build"]["exitStatus"] == {"exitCode": 2, "signal": None}
    assert report["term_build"]["meta"] == {"acme.dev/shell": "bash"}
    assert report["term_dev"]["exitStatus"] == {"signal": "SIGTERM"}
    dev = log.store.get("sess_4f9c2e", "term_dev")
    assert dev is not None and dev.snapshot_generation == 1
    assert dev.output_meta == {"acme.dev/reason": "resync"}
    assert dev.text().count("> vite") == 1  # the resync snapshot replaced the first chunk
    assert report["term_git"]["text"].startswith("9c1e4b2 fix(api)")
    assert len(log.store.permissions()) == 1


def test_demo_session_is_valid_against_the_official_schema() -> None:
    checked = 0
    for raw in DEMO.read_text(encoding="utf-8").splitlines():
        for message in (lambda m: m if isinstance(m, list) else [m])(json.loads(raw)):
            method = message.get("method")
            if method == "session/update":
                validate(message["params"], "UpdateSessionNotification")
            elif method == "session/request_permission":
                validate(message["params"], "RequestPermissionRequest")
            else:
                validate(message["result"], "RequestPermissionResponse")
            checked += 1
    assert checked == 37


def test_demo_session_is_reproducible() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_demo_session.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_installed_console_script_runs_the_demo(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "termscribe.cli", "demo", "-o", str(tmp_path / "d.html")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "$ npm test -- --run" in result.stdout


def test_schema_copy_is_present() -> None:
    assert (DATA / "acp-v2-schema-terminal.json").exists()


def _long_log() -> bytes:
    messages: list[Any] = []
    for i in range(300):
        terminal = f"t{i % 3}"
        data = b"".join(
            b"\x1b[3%dmline %d of %s\x1b[0m\r\n" % (j % 8, i, terminal.encode()) for j in range(7)
        )
        messages.append(chunk(terminal, data[: 50 + i % 40]))  # cut anywhere
        messages.append(chunk(terminal, data[50 + i % 40 :]))
        if i == 150:
            messages.append(terminal_update("t1", output={"data": "cmVzeW5jZWQK"}))  # "resynced\n"
        if i == 200:
            messages.append(
                [chunk("t2", b"\x1b[?1049halt screen\x1b[?1049l"), chunk("t0", b"\xe2\x9c")]
            )
    messages.append(chunk("t0", b"\x93 done"))
    return ndjson(*messages)


@pytest.mark.parametrize("mode", ["lines", "strip"])
@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_spooled_export_equals_the_in_memory_export(mode: str, fmt: str) -> None:
    data = _long_log()
    status, out, _ = run(["acp", "--format", fmt, "--mode", mode, "-"], data)
    assert status == 0
    log = SessionLog(TerminalStore(mode=mode))
    for number, raw in enumerate(data.splitlines(), 1):
        log.feed_line(raw, number)
    log.finish()
    if fmt == "json":
        assert json.loads(out) == export_json(log)
    elif fmt == "text":
        assert out == export_text(log)
    else:
        assert out == export_html(log)
    assert "resynced" in out and "line 100 of t1" not in out
