"""`V1ToV2Bridge`: today's v1-convention agents shown to a v2 client.  Pure, no I/O.

codex-acp and claude-agent-acp report the commands they run with the v1
``_meta.terminal_*`` convention (`_legacy`): ``terminal_info`` on a tool call
makes a terminal, ``terminal_output`` (``terminal_output_delta`` in older
builds; claude-agent-acp sends the whole output once, at completion)
appends text, ``terminal_exit`` ends it.  That is what v2 says with its
display-only terminals, so the bridge keeps the terminals in a
`TerminalStore` (``legacy=True``) and emits, for each v1 message:

* the tool call as a v2 ``tool_call_update`` (`session_update_v1_to_v2`),
  ``_meta`` without the ``terminal_*`` keys, and the content's terminal items
  kept for the terminals ``terminal_info`` announced (agent-owned display
  terminals, what v2 terminal content means); a ``terminal_info`` without a
  terminal item in the content adds one (Zed shows such a terminal too).  A
  terminal item no ``terminal_info`` announced is a v1 *client* terminal
  (``terminal/create``), which v2 has not: it is left out, with a note;
* ``terminal_update`` with the command (``rawInput.command``) and cwd when
  they change, ``terminal_output_chunk`` with exactly the bytes each message
  appended (base64), and ``terminal_update`` with ``exitStatus`` when the
  terminal exits (`terminal_updates`; the same function gives the messages
  that recreate any `TerminalState`, its snapshot included);
* message chunks with their ``messageId``, or one the bridge makes (v2
  requires it; consecutive chunks of one kind share it), ``plan`` as
  ``plan_update`` with the synthetic id ``main`` (the plan-variants RFD),
  usage and session info as they are.

What v2 cannot take (a v1 client terminal, ``tool_call`` content v2 lacks, an
agent request to the client's file system or terminals, an update kind v2
removed) is left out and listed in `BridgeResult.not_bridged`; JSON-RPC
responses and other methods pass as copies.  Every message given validates
against the v2 schema.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, Final

from ._errors import AcpError
from ._legacy import LEGACY_KEYS
from ._store import TerminalStore
from ._terminal import TerminalKey, TerminalState
from ._validate import JsonObject, copy_json
from .bridge import BridgeResult, NotBridged
from .convert import session_update_v1_to_v2, tool_call_content_v1_to_v2

__all__ = ["V1ToV2Bridge", "terminal_updates"]

_UPDATE: Final = "session/update"
_CHUNKS: Final = ("user_message_chunk", "agent_message_chunk", "agent_thought_chunk")
_V1_ONLY_METHODS: Final = ("fs/", "terminal/")


def terminal_updates(terminal: TerminalState, *, output: bool = True) -> list[JsonObject]:
    """The v2 session updates that recreate `terminal` for a v2 client: one
    ``terminal_update`` with its command, cwd, exit status and (with `output`
    and when the store retained every byte) its output as a snapshot."""
    update: JsonObject = {"sessionUpdate": "terminal_update", "terminalId": terminal.terminal_id}
    if terminal.command is not None:
        update["command"] = terminal.command
    if terminal.cwd is not None:
        update["cwd"] = terminal.cwd
    if output and not terminal.raw_truncated:
        update["output"] = {"data": base64.b64encode(terminal.raw_bytes).decode("ascii")}
    if terminal.exit_status is not None:
        update["exitStatus"] = _exit_status(terminal)
    return [update]


def _exit_status(terminal: TerminalState) -> JsonObject:
    status = terminal.exit_status
    assert status is not None
    out: JsonObject = {}
    if status.exit_code is not None:
        out["exitCode"] = status.exit_code
    if status.signal is not None:
        out["signal"] = status.signal
    return out


class V1ToV2Bridge:
    """Turns v1 agent→client messages into v2 ones (see the module docstring)."""

    def __init__(self) -> None:
        self._store = TerminalStore(max_retained_bytes=0, styled=False, legacy=True, observer=self)
        self._appended: dict[TerminalKey, list[bytes]] = {}
        self._shown: dict[TerminalKey, tuple[object, ...]] = {}  # command, cwd, exit sent
        self._message_ids: dict[str, tuple[str, str]] = {}  # session → (kind, id) of the run
        self._made_ids = 0
        # Terminals a terminal_info announced (agent-owned, display only).
        self._legacy: set[tuple[str, str]] = set()

    @property
    def store(self) -> TerminalStore:
        """The terminals seen so far (read it; do not apply to it)."""
        return self._store

    # -- OutputObserver ---------------------------------------------------------------

    def output_replaced(self, terminal: TerminalState) -> None:
        self._appended.pop(terminal.key, None)  # v1 has no snapshots: not reached

    def output_appended(self, terminal: TerminalState, data: bytes) -> None:
        self._appended.setdefault(terminal.key, []).append(data)

    # -- input ----------------------------------------------------------------------------

    def apply(self, message: object) -> BridgeResult:
        """One v1 message (or batch) an agent sent; the v2 messages for the client.

        Raises `InvalidMessageError` (nothing changed) for malformed input."""
        result = self._store.apply(message)
        items = message if isinstance(message, list) else [message]
        out: list[JsonObject] = []
        notes: list[NotBridged] = []
        for index, item in enumerate(items):
            where = index if isinstance(message, list) else None
            self._item(item, out, notes, where)
        for key in result.changed:
            out.extend(self._terminal_changes(key))
        return BridgeResult(tuple(out), tuple(notes), result.warnings)

    def finish(self) -> list[JsonObject]:
        """End of input (the store's transcripts end too)."""
        self._store.finish()
        return []

    def _item(
        self, item: Any, out: list[JsonObject], notes: list[NotBridged], index: int | None
    ) -> None:
        method = item.get("method") if isinstance(item, dict) else None
        if method != _UPDATE:
            if isinstance(method, str) and method.startswith(_V1_ONLY_METHODS):
                reason = "a v1 client-side method: v2 clients have no file system or terminals"
                notes.append(NotBridged(method, reason, index))
                return
            try:
                out.append(copy_json(item, ""))
            except Exception as exc:
                notes.append(NotBridged(str(method or "message"), str(exc), index))
            return
        params = item["params"]
        session_id, update = params["sessionId"], params["update"]
        kind = update.get("sessionUpdate")
        what = f"session/update {kind}"
        try:
            converted = self._update(session_id, update, notes, index)
        except AcpError as exc:
            notes.append(NotBridged(what, str(exc), index))
            return
        out.extend(_notification(session_id, u) for u in converted)

    def _update(
        self,
        session_id: str,
        update: Mapping[str, Any],
        notes: list[NotBridged],
        index: int | None,
    ) -> list[JsonObject]:
        kind = update["sessionUpdate"]
        if kind in ("tool_call", "tool_call_update"):
            return self._tool_call(session_id, update, notes, index)
        if kind == "plan":
            entries = copy_json(update.get("entries") or [], "entries")
            plan: JsonObject = {"type": "items", "planId": "main", "entries": entries}
            return [{"sessionUpdate": "plan_update", "plan": plan}]
        if kind in _CHUNKS:
            chunk = dict(update)
            chunk["messageId"] = self._message_id(session_id, kind, update.get("messageId"))
            return [session_update_v1_to_v2(chunk)]
        self._message_ids.pop(session_id, None)
        return [session_update_v1_to_v2(update)]

    def _message_id(self, session_id: str, kind: str, given: object) -> str:
        if isinstance(given, str):
            self._message_ids[session_id] = (kind, given)
            return given
        last = self._message_ids.get(session_id)
        if last is not None and last[0] == kind:
            return last[1]
        self._made_ids += 1
        made = f"termscribe-message-{self._made_ids}"
        self._message_ids[session_id] = (kind, made)
        return made

    def _tool_call(
        self,
        session_id: str,
        update: Mapping[str, Any],
        notes: list[NotBridged],
        index: int | None,
    ) -> list[JsonObject]:
        self._message_ids.pop(session_id, None)
        plain = dict(update)
        meta = update.get("_meta")
        info = meta.get("terminal_info") if isinstance(meta, dict) else None
        info_id = info.get("terminal_id") if isinstance(info, dict) else None
        if isinstance(info_id, str):
            self._legacy.add((session_id, info_id))
        if isinstance(meta, dict):
            rest = {k: v for k, v in meta.items() if k not in LEGACY_KEYS}
            if rest:
                plain["_meta"] = rest
            else:
                plain.pop("_meta")
        content = plain.pop("content", None)
        converted = session_update_v1_to_v2(plain)
        items: list[JsonObject] = []
        for item in content if isinstance(content, list) else ():
            if isinstance(item, dict) and item.get("type") == "terminal":
                terminal_id = item.get("terminalId")
                if isinstance(terminal_id, str) and (session_id, terminal_id) in self._legacy:
                    items.append({"type": "terminal", "terminalId": terminal_id})
                    continue
            try:
                items.append(tool_call_content_v1_to_v2(item))
            except AcpError as exc:
                notes.append(NotBridged("tool call content", str(exc), index))
        if isinstance(content, list):
            converted["content"] = items
        shown = {i.get("terminalId") for i in items}
        if isinstance(info_id, str) and info_id not in shown:  # appended, not replacing
            terminal = {"type": "terminal", "terminalId": info_id}
            chunk = {"sessionUpdate": "tool_call_content_chunk", "content": terminal}
            return [converted, {**chunk, "toolCallId": converted["toolCallId"]}]
        return [converted]

    def _terminal_changes(self, key: TerminalKey) -> list[JsonObject]:
        terminal = self._store.get(*key)
        if terminal is None or key[0] is None:
            return []
        out: list[JsonObject] = []
        base = {"sessionUpdate": "terminal_update", "terminalId": terminal.terminal_id}
        shown = self._shown.get(key, (None, None, None))
        described: JsonObject = {}
        if terminal.command is not None and terminal.command != shown[0]:
            described["command"] = terminal.command
        if terminal.cwd is not None and terminal.cwd != shown[1]:
            described["cwd"] = terminal.cwd
        if described:
            out.append(_notification(key[0], {**base, **described}))
        for data in self._appended.pop(key, []):
            chunk = {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": terminal.terminal_id,
                "data": base64.b64encode(data).decode("ascii"),
            }
            out.append(_notification(key[0], chunk))
        status = terminal.exit_status
        if status is not None and status != shown[2]:
            out.append(_notification(key[0], {**base, "exitStatus": _exit_status(terminal)}))
        self._shown[key] = (terminal.command, terminal.cwd, status)
        return out


def _notification(session_id: str, update: JsonObject) -> JsonObject:
    params = {"sessionId": session_id, "update": update}
    return {"jsonrpc": "2.0", "method": _UPDATE, "params": params}
