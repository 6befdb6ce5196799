"""Invariant 5 for the store and the convert helpers: for any JSON value, `apply`
succeeds or raises `InvalidMessageError` and changes nothing.

The messages are valid ones (every field of the shapes read, checked against
the official v2 schema) with one value anywhere replaced by a value of
another JSON type, or removed; see tests/wrongjson.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from acp_wire import _schema, validate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wrongjson import (
    DEEP_VALUES,
    V1_UPDATES,
    V2_MESSAGES,
    broken,
    json_depth,
    keys_in,
    nested,
    schema_properties,
    store_state,
)

from termscribe.acp import (
    ConversionError,
    InvalidMessageError,
    SessionLog,
    TerminalStore,
    iter_json,
    iter_text,
)
from termscribe.acp import convert as cv
from termscribe.acp._validate import MAX_JSON_DEPTH

FUZZ = settings(
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
READ_DEFS = [
    "Terminal",
    "TerminalUpdate",
    "TerminalOutput",
    "TerminalExitStatus",
    "TerminalOutputChunk",
    "CommandPermissionSubject",
    "ToolCallPermissionSubject",
    "RequestPermissionRequest",
    "PermissionOption",
    "UpdateSessionNotification",
    "ToolCallUpdate",
    "ToolCallContentChunk",
    "ToolCallLocation",
    "Content",
    "ContentChunk",
    "TextContent",
]


def loaded_store(*, strict: bool = False) -> TerminalStore:
    store = TerminalStore(strict=strict)
    for message in V2_MESSAGES:
        store.apply(message)
    return store


def exports(store: TerminalStore) -> None:
    """Both exports still work, and the JSON one is JSON (no NaN, no Infinity)."""
    log = SessionLog(store)
    log.finish()

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} in the JSON export")

    report = json.loads("".join(iter_json(log)), parse_constant=no_constants)
    assert len(report["terminals"]) == len(store)
    assert "".join(iter_text(log))


def test_the_corpus_is_valid_v2() -> None:
    for message in V2_MESSAGES:
        if message.get("method") == "session/update":
            validate(message["params"], "UpdateSessionNotification")
        elif message.get("method") == "session/request_permission":
            validate(message["params"], "RequestPermissionRequest")
        elif "sessionUpdate" in message:
            validate(message, "SessionUpdate")
        elif "update" in message:
            validate(message, "UpdateSessionNotification")
    store = TerminalStore()
    for message in V2_MESSAGES:
        store.apply(message)
    assert len(store) == 5 and len(store.permissions()) == 1


def test_the_corpus_has_every_field_the_schema_declares() -> None:
    """So that `broken` reaches every field of every shape the store reads."""
    declared = schema_properties(_schema(), READ_DEFS)
    assert len(declared) > 25
    assert declared - keys_in(V2_MESSAGES) == set()


@FUZZ
@given(broken())
def test_store_applies_or_rejects_a_broken_message_unchanged(message: Any) -> None:
    store = loaded_store()
    before = store_state(store)
    try:
        store.apply(message)
    except InvalidMessageError:
        assert store_state(store) == before
    exports(store)


@FUZZ
@given(st.lists(st.one_of(broken(), st.sampled_from(V2_MESSAGES)), min_size=1, max_size=4))
def test_store_applies_or_rejects_a_broken_batch_unchanged(batch: list[Any]) -> None:
    store = loaded_store()
    before = store_state(store)
    try:
        store.apply(batch)
    except InvalidMessageError:
        assert store_state(store) == before
    # apply_each keeps the valid items and never raises
    store.apply_each(batch)
    exports(store)


@pytest.mark.parametrize(
    "message",
    [
        None,
        True,
        0,
        -(10**4000),
        1e308,
        float("inf"),
        float("nan"),
        "session/update",
        [],
        [[]],
        *DEEP_VALUES,
        nested(100_000, "list"),
        {"jsonrpc": "2.0", "id": nested(5000, "list"), "method": "session/request_permission"},
    ],
    ids=lambda v: type(v).__name__,
)
def test_non_objects_and_deep_values_are_rejected_unchanged(message: Any) -> None:
    store = loaded_store()
    before = store_state(store)
    with pytest.raises(InvalidMessageError):
        store.apply(message)
    assert store_state(store) == before


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("_meta", {"n": float("nan")}, "nan is not JSON"),
        ("_meta", {"n": float("inf")}, "inf is not JSON"),
        ("_meta", {"n": 10**5000}, "integer longer than"),
        ("_meta", nested(MAX_JSON_DEPTH + 1, "dict"), "nested deeper than"),
        ("exitStatus", {"exitCode": 10**5000}, "an integer of"),
        ("exitStatus", {"exitCode": float("nan")}, "expected an integer"),
    ],
)
def test_values_json_cannot_write_back_are_rejected(field: str, value: Any, reason: str) -> None:
    store = loaded_store(strict=True)
    before = store_state(store)
    update = {"sessionUpdate": "terminal_update", "terminalId": "term_1", field: value}
    with pytest.raises(InvalidMessageError, match=reason):
        store.apply(update, session_id="sess_1")
    assert store_state(store) == before
    # Not strict (the default): an optional field, read as omitted with a warning.
    lenient = loaded_store()
    before = store_state(lenient)
    result = lenient.apply(update, session_id="sess_1")
    assert [reason in str(w) for w in result.warnings] == [True]
    if field == "_meta":  # nothing else in the update: the terminals are as they were
        assert [t[:-2] for t in store_state(lenient)[0]] == [t[:-2] for t in before[0]]
    exports(lenient)


@pytest.mark.parametrize("request_id", [{}, [1], True, float("nan"), nested(5000, "dict")])
def test_a_permission_id_that_is_not_a_json_rpc_id_is_rejected(request_id: Any) -> None:
    message = dict(V2_MESSAGES[5], id=request_id)
    store = loaded_store()
    before = store_state(store)
    with pytest.raises(InvalidMessageError, match="'id'"):
        store.apply(message)
    assert store_state(store) == before


# -- the stateless convert helpers ------------------------------------------------

HELPERS = [
    cv.session_update_v2_to_v1,
    cv.session_update_v1_to_v2,
    cv.tool_call_content_v2_to_v1,
    cv.tool_call_content_v1_to_v2,
    cv.permission_subject_v2_to_v1,
    cv.permission_subject_v1_to_v2,
]


def shallow_nodes(value: Any, depth: int = 5) -> list[Any]:
    """The value and its objects and arrays down to `depth` levels."""
    out, stack = [], [(value, 0)]
    while stack:
        item, level = stack.pop()
        out.append(item)
        if level < depth and isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif level < depth and isinstance(item, list):
            stack.extend((v, level + 1) for v in item[:4])
    return out


def check_helpers(value: Any) -> None:
    for node in shallow_nodes(value):
        for helper in HELPERS:
            try:
                result = helper(node)
            except (InvalidMessageError, ConversionError):
                continue
            assert isinstance(result, dict)
            json.dumps(result, allow_nan=False)
            assert json_depth(result) <= MAX_JSON_DEPTH + 2


@FUZZ
@given(broken(V2_MESSAGES + V1_UPDATES))
def test_convert_helpers_return_json_or_raise_acp_errors(message: Any) -> None:
    check_helpers(message)


def test_convert_helpers_on_the_reported_crashes() -> None:
    block = {"type": "content", "content": {"type": {}}}
    with pytest.raises(InvalidMessageError, match="string type, got object"):
        cv.tool_call_content_v2_to_v1(block)
    update = {"sessionUpdate": "tool_call_update", "toolCallId": "c", "kind": {}}
    with pytest.raises(InvalidMessageError, match="'kind'"):
        cv.session_update_v2_to_v1(update)
    v1 = {"sessionUpdate": "tool_call", "toolCallId": "c", "title": nested(5000, "list")}
    with pytest.raises(InvalidMessageError, match="'title'"):
        cv.session_update_v1_to_v2(v1)
    for value in (*DEEP_VALUES, 10**4000, float("nan")):
        check_helpers({"sessionUpdate": "usage_update", "used": value, "size": 1})
