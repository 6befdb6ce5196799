"""What the v2→v1 bridge will do with one message, decided before anything changes.

`V2ToV1Bridge.apply` works in three steps, so that a rejected message leaves
both the bridge and its store as they were:

1. the store validates the message (`TerminalStore.prepare`), raising
   `InvalidMessageError`;
2. `plan_item` reads each message (each batch item) into a `Plan`: the v1
   fields, content items, options and ids it needs, converted and copied.
   It is pure and total: whatever the JSON, what v1 cannot carry is left out
   and described in `Plan.notes`, never raised (a ``kind`` that is a list, a
   ``rawInput`` nested 1,000 deep, a NaN);
3. the store applies its operations (`TerminalStore.commit`) and the bridge
   carries out the plans, which is bookkeeping on values already checked and
   cannot fail.

Every JSON value a plan holds went through `copy_json`, so it is bounded in
depth (`MAX_JSON_DEPTH`) and can be written as JSON again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from .._errors import AcpError, FieldError
from .._validate import JsonObject, copy_json
from ..convert import session_update_v2_to_v1
from ._calls import NotBridged, TerminalRef, convert_items, display_fields
from ._messages import MessagePlan, PlanUpdatePlan, plan_message, plan_plan_update
from ._permission import PermissionPlan, plan_permission
from ._shown import shown_json

__all__ = [
    "PERMISSION",
    "UPDATE",
    "ContentChunkPlan",
    "MessagePlan",
    "NotBridged",
    "PassPlan",
    "PermissionRequestPlan",
    "Plan",
    "PlanUpdatePlan",
    "SkipPlan",
    "ToolCallPlan",
    "UpdatePlan",
    "plan_item",
]

UPDATE: Final = "session/update"
PERMISSION: Final = "session/request_permission"
_TERMINAL_UPDATES: Final = ("terminal_update", "terminal_output_chunk")
_WHOLE_MESSAGES: Final = ("user_message", "agent_message", "agent_thought")
_CHUNKS: Final = ("user_message_chunk", "agent_message_chunk", "agent_thought_chunk")


@dataclass
class SkipPlan:
    """Nothing to send now (terminal state waits for a flush, or v1 has no form)."""

    notes: list[NotBridged] = field(default_factory=list)


@dataclass
class PassPlan:
    """A message sent on unchanged (a copy): responses and other methods."""

    message: JsonObject
    notes: list[NotBridged] = field(default_factory=list)


@dataclass
class UpdatePlan:
    """A session update v1 shares, already converted."""

    params: JsonObject
    notes: list[NotBridged] = field(default_factory=list)
    # A message chunk: (its kind, its messageId), so that the bridge knows
    # the v1 client has content for that message.
    message: tuple[str, str] | None = None


@dataclass
class ToolCallPlan:
    """A v2 tool_call_update: display fields, and the new content when given."""

    session_id: str
    tool_call_id: str
    fields: JsonObject
    items: list[JsonObject | TerminalRef] | None
    notes: list[NotBridged] = field(default_factory=list)


@dataclass
class ContentChunkPlan:
    """A v2 tool_call_content_chunk: one item appended (None: it has no v1 form)."""

    session_id: str
    tool_call_id: str
    item: JsonObject | TerminalRef | None
    notes: list[NotBridged] = field(default_factory=list)


@dataclass
class PermissionRequestPlan:
    session_id: str
    request_id: object
    meta: JsonObject | None
    plan: PermissionPlan
    notes: list[NotBridged] = field(default_factory=list)


Plan: TypeAlias = (
    SkipPlan
    | PassPlan
    | UpdatePlan
    | ToolCallPlan
    | ContentChunkPlan
    | PermissionRequestPlan
    | MessagePlan
    | PlanUpdatePlan
)


def plan_item(message: object, session_id: str | None, index: int | None) -> Plan:
    """The plan for one message (not a batch) that the store accepted."""
    assert isinstance(message, dict)  # the store accepted it
    if "method" in message:  # the store's reading order (see _messages)
        method = message["method"]
        if method == UPDATE:
            params = message["params"]
            return _update(params["sessionId"], params["update"], params, index)
        if method == PERMISSION:
            return _permission(message, index)
        return _pass(message, index)
    if "sessionUpdate" in message:
        return _update(session_id, message, None, index)
    if "update" in message and "sessionId" in message:
        return _update(message["sessionId"], message["update"], message, index)
    return _pass(message, index)


def _pass(message: Mapping[str, Any], index: int | None) -> Plan:
    try:
        return PassPlan(copy_json(message, ""))
    except FieldError as exc:
        what = str(message.get("method", "message"))  # the store checked: a string
        return SkipPlan([NotBridged(what, exc.reason, index)])


def _update(
    session_id: str | None,
    update: Mapping[str, Any],
    params: Mapping[str, Any] | None,
    index: int | None,
) -> Plan:
    kind: str = update["sessionUpdate"]
    what = f"session/update {kind}"
    if session_id is None:
        return SkipPlan([NotBridged(kind, "no sessionId (pass session_id=)", index)])
    if kind in _TERMINAL_UPDATES:
        return SkipPlan()  # terminal state: sent by flush
    problems: list[str] = []
    plan: Plan
    if kind == "tool_call_update":
        fields = display_fields(update, problems)
        items = convert_items(update["content"], problems) if "content" in update else None
        plan = ToolCallPlan(session_id, update["toolCallId"], fields, items)
    elif kind == "tool_call_content_chunk":
        converted = convert_items([update["content"]], problems)
        item = converted[0] if converted else None
        plan = ContentChunkPlan(session_id, update["toolCallId"], item)
    elif kind in _WHOLE_MESSAGES:
        message = plan_message(session_id, kind, update, problems)
        if message is None:
            return SkipPlan([NotBridged(what, p, index) for p in problems])
        plan = message
    elif kind == "plan_update":
        plan = plan_plan_update(session_id, update, problems)
    else:
        try:
            new = session_update_v2_to_v1(update)
        except AcpError as exc:
            return SkipPlan([NotBridged(what, str(exc), index)])
        params_out: JsonObject = {"sessionId": session_id, "update": shown_json(new)}
        meta = params.get("_meta") if params is not None else None
        if isinstance(meta, dict):
            try:
                params_out["_meta"] = copy_json(meta, "_meta")
            except FieldError as exc:
                problems.append(f"params._meta left out: {exc.reason}")
        plan = UpdatePlan(params_out)
        message_id = new.get("messageId")
        if kind in _CHUNKS and isinstance(message_id, str):
            plan.message = (kind, message_id)
    plan.notes.extend(NotBridged(what, p, index) for p in problems)
    return plan


def _permission(message: Mapping[str, Any], index: int | None) -> Plan:
    params = message["params"]
    plan = plan_permission(params)
    notes = [NotBridged(PERMISSION, p, index) for p in plan.problems]
    if not plan.options:
        notes.append(NotBridged(PERMISSION, "no option v1 can offer", index))
        return SkipPlan(notes)
    try:
        request_id = copy_json(message.get("id"), "id")
    except FieldError as exc:
        notes.append(NotBridged(PERMISSION, f"id: {exc.reason}", index))
        return SkipPlan(notes)
    meta = params.get("_meta")
    meta_out: JsonObject | None = None
    if isinstance(meta, dict):
        try:
            meta_out = copy_json(meta, "_meta")
        except FieldError as exc:
            notes.append(NotBridged(PERMISSION, f"params._meta left out: {exc.reason}", index))
    return PermissionRequestPlan(params["sessionId"], request_id, meta_out, plan, notes)
