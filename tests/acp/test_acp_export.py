"""Session-log export: line handling, the JSON contract, text and HTML reports."""

from __future__ import annotations

import json
from typing import Any
from xml.etree.ElementTree import Element

import html5lib
import pytest
from acp_wire import anchor, chunk, permission, terminal_update, tool_status

from termscribe.acp import (
    SessionLog,
    display_text,
    dumps_json,
    export_html,
    export_json,
    export_text,
    iter_json,
)

NS = "{http://www.w3.org/1999/xhtml}"


def line(message: Any) -> str:
    return json.dumps(message)


def replay(*lines: str | bytes) -> SessionLog:
    log = SessionLog()
    for text in lines:
        log.feed_line(text)
    log.finish()
    return log


SAMPLE = [
    line(terminal_update("t1", command="make", cwd="/w", meta={"shell": "bash"})),  # 1
    line(chunk("t1", b"\x1b[31mbuilding\x1b[0m\n")),  # 2
    "{not json",  # 3
    line(anchor("c1", "t1", title="Build", status="in_progress")),  # 4
    line(terminal_update("t1", cwd="/other", output={"data": "%%"})),  # 5: rejected, cwd kept
    "",  # 6: blank
    line([chunk("t2", b"second\n"), terminal_update("t2", output=7), anchor("c2", "t2")]),  # 7
    line(terminal_update("t1", exit_status={"exitCode": 2, "signal": None})),  # 8
    line(terminal_update("t2", exit_status={"exitCode": 0})),  # 9
    line(terminal_update("t2", exit_status=None, meta=None)),  # 10
]


def test_json_export_follows_the_public_contract() -> None:
    log = replay(*SAMPLE)
    assert export_json(log) == {
        "terminals": [
            {
                "terminalId": "t1",
                "sessionId": "sess_1",
                "command": "make",
                "cwd": "/w",
                "exitStatus": {"exitCode": 2, "signal": None},
                "meta": {"shell": "bash"},
                "toolCallIds": ["c1"],
                "text": "building\n",
            },
            {
                "terminalId": "t2",
                "sessionId": "sess_1",
                "command": None,
                "cwd": None,
                "exitStatus": None,
                "meta": None,
                "toolCallIds": ["c2"],
                "text": "second\n",
            },
        ],
        "errors": [
            {"line": 3, "terminalId": None, "message": log.errors[0].message},
            {"line": 5, "terminalId": "t1", "message": log.errors[1].message},
            {"line": 7, "terminalId": "t2", "message": log.errors[2].message},
        ],
    }
    assert "not valid JSON" in log.errors[0].message
    assert "params.update.output.data" in log.errors[1].message
    assert "[1].params.update.output" in log.errors[2].message


def test_terminal_selection() -> None:
    log = replay(*SAMPLE)
    exported = export_json(log, "t2")
    assert [t["terminalId"] for t in exported["terminals"]] == ["t2"]
    assert [e["line"] for e in exported["errors"]] == [3, 7]
    assert export_json(log, "nope")["terminals"] == []


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\xff\xfe{}", "not valid UTF-8"),
        (b"NaN", "NaN is not allowed"),
        (b'{"a": Infinity}', "Infinity is not allowed"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'"just a string"', "expected an object"),
        (b"[]", "empty batch"),
        (b'{"jsonrpc": "2.0", "id": 1}', "not a JSON-RPC message"),
    ],
)
def test_bad_lines_are_reported_and_the_rest_survives(raw: bytes, reason: str) -> None:
    log = replay(line(chunk("t1", b"before ")), raw, line(chunk("t1", b"after")))
    assert [(e.line, reason in e.message) for e in log.errors] == [(2, True)]
    assert log.store.get("sess_1", "t1").text() == "before after"  # type: ignore[union-attr]


def test_blank_and_crlf_lines() -> None:
    log = replay(b"\n", b"   \r\n", (line(chunk("t1", b"x")) + "\r\n").encode())
    assert log.errors == []
    assert log.line_count == 3


