"""The store with the official Python SDK: its pydantic models, and
``apply_session_update`` as the SDK's ``Client.session_update``.

The SDK's models (agent-client-protocol 0.12) are v1's: they have no
``terminal_update`` or ``terminal_output_chunk``.  So the SDK's own models
carry the real v1 ``_meta`` traffic of tests/acp/data, and small pydantic
models written here carry the v2 shapes, whose patches need ``exclude_unset``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, ClassVar, Literal

import pytest
from acp import schema as sdk
from acp.client.router import build_client_router
from acp_wire import DATA, b64, chunk, fingerprint, load_legacy_fixture, notify, terminal_update
from pydantic import BaseModel, ConfigDict, Field

from termscribe import Transcript
from termscribe.acp import (
    InvalidMessageError,
    OutputObserver,
    StoreFinishedError,
    TerminalState,
    TerminalStore,
)

SESSION = "sess_1"
LEGACY_FIXTURES = sorted(
    name for name in os.listdir(DATA / "legacy-v1-meta") if name.endswith(".json")
)

# -- v2 terminal shapes as pydantic models, as an SDK with v2 would have them


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class ExitStatus(_Wire):
    exit_code: int | None = Field(default=None, alias="exitCode")
    signal: str | None = None


class Output(_Wire):
    data: str
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class TerminalUpdate(_Wire):
    session_update: Literal["terminal_update"] = Field(alias="sessionUpdate")
    terminal_id: str = Field(alias="terminalId")
    command: str | None = None
    cwd: str | None = None
    output: Output | None = None
    exit_status: ExitStatus | None = Field(default=None, alias="exitStatus")


class OutputChunk(_Wire):
    session_update: Literal["terminal_output_chunk"] = Field(alias="sessionUpdate")
    terminal_id: str = Field(alias="terminalId")
    data: str


def v2_update(**fields: Any) -> TerminalUpdate:
    return TerminalUpdate(session_update="terminal_update", terminal_id="term_1", **fields)


def v2_chunk(data: bytes) -> OutputChunk:
    return OutputChunk(session_update="terminal_output_chunk", terminal_id="term_1", data=b64(data))


def only(store: TerminalStore) -> TerminalState:
    (terminal,) = store.terminals()
    return terminal


# -- the SDK's models ----------------------------------------------------------


@pytest.mark.parametrize("name", LEGACY_FIXTURES)
def test_sdk_models_of_real_v1_traffic_build_the_same_store(name: str) -> None:
    # Each message as JSON, as the SDK's SessionNotification (through apply)
    # and as the SDK's Client.session_update receives it.
    messages = load_legacy_fixture(name)
    as_json, as_model, as_client = TerminalStore(), TerminalStore(), TerminalStore()
    for message in messages:
        notification = sdk.SessionNotification.model_validate(message["params"])
        expected = as_json.apply(message)
        assert as_model.apply(notification) == expected
        meta = notification.field_meta or {}
        update = notification.update
        assert as_client.apply_session_update(notification.session_id, update, **meta) == expected
    assert fingerprint(as_model) == fingerprint(as_json) == fingerprint(as_client)


def test_an_unset_field_of_an_sdk_model_leaves_and_a_none_clears() -> None:
    store = TerminalStore()
    start = sdk.ToolCallStart(
        session_update="tool_call",
        tool_call_id="call_1",
        title="Run the tests",
        status="in_progress",
        content=[sdk.TerminalToolCallContent(type="terminal", terminal_id="term_1")],
    )
    store.apply_session_update(SESSION, start)
    progress = sdk.ToolCallProgress(
        session_update="tool_call_update", tool_call_id="call_1", status="completed"
    )
    # Dumped whole, the model would say "title": null: the title cleared.
    assert progress.model_dump(by_alias=True)["title"] is None
    store.apply_session_update(SESSION, progress)
    call = store.tool_call(SESSION, "call_1")
    assert call is not None and (call.title, call.status) == ("Run the tests", "completed")
    assert call.terminal_ids == ("term_1",)
    store.apply_session_update(
        SESSION,
        sdk.ToolCallProgress(session_update="tool_call_update", tool_call_id="call_1", title=None),
    )
    call = store.tool_call(SESSION, "call_1")
    assert call is not None and (call.title, call.status) == (None, "completed")


def test_the_sdk_dispatch_calls_apply_session_update_with_the_notification_meta() -> None:
    # The SDK's router validates the params and calls session_update with the
    # notification's _meta entries as keyword arguments, which the store ignores.
    store = TerminalStore()
    received: list[dict[str, Any]] = []

    class Client:
        async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
            received.append(kwargs)
            store.apply_session_update(session_id, update, **kwargs)

    router = build_client_router(Client())
    params = {
        "sessionId": SESSION,
        "update": {
            "sessionUpdate": "tool_call",
            "toolCallId": "call_1",
            "title": "ls",
            "content": [{"type": "terminal", "terminalId": "term_1"}],
            "rawInput": {"command": "ls"},
            "_meta": {"terminal_info": {"terminal_id": "term_1", "cwd": "/w"}},
        },
        "_meta": {"traceparent": "00-abc-def-01"},
    }
    asyncio.run(router("session/update", params, True))
    assert received == [{"traceparent": "00-abc-def-01"}]
    terminal = only(store)
    assert (terminal.key, terminal.command, terminal.cwd) == ((SESSION, "term_1"), "ls", "/w")


# -- v2 shapes as pydantic models ---------------------------------------------------


def test_v2_patches_from_models_keep_omitted_null_and_value_apart() -> None:
    store = TerminalStore()
    store.apply_session_update(
        SESSION,
        v2_update(command="cargo test", cwd="/work", output=Output(data=b64(b"old\r\n"))),
    )
    store.apply_session_update(SESSION, v2_chunk(b"\x1b[32mok\x1b[0m\r\n"))
    terminal = only(store)
    assert (terminal.command, terminal.cwd, terminal.text()) == ("cargo test", "/work", "old\nok\n")
    # cwd: null clears it; command and output, never set on this model, stay.
    store.apply_session_update(SESSION, v2_update(cwd=None, exit_status=ExitStatus(exit_code=0)))
    assert (terminal.command, terminal.cwd, terminal.text()) == ("cargo test", None, "old\nok\n")
    assert terminal.exit_status is not None and terminal.exit_status.to_wire() == {"exitCode": 0}
    # output: null clears the output (a new, empty snapshot); exitStatus: null clears the exit.
    generation = terminal.snapshot_generation
    store.apply(notify(v2_update(output=None, exit_status=None).model_dump(by_alias=True)))
    assert terminal.command is None  # the whole dump: every field, so command cleared too
    store.apply_session_update(SESSION, v2_update(command="cargo test", output=None))
    assert (terminal.command, terminal.text(), terminal.exit_status) == ("cargo test", "", None)
    assert terminal.snapshot_generation == generation + 2


def test_models_go_through_apply_as_messages_batches_and_notifications() -> None:
    class Notification(_Wire):
        session_id: str = Field(alias="sessionId")
        update: TerminalUpdate | OutputChunk

    by_model, by_json = TerminalStore(), TerminalStore()
    models: list[object] = [
        Notification(session_id=SESSION, update=v2_update(command="make")),
        [Notification(session_id=SESSION, update=v2_chunk(b"a\r\n")), v2_update(cwd="/src")],
    ]
    update = {"sessionUpdate": "terminal_update", "terminalId": "term_1", "cwd": "/src"}
    messages: list[object] = [
        terminal_update("term_1", command="make"),
        [chunk("term_1", b"a\r\n"), update],
    ]
    for model, message in zip(models, messages, strict=True):
        assert by_model.apply(model, session_id=SESSION) == by_json.apply(
            message, session_id=SESSION
        )
    assert fingerprint(by_model) == fingerprint(by_json)
    assert (only(by_model).command, only(by_model).cwd, only(by_model).text()) == (
        "make",
        "/src",
        "a\n",
    )


def test_anything_with_model_dump_is_dumped_as_json_by_alias_without_unset_fields() -> None:
    class Dumpable:
        calls: ClassVar[list[dict[str, object]]] = []

        def model_dump(self, **options: object) -> dict[str, object]:
            self.calls.append(options)
            return {"sessionUpdate": "terminal_update", "terminalId": "t", "command": "ls"}

    store = TerminalStore()
    store.apply(Dumpable(), session_id=SESSION)
    store.apply_session_update(SESSION, Dumpable())
    options = {"mode": "json", "by_alias": True, "exclude_unset": True}
    assert Dumpable.calls == [options, options]
    assert only(store).command == "ls"


class _Opaque:
    """Not JSON: pydantic cannot serialise it."""


class _Unserialisable(_Wire):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    value: _Opaque


class _Raising:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def model_dump(self, **options: object) -> object:
        raise self.error


class _OldStyle:
    def model_dump(self) -> dict[str, object]:  # takes no options
        return {}


class _Returning:
    def __init__(self, value: object) -> None:
        self.value = value

    def model_dump(self, **options: object) -> object:
        return self.value


@pytest.mark.parametrize(
    ("bad", "field", "reason"),
    [
        (_Unserialisable(value=_Opaque()), "", "_Unserialisable.model_dump failed"),
        (_Raising(ValueError("x" * 100_000)), "", "_Raising.model_dump failed: ValueError"),
        (_OldStyle(), "", "_OldStyle.model_dump failed: TypeError"),
        (_Returning([1]), "", "expected an object, got array"),
        (_Returning("text"), "", "expected an object, got string"),
        (_Returning({"sessionUpdate": "terminal_output_chunk", "terminalId": "t"}), "data", ""),
        (object(), "", "expected an object, got object"),
        (ExitStatus(exit_code=0), "", "not a JSON-RPC message"),
    ],
)
def test_a_bad_object_is_an_invalid_message_and_changes_nothing(
    bad: object, field: str, reason: str
) -> None:
    store = TerminalStore()
    store.apply(terminal_update("term_1", command="make"))
    before = fingerprint(store)
    with pytest.raises(InvalidMessageError) as caught:
        store.apply(bad, session_id=SESSION)
    assert (caught.value.field, caught.value.index) == (field, None)
    assert reason in caught.value.reason and len(str(caught.value)) < 200
    with pytest.raises(InvalidMessageError) as in_batch:
        store.apply([v2_update(command="ls"), bad], session_id=SESSION)
    assert in_batch.value.index == 1 and in_batch.value.field.startswith("[1]")
    assert fingerprint(store) == before
    # apply_each applies the good item only.
    _, errors = store.apply_each([v2_update(command="ls"), bad], session_id=SESSION)
    assert [e.index for e in errors] == [1]
    assert only(store).command == "ls"


# -- apply_session_update ------------------------------------------------------------


def test_apply_session_update_is_apply_of_the_notification() -> None:
    updates: list[dict[str, Any]] = [
        terminal_update("term_1", command="pytest", cwd="/p")["params"]["update"],
        chunk("term_1", b"1 passed\r\n")["params"]["update"],
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}},
    ]
    direct, through = TerminalStore(), TerminalStore()
    for update in updates:
        assert direct.apply_session_update("s", update) == through.apply(notify(update, "s"))
    assert fingerprint(direct) == fingerprint(through)
    assert only(direct).key == ("s", "term_1") and only(direct).text() == "1 passed\n"


def test_apply_session_update_names_fields_in_the_update_and_changes_nothing() -> None:
    store = TerminalStore()
    store.apply_session_update(SESSION, v2_chunk(b"x"))
    before = fingerprint(store)
    bad_chunk = {"sessionUpdate": "terminal_output_chunk", "terminalId": "term_1", "data": "b2s"}
    cases: list[tuple[object, object, str]] = [
        (SESSION, bad_chunk, "data"),
        (SESSION, notify(bad_chunk)["params"], "sessionUpdate"),  # a notification, not an update
        (SESSION, [bad_chunk], ""),
        (None, v2_chunk(b"y"), "sessionId"),
        (7, v2_chunk(b"y"), "sessionId"),
    ]
    for session_id, update, field in cases:
        with pytest.raises(InvalidMessageError) as caught:
            store.apply_session_update(session_id, update)  # type: ignore[arg-type]
        assert caught.value.field == field
    assert fingerprint(store) == before
    # Lenient by default, as apply: a relative cwd is read as omitted, with a warning.
    result = store.apply_session_update(SESSION, v2_update(cwd="relative"))
    assert [str(w).split(" (")[0] for w in result.warnings] == [
        "ignored invalid optional field 'cwd'"
    ]
    with pytest.raises(InvalidMessageError, match="'cwd'"):
        TerminalStore(strict=True).apply_session_update(SESSION, v2_update(cwd="relative"))
    store.finish()
    with pytest.raises(StoreFinishedError):
        store.apply_session_update(SESSION, v2_chunk(b"z"))


# -- the smaller additions ---------------------------------------------------------------


def test_output_observer_is_public_and_sees_model_output() -> None:
    import termscribe.acp

    assert "OutputObserver" in termscribe.acp.__all__
    seen: list[bytes] = []

    class Observer:
        def output_replaced(self, terminal: TerminalState) -> None:
            seen.append(b"<replaced>")

        def output_appended(self, terminal: TerminalState, data: bytes) -> None:
            seen.append(data)

    observer: OutputObserver = Observer()
    store = TerminalStore(observer=observer)
    store.apply_session_update(SESSION, v2_update(output=Output(data=b64(b"snap"))))
    store.apply_session_update(SESSION, v2_chunk(b"more"))
    assert seen == [b"<replaced>", b"snap", b"more"]


def test_terminal_state_ansi_is_its_transcripts() -> None:
    data = b"\x1b[1;31merror\x1b[0m \x1b]8;;https://example.com/\x1b\\docs\x1b]8;;\x1b\\\r\n"
    store = TerminalStore(columns=40)
    store.apply(chunk("term_1", data))
    transcript = Transcript(columns=40)
    transcript.feed(data)
    terminal = only(store)
    assert terminal.ansi() == transcript.ansi() == "\x1b[0;1;31merror\x1b[0m docs\n"
    assert terminal.ansi(hyperlinks=True) == transcript.ansi(hyperlinks=True)
    assert "\x1b]8;;https://example.com/\x1b\\docs" in terminal.ansi(hyperlinks=True)
