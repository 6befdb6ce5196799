"""Every MUST / SHOULD of the ACP v2 RFD "display-only terminal output", client side.

Each test is named after the statement it pins.  Statements addressed to
Agents are tested as the client behaviour they imply (e.g. "Agents MUST NOT
reuse a terminalId in a session" → terminals are keyed by session).  The
Compatibility section's rule for stateless v1/v2 conversion helpers belongs to
the bridge, not to this store.
"""

from __future__ import annotations

from typing import Any

import pytest
from acp_wire import (
    SESSION,
    anchor,
    b64,
    chunk,
    notify,
    permission,
    snapshot,
    terminal_update,
    tool_status,
)

from termscribe.acp import InvalidMessageError, TerminalState, TerminalStore


def apply_all(*messages: Any) -> TerminalStore:
    store = TerminalStore()
    for message in messages:
        store.apply(message)
    return store


def terminal(
    store: TerminalStore, terminal_id: str = "t1", session: str = SESSION
) -> TerminalState:
    state = store.get(session, terminal_id)
    assert state is not None
    return state


# -- Ownership and identity ----------------------------------------------------


def test_terminal_id_is_unique_only_within_its_session() -> None:
    store = apply_all(chunk("t1", b"one", session="a"), chunk("t1", b"two", session="b"))
    assert terminal(store, session="a").text() == "one"
    assert terminal(store, session="b").text() == "two"


def test_clients_must_not_rely_on_terminal_id_equal_to_tool_call_id() -> None:
    store = apply_all(
        anchor("x", "term_9"), chunk("x", b"other terminal"), tool_status("x", "failed")
    )
    assert terminal(store, "term_9").tool_call_ids == ("x",)
    assert terminal(store, "x").tool_call_ids == ()
    assert [t.terminal_id for t in store.terminals_for_tool_call(SESSION, "x")] == ["term_9"]


def test_same_string_for_both_ids_is_allowed() -> None:
    store = apply_all(anchor("same", "same"), chunk("same", b"ok"))
    assert terminal(store, "same").tool_call_ids == ("same",)


# -- Tool-call terminal content ----------------------------------------------------


def test_terminal_content_is_only_a_display_anchor() -> None:
    store = apply_all(anchor("c1", "t1"))
    state = terminal(store)
    assert (state.command, state.cwd, state.exit_status, state.text()) == (None, None, None, "")
    assert state.tool_call_ids == ("c1",)


def test_reference_and_updates_may_arrive_in_either_order() -> None:
    first = apply_all(anchor("c1", "t1"), terminal_update("t1", command="ls"), chunk("t1", b"x"))
    second = apply_all(chunk("t1", b"x"), terminal_update("t1", command="ls"), anchor("c1", "t1"))
    for store in (first, second):
        state = terminal(store)
        assert (state.command, state.text(), state.tool_call_ids) == ("ls", "x", ("c1",))


def test_clients_should_retain_state_for_first_seen_terminal_id() -> None:
    store = apply_all(
        chunk("t1", b"early output\n"), terminal_update("t1", exit_status={"exitCode": 0})
    )
    store.apply(anchor("c1", "t1"))
    assert terminal(store).text() == "early output\n"
    assert terminal(store).exited


# -- Terminal state upserts ------------------------------------------------------------


def test_first_update_for_unseen_id_creates_state_with_omitted_fields_unknown() -> None:
    state = terminal(apply_all(terminal_update("t1", cwd="/w")))
    assert (state.cwd, state.command, state.exit_status, state.meta, state.text()) == (
        "/w",
        None,
        None,
        None,
        "",
    )


#: A concrete value for each terminal_update patch field.
PATCH_VALUES = [
    ("command", "ls"),
    ("cwd", "/w"),
    ("exit_status", {"exitCode": 3}),
    ("meta", {"k": 1}),
    ("output", {"data": "YQ=="}),
]