def test_explicit_line_numbers_and_added_errors() -> None:
    log = SessionLog()
    log.feed_line("{", 41)
    log.add_error(42, "line too long")
    assert [e.line for e in log.errors] == [41, 42]


def test_batch_warnings_are_kept_per_line() -> None:
    log = replay(line([chunk("t1", b"a"), chunk("t1", b"b")]))
    assert [(w.line, w.terminal_id) for w in log.warnings] == [(1, "t1")]


# -- JSON output safety -------------------------------------------------------


def test_dumps_json_escapes_what_a_terminal_could_act_on() -> None:
    value = {
        "command": "echo \x1b]52;c;x\x07 \x9b31m \u202egnp.exe \u2028 \ud800 \U000e0041 é ✓",
        "k\u202e": [1, None, True],
    }
    text = dumps_json(value)
    assert json.loads(text) == value
    for bad in ["\x1b", "\x07", "\x9b", "\u202e", "\u2028", "\ud800", "\U000e0041"]:
        assert bad not in text
    assert "é ✓" in text
    text.encode("utf-8")


# -- text report -----------------------------------------------------------------


def test_text_report_layout() -> None:
    log = replay(*SAMPLE, line(permission(command="make", cwd="/w", terminalId="t1")))
    report = export_text(log, "t1")
    assert report == (
        "$ make\n"
        "  cwd /w · terminal t1\n"
        "  tool call c1 “Build” (in_progress)\n"
        "  permission: Run the test suite?: make in /w\n"
        "│ building\n"
        "└ exit code 2\n"
    )


@pytest.mark.parametrize(
    ("exit_status", "summary"),
    [
        (None, "no exit status reported"),
        ({}, "exited"),
        ({"exitCode": 0}, "exit code 0"),
        ({"signal": "SIGTERM"}, "killed by SIGTERM"),
        ({"exitCode": 143, "signal": "SIGTERM"}, "exit code 143, signal SIGTERM"),
    ],
)
def test_exit_lines(exit_status: dict[str, Any] | None, summary: str) -> None:
    log = replay(line(terminal_update("t1", exit_status=exit_status)))
    assert export_text(log).splitlines()[-1] == f"└ {summary}"


def test_transcript_cannot_pass_for_a_header() -> None:
    fake = b"\n$ rm -rf ~\n  cwd /etc\n\xe2\x94\x94 exit code 0\n"
    log = replay(line(terminal_update("t1", command="true")), line(chunk("t1", fake)))
    lines = export_text(log).splitlines()
    assert lines[0] == "$ true"
    assert lines[2:6] == ["│", "│ $ rm -rf ~", "│   cwd /etc", "│ └ exit code 0"]
    assert lines[-1] == "└ no exit status reported"


def test_hostile_command_is_shown_not_interpreted() -> None:
    command = "cargo test\x1b[2K\rrm -rf ~ \u202e\x9b"
    log = replay(line(terminal_update("t1", command=command, cwd="/w\nx")))
    report = export_text(log)
    assert report.splitlines()[0] == "$ cargo test<U+001B>[2K<U+000D>rm -rf ~ <U+202E><U+009B>"
    assert "cwd /w<U+000A>x" in report
    assert "\x1b" not in report and "\u202e" not in report


def test_multiline_commands_and_several_sessions() -> None:
    log = replay(
        line(terminal_update("t1", command="for f in *; do\n  echo $f\ndone", session="a")),
        line(chunk("t1", b"x", session="b")),
    )
    report = export_text(log)
    assert "$ for f in *; do\n>   echo $f\n> done\n" in report
    assert "terminal t1 · session a" in report
    assert "$ (command not reported)" in report


def test_display_text() -> None:
    assert display_text("a\tb") == "a       b"
    assert display_text("x\ny") == "x<U+000A>y"
    assert display_text("x\ny", multiline=True) == "x\ny"
    assert display_text("\ud800") == "\ufffd"
    assert display_text("\u200bzero") == "<U+200B>zero"


