"""Stateless v1 ⇄ v2 conversion of single ACP values, where a faithful mapping exists.

The ACP v2 RFD (Compatibility) is the rule: v1 and v2 terminal content look
alike on the wire but mean different things.  A v1 ``terminalId`` names a
terminal the *Client* created with ``terminal/create`` and the Agent controls
with ``terminal/*`` calls; a v2 ``terminalId`` names an *Agent-owned*,
display-only stream.  "A cross-version adapter must reject terminal content,
v2 terminal session updates, and command permission subjects unless it
implements the required stateful behavior itself."  These helpers see one
value at a time and implement no such behaviour, so they reject them:

* v2 terminal content, ``terminal_update``, ``terminal_output_chunk`` and the
  ``command`` permission subject raise `IncompatibleTerminalError` going to v1;
* v1 terminal content raises `IncompatibleTerminalError` going to v2.

`V2ToV1Bridge` (and ``termscribe bridge``) implements that behaviour for
v2→v1: it keeps terminal state and shows it as text or through the
``_meta`` extension.  No v1→v2 adapter here implements the v1 Client
terminal lifecycle (``terminal/create`` and the rest), which converting v1
terminal content would need.

Other values convert when both versions mean the same by them and the result
is valid for the target schema; otherwise `ConversionError` says why (for
example a v2 ``cancelled`` status, which v1 lacks).  A value that is not even
well-formed raises `InvalidMessageError`.  Inputs are never modified; outputs
are fresh copies.

Whatever the JSON value (a field of the wrong type at any depth, nesting a
thousand levels deep, NaN), a helper returns a copy that ``json.dumps`` can
write or raises one of those two errors; nothing else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Final

from ._blocks import v1_block, v1_chunk, v1_same_update
from ._errors import AcpError, FieldError, InvalidMessageError, short_repr
from ._validate import JsonObject, copy_json, malformed_meta, type_name, without_malformed_meta

__all__ = [
    "V1_CONTENT_BLOCK_TYPES",
    "V1_PERMISSION_OPTION_KINDS",
    "V1_TOOL_CALL_STATUSES",
    "V1_TOOL_KINDS",
    "ConversionError",
    "IncompatibleTerminalError",
    "config_options_v2_to_v1",
    "permission_subject_v1_to_v2",
    "permission_subject_v2_to_v1",
    "session_update_v1_to_v2",
    "session_update_v2_to_v1",
    "tool_call_content_v1_to_v2",
    "tool_call_content_v2_to_v1",
]

#: ContentBlock types of the v1 schema (v2 adds an open "other" variant).
V1_CONTENT_BLOCK_TYPES: Final = frozenset({"text", "image", "audio", "resource_link", "resource"})
#: ToolKind values of the v1 schema (v2 accepts any string).
V1_TOOL_KINDS: Final = frozenset(
    {
        "read",
        "edit",
        "delete",
        "move",
        "search",
        "execute",
        "think",
        "fetch",
        "switch_mode",
        "other",
    }
)
#: ToolCallStatus values of the v1 schema (v2 adds "cancelled" and any string).
V1_TOOL_CALL_STATUSES: Final = frozenset({"pending", "in_progress", "completed", "failed"})
#: PermissionOptionKind values of the v1 schema (v2 accepts any string).
V1_PERMISSION_OPTION_KINDS: Final = frozenset(
    {"allow_once", "allow_always", "reject_once", "reject_always"}
)

# Session updates whose v1 and v2 shapes carry the same meaning.
_CHUNK_KINDS: Final = frozenset(
    {"user_message_chunk", "agent_message_chunk", "agent_thought_chunk"}
)
_SAME_KINDS: Final = frozenset({"usage_update", "session_info_update"})
_TERMINAL_UPDATES: Final = frozenset({"terminal_update", "terminal_output_chunk"})
# ToolCallUpdate fields copied as they are (opaque JSON in both versions).
_OPAQUE_FIELDS: Final = ("rawInput", "rawOutput", "_meta")

_V1_TERMINAL_WHY: Final = (
    "a v1 terminalId names a Client-created terminal (terminal/create) that the Agent "
    "controls through terminal/* methods; v2 has no such resource, and a cross-version "
    "adapter must reject it unless it implements that terminal lifecycle itself"
)
_V2_TERMINAL_WHY: Final = (
    "a v2 terminalId names an Agent-owned display-only stream; a v1 terminal would be a "
    "Client-owned process the Client never created, and a cross-version adapter must reject "
    "it unless it keeps the terminal's state itself (V2ToV1Bridge does, as text or _meta)"
)


class ConversionError(AcpError, ValueError):
    """A well-formed value has no faithful equivalent in the other protocol version.

    Attributes:
        shape: what was being converted, e.g. ``"v2 tool_call_update"``.
        reason: why it cannot be converted.
    """

    def __init__(self, shape: str, reason: str) -> None:
        self.shape = shape
        self.reason = reason
        super().__init__(f"cannot convert {shape}: {reason}")


class IncompatibleTerminalError(ConversionError):
    """A terminal shape was asked to cross versions (see the module docstring)."""


# -- tool-call content ----------------------------------------------------------


def tool_call_content_v2_to_v1(item: object) -> JsonObject:
    """A v2 ToolCallContent item as v1: ``content`` items whose block type v1 knows.

    Raises `IncompatibleTerminalError` for terminal content; `ConversionError`
    for diffs (v2 carries a patch and change list, v1 whole old and new texts)
    and for content types v1 does not define.
    """
    return _content_item(
        item,
        "v2",
        _V2_TERMINAL_WHY,
        "v2 describes changes and a patch, v1 needs whole old and new texts",
        "v1 has no such content type",
    )


def tool_call_content_v1_to_v2(item: object) -> JsonObject:
    """A v1 ToolCallContent item as v2: ``content`` items convert unchanged.

    Raises `IncompatibleTerminalError` for terminal content and
    `ConversionError` for diffs (v2 needs a change list v1 does not carry).
    """
    return _content_item(
        item,
        "v1",
        _V1_TERMINAL_WHY,
        "v2 needs a list of structured changes, v1 has whole texts",
        "not a v1 content type",
    )


def _content_item(
    item: object, side: str, terminal_why: str, diff_why: str, unknown_why: str
) -> JsonObject:
    """A ``content`` item of ``side`` copied; every other kind refused."""
    obj = _object(item, "content item")
    kind = _type(obj, "content item")
    if kind == "terminal":
        raise IncompatibleTerminalError(f"{side} terminal content", terminal_why)
    if kind == "diff":
        raise ConversionError(f"{side} diff content", diff_why)
    if kind != "content":
        raise ConversionError(f"{side} {short_repr(kind)} content", unknown_why)
    block = _content_block(obj, side)
    out = without_malformed_meta(_copy(obj))
    if side == "v2":
        out["content"] = block
    return out


def _content_block(obj: Mapping[str, Any], version: str) -> JsonObject:
    """The item's block; going to v1 (from ``"v2"``), made valid v1 (see `_blocks`)."""
    block = obj.get("content")
    if not isinstance(block, dict):
        raise InvalidMessageError("content", None, f"expected an object, got {type_name(block)}")
    block_type = _type(block, "content block")
    if block_type not in V1_CONTENT_BLOCK_TYPES:
        raise ConversionError(
            f"{version} {short_repr(block_type)} content block", "v1 defines no such block type"
        )
    return v1_block(block, block_type) if version == "v2" else _copy(block)


