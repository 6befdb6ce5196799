"""TerminalStore mechanics: creation, patches, output, associations, batches, rejection."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from acp_wire import (
    SESSION,
    anchor,
    b64,
    chunk,
    fingerprint,
    notify,
    permission,
    snapshot,
    terminal_update,
    tool_status,
)

from termscribe import render_text
from termscribe.acp import (
    InvalidMessageError,
    StoreFinishedError,
    TerminalExitStatus,
    TerminalKey,
    TerminalStore,
)

KEY = TerminalKey(SESSION, "t1")


def text_of(store: TerminalStore, terminal_id: str = "t1", session: str = SESSION) -> str:
    terminal = store.get(session, terminal_id)
    assert terminal is not None
    return terminal.text()


# -- creation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        anchor("c1", "t1"),
        anchor("c1", "t1", update_kind="tool_call", title="ls", status="pending"),
        anchor("c1", "t1", update_kind="tool_call_content_chunk"),
        terminal_update("t1"),
        chunk("t1", b""),
    ],
    ids=["tool_call_update", "tool_call", "tool_call_content_chunk", "terminal_update", "chunk"],
)
def test_first_sight_creates_terminal_state(message: dict[str, Any]) -> None:
    store = TerminalStore()
    result = store.apply(message)
    assert result.changed == (KEY,)
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert (terminal.command, terminal.cwd, terminal.exit_status, terminal.meta) == (None,) * 4
    assert terminal.text() == ""


def test_terminal_content_among_other_content_items() -> None:
    store = TerminalStore()
    update = {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "c1",
        "content": [
            {"type": "content", "content": {"type": "text", "text": "hi"}},
            {"type": "diff", "path": "/a", "newText": "x"},
            {"type": "terminal", "terminalId": "t1"},
            {"type": "future-kind", "terminalId": "not-a-terminal"},
            {"type": "terminal", "terminalId": "t2"},
        ],
    }
    store.apply(notify(update))
    assert [t.terminal_id for t in store] == ["t1", "t2"]
    assert store.tool_call(SESSION, "c1").terminal_ids == ("t1", "t2")  # type: ignore[union-attr]


def test_terminals_in_first_seen_order() -> None:
    store = TerminalStore()
    for message in [chunk("b", b"x"), anchor("c", "a"), terminal_update("c"), chunk("b", b"y")]:
        store.apply(message)
    assert [t.terminal_id for t in store.terminals()] == ["b", "a", "c"]
    assert len(store) == 3
    assert KEY not in store
    assert TerminalKey(SESSION, "a") in store


def test_bare_session_update_and_session_notification() -> None:
    store = TerminalStore()
    store.apply({"sessionUpdate": "terminal_update", "terminalId": "t1", "command": "ls"})
    store.apply(
        {"sessionUpdate": "terminal_update", "terminalId": "t1", "cwd": "/"}, session_id="s9"
    )
    store.apply(
        {
            "sessionId": "s8",
            "update": {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "t1",
                "data": "YQ==",
            },
        }
    )
    assert [t.key for t in store] == [
        TerminalKey(None, "t1"),
        TerminalKey("s9", "t1"),
        TerminalKey("s8", "t1"),
    ]
    assert store.get(None, "t1").command == "ls"  # type: ignore[union-attr]
    assert [t.session_id for t in store.find("t1")] == [None, "s9", "s8"]


# -- patches --------------------------------------------------------------------

FIELDS = [
    ("command", "command", "cargo test", "make"),
    ("cwd", "cwd", "/workspace", "C:\\work"),
    ("exitStatus", "exit_status", {"exitCode": 1}, {"signal": "SIGKILL"}),
    ("_meta", "meta", {"a": 1}, {"b": [2]}),
]


def _read(store: TerminalStore, attr: str) -> Any:
    value = getattr(store.get(SESSION, "t1"), attr)
    return value.to_wire() if isinstance(value, TerminalExitStatus) else value


@pytest.mark.parametrize(("wire", "attr", "first", "second"), FIELDS)
def test_patch_states_in_the_store(wire: str, attr: str, first: Any, second: Any) -> None:
    store = TerminalStore()
    store.apply(notify({"sessionUpdate": "terminal_update", "terminalId": "t1", wire: first}))
    assert _read(store, attr) == first
    store.apply(terminal_update("t1"))  # omitted: unchanged
    assert _read(store, attr) == first
    store.apply(notify({"sessionUpdate": "terminal_update", "terminalId": "t1", wire: second}))
    assert _read(store, attr) == second  # value: replaced
    store.apply(notify({"sessionUpdate": "terminal_update", "terminalId": "t1", wire: None}))
    assert _read(store, attr) is None  # null: cleared


def test_patches_of_one_field_leave_the_others() -> None:
    store = TerminalStore()
    store.apply(terminal_update("t1", command="ls", cwd="/a", meta={"m": 1}, exit_status={}))
    store.apply(terminal_update("t1", command=None))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert (terminal.command, terminal.cwd, terminal.meta) == (None, "/a", {"m": 1})
    assert terminal.exited


def test_meta_returned_is_a_copy() -> None:
    store = TerminalStore()
    store.apply(terminal_update("t1", meta={"list": [1]}))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    terminal.meta["list"].append(2)  # type: ignore[index]
    assert terminal.meta == {"list": [1]}


# -- output -------------------------------------------------------------------------


def test_chunks_decode_independently() -> None:
    store = TerminalStore()
    store.apply(
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "YQ=="})
    )
    store.apply(
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "Yg=="})
    )
    assert store.get(SESSION, "t1").raw_bytes == b"ab"  # type: ignore[union-attr]
    assert text_of(store) == "ab"


def test_chunks_may_split_code_points_and_escape_sequences() -> None:
    stream = "\x1b[32m✓ passed\x1b[0m — naïve\r\n".encode()
    for cut1, cut2 in itertools.combinations(range(1, len(stream)), 2):
        store = TerminalStore()
        for piece in (stream[:cut1], stream[cut1:cut2], stream[cut2:]):
            store.apply(chunk("t1", piece))
        store.finish()
        assert text_of(store) == "✓ passed — naïve\n", (cut1, cut2)


def test_snapshot_replaces_and_chunks_append_to_it() -> None:
    store = TerminalStore()
    store.apply(chunk("t1", b"old output\n"))
    store.apply(snapshot("t1", b"fresh\n"))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert terminal.raw_bytes == b"fresh\n"
    assert terminal.text() == "fresh\n"
    store.apply(chunk("t1", b"more\n"))
    assert terminal.raw_bytes == b"fresh\nmore\n"
    assert terminal.text() == "fresh\nmore\n"
    assert terminal.snapshot_generation == 1
    assert terminal.bytes_received == len(b"fresh\nmore\n")


def test_snapshot_restarts_the_parser() -> None:
    store = TerminalStore()
    store.apply(chunk("t1", b"\x1b]0;an unterminated title"))  # open OSC
    store.apply(snapshot("t1", b"visible\n"))
    assert text_of(store) == "visible\n"
    store.apply(chunk("t1", b"\xe2\x9c"))  # split code point
    store.apply(snapshot("t1", b"again"))
    store.finish()
    assert text_of(store) == "again"


def test_output_null_clears_and_counts_as_a_replacement() -> None:
    store = TerminalStore()
    store.apply(terminal_update("t1", output={"data": b64(b"abc"), "_meta": {"snap": 1}}))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert terminal.output_meta == {"snap": 1}
    store.apply(terminal_update("t1", output=None))
    assert (terminal.raw_bytes, terminal.text(), terminal.output_meta) == (b"", "", None)
    assert terminal.snapshot_generation == 2
    store.apply(terminal_update("t1", command="ls"))
    assert terminal.snapshot_generation == 2


def test_retention_cap_truncates_raw_bytes_but_not_the_transcript() -> None:
    store = TerminalStore(max_retained_bytes=8)
    store.apply(chunk("t1", b"12345"))
    store.apply(chunk("t1", b"67890\nabc\n"))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert terminal.raw_bytes == b"12345678"
    assert terminal.raw_truncated
    assert terminal.text() == "1234567890\nabc\n"
    assert terminal.bytes_received == 15
    store.apply(snapshot("t1", b"ok"))
    assert (terminal.raw_bytes, terminal.raw_truncated) == (b"ok", False)


def test_zero_retention_keeps_transcripts() -> None:
    store = TerminalStore(max_retained_bytes=0)
    store.apply(chunk("t1", b"hello"))
    assert store.get(SESSION, "t1").raw_bytes == b""  # type: ignore[union-attr]
    assert text_of(store) == "hello"


def test_a_store_wide_cap_is_shared_by_its_terminals_and_freed_by_snapshots() -> None:
    store = TerminalStore(max_retained_bytes=6, max_total_retained_bytes=10)
    store.apply(chunk("t1", b"123456789"))  # the terminal's own cap first
    store.apply(chunk("t2", b"abcdef"))  # then what is left of the store's
    one, two = store.get(SESSION, "t1"), store.get(SESSION, "t2")
    assert one is not None and two is not None
    assert (one.raw_bytes, one.raw_truncated) == (b"123456", True)
    assert (two.raw_bytes, two.raw_truncated) == (b"abcd", True)
    assert two.text() == "abcdef"  # the transcript has everything
    store.apply(snapshot("t1", b"xy"))  # frees t1's six bytes
    store.apply(chunk("t3", b"0123"))
    three = store.get(SESSION, "t3")
    assert three is not None and (three.raw_bytes, three.raw_truncated) == (b"0123", False)
    store.apply(chunk("t3", b"45"))
    assert (three.raw_bytes, three.raw_truncated) == (b"0123", True)
    with pytest.raises(ValueError):
        TerminalStore(max_total_retained_bytes=-1)


def test_an_unstyled_store_keeps_the_text_only() -> None:
    stream = b"\x1b[31mred\x1b[0m plain\n"
    styled, plain = TerminalStore(), TerminalStore(styled=False)
    for store in (styled, plain):
        store.apply(chunk("t1", stream))
    one, two = styled.get(SESSION, "t1"), plain.get(SESSION, "t1")
    assert one is not None and two is not None
    assert one.text() == two.text() == "red plain\n"
    assert "ts-" in one.html() and "ts-" not in two.html()


def test_store_options_reach_the_transcripts() -> None:
    stream = b"50%\r100%\n"
    for mode in ("lines", "strip"):
        store = TerminalStore(mode=mode)
        store.apply(chunk("t1", stream))
        store.finish()
        assert text_of(store) == render_text(stream, mode=mode)
    with pytest.raises(ValueError):
        TerminalStore(mode="bogus")
    with pytest.raises(ValueError):
        TerminalStore(max_retained_bytes=-1)


def test_finish_flushes_and_closes() -> None:
    store = TerminalStore()
    store.apply(chunk("t1", b"ok\xe2\x9c"))
    assert text_of(store) == "ok"
    store.finish()
    store.finish()
    assert store.finished
    assert text_of(store) == "ok\ufffd"
    with pytest.raises(StoreFinishedError):
        store.apply(chunk("t1", b"late"))


def test_prepare_changes_nothing_and_commit_applies_as_apply_does() -> None:
    batch = [
        anchor("c2", "t2", title="build"),
        terminal_update("t1", exitStatus={"exitCode": 0}),
        chunk("t2", b"x\x1b[31m"),
        snapshot("t1", b"again"),
    ]
    store, reference = _loaded(TerminalStore()), _loaded(TerminalStore())
    before = fingerprint(store)
    prepared = store.prepare(batch)
    assert fingerprint(store) == before  # validated and read, nothing applied
    assert store.commit(prepared) == reference.apply(batch)
    assert fingerprint(store) == fingerprint(reference) != before


def test_a_prepared_message_is_not_committed_to_a_finished_store() -> None:
    store = _loaded(TerminalStore())
    prepared = store.prepare(chunk("t1", b"late"))
    store.finish()
    before = fingerprint(store)
    with pytest.raises(StoreFinishedError):
        store.commit(prepared)
    with pytest.raises(StoreFinishedError):
        store.prepare(chunk("t1", b"later"))
    assert fingerprint(store) == before


# -- tool calls and permissions ----------------------------------------------------------


def test_associations_in_both_directions_in_any_order() -> None:
    messages = [anchor("c1", "t1"), anchor("c2", "t1"), anchor("c1", "t2"), chunk("t1", b"x")]
    results = set()
    for order in itertools.permutations(messages):
        store = TerminalStore()
        for message in order:
            store.apply(message)
        t1 = store.get(SESSION, "t1")
        assert t1 is not None
        by_call = {
            c: {t.terminal_id for t in store.terminals_for_tool_call(SESSION, c)}
            for c in ("c1", "c2")
        }
        results.add(
            (
                frozenset(t1.tool_call_ids),
                tuple(sorted((k, frozenset(v)) for k, v in by_call.items())),
            )
        )
    assert results == {
        (frozenset({"c1", "c2"}), (("c1", frozenset({"t1", "t2"})), ("c2", frozenset({"t1"}))))
    }


def test_repeated_anchor_is_not_a_change() -> None:
    store = TerminalStore()
    store.apply(anchor("c1", "t1"))
    revision = store.revision
    assert store.apply(anchor("c1", "t1")).changed == ()
    assert store.revision == revision
    assert store.get(SESSION, "t1").tool_call_ids == ("c1",)  # type: ignore[union-attr]


def test_tool_call_display_fields_are_patched() -> None:
    store = TerminalStore()
    store.apply(anchor("c1", "t1", title="Run tests", kind="execute", status="pending"))
    store.apply(tool_status("c1", "completed"))
    info = store.tool_call(SESSION, "c1")
    assert info is not None
    assert (info.title, info.kind, info.status, info.terminal_ids) == (
        "Run tests",
        "execute",
        "completed",
        ("t1",),
    )
    store.apply(notify({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "title": None}))
    assert store.tool_call(SESSION, "c1").title is None  # type: ignore[union-attr]
    assert store.tool_call(SESSION, "nope") is None
    assert store.terminals_for_tool_call(SESSION, "nope") == ()


def test_permission_records_are_found_by_terminal_or_tool_call() -> None:
    store = TerminalStore()
    store.apply(permission(toolCallId="c1", request_id=1))
    store.apply(permission(command="rm -rf build", terminalId="t1", request_id=2))
    store.apply(permission(command="other", terminalId="t9", request_id=3))
    assert len(store) == 0
    store.apply(anchor("c1", "t1"))
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert [p.request_id for p in store.permissions_for(terminal)] == [1, 2]
    assert [p.request_id for p in store.permissions()] == [1, 2, 3]
    assert store.permissions()[0].title == "Run the test suite?"


def test_bad_display_fields_are_ignored_not_fatal() -> None:
    store = TerminalStore()
    store.apply(anchor("c1", "t1", title="Build", status="pending"))
    store.apply(anchor("c1", "t2", title=3, kind=["x"], status={"s": 1}))
    info = store.tool_call(SESSION, "c1")
    assert info is not None
    assert (info.title, info.kind, info.status, info.terminal_ids) == (
        "Build",
        None,
        "pending",
        ("t1", "t2"),
    )
    message = permission(terminalId="t1")
    message["params"]["title"] = 7
    store.apply(message)
    assert [(p.title, p.subject.command) for p in store.permissions()] == [(None, "cargo test")]


def test_other_permission_subjects_are_ignored() -> None:
    store = TerminalStore()
    message = permission()
    message["params"]["subject"] = {"type": "tool_call", "toolCall": {"toolCallId": "c1"}}
    assert store.apply(message).ignored == 1
    del message["params"]["subject"]
    assert store.apply(message).ignored == 1
    assert store.permissions() == ()


# -- change tracking -----------------------------------------------------------------


def test_versions_and_changed_since() -> None:
    store = TerminalStore()
    store.apply(chunk("t1", b"a"))
    store.apply(chunk("t2", b"b"))
    seen = store.revision
    t1 = store.get(SESSION, "t1")
    assert t1 is not None
    before = t1.version
    assert store.changed_since(seen) == ()
    result = store.apply(chunk("t1", b"c"))
    assert result.changed == (KEY,)
    assert t1.version > before
    assert store.changed_since(seen) == (t1,)
    assert [t.terminal_id for t in store.changed_since(0)] == ["t1", "t2"]


# -- unknown and ignored -------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        notify(
            {
                "sessionUpdate": "agent_message_chunk",
                "messageId": "m",
                "content": {"type": "text", "text": "hi"},
            }
        ),
        notify({"sessionUpdate": "some_future_update", "terminalId": "t1", "data": "!!"}),
        {"jsonrpc": "2.0", "method": "session/prompt", "id": 3, "params": {"x": 1}},
        {"jsonrpc": "2.0", "method": "_zed/custom", "params": None},
        {"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "end_turn"}},
        {"jsonrpc": "2.0", "id": 4, "error": {"code": -32601, "message": "no"}},
    ],
)
def test_unknown_and_unrelated_messages_are_ignored(message: dict[str, Any]) -> None:
    store = TerminalStore()
    result = store.apply(message)
    assert (result.changed, result.ignored, len(store)) == ((), 1, 0)


def test_unknown_fields_are_not_fatal() -> None:
    store = TerminalStore()
    store.apply(
        notify(
            {
                "sessionUpdate": "terminal_update",
                "terminalId": "t1",
                "command": "ls",
                "futureField": {"x": 1},
                "output": {"data": "YQ==", "encoding": "raw"},
                "exitStatus": {"exitCode": 0, "coreDumped": False},
            }
        )
    )
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert terminal.exit_status.to_wire() == {"exitCode": 0, "coreDumped": False}  # type: ignore[union-attr]
    assert terminal.text() == "a"


# -- batches ------------------------------------------------------------------------


def test_batch_applies_in_array_order() -> None:
    store = TerminalStore()
    result = store.apply(
        [chunk("t2", b"b"), anchor("c1", "t2"), chunk("t1", b"a"), terminal_update("t3")]
    )
    keys = [TerminalKey(SESSION, t) for t in ("t2", "t1", "t3")]
    assert result.changed == tuple(keys)
    assert [t.key for t in store] == keys
    assert result.warnings == ()


def test_batch_with_two_updates_for_one_terminal_warns() -> None:
    store = TerminalStore()
    result = store.apply(
        [chunk("t1", b"a"), anchor("c1", "t1"), chunk("t1", b"b"), chunk("t2", b"c")]
    )
    assert text_of(store) == "ab"
    assert len(result.warnings) == 1
    assert result.warnings[0].terminal_id == "t1"
    assert "2 terminal_update/terminal_output_chunk" in str(result.warnings[0])


def test_same_terminal_id_in_two_sessions_does_not_warn() -> None:
    result = TerminalStore().apply(
        [chunk("t1", b"a", session="s1"), chunk("t1", b"b", session="s2")]
    )
    assert result.warnings == ()


def test_invalid_batch_item_rejects_the_whole_batch() -> None:
    store = TerminalStore()
    store.apply(chunk("t1", b"kept"))
    before = fingerprint(store)
    with pytest.raises(InvalidMessageError) as info:
        store.apply([chunk("t1", b"x"), notify({**VALID_CHUNK, "terminalId": "t2", "data": "Y="})])
    assert info.value.index == 1
    assert info.value.field == "[1].params.update.data"
    assert info.value.terminal_id == "t2"
    assert fingerprint(store) == before


def test_apply_each_keeps_the_valid_items() -> None:
    store = TerminalStore()
    result, errors = store.apply_each(
        [
            chunk("t1", b"a"),
            terminal_update("t2", output={"data": "not base64"}),
            42,
            chunk("t1", b"b"),
            chunk("t1", b"c"),
        ]
    )
    assert text_of(store) == "abc"
    assert [e.index for e in errors] == [1, 2]
    assert store.get(SESSION, "t2") is None
    assert len(result.warnings) == 1


def test_empty_batch_is_invalid() -> None:
    store = TerminalStore()
    with pytest.raises(InvalidMessageError, match="empty batch"):
        store.apply([])
    _, errors = store.apply_each([])
    assert [str(e) for e in errors] == ["invalid message: empty batch"]


# -- rejected messages change nothing ----------------------------------------------------

VALID_CHUNK = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "YQ=="}

MALFORMED: list[tuple[str, Any, str]] = [
    ("not an object", "hello", ""),
    ("number", 12, ""),
    ("unknown shape", {"jsonrpc": "2.0"}, ""),
    ("method not a string", {"method": 5}, "method"),
    ("params missing", {"jsonrpc": "2.0", "method": "session/update"}, "params"),
    ("params not an object", {"method": "session/update", "params": []}, "params"),
    (
        "sessionId missing",
        {"method": "session/update", "params": {"update": VALID_CHUNK}},
        "params.sessionId",
    ),
    (
        "sessionId not a string",
        {"method": "session/update", "params": {"sessionId": 1, "update": VALID_CHUNK}},
        "params.sessionId",
    ),
    ("update missing", {"method": "session/update", "params": {"sessionId": "s"}}, "params.update"),
    (
        "update not an object",
        {"method": "session/update", "params": {"sessionId": "s", "update": "x"}},
        "params.update",
    ),
    ("sessionUpdate not a string", notify({"sessionUpdate": None}), "params.update.sessionUpdate"),
    (
        "chunk without data",
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1"}),
        "params.update.data",
    ),
    ("chunk bad base64", notify({**VALID_CHUNK, "data": "YQ="}), "params.update.data"),
    ("chunk numeric id", notify({**VALID_CHUNK, "terminalId": 7}), "params.update.terminalId"),
    ("chunk bad meta", notify({**VALID_CHUNK, "_meta": 1}), "params.update._meta"),
    ("update relative cwd", terminal_update("t1", cwd="src"), "params.update.cwd"),
    (
        "update bad snapshot",
        terminal_update("t1", output={"data": "%%%%"}),
        "params.update.output.data",
    ),
    (
        "update negative exit",
        terminal_update("t1", exit_status={"exitCode": -1}),
        "params.update.exitStatus.exitCode",
    ),
    (
        "update id missing",
        notify({"sessionUpdate": "terminal_update", "command": "x"}),
        "params.update.terminalId",
    ),
    (
        "tool call id missing",
        notify({"sessionUpdate": "tool_call_update", "content": []}),
        "params.update.toolCallId",
    ),
    (
        "tool call content not array",
        notify({"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": {}}),
        "params.update.content",
    ),
    (
        "terminal content without id",
        notify(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c",
                "content": [{"type": "terminal"}],
            }
        ),
        "params.update.content[0].terminalId",
    ),
    (
        "content chunk without content",
        notify({"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c"}),
        "params.update.content",
    ),
    (
        "content chunk bad terminal",
        notify(
            {
                "sessionUpdate": "tool_call_content_chunk",
                "toolCallId": "c",
                "content": {"type": "terminal", "terminalId": 1},
            }
        ),
        "params.update.content.terminalId",
    ),
    ("permission relative cwd", permission(cwd="project"), "params.subject.cwd"),
    ("permission no command", permission(command=None), "params.subject.command"),
    (
        "permission no session",
        {
            "method": "session/request_permission",
            "id": 1,
            "params": {"subject": {"type": "command"}},
        },
        "params.sessionId",
    ),
    ("batch with a bad item", [chunk("t1", b"x"), "junk"], "[1]"),
    ("nested batch", [[chunk("t1", b"x")]], "[0]"),
]


# Optional fields the schema marks x-deserialize-default-on-error: rejected only
# by a strict store; by default read as omitted, with a warning.
LENIENT = {
    "chunk bad meta",
    "update relative cwd",
    "update negative exit",
    "tool call content not array",
    "terminal content without id",
    "content chunk bad terminal",
}


@pytest.mark.parametrize(("name", "message", "field"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_message_leaves_the_store_unchanged(name: str, message: Any, field: str) -> None:
    store = _loaded(TerminalStore(strict=True))
    before = fingerprint(store)
    with pytest.raises(InvalidMessageError) as info:
        store.apply(message)
    assert info.value.field == field
    with pytest.raises(InvalidMessageError) as info:
        store.prepare(message)  # apply's first half is where it is rejected
    assert info.value.field == field
    assert fingerprint(store) == before
    store.apply(chunk("t1", b"\x93 done"))  # the split code point survived the rejection
    store.finish()
    assert text_of(store) == "partial ✓ done"
    if name not in LENIENT:  # a hard error whatever the strictness
        with pytest.raises(InvalidMessageError):
            _loaded(TerminalStore()).apply(message)


@pytest.mark.parametrize(
    ("name", "message", "field"),
    [m for m in MALFORMED if m[0] in LENIENT],
    ids=sorted(LENIENT, key=[m[0] for m in MALFORMED].index),
)
def test_bad_optional_fields_are_read_as_omitted(name: str, message: Any, field: str) -> None:
    store = _loaded(TerminalStore())
    before = fingerprint(store)
    result = store.apply(message)
    assert [f"{field!r}" in str(w) for w in result.warnings] == [True]
    terminal = store.get(SESSION, "t1")
    assert terminal is not None
    assert (terminal.cwd, terminal.meta) == ("/w", {"m": 1})
    if name == "update negative exit":  # the exit is there, its code is not
        assert terminal.exit_status is not None and terminal.exit_status.to_wire() == {}
    else:
        assert terminal.exit_status is None
    if name == "chunk bad meta":  # the chunk itself is applied
        assert terminal.bytes_received == len(b"partial \xe2\x9c") + 1
    elif name != "update negative exit":  # nothing else to apply
        terminals_before = [t[:-2] for t in before[0]]  # versions aside
        assert [t[:-2] for t in fingerprint(store)[0]] == terminals_before


def _loaded(store: TerminalStore) -> TerminalStore:
    store.apply(anchor("c1", "t1", title="t"))
    store.apply(terminal_update("t1", command="make", cwd="/w", meta={"m": 1}))
    store.apply(chunk("t1", b"partial \xe2\x9c"))
    store.apply(permission(terminalId="t1"))
    return store
