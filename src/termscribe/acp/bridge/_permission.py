"""v2 ``session/request_permission`` as the v1 request the bridge sends.

v1 asks about a tool call (``toolCall``, a ToolCallUpdate the client already
shows); v2 has a prompt title, an optional description and an optional
subject.  `plan_permission` decides, without touching bridge state, which tool
call the v1 request is about and what it shows:

* ``command`` subject: the named tool call (or a new one when the subject has
  no ``toolCallId``), titled with the exact command (control characters made
  visible) and with ``rawInput: {command, cwd}``; a tool call the client does
  not know yet is announced first, kind ``execute``, its content the prompt
  and the command in a fenced block;
* ``tool_call`` subject: that tool call, patched like a ``tool_call_update``;
* no subject, or one v1 lacks: a new tool call showing the prompt.

Options whose kind v1 lacks are left out (a v1 client would reject the
request); with none left the request is not bridged.  The JSON-RPC id is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._errors import FieldError, short_repr
from .._export import display_text
from .._validate import JsonObject, copy_json, without_malformed_meta
from ..convert import V1_PERMISSION_OPTION_KINDS
from ._calls import TerminalRef, convert_items, display_fields
from ._shown import shown_json, shown_text
from ._text import command_line

__all__ = ["PermissionPlan", "plan_permission", "text_item"]


@dataclass
class PermissionPlan:
    """How one v2 permission request reaches a v1 client."""

    tool_call_id: str | None  # None: a new tool call just for this request
    fields: JsonObject  # v1 display fields patched into the tool call
    request_fields: JsonObject  # toolCall fields of the v1 request besides the id
    new_items: list[JsonObject | TerminalRef] | None  # content if the call is new
    items: list[JsonObject | TerminalRef] | None = None  # content patch (tool_call subject)
    options: list[JsonObject] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def plan_permission(params: Mapping[str, Any]) -> PermissionPlan:
    problems: list[str] = []
    options, dropped = _options(params.get("options"))
    if dropped:
        problems.append(f"{dropped} option(s) that v1 cannot carry left out")
    title = params.get("title")
    description = params.get("description")
    prompt = "\n\n".join(shown_text(t) for t in (title, description) if isinstance(t, str) and t)
    subject = params.get("subject")
    kind = subject.get("type") if isinstance(subject, dict) else None
    if kind == "command":
        assert isinstance(subject, dict)  # the store validated a command subject
        plan = _command(subject, prompt)
    elif kind == "tool_call" and _tool_call_id(subject) is not None:
        assert isinstance(subject, dict)
        patch = subject["toolCall"]
        fields = display_fields(patch, problems)
        items = convert_items(patch["content"], problems) if "content" in patch else None
        plan = PermissionPlan(_tool_call_id(subject), fields, fields, None, items)
    else:
        if subject is not None:
            what = short_repr(kind)
            problems.append(f"subject of type {what} has no v1 form; the prompt is shown")
        fields = {"title": display_text(title) if isinstance(title, str) else "Permission"}
        fields.update(kind="other", status="pending")
        plan = PermissionPlan(None, fields, fields, [text_item(prompt)] if prompt else [])
    plan.options = options
    plan.problems = problems
    return plan


def _command(subject: Mapping[str, Any], prompt: str) -> PermissionPlan:
    command, cwd = subject["command"], subject["cwd"]
    fields: JsonObject = {
        "title": display_text(command),
        "rawInput": {"command": shown_text(command), "cwd": shown_text(cwd)},
    }
    shown = command_line(command, cwd)
    items: list[JsonObject | TerminalRef] = [text_item(f"{prompt}\n\n{shown}" if prompt else shown)]
    tool_call_id = subject.get("toolCallId")
    new_fields = {**fields, "kind": "execute", "status": "pending"}
    return PermissionPlan(
        tool_call_id if isinstance(tool_call_id, str) else None, fields, new_fields, items
    )


def _tool_call_id(subject: object) -> str | None:
    if not isinstance(subject, dict):
        return None
    patch = subject.get("toolCall")
    if not isinstance(patch, dict):
        return None
    value = patch.get("toolCallId")
    return value if isinstance(value, str) else None


def _options(options: object) -> tuple[list[JsonObject], int]:
    kept: list[JsonObject] = []
    dropped = 0
    for option in options if isinstance(options, list) else ():
        if (
            isinstance(option, dict)
            and isinstance(option.get("optionId"), str)
            and isinstance(option.get("name"), str)
            and isinstance(option.get("kind"), str)
            and option["kind"] in V1_PERMISSION_OPTION_KINDS
        ):
            try:
                kept.append(shown_json(without_malformed_meta(copy_json(option, "options"))))
                continue
            except FieldError:
                pass  # counted as dropped: v1 cannot carry it either
        dropped += 1
    return kept, dropped


def text_item(text: str) -> JsonObject:
    return {"type": "content", "content": {"type": "text", "text": text}}