# -- session updates --------------------------------------------------------------


def session_update_v2_to_v1(update: object) -> JsonObject:
    """A v2 SessionUpdate as v1, for the kinds both versions share.

    ``tool_call_update`` converts field by field (the v1 client must already
    know the tool call: v2 upserts, v1 only updates).  Raises
    `IncompatibleTerminalError` for ``terminal_update`` and
    ``terminal_output_chunk`` and for terminal content inside a tool call, and
    `ConversionError` for v2-only kinds and values.
    """
    obj = _object(update, "session update")
    kind = _str(obj, "sessionUpdate")
    if kind in _TERMINAL_UPDATES:
        raise IncompatibleTerminalError(f"v2 {kind}", _V2_TERMINAL_WHY)
    if kind == "tool_call_update":
        return {"sessionUpdate": kind, **_tool_call_v2_to_v1(obj)}
    if kind == "tool_call_content_chunk":
        tool_call_content_v2_to_v1(obj.get("content"))  # terminal content raises first
        raise ConversionError(
            "v2 tool_call_content_chunk",
            "v1 can only replace the whole content, not append one item",
        )
    if kind in _CHUNK_KINDS:
        return v1_chunk(obj, _content_block({"content": obj.get("content")}, "v2"))
    if kind in _SAME_KINDS:
        return v1_same_update(obj)
    if kind == "available_commands_update":
        return _commands_v2_to_v1(obj)
    if kind == "config_option_update":
        config: JsonObject = {"sessionUpdate": kind}
        config["configOptions"] = config_options_v2_to_v1(obj.get("configOptions"))
        if isinstance(obj.get("_meta"), dict):
            config["_meta"] = _json(obj["_meta"], "_meta")
        return config
    raise ConversionError(f"v2 {short_repr(kind)} session update", "v1 has no equivalent")