@pytest.mark.parametrize(("field", "value"), PATCH_VALUES)
def test_omitted_field_leaves_previous_value_unchanged(field: str, value: Any) -> None:
    store = apply_all(terminal_update("t1", **{field: value}))
    before = _observe(terminal(store))
    store.apply(terminal_update("t1"))
    assert _observe(terminal(store)) == before


@pytest.mark.parametrize(("field", "value"), PATCH_VALUES)
def test_null_clears_previous_value(field: str, value: Any) -> None:
    store = apply_all(
        terminal_update("t1", **{field: value}), terminal_update("t1", **{field: None})
    )
    state = terminal(store)
    assert (state.command, state.cwd, state.exit_status, state.meta, state.text()) == (
        None,
        None,
        None,
        None,
        "",
    )


@pytest.mark.parametrize(
    ("field", "first", "second", "expected"),
    [
        ("command", "ls", "make", "make"),
        ("cwd", "/a", "/b", "/b"),
        ("exit_status", {"exitCode": 3}, {"signal": "SIGINT"}, {"signal": "SIGINT"}),
        ("meta", {"k": 1}, {"j": 2}, {"j": 2}),
        ("output", {"data": b64(b"old")}, {"data": b64(b"new")}, "new"),
    ],
)
def test_concrete_value_replaces_previous_value(
    field: str, first: Any, second: Any, expected: Any
) -> None:
    store = apply_all(
        terminal_update("t1", **{field: first}), terminal_update("t1", **{field: second})
    )
    assert _observe(terminal(store))[field] == expected


def _observe(state: TerminalState) -> dict[str, Any]:
    return {
        "command": state.command,
        "cwd": state.cwd,
        "exit_status": None if state.exit_status is None else state.exit_status.to_wire(),
        "meta": state.meta,
        "output": state.text(),
    }


def test_command_should_be_on_the_first_update_but_may_be_missing() -> None:
    state = terminal(apply_all(terminal_update("t1", cwd="/w"), chunk("t1", b"out")))
    assert state.command is None
    assert state.text() == "out"


def test_command_is_descriptive_and_never_executed() -> None:
    state = terminal(apply_all(terminal_update("t1", command="rm -rf / # \x1b]52;c;payload\x07")))
    assert state.command == "rm -rf / # \x1b]52;c;payload\x07"
    assert state.text() == ""


@pytest.mark.parametrize("cwd", ["project", "./project", "~/project", "C:project", ""])
def test_every_supplied_cwd_must_be_absolute(cwd: str) -> None:
    store = TerminalStore(strict=True)
    store.apply(terminal_update("t1", cwd="/ok"))
    with pytest.raises(InvalidMessageError, match="cwd"):
        store.apply(terminal_update("t1", cwd=cwd, command="make"))
    assert (terminal(store).cwd, terminal(store).command) == ("/ok", None)
    # By default the schema's x-deserialize-default-on-error: the cwd is read
    # as omitted (a warning says so) and the rest of the update applies.
    store = apply_all(terminal_update("t1", cwd="/ok"))
    result = store.apply(terminal_update("t1", cwd=cwd, command="make"))
    assert ["'params.update.cwd'" in str(w) for w in result.warnings] == [True]
    assert (terminal(store).cwd, terminal(store).command) == ("/ok", "make")


def test_snapshot_is_the_complete_byte_sequence_to_retain() -> None:
    state = terminal(apply_all(snapshot("t1", b"running 123 tests\r\n")))
    assert state.raw_bytes == b"running 123 tests\r\n"


def test_clients_must_not_merge_or_splice_previous_snapshot_bytes() -> None:
    store = apply_all(snapshot("t1", b"line one\nline two\n"), chunk("t1", b"tail"))
    store.apply(snapshot("t1", b"LINE"))
    state = terminal(store)
    assert state.raw_bytes == b"LINE"
    assert state.text() == "LINE"


def test_later_chunks_append_to_the_replacement() -> None:
    store = apply_all(chunk("t1", b"stale"), snapshot("t1", b"fresh "), chunk("t1", b"and live"))
    assert terminal(store).text() == "fresh and live"


