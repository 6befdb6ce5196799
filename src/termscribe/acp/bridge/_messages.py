"""v2 whole-message updates and plans, for a v1 client that knows only chunks and one plan.

**Messages** (the message-updates RFD).  v2 ``user_message``,
``agent_message`` and ``agent_thought`` are upserts keyed by ``messageId``:
``content`` (when given) replaces the whole content.  Agents send them for
replay (``session/load`` through the bridge is a v2 replay), accepted user
messages and complete output.  v1 only appends chunks, so `MessageLog`
remembers which messages the v1 client already has content for:

* content for a message the client has none of: one v1 chunk per block, in
  order (what the RFD allows a stateful adapter);
* content replacing content already shown: v1 cannot take anything back, so
  a visible note (`REPLACED_NOTE`) and the new content as new chunks;
* ``content`` ``null`` or ``[]`` for a message shown: a visible note
  (`CLEARED_NOTE`); for a message not shown there is nothing to clear;
* a patch without content (``_meta`` only): an empty text chunk carrying the
  new ``_meta`` (``null`` becomes none), the most v1 can say.

A block type v1 lacks becomes a visible note in its place.  Nothing is
dropped without a trace: what v1 cannot say is also a `NotBridged` note.
At most `MAX_TRACKED_MESSAGES` ids are remembered per bridge; past that the
oldest are forgotten, and content replacing a forgotten message's shows
without the note.

**Plans** (the plan-variants RFD).  v2 ``plan_update`` of type ``items``
replaces the plan with that ``planId``; v1 has one ``plan`` that replaces the
whole plan.  So `PlanBoard` keeps each session's live plans in the order they
first appeared and sends every entry of every plan, in order, each time one
changes.  An entry's priority or status v1 lacks becomes ``medium`` or (for
``cancelled``, which has ended) ``completed`` with the v2 value shown in the
entry's text; a plan of a type v1 cannot show is one entry saying so.  At
most `MAX_PLANS` plans per session are kept (the oldest goes).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .._blocks import v1_block
from .._errors import AcpError, FieldError, short_repr
from .._validate import JsonObject, copy_json
from ..convert import V1_CONTENT_BLOCK_TYPES
from ._calls import NotBridged
from ._shown import shown_json, shown_text

__all__ = [
    "CLEARED_NOTE",
    "MAX_PLANS",
    "MAX_TRACKED_MESSAGES",
    "REPLACED_NOTE",
    "MessageLog",
    "MessagePlan",
    "PlanBoard",
    "PlanUpdatePlan",
    "plan_message",
    "plan_plan_update",
]

MAX_TRACKED_MESSAGES: Final = 65536
MAX_PLANS: Final = 64
REPLACED_NOTE: Final = "[termscribe: the agent replaced this message; its new content follows]"
CLEARED_NOTE: Final = "[termscribe: the agent cleared this message]"
_V1_PRIORITIES: Final = frozenset({"high", "medium", "low"})
_V1_PLAN_STATUSES: Final = frozenset({"pending", "in_progress", "completed"})


def _text(text: str) -> JsonObject:
    return {"type": "text", "text": text}


@dataclass
class MessagePlan:
    """A v2 whole-message update, its blocks already v1."""

    session_id: str
    chunk_kind: str  # the v1 chunk kind, e.g. "agent_message_chunk"
    message_id: str
    blocks: list[JsonObject] | None  # None: content not given (a patch)
    meta: JsonObject | None = None
    has_meta: bool = False
    notes: list[NotBridged] = field(default_factory=list)


@dataclass
class PlanUpdatePlan:
    """A v2 plan_update: one plan's entries as v1 (None: the plan is removed)."""

    session_id: str
    plan_id: str
    entries: list[JsonObject] | None
    notes: list[NotBridged] = field(default_factory=list)


def plan_message(
    session_id: str, kind: str, update: Mapping[str, Any], problems: list[str]
) -> MessagePlan | None:
    message_id = update.get("messageId")
    if not isinstance(message_id, str):
        problems.append("no messageId: v1 cannot place it")
        return None
    blocks: list[JsonObject] | None = None
    if "content" in update:
        blocks = []
        content = update["content"]
        for block in content if isinstance(content, list) else ():
            blocks.append(_block(block, problems))
    plan = MessagePlan(session_id, f"{kind}_chunk", message_id, blocks)
    if "_meta" in update:
        plan.has_meta = True
        meta = update["_meta"]
        if isinstance(meta, dict):
            try:
                plan.meta = copy_json(meta, "_meta")
            except FieldError as exc:
                problems.append(f"_meta left out: {exc.reason}")
        elif meta is None:
            problems.append("_meta cleared: v1 cannot clear a message's _meta")
    return plan


