"""Models: precise validation, three-state patches, exact round trips, schema validity."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from acp_wire import b64, chunk, terminal_update, validate
from hypothesis import given
from hypothesis import strategies as st

from termscribe.acp import (
    OMITTED,
    AcpError,
    CommandPermissionSubject,
    InvalidMessageError,
    TerminalContent,
    TerminalExitStatus,
    TerminalOutput,
    TerminalOutputChunk,
    TerminalStore,
    TerminalUpdate,
)

# -- round trips --------------------------------------------------------------

ROUND_TRIPS: list[tuple[type[Any], str, dict[str, Any]]] = [
    (TerminalContent, "Terminal", {"type": "terminal", "terminalId": "term_001"}),
    (TerminalContent, "Terminal", {"type": "terminal", "terminalId": "t", "_meta": None}),
    (TerminalContent, "Terminal", {"type": "terminal", "terminalId": "t", "_meta": {"k": [1]}}),
    (TerminalOutput, "TerminalOutput", {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="}),
    (TerminalOutput, "TerminalOutput", {"data": "", "_meta": None}),
    (TerminalOutput, "TerminalOutput", {"data": "YQ==", "_meta": {"x": 1}, "future": True}),
    (TerminalExitStatus, "TerminalExitStatus", {}),
    (TerminalExitStatus, "TerminalExitStatus", {"exitCode": 0, "signal": None}),
    (TerminalExitStatus, "TerminalExitStatus", {"signal": "SIGTERM"}),
    (TerminalExitStatus, "TerminalExitStatus", {"exitCode": None, "_meta": None}),
    (TerminalExitStatus, "TerminalExitStatus", {"exitCode": 4294967295, "_meta": {"a": "b"}}),
    (
        TerminalUpdate,
        "TerminalUpdate",
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "term_001",
            "command": "cargo test",
            "cwd": "/workspace/project",
            "output": {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="},
            "exitStatus": {"exitCode": 0, "signal": None},
        },
    ),
    (
        TerminalUpdate,
        "TerminalUpdate",
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "t",
            "command": None,
            "cwd": None,
            "output": None,
            "exitStatus": None,
            "_meta": None,
        },
    ),
    (TerminalUpdate, "TerminalUpdate", {"sessionUpdate": "terminal_update", "terminalId": "t"}),
    (
        TerminalUpdate,
        "TerminalUpdate",
        {"sessionUpdate": "terminal_update", "terminalId": "t", "_meta": {}, "newField": [1, 2]},
    ),
    (
        TerminalOutputChunk,
        "TerminalOutputChunk",
        {
            "sessionUpdate": "terminal_output_chunk",
            "terminalId": "term_001",
            "data": "cGFzc2VkDQo=",
        },
    ),
    (
        TerminalOutputChunk,
        "TerminalOutputChunk",
        {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "", "_meta": None},
    ),
    (
        CommandPermissionSubject,
        "CommandPermissionSubject",
        {
            "type": "command",
            "command": "cargo test",
            "cwd": "/workspace/project",
            "toolCallId": "call_001",
            "terminalId": "term_001",
        },
    ),
    (
        CommandPermissionSubject,
        "CommandPermissionSubject",
        {
            "type": "command",
            "command": "dir",
            "cwd": "C:\\Users\\dev",
            "toolCallId": None,
            "terminalId": None,
            "_meta": None,
        },
    ),
]


@pytest.mark.parametrize(("model", "definition", "wire"), ROUND_TRIPS)
def test_wire_round_trip_is_exact(model: Any, definition: str, wire: dict[str, Any]) -> None:
    parsed = model.from_wire(wire)
    assert parsed.to_wire() == wire
    assert model.from_wire(parsed.to_wire()) == parsed
    validate(parsed.to_wire(), definition)


def test_update_round_trip_validates_as_a_session_update() -> None:
    for model, _, wire in ROUND_TRIPS:
        if model in (TerminalUpdate, TerminalOutputChunk):
            validate(model.from_wire(wire).to_wire(), "SessionUpdate")


def test_content_validates_as_tool_call_content() -> None:
    validate(TerminalContent("term_001").to_wire(), "ToolCallContent")


def test_discriminator_is_optional_on_input_and_written_on_output() -> None:
    update = TerminalUpdate.from_wire({"terminalId": "t", "command": "ls"})
    assert update.to_wire() == {
        "sessionUpdate": "terminal_update",
        "terminalId": "t",
        "command": "ls",
    }


def test_omission_and_null_are_equal_where_the_schema_says_so() -> None:
    a = TerminalExitStatus.from_wire({"exitCode": None, "signal": None})
    b = TerminalExitStatus.from_wire({})
    assert a == b
    assert a.to_wire() == {"exitCode": None, "signal": None}
    assert b.to_wire() == {}


# -- three patch states -----------------------------------------------------------

PATCH_FIELDS = [
    ("command", "command", "cargo test"),
    ("cwd", "cwd", "/workspace"),
    ("output", "output", {"data": "YQ=="}),
    ("exitStatus", "exit_status", {"exitCode": 1}),
    ("_meta", "meta", {"k": "v"}),
]


@pytest.mark.parametrize(("wire_key", "attr", "value"), PATCH_FIELDS)
def test_patch_field_omitted(wire_key: str, attr: str, value: Any) -> None:
    update = TerminalUpdate.from_wire({"sessionUpdate": "terminal_update", "terminalId": "t"})
    assert getattr(update, attr) is OMITTED
    assert wire_key not in update.to_wire()


@pytest.mark.parametrize(("wire_key", "attr", "value"), PATCH_FIELDS)
def test_patch_field_null(wire_key: str, attr: str, value: Any) -> None:
    update = TerminalUpdate.from_wire({"terminalId": "t", wire_key: None})
    assert getattr(update, attr) is None
    assert update.to_wire()[wire_key] is None


@pytest.mark.parametrize(("wire_key", "attr", "value"), PATCH_FIELDS)
def test_patch_field_value(wire_key: str, attr: str, value: Any) -> None:
    update = TerminalUpdate.from_wire({"terminalId": "t", wire_key: value})
    assert getattr(update, attr) not in (None, OMITTED)
    assert update.to_wire()[wire_key] == value


def test_parsed_values() -> None:
    update = TerminalUpdate.from_wire(
        {
            "terminalId": "t",
            "output": {"data": b64(b"\x1b[31mhi")},
            "exitStatus": {"signal": "SIGINT"},
        }
    )
    assert update.output == TerminalOutput(b"\x1b[31mhi")
    assert update.exit_status == TerminalExitStatus(signal="SIGINT")


# -- rejection ------------------------------------------------------------------

BAD: list[tuple[Any, dict[str, Any], str, str | None, str]] = [
    (TerminalContent, {"type": "terminal"}, "terminalId", None, "missing"),
    (TerminalContent, {"type": "terminal", "terminalId": 7}, "terminalId", None, "string"),
    (TerminalContent, {"type": "diff", "terminalId": "t"}, "type", "t", "expected 'terminal'"),
    (TerminalContent, {"terminalId": "t"}, "type", "t", "missing"),
    (TerminalContent, {"type": "terminal", "terminalId": "t", "_meta": []}, "_meta", "t", "object"),
    (TerminalOutput, {}, "data", None, "missing"),
    (TerminalOutput, {"data": "YQ"}, "data", None, "base64"),
    (TerminalOutput, {"data": "YQ==", "_meta": "x"}, "_meta", None, "object"),
    (TerminalExitStatus, {"exitCode": -1}, "exitCode", None, "outside"),
    (TerminalExitStatus, {"exitCode": 2**32}, "exitCode", None, "outside"),
    (TerminalExitStatus, {"exitCode": True}, "exitCode", None, "integer"),
    (TerminalExitStatus, {"exitCode": 1.5}, "exitCode", None, "integer"),
    (TerminalExitStatus, {"exitCode": "1"}, "exitCode", None, "integer"),
    (TerminalExitStatus, {"signal": 15}, "signal", None, "string"),
    (TerminalUpdate, {}, "terminalId", None, "missing"),
    (TerminalUpdate, {"terminalId": "t", "command": 1}, "command", "t", "string"),
    (TerminalUpdate, {"terminalId": "t", "cwd": "project"}, "cwd", "t", "not absolute"),
    (TerminalUpdate, {"terminalId": "t", "cwd": 5}, "cwd", "t", "absolute path string"),
    (TerminalUpdate, {"terminalId": "t", "output": {}}, "output.data", "t", "missing"),
    (TerminalUpdate, {"terminalId": "t", "output": "YQ=="}, "output", "t", "object"),
    (TerminalUpdate, {"terminalId": "t", "output": {"data": "Y"}}, "output.data", "t", "base64"),
    (
        TerminalUpdate,
        {"terminalId": "t", "exitStatus": {"exitCode": -2}},
        "exitStatus.exitCode",
        "t",
        "outside",
    ),
    (TerminalUpdate, {"terminalId": "t", "exitStatus": 0}, "exitStatus", "t", "object"),
    (TerminalUpdate, {"terminalId": "t", "_meta": "x"}, "_meta", "t", "object"),
    (
        TerminalUpdate,
        {"terminalId": "t", "sessionUpdate": "terminal_output_chunk"},
        "sessionUpdate",
        "t",
        "expected",
    ),
    (TerminalOutputChunk, {"terminalId": "t"}, "data", "t", "missing"),
    (TerminalOutputChunk, {"terminalId": "t", "data": "YQ=\n"}, "data", "t", "base64"),
    (TerminalOutputChunk, {"data": "YQ=="}, "terminalId", None, "missing"),
    (CommandPermissionSubject, {"type": "command", "cwd": "/"}, "command", None, "missing"),
    (CommandPermissionSubject, {"type": "command", "command": "ls"}, "cwd", None, "missing"),
    (
        CommandPermissionSubject,
        {"type": "command", "command": "ls", "cwd": "rel"},
        "cwd",
        None,
        "absolute",
    ),
    (
        CommandPermissionSubject,
        {"type": "command", "command": "ls", "cwd": "/", "toolCallId": 3},
        "toolCallId",
        None,
        "string",
    ),
    (
        CommandPermissionSubject,
        {"type": "tool_call", "command": "ls", "cwd": "/"},
        "type",
        None,
        "expected",
    ),
]


@pytest.mark.parametrize(("model", "wire", "field", "terminal_id", "reason"), BAD)
def test_rejection_names_field_terminal_and_reason(
    model: Any, wire: dict[str, Any], field: str, terminal_id: str | None, reason: str
) -> None:
    with pytest.raises(InvalidMessageError) as info:
        model.from_wire(wire)
    error = info.value
    assert isinstance(error, AcpError)
    assert error.field == field
    assert error.terminal_id == terminal_id
    assert reason in error.reason
    assert field in str(error)


@pytest.mark.parametrize(
    "model", [TerminalContent, TerminalOutput, TerminalUpdate, TerminalExitStatus]
)
@pytest.mark.parametrize("wire", [None, [], "terminal", 3])
def test_non_objects_are_rejected(model: Any, wire: Any) -> None:
    with pytest.raises(InvalidMessageError, match="expected an object"):
        model.from_wire(wire)


def test_error_chains_the_internal_cause() -> None:
    with pytest.raises(InvalidMessageError) as info:
        TerminalUpdate.from_wire({"terminalId": "t", "cwd": "x"})
    assert info.value.__cause__ is not None


# -- immutability -----------------------------------------------------------------


def test_models_are_frozen() -> None:
    update = TerminalUpdate.from_wire({"terminalId": "t", "command": "ls"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        update.command = "rm"  # type: ignore[misc]


def test_models_do_not_share_state_with_the_wire() -> None:
    wire = {"terminalId": "t", "_meta": {"list": [1]}, "extra": {"deep": [1]}}
    update = TerminalUpdate.from_wire(wire)
    wire["_meta"]["list"].append(2)
    wire["extra"]["deep"].append(2)
    assert update.meta == {"list": [1]}
    out = update.to_wire()
    out["_meta"]["list"].append(3)
    assert update.to_wire()["_meta"] == {"list": [1]}
    assert update.to_wire()["extra"] == {"deep": [1]}


def test_repr_does_not_dump_payloads() -> None:
    chunk = TerminalOutputChunk("t", b"x" * 1_000_000)
    assert len(repr(chunk)) < 200
    assert "1000000 bytes" in repr(chunk)


# -- property: generated models round-trip and are schema-valid ---------------------

json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
metas = st.none() | st.dictionaries(st.text(max_size=5), json_values, max_size=3)
ids = st.text(min_size=1, max_size=10)
paths = st.sampled_from(["/", "/workspace/p", "C:\\x", "\\\\srv\\share\\d"])


def _maybe(key: str, strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(st.just({}), strategy.map(lambda v: {key: v}))


@st.composite
def exit_statuses(draw: st.DrawFn) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    wire.update(draw(_maybe("exitCode", st.none() | st.integers(0, 2**32 - 1))))
    wire.update(
        draw(_maybe("signal", st.none() | st.sampled_from(["SIGTERM", "SIGKILL", "CTRL_C"])))
    )
    wire.update(draw(_maybe("_meta", metas)))
    return wire


@st.composite
def terminal_updates(draw: st.DrawFn) -> dict[str, Any]:
    wire: dict[str, Any] = {"sessionUpdate": "terminal_update", "terminalId": draw(ids)}
    wire.update(draw(_maybe("command", st.none() | st.text(max_size=20))))
    wire.update(draw(_maybe("cwd", st.none() | paths)))
    output = st.builds(lambda d: {"data": b64(d)}, st.binary(max_size=20))
    wire.update(draw(_maybe("output", st.none() | output)))
    wire.update(draw(_maybe("exitStatus", st.none() | exit_statuses())))
    wire.update(draw(_maybe("_meta", metas)))
    wire.update(draw(_maybe("x-unknown", json_values)))
    return wire


@given(terminal_updates())
def test_generated_updates_round_trip_and_validate(wire: dict[str, Any]) -> None:
    update = TerminalUpdate.from_wire(wire)
    assert update.to_wire() == wire
    validate(update.to_wire(), "SessionUpdate")


@given(ids, st.binary(max_size=64), _maybe("_meta", metas))
def test_generated_chunks_round_trip_and_validate(
    terminal_id: str, data: bytes, meta: dict[str, Any]
) -> None:
    wire = {
        "sessionUpdate": "terminal_output_chunk",
        "terminalId": terminal_id,
        "data": b64(data),
        **meta,
    }
    chunk = TerminalOutputChunk.from_wire(wire)
    assert chunk.data == data
    assert chunk.to_wire() == wire
    validate(chunk.to_wire(), "SessionUpdate")


@given(
    st.text(max_size=20),
    paths,
    _maybe("toolCallId", st.none() | ids),
    _maybe("terminalId", st.none() | ids),
    _maybe("_meta", metas),
)
def test_generated_permission_subjects_round_trip_and_validate(
    command: str,
    cwd: str,
    tool_call: dict[str, Any],
    terminal: dict[str, Any],
    meta: dict[str, Any],
) -> None:
    wire: dict[str, Any] = {"type": "command", "command": command, "cwd": cwd}
    wire.update(tool_call)
    wire.update(terminal)
    wire.update(meta)
    subject = CommandPermissionSubject.from_wire(wire)
    assert subject.to_wire() == wire
    validate(subject.to_wire(), "RequestPermissionSubject")


def test_an_empty_terminal_id_is_an_id() -> None:
    # The v2 schema's TerminalId is any string; "" names one terminal like any other.
    assert TerminalContent.from_wire({"type": "terminal", "terminalId": ""}).terminal_id == ""
    subject = {"type": "command", "command": "ls", "cwd": "/", "terminalId": ""}
    assert CommandPermissionSubject.from_wire(subject).terminal_id == ""
    store = TerminalStore()
    store.apply(terminal_update("", command="ls"))
    store.apply(chunk("", b"x"))
    terminal = store.get("sess_1", "")
    assert terminal is not None and (terminal.command, terminal.text()) == ("ls", "x")