def test_snapshot_meta_omission_and_null_are_equivalent() -> None:
    a = apply_all(terminal_update("t1", output={"data": "YQ=="}))
    b = apply_all(terminal_update("t1", output={"data": "YQ==", "_meta": None}))
    assert terminal(a).output_meta is None
    assert terminal(b).output_meta is None
    c = apply_all(terminal_update("t1", output={"data": "YQ==", "_meta": {"s": 1}}))
    assert terminal(c).output_meta == {"s": 1}


def test_concrete_exit_status_marks_the_terminal_exited_even_when_empty() -> None:
    store = apply_all(chunk("t1", b"x"))
    assert not terminal(store).exited
    store.apply(terminal_update("t1", exit_status={}))
    state = terminal(store)
    assert state.exited
    assert (state.exit_status.exit_code, state.exit_status.signal) == (None, None)  # type: ignore[union-attr]


def test_exit_code_and_signal_omission_and_null_are_equivalent() -> None:
    a = terminal(apply_all(terminal_update("t1", exit_status={"exitCode": 0})))
    b = terminal(apply_all(terminal_update("t1", exit_status={"exitCode": 0, "signal": None})))
    assert a.exit_status == b.exit_status


def test_exit_status_null_clears_a_previous_exit() -> None:
    store = apply_all(
        terminal_update("t1", exit_status={"exitCode": 1}), terminal_update("t1", exit_status=None)
    )
    assert not terminal(store).exited


@pytest.mark.parametrize("signal", ["SIGTERM", "SIGKILL", "SIGINT", "CTRL_BREAK_EVENT", "SIGINFO"])
def test_signal_names_are_kept_as_reported(signal: str) -> None:
    state = terminal(apply_all(terminal_update("t1", exit_status={"signal": signal})))
    assert state.exit_status.signal == signal  # type: ignore[union-attr]
    assert state.exit_status.exit_code is None  # type: ignore[union-attr]


def test_top_level_meta_has_patch_semantics() -> None:
    store = apply_all(terminal_update("t1", meta={"a": 1}))
    store.apply(terminal_update("t1", command="x"))
    assert terminal(store).meta == {"a": 1}
    store.apply(terminal_update("t1", meta={"b": 2}))
    assert terminal(store).meta == {"b": 2}  # replaced, not merged
    store.apply(terminal_update("t1", meta=None))
    assert terminal(store).meta is None


def test_exit_status_is_independent_of_tool_call_status() -> None:
    store = apply_all(anchor("c1", "t1", status="in_progress"), tool_status("c1", "completed"))
    assert not terminal(store).exited
    store.apply(terminal_update("t1", exit_status={"signal": "SIGTERM"}))
    store.apply(tool_status("c1", "in_progress"))
    assert terminal(store).exit_status.signal == "SIGTERM"  # type: ignore[union-attr]
    assert store.tool_call(SESSION, "c1").status == "in_progress"  # type: ignore[union-attr]


# -- Live output chunks ----------------------------------------------------------------


@pytest.mark.parametrize("missing", ["terminalId", "data"])
def test_chunk_terminal_id_and_data_are_required(missing: str) -> None:
    update = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "YQ=="}
    del update[missing]
    with pytest.raises(InvalidMessageError, match=missing):
        TerminalStore().apply(notify(update))


def test_clients_decode_each_chunk_separately_and_must_not_concatenate() -> None:
    # Concatenated, "YQ==Yg==" is not even valid base64; separately it is "ab".
    store = apply_all(
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "YQ=="}),
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "Yg=="}),
    )
    assert terminal(store).raw_bytes == b"ab"


def test_chunks_append_in_received_order_per_terminal() -> None:
    store = apply_all(chunk("t1", b"1"), chunk("t2", b"A"), chunk("t1", b"2"), chunk("t2", b"B"))
    assert (terminal(store, "t1").text(), terminal(store, "t2").text()) == ("12", "AB")


def test_chunk_boundaries_have_no_text_or_terminal_meaning() -> None:
    stream = "\x1b[1;31merror\x1b[0m: café ✓\r\n".encode()
    whole = apply_all(chunk("t1", stream))
    pieces = apply_all(*(chunk("t1", stream[i : i + 1]) for i in range(len(stream))))
    whole.finish()
    pieces.finish()
    assert terminal(pieces).text() == terminal(whole).text() == "error: café ✓\n"


