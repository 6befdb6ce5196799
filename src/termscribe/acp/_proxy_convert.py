"""The v1 ⇄ v2 shapes of the requests and responses the proxy translates.

`V1ClientProxy` speaks v1 to a client and v2 to an agent; these functions
convert one request's params or one response's result.  They read what they
need, copy what both versions mean the same way (through `copy_json`), and
raise `ConversionError` when a value has no form on the other side (an SSE
MCP server, an agent answering with protocol version 1) or
`InvalidMessageError` when it is malformed.  Pure: no state, no I/O.

What changes between the versions, method by method:

* ``initialize``: v1 ``clientCapabilities``/``clientInfo`` become v2
  ``capabilities``/``info`` (v1's ``fs`` and ``terminal`` are client-side
  execution surfaces v2 removed; they are not forwarded).  The v2 result's
  ``capabilities.session`` becomes v1 ``agentCapabilities``: ``loadSession``
  when the agent supports sessions at all (v2's baseline includes
  ``session/resume``), prompt and MCP capabilities as booleans.
* ``session/new``: v1 MCP servers become v2 ones (stdio gets its ``type``;
  SSE has no v2 form).  ``session/load`` becomes ``session/resume`` with
  ``replayFrom: {"type": "start"}``: the agent replays the conversation, as
  v1 load requires.  Config options are not forwarded to the v1 client (their
  shapes differ, and ``session/set_config_option`` is not translated).
* ``session/prompt``: the request is the same; the v1 result (``stopReason``)
  is made by the proxy from the agent's ``state_update`` ``idle``.
* ``authenticate`` becomes ``auth/login``; agent-handled auth methods are
  offered to the v1 client with ``id`` for ``methodId``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ._errors import FieldError, InvalidMessageError, short_repr
from ._validate import (
    JsonObject,
    copy_json,
    is_absolute_path,
    require_object,
    require_str,
    type_name,
)
from .convert import ConversionError, config_options_v2_to_v1

__all__ = [
    "V1_PROTOCOL_VERSION",
    "V1_STOP_REASONS",
    "V2_PROTOCOL_VERSION",
    "authenticate_v1_to_v2",
    "config_result_v2_to_v1",
    "initialize_request_v1_to_v2",
    "initialize_result_v2_to_v1",
    "list_sessions_result_v2_to_v1",
    "list_sessions_v1_to_v2",
    "load_session_v1_to_v2",
    "meta_params_v1_to_v2",
    "new_session_v1_to_v2",
    "permission_result_v1_to_v2",
    "prompt_v1_to_v2",
    "resume_session_v1_to_v2",
    "session_id_params_v1_to_v2",
    "session_result_v2_to_v1",
    "set_config_option_v1_to_v2",
    "stop_reason_v2_to_v1",
]

V1_PROTOCOL_VERSION: Final = 1
V2_PROTOCOL_VERSION: Final = 2
#: StopReason values of the v1 schema (v2 also allows other strings).
V1_STOP_REASONS: Final = frozenset(
    {"end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"}
)


def initialize_request_v1_to_v2(params: object) -> JsonObject:
    """v1 ``initialize`` params as v2 ones."""
    obj = _object(params, "params")
    _int(obj, "protocolVersion")
    info = obj.get("clientInfo")
    out: JsonObject = {"protocolVersion": V2_PROTOCOL_VERSION}
    if isinstance(info, dict) and isinstance(info.get("name"), str):
        out["info"] = {
            key: _copy_value(info[key], f"clientInfo.{key}")
            for key in ("name", "title", "version", "_meta")
            if key in info
        }
        out["info"].setdefault("version", "")
    else:
        out["info"] = {"name": "unknown v1 client", "version": ""}
    capabilities: JsonObject = {}
    client = obj.get("clientCapabilities")
    if isinstance(client, dict):
        for key in ("elicitation", "_meta"):
            if isinstance(client.get(key), dict):
                capabilities[key] = _copy(client[key], f"clientCapabilities.{key}")
    out["capabilities"] = capabilities
    _copy_meta(obj, out)
    return out


def initialize_result_v2_to_v1(result: object) -> JsonObject:
    """The v2 ``initialize`` result as v1; the agent must speak version 2."""
    obj = _object(result, "result")
    version = _int(obj, "protocolVersion")
    if version != V2_PROTOCOL_VERSION:
        raise ConversionError(
            "initialize result",
            f"the agent speaks protocol version {short_repr(version)}, not {V2_PROTOCOL_VERSION}",
        )
    capabilities = obj.get("capabilities")
    session = capabilities.get("session") if isinstance(capabilities, dict) else None
    prompt = session.get("prompt") if isinstance(session, dict) else None
    mcp = session.get("mcp") if isinstance(session, dict) else None
    agent: JsonObject = {
        "loadSession": isinstance(session, dict),
        "promptCapabilities": {
            key: isinstance(prompt, dict) and isinstance(prompt.get(key), dict)
            for key in ("image", "audio", "embeddedContext")
        },
        "mcpCapabilities": {
            "http": isinstance(mcp, dict) and isinstance(mcp.get("http"), dict),
            "sse": False,
        },
    }
    if isinstance(session, dict):  # v2's baseline: list, resume and close
        sessions: JsonObject = {"list": {}, "resume": {}, "close": {}}
        for key in ("delete", "additionalDirectories"):
            if isinstance(session.get(key), dict):
                sessions[key] = {}
        agent["sessionCapabilities"] = sessions
    auth = capabilities.get("auth") if isinstance(capabilities, dict) else None
    if isinstance(auth, dict) or obj.get("authMethods"):
        agent["auth"] = {"logout": {}}
    out: JsonObject = {
        "protocolVersion": V1_PROTOCOL_VERSION,
        "agentCapabilities": agent,
        "authMethods": _auth_methods(obj.get("authMethods")),
    }
    info = obj.get("info")
    if isinstance(info, dict) and isinstance(info.get("name"), str):
        out["agentInfo"] = {
            key: _copy_value(info[key], f"info.{key}")
            for key in ("name", "title", "version", "_meta")
            if key in info
        }
        out["agentInfo"].setdefault("version", "")
    _copy_meta(obj, out)
    return out


def _auth_methods(methods: object) -> list[JsonObject]:
    """Agent-handled auth methods as v1 ones (others need the client to run the agent)."""
    out: list[JsonObject] = []
    for method in methods if isinstance(methods, list) else ():
        if not isinstance(method, dict) or method.get("type", "agent") != "agent":
            continue
        method_id, name = method.get("methodId"), method.get("name")
        if isinstance(method_id, str) and isinstance(name, str):
            item: JsonObject = {"id": method_id, "name": name}
            if isinstance(method.get("description"), str):
                item["description"] = method["description"]
            out.append(item)
    return out


def authenticate_v1_to_v2(params: object) -> JsonObject:
    """v1 ``authenticate`` params as v2 ``auth/login`` params."""
    obj = _object(params, "params")
    out: JsonObject = {"methodId": _str(obj, "methodId")}
    _copy_meta(obj, out)
    return out


def new_session_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/new`` params as v2 ones."""
    obj = _object(params, "params")
    out: JsonObject = {"cwd": _absolute(obj, "cwd")}
    _session_common(obj, out)
    return out