# -- HTML report ------------------------------------------------------------------

ALLOWED_TAGS = {
    "html", "head", "body", "meta", "title", "style", "header", "h1", "h2", "p", "nav", "ol",
    "ul", "li", "a", "main", "section", "dl", "dt", "dd", "code", "em", "span", "div", "pre",
    "footer",
}  # fmt: skip


def parse(document: str) -> Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    tree: Element = parser.parse(document)
    assert parser.errors == []
    return tree


def test_html_report_is_well_formed_and_safe() -> None:
    hostile = '<script>alert(1)</script>" onmouseover="x'
    log = replay(
        *SAMPLE,
        line(anchor("c<i>", "t1", title="</dd><script>x</script>", status="\u202e")),
        line(terminal_update("t3", command=hostile, cwd="/<b>", exit_status={"signal": "<SIG>"})),
        line(chunk("t3", b"\x1b]8;;javascript:alert(1)\x07click\x1b]8;;\x07 <img src=x>\n")),
        line(permission(command=hostile, cwd="/w", terminalId="t3", request_id=9)),
        line(tool_status("c1", "completed")),
    )
    document = export_html(log)
    tree = parse(document)
    assert "<script" not in document and "<img" not in document and "<i>" not in document
    tags = {el.tag.removeprefix(NS) for el in tree.iter()}
    assert tags <= ALLOWED_TAGS
    for el in tree.iter():
        assert not any(name.lower().startswith("on") for name in el.attrib)
        href = el.get("href")
        if href is not None:
            assert href.startswith(("#terminal-", "https://", "http://"))
    csp = [el for el in tree.iter(f"{NS}meta") if el.get("http-equiv") == "Content-Security-Policy"]
    assert len(csp) == 1 and "default-src 'none'" in csp[0].get("content", "")


def test_html_transcripts_equal_the_text_transcripts() -> None:
    log = replay(*SAMPLE, line(chunk("t3", b"\n\nleading blank lines & <tags>\n")))
    tree = parse(export_html(log))
    pres = [el for el in tree.iter(f"{NS}pre") if "termscribe" in el.get("class", "")]
    assert ["".join(pre.itertext()) for pre in pres] == [t.text() for t in log.store]


def test_html_sections_badges_and_errors() -> None:
    log = replay(*SAMPLE)
    tree = parse(export_html(log))
    sections = [el for el in tree.iter(f"{NS}section") if el.get("class") == "terminal"]
    assert [s.get("id") for s in sections] == ["terminal-1", "terminal-2"]
    badges = [
        "".join(el.itertext())
        for s in sections
        for el in s.iter(f"{NS}span")
        if "badge" in el.get("class", "")
    ]
    assert badges == ["exit code 2", "no exit status"]
    errors = [el for el in tree.iter(f"{NS}section") if el.get("class") == "errors"]
    assert len(errors) == 1
    assert len(list(errors[0].iter(f"{NS}li"))) == 3


def test_html_for_one_terminal_and_for_an_empty_log() -> None:
    single = parse(export_html(replay(*SAMPLE), "t2"))
    assert [el.get("id") for el in single.iter(f"{NS}section") if el.get("id")] == ["terminal-1"]
    assert not list(single.iter(f"{NS}nav"))
    empty = parse(export_html(replay()))
    assert "0 terminals" in "".join(empty.itertext())


def test_iter_json_is_the_json_export_as_text() -> None:
    log = replay(*SAMPLE, line(chunk("t3", "\u202e\x1b[31mé\n\nend".encode())))
    text = "".join(iter_json(log))
    assert json.loads(text) == export_json(log)
    assert "\u202e" not in text
    assert json.loads("".join(iter_json(log, "t2"))) == export_json(log, "t2")
    assert json.loads("".join(iter_json(replay()))) == {"terminals": [], "errors": []}
