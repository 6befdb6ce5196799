"""The v1 _meta.terminal_* convention, from real codex-acp traffic, in the same store."""

from __future__ import annotations

from typing import Any

import pytest
from acp_wire import anchor, chunk, load_legacy_fixture, notify, terminal_update

from termscribe.acp import TerminalState, TerminalStore

SESSION = "test-session-id"


def replay(*names: str, store: TerminalStore | None = None) -> TerminalStore:
    store = store if store is not None else TerminalStore()
    for name in names:
        for message in load_legacy_fixture(name):
            result = store.apply(message)
            assert result.warnings == ()
    store.finish()
    return store


def only(store: TerminalStore) -> TerminalState:
    (terminal,) = store.terminals()
    return terminal


def test_full_flow() -> None:
    terminal = only(replay("terminal-full-flow.json"))
    assert terminal.key == (SESSION, "command-flow")
    assert (terminal.command, terminal.cwd) == ("echo hello", "/test/project")
    assert terminal.text() == "hello\n"
    assert terminal.exit_status.to_wire() == {"exitCode": 0}  # type: ignore[union-attr]
    assert terminal.tool_call_ids == ("command-flow",)


def test_terminal_output_key_accumulates() -> None:
    store = replay("terminal-output-meta-flow.json")
    terminal = only(store)
    assert terminal.command == "python manage.py migrate"
    assert terminal.text() == "Applying migrations\n\nyes\n"
    assert terminal.exited
    assert store.tool_call(SESSION, "command-terminal-output").status == "completed"  # type: ignore[union-attr]


def test_output_sent_only_at_completion() -> None:
    terminal = only(replay("terminal-output-completion-fallback.json"))
    assert terminal.command == "git status --short"
    assert terminal.text() == "M src/CodexEventHandler.ts\n"
    assert terminal.exit_status.exit_code == 0  # type: ignore[union-attr]


def test_multiple_deltas_append_in_order() -> None:
    terminal = only(replay("terminal-output-multiple-deltas.json"))
    assert terminal.text() == "line1\nline2\nline3\n"
    assert (terminal.command, terminal.cwd) == (None, None)


def test_delta_without_terminal_info_still_creates_the_terminal() -> None:
    terminal = only(replay("terminal-output-parsed-command-legacy-delta.json"))
    assert terminal.terminal_id == "command-read-file"
    assert terminal.text() == "# Project\n"
    assert not terminal.exited  # that tool call completed without terminal_exit


def test_started_then_output_from_another_fixture() -> None:
    store = replay("terminal-command-started.json", "terminal-output-delta.json")
    terminal = only(store)
    assert (terminal.command, terminal.cwd) == ("ls -la", "/test/project")
    assert terminal.text() == "file1.txt\nfile2.txt\n"
    assert store.tool_call(SESSION, "command-123").title == "ls -la"  # type: ignore[union-attr]


def test_stdin_echo_delta() -> None:
    assert only(replay("terminal-interaction-stdin.json")).text() == "\ncontinue\n"


@pytest.mark.parametrize(
    "name", ["terminal-command-completed.json", "terminal-command-failed.json"]
)
def test_tool_calls_without_terminal_meta_create_no_terminal(name: str) -> None:
    assert len(replay(name)) == 0


def test_legacy_ingestion_can_be_disabled() -> None:
    store = TerminalStore(legacy=False)
    for message in load_legacy_fixture("terminal-full-flow.json"):
        store.apply(message)
    terminal = only(store)  # the terminal content anchor is still v2-shaped
    assert (terminal.command, terminal.text(), terminal.exit_status) == (None, "", None)


def legacy(meta: dict[str, Any], **fields: Any) -> dict[str, Any]:
    update = {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "_meta": meta, **fields}
    return notify(update, SESSION)


def test_v1_and_v2_updates_mix_on_one_terminal() -> None:
    store = TerminalStore()
    store.apply(
        legacy(
            {"terminal_info": {"terminal_id": "t1", "cwd": "/p"}},
            rawInput={"command": ["bash", "-lc", "make all"]},
        )
    )
    store.apply(legacy({"terminal_output": {"terminal_id": "t1", "data": "v1 text, "}}))
    store.apply(chunk("t1", b"v2 bytes", session=SESSION))
    store.apply(terminal_update("t1", session=SESSION, exit_status={"signal": "SIGINT"}))
    terminal = only(store)
    assert terminal.command == "bash -lc 'make all'"
    assert terminal.text() == "v1 text, v2 bytes"
    assert terminal.exit_status.signal == "SIGINT"  # type: ignore[union-attr]
    assert terminal.tool_call_ids == ("c1",)


def test_terminal_output_wins_over_the_older_delta_key() -> None:
    store = TerminalStore()
    payload = {"terminal_id": "t1", "data": "once\n"}
    store.apply(legacy({"terminal_output": payload, "terminal_output_delta": payload}))
    assert only(store).text() == "once\n"


def test_legacy_strings_go_through_the_byte_decoder() -> None:
    store = TerminalStore()
    store.apply(
        legacy({"terminal_output": {"terminal_id": "t1", "data": "\x1b[32mok\x1b[0m \ud800!"}})
    )
    store.finish()
    assert only(store).text() == "ok \ufffd\ufffd\ufffd!"


@pytest.mark.parametrize(
    ("meta", "warning"),
    [
        ({"terminal_output": "text"}, "not an object"),
        ({"terminal_output": {"data": "x"}}, "terminal_id"),
        ({"terminal_output": {"terminal_id": "t1", "data": 5}}, "data"),
        ({"terminal_info": {"terminal_id": "t1", "cwd": "relative"}}, "cwd"),
        ({"terminal_exit": {"terminal_id": "t1", "exit_code": -1}}, "exit_code"),
        ({"terminal_exit": {"terminal_id": "t1", "signal": 9}}, "signal"),
    ],
)
def test_malformed_legacy_meta_is_skipped_with_a_warning(
    meta: dict[str, Any], warning: str
) -> None:
    store = TerminalStore()
    result = store.apply(legacy(meta, status="in_progress"))
    assert len(result.warnings) == 1
    assert warning in str(result.warnings[0])
    assert store.tool_call(SESSION, "c1").status == "in_progress"  # type: ignore[union-attr]


def test_malformed_exit_still_marks_the_terminal_exited() -> None:
    store = TerminalStore()
    store.apply(legacy({"terminal_exit": {"terminal_id": "t1", "exit_code": "0"}}))
    assert only(store).exit_status.to_wire() == {}  # type: ignore[union-attr]


def test_legacy_and_v2_content_in_one_tool_call() -> None:
    store = TerminalStore()
    message = anchor("c1", "t1", session=SESSION)
    message["params"]["update"]["_meta"] = {"terminal_info": {"terminal_id": "t1", "cwd": "/p"}}
    store.apply(message)
    terminal = only(store)
    assert (terminal.cwd, terminal.tool_call_ids) == ("/p", ("c1",))