def load_session_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/load`` params as v2 ``session/resume`` params replaying from the start."""
    obj = _object(params, "params")
    out: JsonObject = {"sessionId": _str(obj, "sessionId"), "cwd": _absolute(obj, "cwd")}
    _session_common(obj, out)
    out["replayFrom"] = {"type": "start"}
    return out


def _session_common(obj: Mapping[str, Any], out: JsonObject) -> None:
    directories = obj.get("additionalDirectories")
    if isinstance(directories, list):
        for i, path in enumerate(directories):
            if not (isinstance(path, str) and is_absolute_path(path)):
                raise ConversionError(f"additionalDirectories[{i}]", "v2 requires an absolute path")
        out["additionalDirectories"] = list(directories)
    servers = obj.get("mcpServers")
    if servers is not None:
        if not isinstance(servers, list):
            raise InvalidMessageError(
                "mcpServers", None, f"expected an array, got {type_name(servers)}"
            )
        out["mcpServers"] = [_mcp_server(server, i) for i, server in enumerate(servers)]
    _copy_meta(obj, out)


def _mcp_server(server: object, index: int) -> JsonObject:
    where = f"mcpServers[{index}]"
    obj = _object(server, where)
    kind = obj.get("type", "stdio")
    if kind == "stdio":
        command = obj.get("command")
        if not (isinstance(command, str) and is_absolute_path(command)):
            raise ConversionError(
                where, "v2 requires the stdio server's command as an absolute path"
            )
        out = _copy(obj, where)
        out["type"] = "stdio"
        return out
    if kind == "http":
        return _copy(obj, where)
    raise ConversionError(where, f"MCP transport {short_repr(kind)} has no v2 form")


def session_result_v2_to_v1(result: object, *, new: bool) -> JsonObject:
    """A v2 ``session/new`` (``new``) or ``session/resume`` result as v1 (config
    options converted by `config_options_v2_to_v1`)."""
    obj = _object(result, "result")
    out: JsonObject = {}
    if new:
        out["sessionId"] = _str(obj, "sessionId")
    if isinstance(obj.get("configOptions"), list):
        out["configOptions"] = config_options_v2_to_v1(obj["configOptions"])
    _copy_meta(obj, out)
    return out


def config_result_v2_to_v1(result: object) -> JsonObject:
    """The v2 ``session/set_config_option`` result as v1."""
    obj = _object(result, "result")
    out: JsonObject = {"configOptions": config_options_v2_to_v1(obj.get("configOptions"))}
    _copy_meta(obj, out)
    return out


def meta_params_v1_to_v2(params: object) -> JsonObject:
    """Params of nothing but ``_meta`` (``logout`` as ``auth/logout``); absent is empty."""
    out: JsonObject = {}
    if params is not None:
        _copy_meta(_object(params, "params"), out)
    return out


def session_id_params_v1_to_v2(params: object) -> JsonObject:
    """``session/delete`` and ``session/close`` params: the same in both versions."""
    obj = _object(params, "params")
    _str(obj, "sessionId")
    return _copy(obj, "params")


def list_sessions_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/list`` params as v2 (a cwd filter must be absolute there)."""
    obj = _object(params if params is not None else {}, "params")
    out: JsonObject = {}
    if obj.get("cwd") is not None:
        out["cwd"] = _absolute(obj, "cwd")
    if obj.get("cursor") is not None:
        out["cursor"] = _str(obj, "cursor")
    _copy_meta(obj, out)
    return out