def config_options_v2_to_v1(options: object) -> list[JsonObject]:
    """v2 session config options as v1 ones: ``configId`` becomes ``id`` and a
    group's ``groupId`` ``group``; an option of a type v1 lacks (v1 knows
    ``select`` and ``boolean``), or one malformed, is left out, as the v1
    schema's reader skips invalid items."""
    out: list[JsonObject] = []
    for option in options if isinstance(options, list) else ():
        if not (
            isinstance(option, dict)
            and isinstance(option.get("configId"), str)
            and isinstance(option.get("name"), str)
        ):
            continue
        kind = option.get("type")
        if kind == "boolean" and isinstance(option.get("currentValue"), bool):
            extra: JsonObject = {}
        elif kind == "select" and isinstance(option.get("currentValue"), str):
            choices = _select_options(option.get("options"))
            if choices is None:
                continue
            extra = {"options": choices}
        else:
            continue
        item: JsonObject = {"id": option["configId"], "name": option["name"], "type": kind}
        item["currentValue"] = option["currentValue"]
        item.update(extra)
        for key in ("description", "category"):
            if isinstance(option.get(key), str):
                item[key] = option[key]
        if isinstance(option.get("_meta"), dict):
            with contextlib.suppress(FieldError):
                item["_meta"] = copy_json(option["_meta"], "_meta")
        out.append(item)
    return out


def _select_options(options: object) -> list[JsonObject] | None:
    """A select's choices (or groups of choices) as v1; None when malformed."""
    if not isinstance(options, list):
        return None
    out: list[JsonObject] = []
    for choice in options:
        if not isinstance(choice, dict):
            continue
        if "groupId" in choice:
            if isinstance(choice.get("groupId"), str) and isinstance(choice.get("name"), str):
                inner = _select_options(choice.get("options")) or []
                out.append({"group": choice["groupId"], "name": choice["name"], "options": inner})
        elif isinstance(choice.get("value"), str) and isinstance(choice.get("name"), str):
            item: JsonObject = {"value": choice["value"], "name": choice["name"]}
            if isinstance(choice.get("description"), str):
                item["description"] = choice["description"]
            out.append(item)
    if any("group" in c for c in out) and not all("group" in c for c in out):
        out = [c for c in out if "group" in c]  # v1: all choices or all groups
    return out


def _commands_v2_to_v1(obj: Mapping[str, Any]) -> JsonObject:
    """v2 commands as v1: a ``text`` input becomes v1's unstructured one (the same
    ``hint``); an input of another type is left out (optional in v1), and so is
    a command without a string name and description (the schema skips it)."""
    commands = []
    for command in obj.get("availableCommands") or []:
        if not (
            isinstance(command, dict)
            and isinstance(command.get("name"), str)
            and isinstance(command.get("description"), str)
        ):
            continue
        out = {k: _json(v, k) for k, v in command.items() if k in ("name", "description", "_meta")}
        given = command.get("input")
        text = isinstance(given, dict) and given.get("type") == "text"
        if text and isinstance(given, dict) and isinstance(given.get("hint"), str):
            out["input"] = {"hint": given["hint"]}
        commands.append(out)
    update: JsonObject = {"sessionUpdate": "available_commands_update"}
    update["availableCommands"] = commands
    if isinstance(obj.get("_meta"), dict):
        update["_meta"] = _json(obj["_meta"], "_meta")
    return update


def session_update_v1_to_v2(update: object) -> JsonObject:
    """A v1 SessionUpdate as v2, for the kinds both versions share.

    ``tool_call`` and ``tool_call_update`` become the v2 ``tool_call_update``
    upsert.  Raises `IncompatibleTerminalError` for terminal content in them.
    """
    obj = _object(update, "session update")
    kind = _str(obj, "sessionUpdate")
    if kind in ("tool_call", "tool_call_update"):
        return {"sessionUpdate": "tool_call_update", **_tool_call_v1_to_v2(obj)}
    if kind in _CHUNK_KINDS:
        if not isinstance(obj.get("messageId"), str):
            raise ConversionError(f"v1 {kind}", "v2 requires a messageId, which this chunk lacks")
        _content_block({"content": obj.get("content")}, "v1")
        return _copy(obj)
    if kind in _SAME_KINDS:
        return _copy(obj)
    raise ConversionError(f"v1 {short_repr(kind)} session update", "v2 has no equivalent")