def test_chunk_meta_is_chunk_scoped() -> None:
    store = apply_all(terminal_update("t1", meta={"terminal": True}))
    store.apply(
        notify(
            {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "t1",
                "data": "",
                "_meta": {"c": 1},
            }
        )
    )
    store.apply(
        notify(
            {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "t1",
                "data": "",
                "_meta": None,
            }
        )
    )
    assert terminal(store).meta == {"terminal": True}


def test_agents_must_not_batch_two_order_sensitive_updates_for_one_terminal() -> None:
    store = TerminalStore()
    result = store.apply([chunk("t1", b"old"), snapshot("t1", b"new")])
    assert [w.terminal_id for w in result.warnings] == ["t1"]
    assert "whose order changes the result" in str(result.warnings[0])
    assert terminal(store).text() == "new"  # still applied, in array order


@pytest.mark.parametrize(
    ("batch", "warns"),
    [
        ([terminal_update("t1", command="ls"), chunk("t1", b"x")], False),
        ([chunk("t1", b"x"), terminal_update("t1", exit_status={"exitCode": 0})], False),
        ([terminal_update("t1", command="ls"), terminal_update("t1", cwd="/w")], False),
        ([terminal_update("t1", command="ls"), terminal_update("t1", command="ls")], False),
        ([chunk("t1", b""), chunk("t1", b"x"), terminal_update("t1", command="ls")], False),
        ([chunk("t1", b"x"), snapshot("t1", b"y")], True),
        ([chunk("t1", b"x"), chunk("t1", b"y")], True),
        ([terminal_update("t1", command="ls"), terminal_update("t1", command="cat")], True),
        ([terminal_update("t1", cwd="/w"), terminal_update("t1", cwd=None)], True),
        ([chunk("t1", b"x"), terminal_update("t1", output=None)], True),
    ],
)
def test_the_batch_warning_fires_only_where_order_changes_the_result(
    batch: list[Any], warns: bool
) -> None:
    result = TerminalStore().apply(batch)
    assert [w.terminal_id for w in result.warnings] == (["t1"] if warns else [])


# -- Command permission subjects -------------------------------------------------------


@pytest.mark.parametrize("missing", ["command", "cwd"])
def test_permission_command_and_cwd_are_required(missing: str) -> None:
    message = permission()
    del message["params"]["subject"][missing]
    with pytest.raises(InvalidMessageError, match=missing):
        TerminalStore().apply(message)


def test_permission_cwd_must_be_absolute() -> None:
    with pytest.raises(InvalidMessageError, match="not absolute"):
        TerminalStore().apply(permission(cwd="workspace/project"))


def test_permission_ids_and_meta_are_optional_and_null_means_omitted() -> None:
    store = TerminalStore()
    store.apply(permission(request_id=1))
    store.apply(permission(request_id=2, toolCallId=None, terminalId=None, _meta=None))
    first, second = (p.subject for p in store.permissions())
    assert first == second
    assert (first.tool_call_id, first.terminal_id, first.meta) == (None, None, None)


def test_permission_subject_is_not_a_terminal_update() -> None:
    store = apply_all(terminal_update("t1", command="make", cwd="/a"))
    store.apply(permission(command="cargo test", cwd="/b", terminalId="t1"))
    store.apply(permission(command="npm test", cwd="/c", terminalId="t_new"))
    assert (terminal(store).command, terminal(store).cwd) == ("make", "/a")
    assert store.get(SESSION, "t_new") is None
    assert [p.subject.command for p in store.permissions_for(terminal(store))] == ["cargo test"]


def test_permission_may_precede_execution_and_link_up_later() -> None:
    store = apply_all(permission(toolCallId="c1"))
    assert len(store) == 0
    store.apply(anchor("c1", "t1"))
    assert len(store.permissions_for(terminal(store))) == 1
