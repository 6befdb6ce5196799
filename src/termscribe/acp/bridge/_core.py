"""`V2ToV1Bridge`: v2 agent messages in, v1 client messages out, terminals included.

Following the RFD's Compatibility section, the bridge never gives a v1 client
a terminal resource it would think it owns: no ``terminal/*`` call is ever
made, and in text mode no v1 ``{"type": "terminal"}`` item is ever sent.

* **text** (default): each terminal a tool call shows becomes, at the same
  place in that tool call's content, one text item holding a fenced
  ``console`` block (command, cwd, sanitized transcript, status line; see
  `console_block`), capped by `CappedText` and resent by `ResendPolicy`.
* **meta**: for clients that advertise ``clientCapabilities._meta.
  terminal_output: true`` (Zed), the implementation-specific convention:
  terminal content items plus ``_meta.terminal_info`` on the tool call,
  append-only ``_meta.terminal_output`` (see `LineReleaser`) and
  ``_meta.terminal_exit``.

`apply` takes what `TerminalStore.apply` takes and returns the v1 messages to
send now (passthroughs, tool-call announcements and updates, permission
requests).  Terminal output is only state until `flush` (the caller picks the
moment; `FlushTimer` helps) or `finish` (end of input).  A malformed message
raises `InvalidMessageError` and changes nothing; a valid one never raises:
what v1 cannot carry is listed in `BridgeResult.not_bridged` (see
`_plan` for how a message is read before anything changes).

Other messages: JSON-RPC responses and methods other than ``session/update``
and ``session/request_permission`` pass through unchanged (the bridge does not
translate them); session updates v1 shares pass when
`session_update_v2_to_v1` accepts them; v2-only kinds are not bridged.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from .._errors import AcpWarning
from .._export import display_text
from .._store import TerminalStore
from .._terminal import TerminalKey, TerminalState
from .._validate import JsonObject
from ._asks import PermissionCalls
from ._calls import CallKey, PendingTally, TerminalRef, ToolCallState
from ._messages import MessageLog, PlanBoard
from ._permission import text_item
from ._plan import (
    UPDATE,
    ContentChunkPlan,
    MessagePlan,
    NotBridged,
    PassPlan,
    PermissionRequestPlan,
    Plan,
    PlanUpdatePlan,
    ToolCallPlan,
    UpdatePlan,
    plan_item,
)
from ._policy import ResendPolicy
from ._shown import shown_text
from ._text import DEFAULT_MAX_TEXT_CHARS, CappedText, console_block
from ._view import TerminalView

__all__ = [
    "BRIDGE_MODES",
    "META_OUTPUTS",
    "BridgeResult",
    "NotBridged",
    "V2ToV1Bridge",
    "mode_for_client",
]

BRIDGE_MODES: Final = ("text", "meta")
#: How meta mode sends output: text, or safe ANSI for clients that emulate.
META_OUTPUTS: Final = ("text", "ansi")
# v1 tool-call fields a re-announcement (a second `tool_call`) repeats.
_SHOWN_FIELDS: Final = ("title", "kind", "status", "locations", "rawInput", "rawOutput", "_meta")


def mode_for_client(client_capabilities: object) -> str:
    """``"meta"`` when v1 ``clientCapabilities._meta.terminal_output`` is true."""
    if isinstance(client_capabilities, dict):
        meta = client_capabilities.get("_meta")
        if isinstance(meta, dict) and meta.get("terminal_output") is True:
            return "meta"
    return "text"


@dataclass(frozen=True)
class BridgeResult:
    """What one `V2ToV1Bridge.apply` produced."""

    messages: tuple[JsonObject, ...]
    not_bridged: tuple[NotBridged, ...]
    warnings: tuple[AcpWarning, ...]


class V2ToV1Bridge(PermissionCalls):
    """Turns v2 agent→client messages into v1 ones (see the module docstring)."""

    def __init__(
        self,
        *,
        mode: str = "text",
        max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
        policy: ResendPolicy | None = None,
        transcript_mode: str = "lines",
        columns: int | None = None,
        rows: int = 24,
        meta_output: str = "text",
        strict: bool = False,
    ) -> None:
        if mode not in BRIDGE_MODES:
            raise ValueError(f"mode must be one of {', '.join(BRIDGE_MODES)}, not {mode!r}")
        if meta_output not in META_OUTPUTS:
            raise ValueError(f"meta_output must be one of {', '.join(META_OUTPUTS)}")
        CappedText(max_text_chars)  # fail on a bad cap now
        self.mode = mode
        # Meta mode: terminal_output as plain text, or as safe ANSI (colours
        # and attributes, SGR only) for clients that emulate a terminal.
        self.meta_output = meta_output
        self._colour = mode == "meta" and meta_output == "ansi"
        self.max_text_chars = max_text_chars
        self.policy = policy if policy is not None else ResendPolicy()
        self._transcript_options: dict[str, Any] = {
            "mode": transcript_mode,
            "columns": columns,
            "rows": rows,
        }
        self._store = TerminalStore(
            **self._transcript_options,
            max_retained_bytes=0,
            styled=self._colour,  # the views read the store's transcripts
            legacy=False,
            observer=self,
            strict=strict,  # see TerminalStore: lenient optional fields by default
        )
        self._views: dict[TerminalKey, TerminalView] = {}
        self._calls: dict[CallKey, ToolCallState] = {}
        self._tally = PendingTally()
        # Tool calls showing each terminal, in the order they started to (ordered sets).
        self._showing: dict[TerminalKey, dict[CallKey, None]] = {}
        self._now: float | None = None
        self._finished = False
        self._permission_calls = 0
        self._messages = MessageLog()
        self._plans = PlanBoard()
        self._synthetic: dict[str, CallKey] = {}  # see PermissionCalls

    @property
    def store(self) -> TerminalStore:
        """The terminal state seen so far (read it; do not apply to it)."""
        return self._store

    @property
    def pending(self) -> int:
        """Output and content bytes not yet sent (at least 1 per structural change).

        Counts only what a `flush` can send: terminals and tool calls the v1
        client has been shown.
        """
        return self._tally.total

    # -- OutputObserver (called by the store while it commits) ---------------

    def output_replaced(self, terminal: TerminalState) -> None:
        view = self._view(terminal.key)
        view.replaced()
        if self.mode == "meta":
            view.pending += 1
        for call in self._calls_showing(terminal.key):
            call.urgent = True

    def output_appended(self, terminal: TerminalState, data: bytes) -> None:
        view = self._view(terminal.key)
        # Take the committed lines in now: the store's transcript drops its
        # oldest past max_lines, which many appends between flushes could reach.
        view.read(terminal, window=False)
        view.has_output = view.has_output or bool(data)
        if self.mode == "meta":
            view.pending += len(data)
            view.releaser.earn(len(data))
            return
        for call in self._calls_showing(terminal.key):
            call.pending += len(data)

    # -- input ------------------------------------------------------------------

    def apply(self, message: object, *, session_id: str | None = None) -> BridgeResult:
        """Apply one v2 message, batch or bare session update; the v1 messages to send now.

        Raises `InvalidMessageError` (nothing changed) for malformed input and
        `StoreFinishedError` after `finish`.  See `_plan` for how.
        """
        prepared = self._store.prepare(message, session_id=session_id)
        items = message if isinstance(message, list) else [message]
        batch = isinstance(message, list)
        plans = [plan_item(item, session_id, i if batch else None) for i, item in enumerate(items)]
        result = self._store.commit(prepared)
        self._note_terminal_changes(result.changed)
        out: list[JsonObject] = []
        notes: list[NotBridged] = []
        for plan in plans:
            notes.extend(plan.notes)
            self._carry_out(plan, out)
        return BridgeResult(tuple(out), tuple(notes), result.warnings)

    def flush(self, *, now_ms: float | None = None, force: bool = False) -> list[JsonObject]:
        """v1 messages for the terminal and content changes that are due.

        `now_ms` (any monotonic clock, in milliseconds) enables the policy's
        time rule; `force` sends every pending change.
        """
        if now_ms is not None:
            self._now = now_ms
        out: list[JsonObject] = []
        for call in self._calls.values():
            if not call.announced or call.key[0] is None:
                continue
            if self._content_due(call, force):
                out.extend(self._content_update(call))
            elif self.mode == "meta" and self._meta_pending(call):
                out.extend(self._meta_follow_up(call))
        return out

    def finish(self) -> list[JsonObject]:
        """End of input: every transcript is complete; the last v1 messages."""
        if self._finished:
            return []
        self._finished = True
        self._store.finish()
        for view in self._views.values():
            view.finished = True
            if self.mode == "meta":
                view.pending += 1
        if self.mode == "text":  # "running" becomes "no exit status reported"
            for key in self._views:
                terminal = self._store.get(*key)
                if terminal is not None and not terminal.exited:
                    for call in self._calls_showing(key):
                        call.urgent = True
        return self.flush(force=True)

    # -- messages ------------------------------------------------------------------

    def _carry_out(self, plan: Plan, out: list[JsonObject]) -> None:
        if isinstance(plan, PassPlan):
            out.append(plan.message)
        elif isinstance(plan, UpdatePlan):
            out.append(_notification(plan.params))
            if plan.message is not None:
                self._messages.chunk_sent(plan.params["sessionId"], *plan.message)
        elif isinstance(plan, MessagePlan):
            for update in self._messages.updates(plan):
                out.append(_notification({"sessionId": plan.session_id, "update": update}))
        elif isinstance(plan, PlanUpdatePlan):
            shown = self._plans.update(plan)
            if shown is not None:
                out.append(_notification({"sessionId": plan.session_id, "update": shown}))
        elif isinstance(plan, ToolCallPlan):
            call = self._call(plan.session_id, plan.tool_call_id)
            if "title" in plan.fields:
                call.title = plan.fields["title"]
            if plan.items is not None:
                self._set_items(call, plan.items)
            self._emit_call(call, plan.fields, out)
        elif isinstance(plan, ContentChunkPlan):
            self._content_chunk(plan, out)
        elif isinstance(plan, PermissionRequestPlan):
            self._permission(plan, out)

    def _content_chunk(self, plan: ContentChunkPlan, out: list[JsonObject]) -> None:
        call = self._call(plan.session_id, plan.tool_call_id)
        item = plan.item
        if item is None:
            return
        # A new terminal is structural; other items wait like output does.
        self._set_items(call, [*call.items, item], urgent=isinstance(item, TerminalRef))
        if isinstance(item, dict):
            call.pending += len(json.dumps(item))
        if not call.announced or self._content_due(call, False):
            self._emit_call(call, {}, out)

    def _set_items(
        self, call: ToolCallState, items: list[JsonObject | TerminalRef], *, urgent: bool = True
    ) -> None:
        for terminal_id in call.terminal_ids():
            self._showing.get(TerminalKey(call.key[0], terminal_id), {}).pop(call.key, None)
        call.items = items
        call.urgent = call.urgent or urgent
        for terminal_id in call.terminal_ids():
            key = TerminalKey(call.key[0], terminal_id)
            self._showing.setdefault(key, {})[call.key] = None
            view = self._view(key)
            if self.mode == "meta" and view.primary is None and call.key[0] is not None:
                view.primary = call.key

    def _emit_call(self, call: ToolCallState, fields: JsonObject, out: list[JsonObject]) -> None:
        """Announce the tool call, or update it; content goes along when due."""
        if not call.announced:
            title = call.title if call.title is not None else self._default_title(call)
            update: JsonObject = {"sessionUpdate": "tool_call", "toolCallId": call.tool_call_id}
            update.update({**fields, "title": title})
            info = self._announce_first(call) if self.mode == "meta" else None
            update["content"] = self._render(call)
            if info is not None:
                self._add_info(call, update, info)
            call.announced = True
            call.sent(_size(update["content"]), self._now)
        else:
            update = {"sessionUpdate": "tool_call_update", "toolCallId": call.tool_call_id}
            update.update(fields)
            if self._content_due(call, False):
                update["content"] = self._render(call)
                call.sent(_size(update["content"]), self._now)
        call.shown.update((k, v) for k, v in update.items() if k in _SHOWN_FIELDS)
        if len(update) > 2:  # more than sessionUpdate and toolCallId
            out.append(_session_update(call.key, update))
        if self.mode == "meta":
            out.extend(self._meta_follow_up(call))

    def _content_update(self, call: ToolCallState) -> list[JsonObject]:
        content = self._render(call)
        call.sent(_size(content), self._now)
        update: JsonObject = {
            "sessionUpdate": "tool_call_update",
            "toolCallId": call.tool_call_id,
            "content": content,
        }
        extra = self._meta_follow_up(call) if self.mode == "meta" else []
        return [_session_update(call.key, update), *extra]

    def _content_due(self, call: ToolCallState, force: bool) -> bool:
        if call.urgent:
            return True
        if force:
            return call.pending > 0
        waited = None
        if self._now is not None:
            if call.last_sent_ms is None:  # sent before the clock was known: count from now
                call.last_sent_ms = self._now
            waited = self._now - call.last_sent_ms
        return self.policy.due(call.pending, call.last_size, waited)

    def _render(self, call: ToolCallState) -> list[JsonObject]:
        content: list[JsonObject] = []
        for item in call.items:
            if not isinstance(item, TerminalRef):
                content.append(copy.deepcopy(item))  # checked when planned
                continue
            key = TerminalKey(call.key[0], item.terminal_id)
            terminal = self._store.get(*key)
            if terminal is None:
                continue  # named only by a permission subject: nothing to show yet
            if self.mode == "meta":  # only once a tool_call announced it (Zed's rule)
                view = self._view(key)
                if view.announced:
                    content.append({"type": "terminal", "terminalId": item.terminal_id})
                    if view.notes:  # what the separators in its output stand for
                        content.append(text_item("\n\n".join(view.notes)))
                continue
            view = self._view(key)
            assert view.capped is not None
            text = view.capped.parts(view.read(terminal))
            block = console_block(terminal, text, finished=self._finished)
            content.append(text_item(block))
        return content

    # -- meta mode -----------------------------------------------------------------
    #
    # Zed's rules for the v1 _meta convention: a terminal exists once
    # _meta.terminal_info arrived on a `tool_call`; terminal_output and
    # terminal_exit are read from a `tool_call_update` only; an update whose
    # content names a terminal Zed does not know fails whole.  So a terminal
    # item enters a tool call's content only with, or after, the tool_call
    # carrying its terminal_info (a tool call whose terminal comes later is
    # announced again: a `tool_call` with the same id and everything sent
    # so far), and output and exit always go in tool_call_updates after it.
    # A terminal is announced once there is something to show (a command, a
    # cwd, output or an exit), so a cwd that comes right after the tool call
    # is not lost; one that changes later is announced again while no output
    # was sent.  Each terminal's _meta rides on one tool call (its primary).

    def _ready(self, terminal: TerminalState, view: TerminalView) -> bool:
        known = terminal.cwd is not None or terminal.command is not None
        return known or view.has_output or terminal.exit_status is not None

    def _late_cwd(self, terminal: TerminalState, view: TerminalView) -> bool:
        return not view.released_any and terminal.cwd not in (None, view.info_cwd)

    def _meta_pending(self, call: ToolCallState) -> bool:
        due = False
        for terminal_id in call.terminal_ids():
            key = TerminalKey(call.key[0], terminal_id)
            view, terminal = self._views.get(key), self._store.get(*key)
            if view is None or terminal is None or view.primary != call.key:
                continue
            if not view.announced:
                if self._ready(terminal, view):
                    due = True
                else:
                    view.pending = 0  # nothing to show yet: the next change counts again
            elif view.pending or self._exit_changed(key, view) or self._late_cwd(terminal, view):
                due = True
        return due

    def _announce_first(self, call: ToolCallState) -> JsonObject | None:
        """terminal_info for the first terminal of a new tool call worth showing."""
        for terminal_id in call.terminal_ids():
            info = self._announce(call, terminal_id, again=False)
            if info is not None:
                return info
        return None

    def _announce(self, call: ToolCallState, terminal_id: str, *, again: bool) -> JsonObject | None:
        key = TerminalKey(call.key[0], terminal_id)
        view, terminal = self._views.get(key), self._store.get(*key)
        if view is None or terminal is None or view.primary != call.key:
            return None
        if view.announced:
            if not (again and self._late_cwd(terminal, view)):
                return None
        elif not self._ready(terminal, view):
            return None
        view.announced = True
        view.info_cwd = terminal.cwd
        info: JsonObject = {"terminal_id": terminal_id}
        if terminal.cwd is not None:
            info["cwd"] = terminal.cwd
        return info

    def _add_info(self, call: ToolCallState, update: JsonObject, info: JsonObject) -> None:
        """Put terminal_info (and the command, when the agent gave no rawInput) on a tool_call."""
        meta = dict(update.get("_meta") or {})
        meta["terminal_info"] = info
        update["_meta"] = meta
        terminal = self._store.get(call.key[0], info["terminal_id"])
        if "rawInput" not in update and terminal is not None and terminal.command is not None:
            raw: JsonObject = {"command": shown_text(terminal.command)}
            if terminal.cwd is not None:
                raw["cwd"] = shown_text(terminal.cwd)
            update["rawInput"] = raw

    def _meta_follow_up(self, call: ToolCallState) -> list[JsonObject]:
        """After `call`'s own message: a `tool_call` for each of its terminals to
        announce, then a tool_call_update with each one's output and exit."""
        out: list[JsonObject] = []
        for terminal_id in call.terminal_ids():
            info = self._announce(call, terminal_id, again=True)
            if info is None:
                continue
            update: JsonObject = {"sessionUpdate": "tool_call", "toolCallId": call.tool_call_id}
            update.update(copy.deepcopy(call.shown))
            update["content"] = self._render(call)
            self._add_info(call, update, info)
            call.shown.update((k, v) for k, v in update.items() if k in _SHOWN_FIELDS)
            out.append(_session_update(call.key, update))
        base = {"sessionUpdate": "tool_call_update", "toolCallId": call.tool_call_id}
        for terminal_id in call.terminal_ids():
            entries = self._meta_entries(call, terminal_id)
            if entries:
                following: JsonObject = {**base, "_meta": entries}
                view = self._views[TerminalKey(call.key[0], terminal_id)]
                if view.take_notes():  # the notes go with the output they explain
                    following["content"] = self._render(call)
                out.append(_session_update(call.key, following))
        return out

    def _meta_entries(self, call: ToolCallState, terminal_id: str) -> JsonObject:
        """terminal_output and terminal_exit due for a terminal `call` carries."""
        key = TerminalKey(call.key[0], terminal_id)
        view, terminal = self._views.get(key), self._store.get(*key)
        if view is None or terminal is None or view.primary != call.key or not view.announced:
            return {}
        entries: JsonObject = {}
        final = view.finished or terminal.exited
        window = view.read(terminal)  # takes the committed lines in first
        data = view.releaser.release(view.committed, window, final=final)
        view.pending = 0  # also when held: more output or the end will bring it back
        if data is not None:
            view.committed = []
        if data:
            view.released_any = True
            entries["terminal_output"] = {"terminal_id": terminal_id, "data": data}
        status = terminal.exit_status
        if status is not None and self._exit_changed(key, view):
            entries["terminal_exit"] = {
                "terminal_id": terminal_id,
                "exit_code": status.exit_code,
                "signal": status.signal,
            }
            view.exit_sent = status
        return entries

    def _exit_changed(self, key: TerminalKey, view: TerminalView) -> bool:
        """True when an exit status the client has not been sent is set.

        A cleared status forgets the one sent, so a later exit is sent again.
        """
        terminal = self._store.get(*key)
        status = terminal.exit_status if terminal is not None else None
        if status is None:
            view.exit_sent = None
            return False
        return status != view.exit_sent

    # -- state helpers ---------------------------------------------------------------

    def _call(self, session_id: str | None, tool_call_id: str) -> ToolCallState:
        key = (session_id, tool_call_id)
        call = self._calls.get(key)
        if call is None:
            call = self._calls[key] = ToolCallState(key, self._tally)
        return call

    def _calls_showing(self, key: TerminalKey) -> Iterator[ToolCallState]:
        for call_key in self._showing.get(key, ()):
            yield self._calls[call_key]

    def _view(self, key: TerminalKey) -> TerminalView:
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = TerminalView(
                self.mode,
                self.max_text_chars,
                self._tally,
                colour=self._colour,
            )
        return view

    def _note_terminal_changes(self, changed: tuple[TerminalKey, ...]) -> None:
        """Command, cwd or exit status changes are structural: due at once."""
        for key in changed:
            terminal = self._store.get(*key)
            if terminal is None:
                continue
            view = self._view(key)
            status = terminal.exit_status
            signature = (terminal.command, terminal.cwd, None if status is None else status)
            if signature != view.signature:
                view.signature = signature
                if self.mode == "text":
                    for call in self._calls_showing(key):
                        call.urgent = True
                else:
                    view.pending += 1

    def _default_title(self, call: ToolCallState) -> str:
        for terminal_id in call.terminal_ids():
            terminal = self._store.get(call.key[0], terminal_id)
            if terminal is not None and terminal.command is not None:
                return display_text(terminal.command)
        return call.tool_call_id


def _size(content: list[JsonObject]) -> int:
    return len(json.dumps(content, ensure_ascii=False))


def _notification(params: JsonObject) -> JsonObject:
    return {"jsonrpc": "2.0", "method": UPDATE, "params": params}


def _session_update(call_key: CallKey, update: JsonObject) -> JsonObject:
    assert call_key[0] is not None
    return _notification({"sessionId": call_key[0], "update": update})