def _tool_call_v2_to_v1(obj: Mapping[str, Any]) -> JsonObject:
    shape = "v2 tool call"
    out: JsonObject = {"toolCallId": _str(obj, "toolCallId")}
    for key in ("title", "kind", "status"):
        if key not in obj:
            continue
        if obj[key] is None:
            raise ConversionError(shape, f"{key}: null clears the value in v2; v1 cannot clear it")
        out[key] = _str(obj, key)
    if "kind" in out and out["kind"] not in V1_TOOL_KINDS:
        raise ConversionError(shape, f"kind {short_repr(out['kind'])} is not a v1 tool kind")
    if "status" in out and out["status"] not in V1_TOOL_CALL_STATUSES:
        raise ConversionError(shape, f"status {short_repr(out['status'])} is not a v1 status")
    if "content" in obj:
        out["content"] = [tool_call_content_v2_to_v1(i) for i in _list(obj, "content")]
    if "locations" in obj:
        out["locations"] = _copy_list(obj, "locations")  # null and [] both clear
    _copy_opaque(obj, out)
    return out


def _tool_call_v1_to_v2(obj: Mapping[str, Any]) -> JsonObject:
    out: JsonObject = {"toolCallId": _str(obj, "toolCallId")}
    for key in ("title", "kind", "status"):
        if obj.get(key) is not None:  # v1 null means "not given"; v2 null would clear
            out[key] = _str(obj, key)
    if obj.get("content") is not None:
        out["content"] = [tool_call_content_v1_to_v2(i) for i in _list(obj, "content")]
    if obj.get("locations") is not None:
        out["locations"] = _copy_list(obj, "locations")
    _copy_opaque(obj, out)
    return out


# -- permission subjects ------------------------------------------------------------


def permission_subject_v2_to_v1(subject: object) -> JsonObject:
    """The v1 ``toolCall`` (a ToolCallUpdate) for a v2 permission subject.

    Only the ``tool_call`` subject has one.  Raises `IncompatibleTerminalError`
    for the ``command`` subject: it describes an execution the Agent will
    perform, which v1 can only show through a tool call the bridge creates.
    """
    obj = _object(subject, "permission subject")
    kind = _type(obj, "permission subject")
    if kind == "command":
        raise IncompatibleTerminalError(
            "v2 command permission subject",
            "it describes a command the Agent will run, possibly shown in an Agent-owned "
            "terminal; v1 permission requests only carry a tool call, and a cross-version "
            "adapter must reject it unless it creates and tracks that tool call itself "
            "(V2ToV1Bridge does)",
        )
    if kind != "tool_call":
        raise ConversionError(f"v2 {short_repr(kind)} permission subject", "v1 has no equivalent")
    return _tool_call_v2_to_v1(_object(obj.get("toolCall"), "toolCall"))


def permission_subject_v1_to_v2(tool_call: object) -> JsonObject:
    """The v2 ``tool_call`` permission subject for a v1 request's ``toolCall``."""
    converted = _tool_call_v1_to_v2(_object(tool_call, "toolCall"))
    return {"type": "tool_call", "toolCall": converted}


# -- small helpers -------------------------------------------------------------------


def _object(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidMessageError("", None, f"{what}: expected an object, got {type_name(value)}")
    return value


def _str(obj: Mapping[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise InvalidMessageError(key, None, f"expected a string, got {type_name(value)}")
    return value


def _type(obj: Mapping[str, Any], what: str) -> str:
    value = obj.get("type")
    if not isinstance(value, str):
        raise InvalidMessageError(
            "type", None, f"{what}: expected a string type, got {type_name(value)}"
        )
    return value


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidMessageError(key, None, f"expected an array, got {type_name(value)}")
    return value


def _json(value: object, field: str) -> Any:
    try:
        return copy_json(value, field)
    except FieldError as exc:
        raise exc.to_public() from exc


def _copy(value: Mapping[str, Any]) -> JsonObject:
    copied: JsonObject = _json(value, "")
    return copied


def _copy_list(obj: Mapping[str, Any], key: str) -> list[Any]:
    copied: list[Any] = _json(_list(obj, key), key)
    return copied


def _copy_opaque(src: Mapping[str, Any], out: JsonObject) -> None:
    for key in _OPAQUE_FIELDS:
        if key in src:
            if key == "_meta" and malformed_meta(src[key]):
                continue
            out[key] = _json(src[key], key)