def _block(block: object, problems: list[str]) -> JsonObject:
    """A v2 content block as v1, or a visible note in its place."""
    kind = block.get("type") if isinstance(block, dict) else None
    if isinstance(block, dict) and isinstance(kind, str) and kind in V1_CONTENT_BLOCK_TYPES:
        try:
            shown: JsonObject = shown_json(v1_block(block, kind))
            return shown
        except AcpError as exc:
            problems.append(f"content block left out: {exc}")
    else:
        problems.append(f"content block of type {short_repr(kind)} has no v1 form")
    return _text(f"[termscribe: a content block of type {short_repr(kind)} cannot be shown here]")


def plan_plan_update(
    session_id: str, update: Mapping[str, Any], problems: list[str]
) -> PlanUpdatePlan:
    plan = update.get("plan")
    plan = plan if isinstance(plan, dict) else {}
    plan_id = plan.get("planId")
    plan_id = plan_id if isinstance(plan_id, str) else ""
    kind = plan.get("type")
    if kind == "plan_removed":  # plan operations (unstable): the plan goes
        return PlanUpdatePlan(session_id, plan_id, None)
    if kind != "items" or not isinstance(plan.get("entries"), list):
        problems.append(f"a plan of type {short_repr(kind)} has no v1 form; a note stands for it")
        note = (
            f"[termscribe: plan {short_repr(plan_id)} of type {short_repr(kind)} cannot be shown]"
        )
        return PlanUpdatePlan(
            session_id, plan_id, [{"content": note, "priority": "medium", "status": "pending"}]
        )
    entries = [_entry(entry, problems) for entry in plan["entries"]]
    return PlanUpdatePlan(session_id, plan_id, [e for e in entries if e is not None])


def _entry(entry: object, problems: list[str]) -> JsonObject | None:
    if not (isinstance(entry, dict) and isinstance(entry.get("content"), str)):
        problems.append("a plan entry without content left out")
        return None
    content = shown_text(entry["content"])
    priority, status = entry.get("priority"), entry.get("status")
    shown: list[str] = []
    if priority not in _V1_PRIORITIES:
        shown.append(f"priority {short_repr(priority)}")
        priority = "medium"
    if status not in _V1_PLAN_STATUSES:
        shown.append(f"status {short_repr(status)}")
        status = "completed" if status == "cancelled" else "pending"
    if shown:
        content += f" [{', '.join(shown)}]"
    out: JsonObject = {"content": content, "priority": priority, "status": status}
    if isinstance(entry.get("_meta"), dict):
        try:
            out["_meta"] = copy_json(entry["_meta"], "_meta")
        except FieldError:
            problems.append("a plan entry's _meta left out")
    return out


class MessageLog:
    """Which messages the v1 client has content for; the chunks for a whole-message update."""

    def __init__(self) -> None:
        self._shown: OrderedDict[tuple[str, str, str], None] = OrderedDict()

    def chunk_sent(self, session_id: str, kind: str, message_id: str) -> None:
        key = (session_id, kind, message_id)
        self._shown[key] = None
        self._shown.move_to_end(key)
        while len(self._shown) > MAX_TRACKED_MESSAGES:
            self._shown.popitem(last=False)

    def updates(self, plan: MessagePlan) -> list[JsonObject]:
        """The v1 session updates (chunks) for `plan`."""
        shown = (plan.session_id, plan.chunk_kind, plan.message_id) in self._shown
        blocks: list[JsonObject] = []
        if plan.blocks is not None:
            if shown and plan.blocks:
                blocks = [_text(REPLACED_NOTE), *plan.blocks]
            elif shown:
                blocks = [_text(CLEARED_NOTE)]
            else:
                blocks = list(plan.blocks)
        elif plan.has_meta:
            blocks = [_text("")]  # carries the new _meta, shows nothing
        out = []
        for i, block in enumerate(blocks):
            update: JsonObject = {
                "sessionUpdate": plan.chunk_kind,
                "messageId": plan.message_id,
                "content": block,
            }
            if plan.meta is not None and i == len(blocks) - 1:
                update["_meta"] = copy_json(plan.meta, "_meta")
            out.append(update)
        if out and plan.blocks:
            self.chunk_sent(plan.session_id, plan.chunk_kind, plan.message_id)
        return out


class PlanBoard:
    """Each session's live v2 plans, shown to v1 as one plan."""

    def __init__(self) -> None:
        self._plans: dict[str, OrderedDict[str, list[JsonObject]]] = {}

    def update(self, plan: PlanUpdatePlan) -> JsonObject | None:
        """The v1 ``plan`` update after `plan`; None when nothing changed."""
        plans = self._plans.setdefault(plan.session_id, OrderedDict())
        if plan.entries is None:
            if plans.pop(plan.plan_id, None) is None:
                return None
        else:
            plans[plan.plan_id] = plan.entries
            while len(plans) > MAX_PLANS:
                plans.popitem(last=False)
        entries = [copy_json(e, "entries") for p in plans.values() for e in p]
        return {"sessionUpdate": "plan", "entries": entries}
