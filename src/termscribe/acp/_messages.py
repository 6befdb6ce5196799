"""From wire messages to store operations, validating everything first.

Accepted shapes (`parse_message`, and `parse_batch_items` for arrays):

* a JSON-RPC message: ``session/update`` notifications and
  ``session/request_permission`` requests (whose id must be a string, a
  number or null) are read; other methods and all responses are ignored;
* a JSON-RPC batch (a non-empty array of those), read in array order;
* a bare ``SessionNotification`` params object ``{"sessionId", "update"}``;
* a bare ``SessionUpdate`` object ``{"sessionUpdate": ...}``, for which the
  caller names the session (or leaves it None); `parse_session_update` reads
  only that shape, with a session id (the SDK's ``Client.session_update``);
* each of these as a pydantic model, such as the official Python SDK's
  (``_validate.from_model``: what the model dumps, its unset fields omitted).

Session updates read: ``terminal_update``, ``terminal_output_chunk``,
``tool_call_update``, ``tool_call`` (v1) and ``tool_call_content_chunk``; other
kinds, known or not, are ignored.  Within tool calls only ``terminal`` content
items are read; other content is not this layer's to judge.  Fields the
terminal surface depends on are validated precisely; display-only fields of
other objects (a tool call's title, kind and status, a permission's title) are
kept when they are strings and ignored otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ._errors import AcpWarning, FieldError, short_repr
from ._legacy import LEGACY_KEYS, legacy_command, parse_legacy_meta
from ._models import CommandPermissionSubject, TerminalContent, TerminalOutputChunk, TerminalUpdate
from ._ops import Anchor, Chunk, Op, Permission, ToolCallPatch, Update
from ._validate import (
    OMITTED,
    Leniency,
    Patch,
    copy_json,
    from_model,
    lenient,
    require_object,
    require_str,
    type_name,
)

__all__ = [
    "ParsedMessage",
    "batch_warnings",
    "parse_batch_items",
    "parse_message",
    "parse_session_update",
]

SESSION_UPDATE = "session/update"
REQUEST_PERMISSION = "session/request_permission"
TOOL_CALL_KINDS = frozenset({"tool_call", "tool_call_update"})


@dataclass(frozen=True)
class ParsedMessage:
    ops: tuple[Op, ...]
    warnings: tuple[AcpWarning, ...]
    # Messages or session updates that were valid but not about terminals.
    ignored: int


@dataclass(frozen=True)
class _Reading:
    """How to read: the v1 ``_meta`` convention too (`legacy`), and where the
    optional fields that fail validation go (`leniency`; None: strict)."""

    legacy: bool
    leniency: Leniency | None

    def child(self, prefix: str) -> _Reading:
        if self.leniency is None:
            return self
        return _Reading(self.legacy, self.leniency.child(prefix))


def parse_message(
    message: object, *, session_id: str | None = None, legacy: bool = True, strict: bool = True
) -> ParsedMessage:
    """Validate one message or session update (not a batch); raises `FieldError`.

    Not `strict`: a malformed optional field (the schema's
    ``x-deserialize-default-on-error``) is read as omitted, with a warning.
    """
    return _parse_single(message, session_id, legacy, strict)


def parse_session_update(
    update: object, session_id: object, *, legacy: bool = True, strict: bool = True
) -> ParsedMessage:
    """Validate one SessionUpdate of the session `session_id`; raises `FieldError`.

    Fields are named relative to the update (``data``, not ``params.update.data``).
    """
    if not isinstance(session_id, str):
        raise FieldError("sessionId", f"expected a string, got {type_name(session_id)}")
    obj = require_object(from_model(update, ""), "")
    return _read(lambda reading: _parse_update(obj, session_id, reading), legacy, strict)


def parse_batch_items(
    batch: list[object],
    *,
    session_id: str | None = None,
    legacy: bool = True,
    strict: bool = True,
) -> tuple[ParsedMessage, list[tuple[int, FieldError]]]:
    """Validate each batch item on its own: operations of the valid items, errors of the rest.

    Error fields are prefixed with the item index (``[2].params...``).
    """
    if not batch:
        return ParsedMessage((), (), 0), [(-1, FieldError("", "empty batch"))]
    ops: list[Op] = []
    warnings: list[AcpWarning] = []
    errors: list[tuple[int, FieldError]] = []
    ignored = 0
    for index, item in enumerate(batch):
        try:
            parsed = _parse_single(item, session_id, legacy, strict)
        except FieldError as exc:
            errors.append((index, exc.within(f"[{index}]")))
            continue
        ops.extend(parsed.ops)
        warnings.extend(AcpWarning(w.message, w.terminal_id, index) for w in parsed.warnings)
        ignored += parsed.ignored
    warnings.extend(batch_warnings(ops))
    return ParsedMessage(tuple(ops), tuple(warnings), ignored), errors


def batch_warnings(ops: list[Op]) -> list[AcpWarning]:
    """The RFD forbids two updates for one terminal in one batch *when their
    order affects the result* (see `_order_matters`); other pairs commute."""
    groups: dict[tuple[str | None, str], list[Update | Chunk]] = {}
    for op in ops:
        if isinstance(op, (Update, Chunk)) and not op.legacy:
            terminal_id = op.update.terminal_id if isinstance(op, Update) else op.chunk.terminal_id
            groups.setdefault((op.session_id, terminal_id), []).append(op)
    return [
        AcpWarning(
            f"batch holds {len(group)} terminal_update/terminal_output_chunk items for terminal "
            f"{short_repr(terminal_id)} whose order changes the result; applied in array order",
            terminal_id,
        )
        for (_, terminal_id), group in groups.items()
        if len(group) > 1 and _order_matters(group)
    ]


_PATCH_FIELDS: Final = ("command", "cwd", "output", "exit_status", "meta")


def _order_matters(group: list[Update | Chunk]) -> bool:
    """Whether the items of one terminal give another result in another order.

    Two chunks with bytes do (appends), and so does a chunk with bytes
    beside an update that sets or clears the output (a snapshot replaces
    what came before it), and two updates that give one field different
    values.  A command, cwd, exit status or ``_meta`` beside a chunk, or an
    empty chunk, changes nothing by its place.  One pass over the items.
    """
    chunks = 0
    output_set = False
    first: dict[str, object] = {}
    for op in group:
        if isinstance(op, Chunk):
            chunks += bool(op.chunk.data)
            continue
        for name in _PATCH_FIELDS:
            value = getattr(op.update, name)
            if value is OMITTED:
                continue
            if name in first and first[name] != value:
                return True
            first.setdefault(name, value)
        output_set = output_set or op.update.output is not OMITTED
    return chunks > 1 or (chunks > 0 and output_set)


def _parse_single(
    message: object, session_id: str | None, legacy: bool, strict: bool
) -> ParsedMessage:
    return _read(lambda reading: _read_single(message, session_id, reading), legacy, strict)


def _read(read: Callable[[_Reading], ParsedMessage], legacy: bool, strict: bool) -> ParsedMessage:
    """``read`` strictly, or leniently: a warning for each optional field read as omitted."""
    leniency = None if strict else Leniency()
    parsed = read(_Reading(legacy, leniency))
    if not leniency or not leniency.problems:
        return parsed
    lenient = tuple(
        AcpWarning(
            f"ignored invalid optional field {p.field!r} (read as omitted): {p.reason}",
            p.terminal_id,
        )
        for p in leniency.problems
    )
    return ParsedMessage(parsed.ops, parsed.warnings + lenient, parsed.ignored)


def _read_single(message: object, session_id: str | None, reading: _Reading) -> ParsedMessage:
    obj = require_object(from_model(message, ""), "")
    if "method" in obj:
        method = obj["method"]
        if not isinstance(method, str):
            raise FieldError("method", f"expected a string, got {type_name(method)}")
        if method == SESSION_UPDATE:
            params = _params(obj)
            inner = reading.child("params")
            return _within("params", lambda: _parse_notification(params, inner))
        if method == REQUEST_PERMISSION:
            params = _params(obj)
            request_id = _request_id(obj)
            inner = reading.child("params")
            return _within("params", lambda: _parse_permission(params, request_id, inner))
        return ParsedMessage((), (), 1)
    if "sessionUpdate" in obj:
        return _parse_update(obj, session_id, reading)
    if "sessionId" in obj and "update" in obj:
        return _parse_notification(obj, reading)
    if "result" in obj or "error" in obj:
        return ParsedMessage((), (), 1)
    raise FieldError("", "not a JSON-RPC message, session notification or session update")


def _request_id(obj: Mapping[str, Any]) -> str | int | float | None:
    """A JSON-RPC request id: a string, a number or null (JSON-RPC 2.0, section 4)."""
    value = obj.get("id")
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        copy_json(value, "id")  # a finite number json.dumps can write
        return value
    raise FieldError("id", f"expected a string, number or null, got {type_name(value)}")


def _params(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    if "params" not in obj:
        raise FieldError("params", "required field is missing")
    return require_object(obj["params"], "params")


def _within(prefix: str, parse: Callable[[], ParsedMessage]) -> ParsedMessage:
    try:
        return parse()
    except FieldError as exc:
        raise exc.within(prefix) from exc


def _parse_notification(params: Mapping[str, Any], reading: _Reading) -> ParsedMessage:
    session_id = require_str(params, "sessionId")
    if "update" not in params:
        raise FieldError("update", "required field is missing")
    update = require_object(params["update"], "update")
    inner = reading.child("update")
    return _within("update", lambda: _parse_update(update, session_id, inner))


def _parse_update(
    update: Mapping[str, Any], session_id: str | None, reading: _Reading
) -> ParsedMessage:
    kind = require_str(update, "sessionUpdate")
    leniency = reading.leniency
    if kind == TerminalUpdate.SESSION_UPDATE:
        return ParsedMessage((Update(session_id, TerminalUpdate.parse(update, leniency)),), (), 0)
    if kind == TerminalOutputChunk.SESSION_UPDATE:
        chunk = TerminalOutputChunk.parse(update, leniency)
        return ParsedMessage((Chunk(session_id, chunk),), (), 0)
    if kind in TOOL_CALL_KINDS:
        return _parse_tool_call(update, session_id, reading)
    if kind == "tool_call_content_chunk":
        tool_call_id = require_str(update, "toolCallId")
        if "content" not in update:
            raise FieldError("content", "required field is missing")
        anchor = _anchor(update["content"], session_id, tool_call_id, "content", reading)
        return ParsedMessage(() if anchor is None else (anchor,), (), 0)
    return ParsedMessage((), (), 1)


def _anchor(
    item: object, session_id: str | None, tool_call_id: str, field: str, reading: _Reading
) -> Anchor | None:
    """Terminal content in a tool call.  Lenient, a malformed item is skipped (the
    schema's ``x-deserialize-skip-invalid-items``) and its bad ``_meta`` ignored."""
    if not isinstance(item, dict) or item.get("type") != "terminal":
        return None
    leniency = reading.leniency.child(field) if reading.leniency is not None else None

    def parse() -> Anchor | None:
        return Anchor(session_id, tool_call_id, TerminalContent.parse(item, leniency))

    try:
        return lenient(leniency, parse, None)
    except FieldError as exc:
        raise exc.within(field) from exc


def _parse_tool_call(
    update: Mapping[str, Any], session_id: str | None, reading: _Reading
) -> ParsedMessage:
    tool_call_id = require_str(update, "toolCallId")
    ops: list[Op] = [
        ToolCallPatch(
            session_id,
            tool_call_id,
            title=_display_patch(update, "title"),
            kind=_display_patch(update, "kind"),
            status=_display_patch(update, "status"),
        )
    ]
    content = update.get("content")
    if content is not None and not isinstance(content, list):
        error = FieldError("content", f"expected an array or null, got {type_name(content)}")
        if reading.leniency is None:
            raise error
        reading.leniency.add(error)
        content = None
    for index, item in enumerate(content or ()):
        anchor = _anchor(item, session_id, tool_call_id, f"content[{index}]", reading)
        if anchor is not None:
            ops.append(anchor)
    warnings: list[AcpWarning] = []
    meta = update.get("_meta")
    raw_input = update.get("rawInput")
    legacy = reading.legacy
    if legacy and isinstance(meta, dict) and any(key in meta for key in LEGACY_KEYS):
        legacy_ops, warnings = parse_legacy_meta(
            meta, session_id=session_id, tool_call_id=tool_call_id, raw_input=raw_input
        )
        ops.extend(legacy_ops)
    if legacy and raw_input is not None:
        command = legacy_command(meta, raw_input, session_id=session_id, tool_call_id=tool_call_id)
        if command is not None:
            ops.append(command)
    return ParsedMessage(tuple(ops), tuple(warnings), 0)


def _display_patch(obj: Mapping[str, Any], key: str) -> Patch[str]:
    """A tool call's display field: only kept for display, so a non-string is
    ignored (like the schema's x-deserialize-default-on-error), not fatal."""
    value = obj.get(key, OMITTED)
    return value if value is None or isinstance(value, str) else OMITTED


def _parse_permission(
    params: Mapping[str, Any], request_id: object, reading: _Reading
) -> ParsedMessage:
    session_id = require_str(params, "sessionId")
    subject = params.get("subject")
    if not isinstance(subject, dict) or subject.get("type") != "command":
        return ParsedMessage((), (), 1)
    title = params.get("title")
    if not isinstance(title, str):
        title = None  # display only: a bad title does not lose the permission
    leniency = reading.leniency.child("subject") if reading.leniency is not None else None
    try:
        parsed = CommandPermissionSubject.parse(subject, leniency)
    except FieldError as exc:
        raise exc.within("subject") from exc
    return ParsedMessage((Permission(session_id, request_id, title, parsed),), (), 0)
