"""Tool calls as the v2→v1 bridge tracks them, and their display fields in v1 terms.

v2 ``tool_call_update`` is an upsert with patch semantics; v1 announces a tool
call with ``tool_call`` (title required) and then updates it.  The bridge
keeps, per tool call, whether the v1 client has been told about it and its
current content: v2 items already converted to v1, and terminal references
rendered at send time (v1 content replaces the whole array, so every send
carries all of it).

Display fields map as closely as v1 allows, never failing: a kind v1 lacks
becomes ``other``; ``cancelled`` becomes ``failed`` (v1 has no cancelled, and a
cancelled call has ended without success); null clears in v2 but v1 cannot
clear a title, kind or status, so those are left out; locations null becomes
``[]`` (which clears in v1 too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from .._errors import AcpError, FieldError
from .._models import MAX_EXIT_CODE  # also the uint32 bound of a location's line
from .._validate import JsonObject, copy_json, without_malformed_meta
from ..convert import V1_TOOL_CALL_STATUSES, V1_TOOL_KINDS, tool_call_content_v2_to_v1
from ._shown import shown_json, shown_text

__all__ = [
    "CallKey",
    "NotBridged",
    "PendingTally",
    "TerminalRef",
    "ToolCallState",
    "convert_items",
    "display_fields",
]

CallKey: TypeAlias = tuple[str | None, str]


@dataclass(frozen=True)
class NotBridged:
    """A valid v2 message (or part of one) the v1 client does not receive."""

    what: str
    reason: str
    index: int | None = None

    def __str__(self) -> str:
        return f"{self.what}: {self.reason}"


@dataclass(frozen=True)
class TerminalRef:
    """A v2 terminal content item, rendered by the bridge when content is sent."""

    terminal_id: str


class PendingTally:
    """The running total that `V2ToV1Bridge.pending` reports, kept by the
    objects it counts as they change, so reading it costs nothing however
    many tool calls and terminals there are."""

    __slots__ = ("total",)

    def __init__(self) -> None:
        self.total = 0


class ToolCallState:
    """One tool call on the v1 side."""

    def __init__(self, key: CallKey, tally: PendingTally) -> None:
        self.key = key
        self.title: str | None = None
        self.items: list[JsonObject | TerminalRef] = []
        # The v1 fields sent so far (title, kind, status…), repeated when the
        # tool call is announced again (meta mode).
        self.shown: JsonObject = {}
        # Resend bookkeeping (see ResendPolicy): bytes changed since the last
        # send, a structural change waiting, size and time of the last send.
        self._announced = False
        self._pending = 0
        self._urgent = False
        self.last_size = 0
        self.last_sent_ms: float | None = None
        self._tally = tally

    @property
    def tool_call_id(self) -> str:
        return self.key[1]

    def _weight(self) -> int:
        """What this call adds to the bridge's pending count: what a flush could send."""
        if not self._announced or self.key[0] is None:
            return 0
        return self._pending + (1 if self._urgent else 0)

    @property
    def announced(self) -> bool:
        """Whether the v1 client has been told about this tool call."""
        return self._announced

    @announced.setter
    def announced(self, value: bool) -> None:
        before = self._weight()
        self._announced = value
        self._tally.total += self._weight() - before

    @property
    def pending(self) -> int:
        return self._pending

    @pending.setter
    def pending(self, value: int) -> None:
        before = self._weight()
        self._pending = value
        self._tally.total += self._weight() - before

    @property
    def urgent(self) -> bool:
        return self._urgent

    @urgent.setter
    def urgent(self, value: bool) -> None:
        before = self._weight()
        self._urgent = value
        self._tally.total += self._weight() - before

    def terminal_ids(self) -> list[str]:
        return [item.terminal_id for item in self.items if isinstance(item, TerminalRef)]

    def sent(self, size: int, now_ms: float | None) -> None:
        self.pending = 0
        self.urgent = False
        self.last_size = size
        self.last_sent_ms = now_ms


def convert_items(items: object, problems: list[str]) -> list[JsonObject | TerminalRef]:
    """v2 content items for the v1 side; those without a v1 form are left out
    and described in `problems`."""
    out: list[JsonObject | TerminalRef] = []
    if not isinstance(items, list):
        return out
    for item in items:
        if isinstance(item, dict) and item.get("type") == "terminal":
            terminal_id = item.get("terminalId")
            if isinstance(terminal_id, str):
                out.append(TerminalRef(terminal_id))
            continue
        try:
            out.append(shown_json(tool_call_content_v2_to_v1(item)))
        except AcpError as exc:
            problems.append(f"content item left out: {exc}")
    return out


def display_fields(update: Mapping[str, Any], problems: list[str]) -> JsonObject:
    """The v1 ToolCallUpdate fields (other than content) for a v2 tool-call patch.

    Never fails: a field of the wrong type is left out, and so is a JSON field
    that could not be written back (see `copy_json`), described in `problems`.
    """
    out: JsonObject = {}
    title = update.get("title")
    if isinstance(title, str):
        out["title"] = shown_text(title)
    kind = update.get("kind")
    if isinstance(kind, str):
        out["kind"] = kind if kind in V1_TOOL_KINDS else "other"
    status = update.get("status")
    if isinstance(status, str):
        if status == "cancelled":
            out["status"] = "failed"
        elif status in V1_TOOL_CALL_STATUSES:
            out["status"] = status
    if "locations" in update:
        locations = update["locations"]
        if isinstance(locations, list):
            kept = [
                without_malformed_meta(loc)
                for loc in locations
                if isinstance(loc, dict) and _location_ok(loc)
            ]
            _copy_field(out, "locations", kept, problems)
        elif locations is None:
            out["locations"] = []
    for key in ("rawInput", "rawOutput"):
        if key in update:
            _copy_field(out, key, update[key], problems)
            if key in out:  # opaque data a client may show: every string
                out[key] = shown_json(out[key], exempt=frozenset())
    meta = update.get("_meta")
    if isinstance(meta, dict):
        _copy_field(out, "_meta", meta, problems)
    return out


def _copy_field(out: JsonObject, key: str, value: object, problems: list[str]) -> None:
    try:
        out[key] = copy_json(value, key)
    except FieldError as exc:
        problems.append(f"{key} left out: {exc.reason}")


def _location_ok(location: Mapping[str, Any]) -> bool:
    line = location.get("line")
    line_ok = line is None or (
        isinstance(line, int) and not isinstance(line, bool) and 0 <= line <= MAX_EXIT_CODE
    )
    return isinstance(location.get("path"), str) and line_ok
