"""Typed, immutable models of the ACP v2 display-only terminal surface.

Each model is parsed from a wire dict by `from_wire` (which raises
`InvalidMessageError`) and turned back by `to_wire`.  The round trip is exact:

* `TerminalUpdate` patch fields keep their three states: `OMITTED` (absent
  from the wire: leave unchanged), `None` (null: clear) or a value (replace).
* Fields where the schema says omission and null are equivalent hold `None` for
  both; which of them were an explicit null on the wire is remembered in
  `wire_nulls` (ignored by equality) so `to_wire` writes them back.
* Unknown fields are kept in `extra` and written back after the known ones.

Byte payloads (`data`) are held decoded; `to_wire` re-encodes them, which gives
the same string because only canonical base64 is accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, TypeVar

from ._errors import FieldError, short_repr
from ._validate import (
    OMITTED,
    JsonObject,
    Leniency,
    Patch,
    check_absolute_path,
    copy_json,
    decode_base64,
    encode_base64,
    lenient,
    optional_meta,
    optional_nullable_str,
    require_object,
    require_str,
    type_name,
)

__all__ = [
    "CommandPermissionSubject",
    "TerminalContent",
    "TerminalExitStatus",
    "TerminalOutput",
    "TerminalOutputChunk",
    "TerminalUpdate",
    "parse_terminal_id",
]

_NO_EXTRA: Final[Mapping[str, Any]] = MappingProxyType({})
_NO_NULLS: Final[frozenset[str]] = frozenset()
# exitCode has JSON Schema format "uint32".
MAX_EXIT_CODE: Final = 2**32 - 1

M = TypeVar("M")


W = TypeVar("W", bound="_WireModel")


class _WireModel:
    """``from_wire``, the public boundary of every model: a model's ``parse``
    raises the internal FieldError, which becomes InvalidMessageError here."""

    @classmethod
    def parse(cls: type[W], obj: object, leniency: Leniency | None = None) -> W:
        raise NotImplementedError

    @classmethod
    def from_wire(cls: type[W], obj: object) -> W:
        try:
            return cls.parse(obj)
        except FieldError as exc:
            raise exc.to_public() from exc


def _extra(obj: Mapping[str, Any], known: frozenset[str]) -> Mapping[str, Any]:
    """Unknown fields, copied; the one shared empty mapping when there are none
    (a store holds a model for each of many terminals)."""
    if all(k in known for k in obj):
        return _NO_EXTRA
    return {k: copy_json(v, k) for k, v in obj.items() if k not in known}


def _nulls(obj: Mapping[str, Any], keys: tuple[str, ...]) -> frozenset[str]:
    found = [k for k in keys if k in obj and obj[k] is None]
    return frozenset(found) if found else _NO_NULLS


def _put(out: JsonObject, key: str, value: object, wire_nulls: frozenset[str]) -> None:
    """Write an omission-equals-null field: the value, an explicit null, or nothing."""
    if value is not None:
        out[key] = copy_json(value, key)
    elif key in wire_nulls:
        out[key] = None


def _put_extra(out: JsonObject, extra: Mapping[str, Any]) -> None:
    """Append preserved unknown fields after the known ones (which they never override)."""
    for key, value in extra.items():
        if key not in out:
            out[key] = copy_json(value, key)


def _check_tag(obj: Mapping[str, Any], key: str, expected: str, *, required: bool) -> None:
    if key not in obj:
        if required:
            raise FieldError(key, "required field is missing")
        return
    if obj[key] != expected:
        raise FieldError(key, f"expected {expected!r}, got {short_repr(obj[key])}")


def parse_terminal_id(obj: Mapping[str, Any], key: str = "terminalId") -> str:
    """A required terminal id: a string (the v2 schema allows the empty one too)."""
    return require_str(obj, key)


def _bytes_repr(data: bytes) -> str:
    return f"<{len(data)} bytes>"


@dataclass(frozen=True)
class TerminalContent(_WireModel):
    """Tool-call content ``{"type": "terminal", "terminalId": ...}``: a display anchor only."""

    terminal_id: str
    meta: JsonObject | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    wire_nulls: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    _KNOWN: ClassVar = frozenset({"type", "terminalId", "_meta"})

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> TerminalContent:
        """Like `from_wire` but raises the internal `FieldError` (see `Leniency`)."""
        wire = require_object(obj, "")
        terminal_id = parse_terminal_id(wire)
        try:
            _check_tag(wire, "type", "terminal", required=True)
            return cls(
                terminal_id=terminal_id,
                meta=lenient(leniency, lambda: optional_meta(wire), None),
                extra=_extra(wire, cls._KNOWN),
                wire_nulls=_nulls(wire, ("_meta",)),
            )
        except FieldError as exc:
            raise exc.within("", terminal_id) from exc

    def to_wire(self) -> JsonObject:
        out: JsonObject = {"type": "terminal", "terminalId": self.terminal_id}
        _put(out, "_meta", self.meta, self.wire_nulls)
        _put_extra(out, self.extra)
        return out


@dataclass(frozen=True, repr=False)
class TerminalOutput(_WireModel):
    """A replacement snapshot: the complete bytes to retain for a terminal."""

    data: bytes
    meta: JsonObject | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    wire_nulls: frozenset[str] = field(default=frozenset(), compare=False)

    _KNOWN: ClassVar = frozenset({"data", "_meta"})

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> TerminalOutput:
        wire = require_object(obj, "")
        if "data" not in wire:
            raise FieldError("data", "required field is missing")
        return cls(
            data=decode_base64(wire["data"], "data"),
            meta=lenient(leniency, lambda: optional_meta(wire), None),
            extra=_extra(wire, cls._KNOWN),
            wire_nulls=_nulls(wire, ("_meta",)),
        )

    def to_wire(self) -> JsonObject:
        out: JsonObject = {"data": encode_base64(self.data)}
        _put(out, "_meta", self.meta, self.wire_nulls)
        _put_extra(out, self.extra)
        return out

    def __repr__(self) -> str:
        return f"TerminalOutput(data={_bytes_repr(self.data)}, meta={self.meta!r})"


@dataclass(frozen=True)
class TerminalExitStatus(_WireModel):
    """Exit information; its presence marks the terminal as exited (``{}`` is valid)."""

    exit_code: int | None = None
    signal: str | None = None
    meta: JsonObject | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    wire_nulls: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    _KNOWN: ClassVar = frozenset({"exitCode", "signal", "_meta"})

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> TerminalExitStatus:
        wire = require_object(obj, "")
        return cls(
            exit_code=lenient(leniency, lambda: _exit_code(wire), None),
            signal=lenient(leniency, lambda: optional_nullable_str(wire, "signal"), None),
            meta=lenient(leniency, lambda: optional_meta(wire), None),
            extra=_extra(wire, cls._KNOWN),
            wire_nulls=_nulls(wire, ("exitCode", "signal", "_meta")),
        )

    def to_wire(self) -> JsonObject:
        out: JsonObject = {}
        _put(out, "exitCode", self.exit_code, self.wire_nulls)
        _put(out, "signal", self.signal, self.wire_nulls)
        _put(out, "_meta", self.meta, self.wire_nulls)
        _put_extra(out, self.extra)
        return out


def _exit_code(wire: Mapping[str, Any]) -> int | None:
    code = wire.get("exitCode")
    if code is not None:
        if not isinstance(code, int) or isinstance(code, bool):
            raise FieldError("exitCode", f"expected an integer or null, got {type_name(code)}")
        if not 0 <= code <= MAX_EXIT_CODE:
            raise FieldError("exitCode", f"{short_repr(code)} is outside 0..{MAX_EXIT_CODE}")
    return code


@dataclass(frozen=True)
class TerminalUpdate(_WireModel):
    """The ``terminal_update`` session update: an upsert keyed by `terminal_id`.

    Patch fields hold `OMITTED` (leave unchanged), None (clear) or a value.
    """

    terminal_id: str
    command: Patch[str] = OMITTED
    cwd: Patch[str] = OMITTED
    output: Patch[TerminalOutput] = OMITTED
    exit_status: Patch[TerminalExitStatus] = OMITTED
    meta: Patch[JsonObject] = OMITTED
    extra: Mapping[str, Any] = field(default_factory=dict)

    SESSION_UPDATE: ClassVar = "terminal_update"
    _KNOWN: ClassVar = frozenset(
        {"sessionUpdate", "terminalId", "command", "cwd", "output", "exitStatus", "_meta"}
    )

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> TerminalUpdate:
        """Optional fields are lenient with a `Leniency`, except ``output``: a
        snapshot whose bytes cannot be read is never taken as omitted."""
        wire = require_object(obj, "")
        terminal_id = parse_terminal_id(wire)
        try:
            _check_tag(wire, "sessionUpdate", cls.SESSION_UPDATE, required=False)
            exit_leniency = leniency.child("exitStatus") if leniency is not None else None

            def exit_status(value: object, key: str) -> TerminalExitStatus:
                return _nested(lambda v: TerminalExitStatus.parse(v, exit_leniency))(value, key)

            def output(value: object, key: str) -> TerminalOutput:
                output_leniency = leniency.child("output") if leniency is not None else None
                return _nested(lambda v: TerminalOutput.parse(v, output_leniency))(value, key)

            return cls(
                terminal_id=terminal_id,
                command=lenient(leniency, lambda: _patch(wire, "command", _parse_command), OMITTED),
                cwd=lenient(leniency, lambda: _patch(wire, "cwd", check_absolute_path), OMITTED),
                output=_patch(wire, "output", output),
                exit_status=lenient(
                    leniency, lambda: _patch(wire, "exitStatus", exit_status), OMITTED
                ),
                meta=lenient(leniency, lambda: _patch(wire, "_meta", _parse_meta_object), OMITTED),
                extra=_extra(wire, cls._KNOWN),
            )
        except FieldError as exc:
            raise exc.within("", terminal_id) from exc

    def to_wire(self) -> JsonObject:
        out: JsonObject = {"sessionUpdate": self.SESSION_UPDATE, "terminalId": self.terminal_id}
        if self.command is not OMITTED:
            out["command"] = self.command
        if self.cwd is not OMITTED:
            out["cwd"] = self.cwd
        if self.output is not OMITTED:
            out["output"] = None if self.output is None else self.output.to_wire()
        if self.exit_status is not OMITTED:
            out["exitStatus"] = None if self.exit_status is None else self.exit_status.to_wire()
        if self.meta is not OMITTED:
            out["_meta"] = copy_json(self.meta, "_meta")
        _put_extra(out, self.extra)
        return out


def _patch(wire: Mapping[str, Any], key: str, parse: Callable[[object, str], M]) -> Patch[M]:
    if key not in wire:
        return OMITTED
    value = wire[key]
    if value is None:
        return None
    return parse(value, key)


def _nested(parse: Callable[[object], M]) -> Callable[[object, str], M]:
    def parse_at(value: object, key: str) -> M:
        try:
            return parse(value)
        except FieldError as exc:
            raise exc.within(key) from exc

    return parse_at


def _parse_command(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise FieldError(key, f"expected a string or null, got {type_name(value)}")
    return value


def _parse_meta_object(value: object, key: str) -> JsonObject:
    return optional_meta({key: value}, key) or {}


@dataclass(frozen=True, repr=False)
class TerminalOutputChunk(_WireModel):
    """The ``terminal_output_chunk`` session update: bytes appended in received order."""

    terminal_id: str
    data: bytes
    meta: JsonObject | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    wire_nulls: frozenset[str] = field(default=frozenset(), compare=False)

    SESSION_UPDATE: ClassVar = "terminal_output_chunk"
    _KNOWN: ClassVar = frozenset({"sessionUpdate", "terminalId", "data", "_meta"})

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> TerminalOutputChunk:
        wire = require_object(obj, "")
        terminal_id = parse_terminal_id(wire)
        try:
            _check_tag(wire, "sessionUpdate", cls.SESSION_UPDATE, required=False)
            if "data" not in wire:
                raise FieldError("data", "required field is missing")
            return cls(
                terminal_id=terminal_id,
                data=decode_base64(wire["data"], "data"),
                meta=lenient(leniency, lambda: optional_meta(wire), None),
                extra=_extra(wire, cls._KNOWN),
                wire_nulls=_nulls(wire, ("_meta",)),
            )
        except FieldError as exc:
            raise exc.within("", terminal_id) from exc

    def to_wire(self) -> JsonObject:
        out: JsonObject = {
            "sessionUpdate": self.SESSION_UPDATE,
            "terminalId": self.terminal_id,
            "data": encode_base64(self.data),
        }
        _put(out, "_meta", self.meta, self.wire_nulls)
        _put_extra(out, self.extra)
        return out

    def __repr__(self) -> str:
        return (
            f"TerminalOutputChunk(terminal_id={self.terminal_id!r}, "
            f"data={_bytes_repr(self.data)}, meta={self.meta!r})"
        )


@dataclass(frozen=True)
class CommandPermissionSubject(_WireModel):
    """The ``command`` permission subject: a self-contained description, not a patch.

    `tool_call_id` and `terminal_id` only associate the permission with displayed
    state; either may be unknown when permission is asked before execution.
    """

    command: str
    cwd: str
    tool_call_id: str | None = None
    terminal_id: str | None = None
    meta: JsonObject | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    wire_nulls: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    _KNOWN: ClassVar = frozenset({"type", "command", "cwd", "toolCallId", "terminalId", "_meta"})

    @classmethod
    def parse(cls, obj: object, leniency: Leniency | None = None) -> CommandPermissionSubject:
        """``command`` and an absolute ``cwd`` are required however lenient."""
        wire = require_object(obj, "")
        terminal_id = lenient(leniency, lambda: optional_nullable_str(wire, "terminalId"), None)
        try:
            _check_tag(wire, "type", "command", required=True)
            if "cwd" not in wire:
                raise FieldError("cwd", "required field is missing")
            return cls(
                command=require_str(wire, "command"),
                cwd=check_absolute_path(wire["cwd"], "cwd"),
                tool_call_id=lenient(
                    leniency, lambda: optional_nullable_str(wire, "toolCallId"), None
                ),
                terminal_id=terminal_id,
                meta=lenient(leniency, lambda: optional_meta(wire), None),
                extra=_extra(wire, cls._KNOWN),
                wire_nulls=_nulls(wire, ("toolCallId", "terminalId", "_meta")),
            )
        except FieldError as exc:
            raise exc.within("", terminal_id) from exc

    def to_wire(self) -> JsonObject:
        out: JsonObject = {"type": "command", "command": self.command, "cwd": self.cwd}
        _put(out, "toolCallId", self.tool_call_id, self.wire_nulls)
        _put(out, "terminalId", self.terminal_id, self.wire_nulls)
        _put(out, "_meta", self.meta, self.wire_nulls)
        _put_extra(out, self.extra)
        return out
