"""Stateless v1/v2 helpers: terminal shapes are refused, faithful mappings work."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from bridge_wire import check_v1, notify, text_item

from termscribe.acp import ConversionError, IncompatibleTerminalError, InvalidMessageError
from termscribe.acp.convert import (
    permission_subject_v1_to_v2,
    permission_subject_v2_to_v1,
    session_update_v1_to_v2,
    session_update_v2_to_v1,
    tool_call_content_v1_to_v2,
    tool_call_content_v2_to_v1,
)

TERMINAL = {"type": "terminal", "terminalId": "term_001"}
COMMAND_SUBJECT = {
    "type": "command",
    "command": "cargo test",
    "cwd": "/workspace/project",
    "toolCallId": "call_001",
    "terminalId": "term_001",
}


@pytest.mark.parametrize(
    ("convert", "value"),
    [
        (tool_call_content_v2_to_v1, TERMINAL),
        (tool_call_content_v1_to_v2, TERMINAL),
        (session_update_v2_to_v1, {"sessionUpdate": "terminal_update", "terminalId": "term_001"}),
        (
            session_update_v2_to_v1,
            {"sessionUpdate": "terminal_output_chunk", "terminalId": "term_001", "data": "aGk="},
        ),
        (
            session_update_v2_to_v1,
            {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TERMINAL]},
        ),
        (
            session_update_v2_to_v1,
            {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c", "content": TERMINAL},
        ),
        (
            session_update_v1_to_v2,
            {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "content": [TERMINAL]},
        ),
        (
            session_update_v1_to_v2,
            {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TERMINAL]},
        ),
        (permission_subject_v2_to_v1, COMMAND_SUBJECT),
        (
            permission_subject_v2_to_v1,
            {"type": "tool_call", "toolCall": {"toolCallId": "c", "content": [TERMINAL]}},
        ),
        (permission_subject_v1_to_v2, {"toolCallId": "c", "content": [TERMINAL]}),
    ],
)
def test_terminal_shapes_are_refused_with_the_reason(convert: Any, value: Any) -> None:
    before = copy.deepcopy(value)
    with pytest.raises(IncompatibleTerminalError) as caught:
        convert(value)
    message = str(caught.value)
    assert "terminal" in message or "command" in message
    assert "Agent" in message or "Client" in message  # says whose resource it is
    assert isinstance(caught.value, ConversionError)
    assert value == before


def test_v2_terminal_message_names_the_ownership_difference() -> None:
    with pytest.raises(IncompatibleTerminalError, match="Agent-owned display-only"):
        tool_call_content_v2_to_v1(TERMINAL)
    with pytest.raises(IncompatibleTerminalError, match="terminal/create"):
        tool_call_content_v1_to_v2(TERMINAL)


def test_content_items_convert_both_ways_unchanged() -> None:
    item = text_item("hello")
    assert tool_call_content_v2_to_v1(item) == item
    assert tool_call_content_v1_to_v2(item) == item
    assert tool_call_content_v2_to_v1(item) is not item


@pytest.mark.parametrize("meta", [[], "x", 1, True])
def test_a_meta_that_is_not_an_object_is_left_out(meta: Any) -> None:
    item = {**text_item("hello"), "_meta": meta}
    assert tool_call_content_v2_to_v1(item) == text_item("hello")
    assert tool_call_content_v2_to_v1({**item, "_meta": None})["_meta"] is None
    assert tool_call_content_v2_to_v1({**item, "_meta": {"k": 1}})["_meta"] == {"k": 1}


@pytest.mark.parametrize(
    "item",
    [
        {"type": "diff", "changes": [], "patch": None},
        {"type": "_custom", "x": 1},
        {"type": "content", "content": {"type": "_widget", "data": 1}},
    ],
)
def test_v2_items_without_a_v1_form_raise_conversion_error(item: dict[str, Any]) -> None:
    with pytest.raises(ConversionError) as caught:
        tool_call_content_v2_to_v1(item)
    assert not isinstance(caught.value, IncompatibleTerminalError)


def test_v1_diff_has_no_v2_form() -> None:
    with pytest.raises(ConversionError, match="structured changes"):
        tool_call_content_v1_to_v2({"type": "diff", "path": "/a", "oldText": "x", "newText": "y"})


@pytest.mark.parametrize("value", [None, [], "terminal", {"type": 3}])
def test_malformed_input_is_invalid_not_incompatible(value: Any) -> None:
    with pytest.raises(InvalidMessageError):
        tool_call_content_v2_to_v1(value)


def test_tool_call_update_converts_to_valid_v1() -> None:
    update = {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "call_1",
        "title": "Read README",
        "kind": "read",
        "status": "completed",
        "content": [text_item("# Project")],
        "locations": [{"path": "/w/README.md", "line": 3}],
        "rawInput": {"path": "/w/README.md"},
        "_meta": {"x": 1},
    }
    converted = session_update_v2_to_v1(update)
    assert converted == update
    check_v1(notify(converted))
    back = session_update_v1_to_v2(converted)
    assert back == update


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("status", "cancelled", "not a v1 status"),
        ("kind", "_custom", "not a v1 tool kind"),
        ("title", None, "cannot clear"),
    ],
)
def test_v2_only_values_raise(field: str, value: Any, reason: str) -> None:
    update = {"sessionUpdate": "tool_call_update", "toolCallId": "c", field: value}
    with pytest.raises(ConversionError, match=reason):
        session_update_v2_to_v1(update)


def test_message_chunks_and_same_kinds_pass() -> None:
    chunk = {
        "sessionUpdate": "agent_message_chunk",
        "messageId": "m1",
        "content": {"type": "text", "text": "hi"},
    }
    assert session_update_v2_to_v1(chunk) == chunk
    check_v1(notify(session_update_v2_to_v1(chunk)))
    usage = {"sessionUpdate": "usage_update", "used": 10, "size": 100}
    assert session_update_v2_to_v1(usage) == usage
    assert session_update_v1_to_v2(chunk) == chunk
    with pytest.raises(ConversionError, match="messageId"):
        session_update_v1_to_v2({**chunk, "messageId": None})


def test_available_commands_keep_text_inputs_as_v1_hints() -> None:
    update = {
        "sessionUpdate": "available_commands_update",
        "availableCommands": [
            {"name": "web", "description": "Search", "input": {"type": "text", "hint": "query"}},
            {"name": "undo", "description": "Undo", "input": {"type": "_vendor", "x": 1}},
            {"name": 7, "description": "not a command"},
            {"name": "plain", "description": "No input", "_meta": {"k": 1}},
        ],
    }
    converted = session_update_v2_to_v1(update)
    assert converted["availableCommands"] == [
        {"name": "web", "description": "Search", "input": {"hint": "query"}},
        {"name": "undo", "description": "Undo"},
        {"name": "plain", "description": "No input", "_meta": {"k": 1}},
    ]
    check_v1(notify(converted))


@pytest.mark.parametrize("kind", ["plan_update", "state_update", "agent_message", "_vendor"])
def test_v2_only_session_updates_raise(kind: str) -> None:
    with pytest.raises(ConversionError, match="no equivalent"):
        session_update_v2_to_v1({"sessionUpdate": kind})


def test_tool_call_subject_converts_and_back() -> None:
    subject = {
        "type": "tool_call",
        "toolCall": {"toolCallId": "c", "title": "Edit", "kind": "edit"},
    }
    tool_call = permission_subject_v2_to_v1(subject)
    assert tool_call == {"toolCallId": "c", "title": "Edit", "kind": "edit"}
    assert permission_subject_v1_to_v2(tool_call) == subject


def test_unknown_subject_raises_conversion_error() -> None:
    with pytest.raises(ConversionError) as caught:
        permission_subject_v2_to_v1({"type": "_vendor"})
    assert not isinstance(caught.value, IncompatibleTerminalError)


def test_blocks_reach_v1_valid_or_not_at_all() -> None:
    def item(block: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content", "content": block}

    bad_optional = {
        "type": "resource_link",
        "uri": "file:///a",
        "name": "a",
        "size": "big",
        "title": 3,
        "annotations": {"audience": ["user", "robot"], "priority": "high"},
        "_meta": [],
    }
    converted = tool_call_content_v2_to_v1(item(bad_optional))
    assert converted["content"] == {
        "type": "resource_link",
        "uri": "file:///a",
        "name": "a",
        "annotations": {"audience": ["user"]},
    }
    check_v1(
        notify({"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [converted]})
    )
    for broken in (
        {"type": "text"},
        {"type": "image", "data": "AAAA"},
        {"type": "resource", "resource": {"uri": "file:///a"}},
        {"type": "resource", "resource": "file:///a"},
    ):
        with pytest.raises(InvalidMessageError):
            tool_call_content_v2_to_v1(item(broken))


def test_small_updates_reach_v1_valid() -> None:
    chunk = {
        "sessionUpdate": "agent_message_chunk",
        "messageId": [],
        "content": {"type": "text", "text": "hi", "annotations": 5},
    }
    converted = session_update_v2_to_v1(chunk)
    assert converted == {
        "sessionUpdate": "agent_message_chunk",
        "content": {"type": "text", "text": "hi"},
    }
    check_v1(notify(converted))
    usage = {"sessionUpdate": "usage_update", "used": 1, "size": 9, "cost": {"amount": "1"}}
    assert session_update_v2_to_v1(usage) == {"sessionUpdate": "usage_update", "used": 1, "size": 9}
    with pytest.raises(InvalidMessageError):
        session_update_v2_to_v1({**usage, "used": -1})
    info = {"sessionUpdate": "session_info_update", "title": 5, "updatedAt": "2026-01-01T00:00:00Z"}
    converted = session_update_v2_to_v1(info)
    assert converted == {
        "sessionUpdate": "session_info_update",
        "updatedAt": "2026-01-01T00:00:00Z",
    }
    check_v1(notify(converted))
