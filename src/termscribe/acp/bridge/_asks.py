"""Permission requests in the v2→v1 bridge: the v1 request, and the tool call
the bridge makes when the agent names none.

v1 asks about a tool call; when a v2 request has no tool call the client
knows (no subject, or a ``command`` subject without ``toolCallId``), the
bridge announces one of its own, ``termscribe-permission-N``, kind
``execute`` or ``other``, status ``pending``.  Nothing of the agent's will
ever end it, so the bridge does: ``completed`` when the client selected an
option, ``failed`` when it cancelled or refused, and ``failed`` for any left
open when the session's turn ends.
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

from .._validate import JsonObject
from ._calls import CallKey, TerminalRef, ToolCallState
from ._plan import PERMISSION, UPDATE, PermissionRequestPlan

__all__ = ["PermissionCalls"]


class PermissionCalls:
    """The permission part of `V2ToV1Bridge` (a base class: it uses the bridge's tool calls)."""

    _calls: dict[CallKey, ToolCallState]
    _synthetic: dict[str, CallKey]  # request id (JSON) → the tool call made for it
    _permission_calls: int

    def _call(self, session_id: str | None, tool_call_id: str) -> ToolCallState:
        raise NotImplementedError

    def _set_items(
        self, call: ToolCallState, items: list[JsonObject | TerminalRef], *, urgent: bool = True
    ) -> None:
        raise NotImplementedError

    def _emit_call(self, call: ToolCallState, fields: JsonObject, out: list[JsonObject]) -> None:
        raise NotImplementedError

    def permission_answered(self, request_id: object, outcome: object) -> list[JsonObject]:
        """The client answered permission request `request_id`: a tool call the
        bridge made for it ends (``completed`` when an option was selected,
        ``failed`` when the request was cancelled or refused)."""
        key = self._synthetic.pop(json.dumps(request_id), None)
        if key is None:
            return []
        selected = isinstance(outcome, dict) and outcome.get("outcome") == "selected"
        return self._end_synthetic(key, "completed" if selected else "failed")

    def end_turn(self, session_id: str | None) -> list[JsonObject]:
        """The session's turn ended: tool calls made for permission requests
        still unanswered end as ``failed``."""
        out: list[JsonObject] = []
        for request_key, key in list(self._synthetic.items()):
            if key[0] == session_id:
                del self._synthetic[request_key]
                out.extend(self._end_synthetic(key, "failed"))
        return out

    def _end_synthetic(self, key: CallKey, status: str) -> list[JsonObject]:
        call = self._calls.get(key)
        if call is None or not call.announced or key[0] is None:
            return []
        update = {"sessionUpdate": "tool_call_update", "toolCallId": call.tool_call_id}
        call.shown["status"] = status
        return [_session_update(key, {**update, "status": status})]

    def _permission(self, request: PermissionRequestPlan, out: list[JsonObject]) -> None:
        plan = request.plan
        if plan.tool_call_id is None:
            self._permission_calls += 1
            tool_call_id = f"termscribe-permission-{self._permission_calls}"
            with contextlib.suppress(TypeError, ValueError):
                key = (request.session_id, tool_call_id)
                self._synthetic[json.dumps(request.request_id)] = key
        else:
            tool_call_id = plan.tool_call_id
        call = self._call(request.session_id, tool_call_id)
        new = not call.announced
        fields = plan.request_fields if new else plan.fields
        if "title" in fields:
            call.title = fields["title"]
        if plan.items is not None:
            self._set_items(call, plan.items)
        elif new and plan.new_items is not None:
            self._set_items(call, plan.new_items)
        if new or plan.items is not None:
            self._emit_call(call, copy.deepcopy(fields), out)
        params: JsonObject = {
            "sessionId": request.session_id,
            "toolCall": {"toolCallId": tool_call_id, **copy.deepcopy(fields)},
            "options": plan.options,
        }
        if request.meta is not None:
            params["_meta"] = request.meta
        message = {"jsonrpc": "2.0", "id": request.request_id, "method": PERMISSION}
        out.append({**message, "params": params})


def _session_update(call_key: CallKey, update: Any) -> JsonObject:
    return {
        "jsonrpc": "2.0",
        "method": UPDATE,
        "params": {"sessionId": call_key[0], "update": update},
    }
