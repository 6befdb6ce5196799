"""The v1 _meta.terminal_* convention, from real codex-acp traffic, in the same store."""

from __future__ import annotations

from typing import Any

import pytest
from acp_wire import anchor, chunk, load_legacy_fixture, notify, terminal_update

from termscribe.acp import TerminalState, TerminalStore

SESSION = "test-session-id"


def replay(
    *names: str, store: TerminalStore | None = None, announce: str | None = None
) -> TerminalStore:
    """Apply fixtures, expecting no warning; `announce`: a terminal_info for that
    terminal first (a fixture that is the middle of a flow)."""
    store = store if store is not None else TerminalStore()
    if announce is not None:
        store.apply(legacy({"terminal_info": {"terminal_id": announce}}, toolCallId=announce))
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
    terminal = only(replay("terminal-output-multiple-deltas.json", announce="command-accumulate"))
    assert terminal.text() == "line1\nline2\nline3\n"
    assert (terminal.command, terminal.cwd) == (None, None)


def test_output_without_terminal_info_makes_no_terminal() -> None:
    # codex-acp's parsed read/search commands: output, no terminal, no exit.
    # Zed ignores it too; a terminal here would never exit.
    store = TerminalStore()
    warnings = []
    for message in load_legacy_fixture("terminal-output-parsed-command-legacy-delta.json"):
        warnings += store.apply(message).warnings
    assert len(store) == 0
    assert [(w.terminal_id, "no terminal_info" in str(w)) for w in warnings] == [
        ("command-read-file", True)
    ]
    assert store.tool_call(SESSION, "command-read-file").status == "completed"  # type: ignore[union-attr]


def test_started_then_output_from_another_fixture() -> None:
    store = replay("terminal-command-started.json", "terminal-output-delta.json")
    terminal = only(store)
    assert (terminal.command, terminal.cwd) == ("ls -la", "/test/project")
    assert terminal.text() == "file1.txt\nfile2.txt\n"
    assert store.tool_call(SESSION, "command-123").title == "ls -la"  # type: ignore[union-attr]


def test_stdin_echo_delta() -> None:
    terminal = only(replay("terminal-interaction-stdin.json", announce="command-123"))
    assert terminal.text() == "\ncontinue\n"


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


def announced(terminal_id: str = "t1") -> TerminalStore:
    store = TerminalStore()
    store.apply(legacy({"terminal_info": {"terminal_id": terminal_id}}))
    return store


def test_terminal_output_wins_over_the_older_delta_key() -> None:
    store = announced()
    payload = {"terminal_id": "t1", "data": "once\n"}
    store.apply(legacy({"terminal_output": payload, "terminal_output_delta": payload}))
    assert only(store).text() == "once\n"


def test_legacy_strings_go_through_the_byte_decoder() -> None:
    store = announced()
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
    store = announced()
    result = store.apply(legacy(meta, status="in_progress"))
    assert len(result.warnings) == 1
    assert warning in str(result.warnings[0])
    assert store.tool_call(SESSION, "c1").status == "in_progress"  # type: ignore[union-attr]


def test_malformed_exit_still_marks_the_terminal_exited() -> None:
    store = announced()
    store.apply(legacy({"terminal_exit": {"terminal_id": "t1", "exit_code": "0"}}))
    assert only(store).exit_status.to_wire() == {}  # type: ignore[union-attr]


def test_legacy_and_v2_content_in_one_tool_call() -> None:
    store = TerminalStore()
    message = anchor("c1", "t1", session=SESSION)
    message["params"]["update"]["_meta"] = {"terminal_info": {"terminal_id": "t1", "cwd": "/p"}}
    store.apply(message)
    terminal = only(store)
    assert (terminal.cwd, terminal.tool_call_ids) == ("/p", ("c1",))


# -- today's agents ---------------------------------------------------------------------


def test_claude_agent_acp_command_comes_after_terminal_info() -> None:
    store = TerminalStore()
    changed = []
    for message in load_legacy_fixture("claude-agent-acp-bash-foreground.json"):
        result = store.apply(message)
        assert result.warnings == ()
        changed.append(result.changed)
    store.finish()
    terminal = only(store)
    assert terminal.key == ("claude-session", "toolu_bash")
    assert (terminal.command, terminal.cwd) == ("ls -la", None)  # no cwd in terminal_info
    assert changed[2] == (terminal.key,)  # the rawInput update set the command
    assert terminal.text() == "a.ts\nb.ts"
    assert terminal.exit_status.exit_code == 0  # type: ignore[union-attr]
    assert store.tool_call("claude-session", "toolu_bash").title == "ls -la"  # type: ignore[union-attr]


def test_claude_agent_acp_failure() -> None:
    terminal = only(replay("claude-agent-acp-bash-error.json"))
    assert terminal.command == "false"
    assert terminal.text() == "Exit code 1\nboom"
    assert terminal.exit_status.exit_code == 1  # type: ignore[union-attr]


def test_claude_agent_acp_whole_output_in_one_terminal_output() -> None:
    delta = only(replay("claude-agent-acp-bash-foreground.json"))
    whole = only(replay("claude-agent-acp-terminal-output.json"))
    assert (whole.command, whole.text(), whole.exit_status) == (
        delta.command,
        delta.text(),
        delta.exit_status,
    )


def test_a_later_raw_input_does_not_replace_a_known_command() -> None:
    store = TerminalStore()
    store.apply(legacy({"terminal_info": {"terminal_id": "t1"}}, rawInput={"command": "make"}))
    result = store.apply(legacy({}, rawInput={"command": "something else"}))
    assert result.changed == ()
    assert only(store).command == "make"


def test_codex_acp_exit_code_null_is_an_exit_without_a_code() -> None:
    terminal = only(replay("codex-acp-exit-code-null.json"))
    assert terminal.terminal_id == "call-exit-null"  # the tool call id, as codex-acp does
    assert terminal.tool_call_ids == ("call-exit-null",)
    assert (terminal.command, terminal.cwd) == ("bash -lc 'sleep 5'", "/test/project")
    assert terminal.text() == "waiting\n"
    assert terminal.exited
    assert terminal.exit_status.to_wire() == {}  # type: ignore[union-attr]