def list_sessions_result_v2_to_v1(result: object) -> JsonObject:
    """The v2 ``session/list`` result as v1: sessions without a string id
    and cwd are left out, as the v1 reader skips them."""
    obj = _object(result, "result")
    sessions = obj.get("sessions")
    out: JsonObject = {
        "sessions": [
            _copy(item, "sessions")
            for item in (sessions if isinstance(sessions, list) else ())
            if isinstance(item, dict)
            and isinstance(item.get("sessionId"), str)
            and isinstance(item.get("cwd"), str)
        ]
    }
    if isinstance(obj.get("nextCursor"), str):
        out["nextCursor"] = obj["nextCursor"]
    _copy_meta(obj, out)
    return out


def resume_session_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/resume`` params as v2 ones (no replay: v1 resume has none)."""
    obj = _object(params, "params")
    out: JsonObject = {"sessionId": _str(obj, "sessionId"), "cwd": _absolute(obj, "cwd")}
    _session_common(obj, out)
    return out


def set_config_option_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/set_config_option`` params as v2: a value without a type is
    a select's value id (v2 says ``"type": "id"``)."""
    obj = _object(params, "params")
    out: JsonObject = {"sessionId": _str(obj, "sessionId"), "configId": _str(obj, "configId")}
    value = obj.get("value")
    if obj.get("type") == "boolean":
        if not isinstance(value, bool):
            raise InvalidMessageError("value", None, f"expected a boolean, got {type_name(value)}")
        out.update(type="boolean", value=value)
    elif "type" not in obj or obj.get("type") == "id":
        out.update(type="id", value=_str(obj, "value"))
    else:
        raise ConversionError(
            "type", f"config value type {short_repr(obj.get('type'))} is not v1's"
        )
    _copy_meta(obj, out)
    return out


def prompt_v1_to_v2(params: object) -> JsonObject:
    """v1 ``session/prompt`` params as v2 ones (the same shape)."""
    obj = _object(params, "params")
    _str(obj, "sessionId")
    if not isinstance(obj.get("prompt"), list):
        raise InvalidMessageError(
            "prompt", None, f"expected an array, got {type_name(obj.get('prompt'))}"
        )
    return _copy(obj, "params")


def stop_reason_v2_to_v1(reason: object) -> str:
    """The v1 stopReason for a v2 idle state's ``stopReason`` (``end_turn`` when absent)."""
    if isinstance(reason, str) and reason in V1_STOP_REASONS:
        return reason
    return "end_turn"


def permission_result_v1_to_v2(result: object) -> JsonObject:
    """A v1 permission response's result as v2 (``selected`` or ``cancelled``)."""
    obj = _object(result, "result")
    outcome = _object(obj.get("outcome"), "outcome")
    kind = outcome.get("outcome")
    if kind == "selected":
        _str(outcome, "optionId")
    elif kind != "cancelled":
        raise InvalidMessageError("outcome.outcome", None, f"unknown outcome {short_repr(kind)}")
    return _copy(obj, "result")


# -- small helpers -------------------------------------------------------------------


def _object(value: object, field: str) -> Mapping[str, Any]:
    try:
        return require_object(value, field)
    except FieldError as exc:
        raise exc.to_public() from exc


def _str(obj: Mapping[str, Any], key: str) -> str:
    try:
        return require_str(obj, key)
    except FieldError as exc:
        raise exc.to_public() from exc


def _int(obj: Mapping[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidMessageError(key, None, f"expected an integer, got {type_name(value)}")
    return value


def _absolute(obj: Mapping[str, Any], key: str) -> str:
    value = _str(obj, key)
    if not is_absolute_path(value):
        raise ConversionError(key, "v2 requires an absolute path")
    return value


def _copy_value(value: object, field: str) -> Any:
    try:
        return copy_json(value, field)
    except FieldError as exc:
        raise exc.to_public() from exc


def _copy(value: Mapping[str, Any], field: str) -> JsonObject:
    copied: JsonObject = _copy_value(value, field)
    return copied


def _copy_meta(src: Mapping[str, Any], out: JsonObject) -> None:
    if isinstance(src.get("_meta"), dict):
        out["_meta"] = _copy(src["_meta"], "_meta")
