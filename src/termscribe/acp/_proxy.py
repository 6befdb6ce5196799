"""`V1ClientProxy`: a v1 client on one side, a v2 agent on the other.  Pure, no I/O.

The caller (``termscribe bridge -- AGENT``) owns the pipes: it hands every
message a side sends to `from_client` or `from_agent` and writes what comes
back (`Routed`) to each side; `flush` sends terminal output that is due,
`agent_closed` and `client_closed` end a connection.

What it does, by direction:

* **client → agent** requests: ``initialize``, ``session/new``,
  ``session/load`` (as ``session/resume`` replaying from the start),
  ``session/prompt``, ``authenticate`` (as ``auth/login``) and
  ``session/close`` are translated (see `_proxy_convert`); notifications
  ``session/cancel`` and ``$/cancel_request`` pass; responses to the agent's
  permission requests are checked and passed.  Any other request gets a
  JSON-RPC error back (``-32601``), and so does one whose params have no v2
  form (``-32602``).
* **agent → client**: responses are translated for the request they answer.
  The v2 ``session/prompt`` result only means "accepted": the v1 response,
  with ``stopReason``, is held until the agent's ``state_update`` says
  ``idle`` (terminal output still waiting is sent first).  Session updates
  and permission requests go through `V2ToV1Bridge` (text or meta mode;
  ``auto`` picks meta when the client's ``initialize`` advertises
  ``clientCapabilities._meta.terminal_output``).  A request the bridge cannot
  give the client (a malformed permission, one without an option v1 knows,
  any other method) is answered with a JSON-RPC error, so the agent never
  waits forever.
* When the agent goes away, every client request still open gets an error;
  when the client goes away nothing is left to answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ._errors import AcpError, FieldError, InvalidMessageError, StoreFinishedError, short_repr
from ._proxy_convert import (
    V1_PROTOCOL_VERSION,
    authenticate_v1_to_v2,
    config_result_v2_to_v1,
    initialize_request_v1_to_v2,
    initialize_result_v2_to_v1,
    list_sessions_result_v2_to_v1,
    list_sessions_v1_to_v2,
    load_session_v1_to_v2,
    meta_params_v1_to_v2,
    new_session_v1_to_v2,
    permission_result_v1_to_v2,
    prompt_v1_to_v2,
    resume_session_v1_to_v2,
    session_id_params_v1_to_v2,
    session_result_v2_to_v1,
    set_config_option_v1_to_v2,
    stop_reason_v2_to_v1,
)
from ._validate import JsonObject, copy_json
from .bridge import BRIDGE_MODES, V2ToV1Bridge, mode_for_client
from .bridge._shown import shown_json

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PROXY_MODES",
    "REQUEST_CANCELLED",
    "Routed",
    "V1ClientProxy",
]

PROXY_MODES: Final = ("auto", *BRIDGE_MODES)

# JSON-RPC 2.0 error codes.
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
#: ``$/cancel_request``'s answer (the request-cancellation RFD).
REQUEST_CANCELLED: Final = -32800

_UPDATE: Final = "session/update"
_PERMISSION: Final = "session/request_permission"
_ELICITATION: Final = "elicitation/create"
_CANCEL_REQUEST: Final = "$/cancel_request"
# Agent notifications both versions define the same way.
_AGENT_NOTIFICATIONS: Final = frozenset({"elicitation/complete", _CANCEL_REQUEST})

# v1 request method → (v2 method, params converter).
_REQUESTS: Final[dict[str, tuple[str, Callable[[object], JsonObject]]]] = {
    "initialize": ("initialize", initialize_request_v1_to_v2),
    "authenticate": ("auth/login", authenticate_v1_to_v2),
    "session/new": ("session/new", new_session_v1_to_v2),
    "session/load": ("session/resume", load_session_v1_to_v2),
    "session/prompt": ("session/prompt", prompt_v1_to_v2),
    "session/close": ("session/close", session_id_params_v1_to_v2),
    "session/resume": ("session/resume", resume_session_v1_to_v2),
    "session/list": ("session/list", list_sessions_v1_to_v2),
    "session/delete": ("session/delete", session_id_params_v1_to_v2),
    "session/set_config_option": ("session/set_config_option", set_config_option_v1_to_v2),
    "logout": ("auth/logout", meta_params_v1_to_v2),
}


@dataclass
class Routed:
    """What one input produced: messages for each side and notes for a log."""

    to_client: list[JsonObject] = field(default_factory=list)
    to_agent: list[JsonObject] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def extend(self, other: Routed) -> None:
        self.to_client.extend(other.to_client)
        self.to_agent.extend(other.to_agent)
        self.notes.extend(other.notes)


@dataclass
class _ClientRequest:
    """A client request forwarded to the agent and not answered yet."""

    request_id: object
    method: str
    session_id: str | None
    accepted: bool = False  # session/prompt: the agent answered (v2: accepted)
    stop_reason: object = None  # session/prompt: the idle state's, once seen
    idle: bool = False
    cancelled: bool = False  # session/prompt: the client sent $/cancel_request for it


class V1ClientProxy:
    """Translates between a v1 client and a v2 agent (see the module docstring)."""

    def __init__(self, *, mode: str = "auto", **bridge_options: Any) -> None:
        if mode not in PROXY_MODES:
            raise ValueError(f"mode must be one of {', '.join(PROXY_MODES)}, not {mode!r}")
        self.mode = mode
        self._bridge_options = bridge_options
        V2ToV1Bridge(mode="text", **bridge_options)  # fail on bad options now
        self._bridge: V2ToV1Bridge | None = None
        self._client_requests: dict[str, _ClientRequest] = {}
        self._agent_requests: dict[str, str] = {}  # agent request id → method
        self._closed = False
        # The agent answered initialize with protocol version 1: both sides
        # speak v1, and every message passes as it is.
        self.passthrough = False

    @property
    def bridge(self) -> V2ToV1Bridge:
        """The v2→v1 bridge (made at ``initialize``, when ``auto`` knows the client)."""
        if self._bridge is None:
            mode = "text" if self.mode == "auto" else self.mode
            self._bridge = V2ToV1Bridge(mode=mode, **self._bridge_options)
        return self._bridge

    @property
    def pending(self) -> int:
        """Terminal output bytes `flush` could send (see `V2ToV1Bridge.pending`)."""
        return self._bridge.pending if self._bridge is not None else 0

    def open_requests(self) -> int:
        """Client requests the agent has not answered (prompts: not finished)."""
        return len(self._client_requests)

    # -- client → agent -------------------------------------------------------------

    def from_client(self, message: object) -> Routed:
        """One message (or batch) the v1 client sent."""
        out = Routed()
        for item in message if isinstance(message, list) and message else [message]:
            out.extend(self._client_item(item))
        return out

    def _client_item(self, message: object) -> Routed:
        if self.passthrough:
            return self._pass_client(message)
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            request_id = message.get("id") if isinstance(message, dict) else None
            error = _error(request_id, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
            return Routed(to_client=[error], notes=["client: not a JSON-RPC 2.0 message"])
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:
                return self._client_request(message, method)
            return self._client_notification(message, method)
        if "id" in message and ("result" in message or "error" in message):
            return self._client_response(message)
        error = _error(message.get("id"), INVALID_REQUEST, "neither a request nor a response")
        return Routed(to_client=[error], notes=["client: neither a request nor a response"])

    def _client_request(self, message: JsonObject, method: str) -> Routed:
        request_id = message["id"]
        if method not in _REQUESTS:
            reason = f"v1 method {short_repr(method)} has no v2 translation"
            return Routed(to_client=[_error(request_id, METHOD_NOT_FOUND, reason)], notes=[reason])
        key = _key(request_id)
        if key is None or key in self._client_requests:
            reason = f"request id {short_repr(request_id)} is not a new string or integer"
            return Routed(to_client=[_error(request_id, INVALID_REQUEST, reason)], notes=[reason])
        v2_method, convert = _REQUESTS[method]
        params = message.get("params")
        try:
            v2_params = convert(params)
        except AcpError as exc:
            reason = f"{method}: {exc}"
            return Routed(to_client=[_error(request_id, INVALID_PARAMS, reason)], notes=[reason])
        if method == "initialize" and self._bridge is None and self.mode == "auto":
            capabilities = params.get("clientCapabilities") if isinstance(params, dict) else None
            self._bridge = V2ToV1Bridge(mode=mode_for_client(capabilities), **self._bridge_options)
        session_id = v2_params.get("sessionId")
        self._client_requests[key] = _ClientRequest(
            request_id, method, session_id if isinstance(session_id, str) else None
        )
        request = {"jsonrpc": "2.0", "id": request_id, "method": v2_method, "params": v2_params}
        return Routed(to_agent=[request])

    def _client_notification(self, message: JsonObject, method: str) -> Routed:
        params = message.get("params")
        if method == "session/cancel" and isinstance(params, dict):
            if isinstance(params.get("sessionId"), str):
                return Routed(to_agent=[_notification(method, _copy_params(params))])
        elif method == _CANCEL_REQUEST:
            return self._cancel_request(params)
        return Routed(notes=[f"client notification {short_repr(method)} not translated"])

    def _cancel_request(self, params: object) -> Routed:
        """``$/cancel_request`` from the client.

        A v2 prompt was answered at once (accepted): what runs is the turn,
        so cancelling a prompt is ``session/cancel`` of its session, and the
        prompt is answered with `REQUEST_CANCELLED` once the agent is idle
        (the turn has ended).  Any other open request: passed on, for the
        agent to answer.
        """
        request_id = params.get("requestId") if isinstance(params, dict) else None
        request = self._client_requests.get(_key(request_id) or "")
        if request is None:
            return Routed(
                notes=[f"client {_CANCEL_REQUEST}: no open request {short_repr(request_id)}"]
            )
        if request.method == "session/prompt" and request.session_id is not None:
            request.cancelled = True
            cancel = _notification("session/cancel", {"sessionId": request.session_id})
            return Routed(to_agent=[cancel])
        try:
            return Routed(to_agent=[_notification(_CANCEL_REQUEST, _copy_params(params))])
        except AcpError as exc:
            return Routed(notes=[f"client {_CANCEL_REQUEST}: {exc}"])

    def _client_response(self, message: JsonObject) -> Routed:
        request_id = message["id"]
        method = self._agent_requests.pop(_key(request_id) or "", None)
        if method is None:
            return Routed(notes=[f"client answered unknown request {short_repr(request_id)}"])
        out = Routed()
        if method == _PERMISSION and self._bridge is not None:
            result = message.get("result")
            outcome = result.get("outcome") if isinstance(result, dict) else None
            out.to_client.extend(self._bridge.permission_answered(request_id, outcome))
        out.extend(self._client_answer(message, method))
        return out

    def _client_answer(self, message: JsonObject, method: str) -> Routed:
        request_id = message["id"]
        if "error" in message:
            error = message["error"]
            if not isinstance(error, dict):
                error = {"code": INTERNAL_ERROR, "message": "the client answered with an error"}
            try:
                return Routed(
                    to_agent=[{"jsonrpc": "2.0", "id": request_id, "error": _copy_params(error)}]
                )
            except AcpError:
                return Routed(to_agent=[_error(request_id, INTERNAL_ERROR, "the client refused")])
        try:
            if method == _ELICITATION:  # the same shape in both versions
                result = _copy_params(message["result"])
                if not isinstance(result, dict):
                    raise InvalidMessageError("result", None, "expected an object")
            else:
                result = permission_result_v1_to_v2(message["result"])
        except AcpError as exc:
            reason = f"the client's {method} answer has no v2 form: {exc}"
            return Routed(to_agent=[_error(request_id, INTERNAL_ERROR, reason)], notes=[reason])
        return Routed(to_agent=[{"jsonrpc": "2.0", "id": request_id, "result": result}])

    # -- agent → client -------------------------------------------------------------

    def from_agent(self, message: object) -> Routed:
        """One message (or batch) the v2 agent sent."""
        if self._closed:
            return Routed(notes=["agent: message after the end ignored"])
        if self.passthrough:
            return self._pass_agent(message)
        if not isinstance(message, list) or not message:
            return self._agent_item(message)
        out = Routed()
        updates = [m for m in message if _method(m) == _UPDATE and "id" not in m]
        if updates:  # applied together: the bridge checks batch order rules
            out.extend(self._updates(updates if len(updates) > 1 else updates[0]))
        for item in message:
            if not (_method(item) == _UPDATE and "id" not in item):
                out.extend(self._agent_item(item))
        return out

    def _agent_item(self, message: object) -> Routed:
        if self.passthrough:
            return self._pass_agent(message)
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            note = ["agent: not a JSON-RPC 2.0 message"]
            if isinstance(message, dict) and "method" in message and "id" in message:
                error = _error(message["id"], INVALID_REQUEST, "not a JSON-RPC 2.0 message")
                return Routed(to_agent=[error], notes=note)  # a request: never left waiting
            return Routed(notes=note)
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:
                return self._agent_request(message, method)
            if method == _UPDATE:
                return self._updates(message)
            if method in _AGENT_NOTIFICATIONS:
                try:
                    params = _copy_params(message.get("params"))
                except AcpError as exc:
                    return Routed(notes=[f"agent {method}: {exc}"])
                return Routed(to_client=[_notification(method, params)])
            return Routed(notes=[f"agent notification {short_repr(method)} has no v1 translation"])
        if "id" in message and ("result" in message or "error" in message):
            return self._agent_response(message)
        return Routed(notes=["agent: neither a request nor a response"])

    def _agent_request(self, message: JsonObject, method: str) -> Routed:
        request_id = message["id"]
        key = _key(request_id)
        if method not in (_PERMISSION, _ELICITATION):
            reason = f"v2 method {short_repr(method)} has no v1 translation"
            return Routed(to_agent=[_error(request_id, METHOD_NOT_FOUND, reason)], notes=[reason])
        if key is None or key in self._agent_requests:
            reason = f"request id {short_repr(request_id)} is not a new string or integer"
            return Routed(to_agent=[_error(request_id, INVALID_REQUEST, reason)], notes=[reason])
        if method == _ELICITATION:  # the same in both versions: passed on
            params = message.get("params")
            try:
                copied = _copy_params(params)
            except AcpError as exc:
                copied = None
                reason = f"{method}: {exc}"
            if not (isinstance(copied, dict) and isinstance(copied.get("message"), str)):
                reason = f"{method}: params without a message"
                return Routed(to_agent=[_error(request_id, INVALID_PARAMS, reason)], notes=[reason])
            self._agent_requests[key] = method
            request = {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": method,
                "params": shown_json(copied),
            }
            return Routed(to_client=[request])
        try:
            result = self.bridge.apply(message)
        except (InvalidMessageError, StoreFinishedError) as exc:
            reason = f"{method}: {exc}"
            return Routed(to_agent=[_error(request_id, INVALID_PARAMS, reason)], notes=[reason])
        notes = [str(note) for note in result.not_bridged]
        sent = any(m.get("id") == request_id and "method" in m for m in result.messages)
        if not sent:
            reason = "; ".join(notes) or f"{method} not bridged"
            return Routed(to_agent=[_error(request_id, INVALID_PARAMS, reason)], notes=[reason])
        self._agent_requests[key] = method
        return Routed(to_client=list(result.messages), notes=notes)

    def _updates(self, message: JsonObject | list[JsonObject]) -> Routed:
        out = Routed()
        items = message if isinstance(message, list) else [message]
        rest = []
        for item in items:
            update = _params(item).get("update")
            if isinstance(update, dict) and update.get("sessionUpdate") == "state_update":
                out.extend(self._state(_params(item).get("sessionId"), update))
            else:
                rest.append(item)
        if not rest:
            return out
        try:
            result = self.bridge.apply(rest if len(rest) > 1 else rest[0])
        except (InvalidMessageError, StoreFinishedError) as exc:
            out.notes.append(f"session/update not bridged: {exc}")
            return out
        out.to_client.extend(result.messages)
        out.notes.extend(f"not bridged: {note}" for note in result.not_bridged)
        out.notes.extend(f"warning: {warning}" for warning in result.warnings)
        return out

    def _state(self, session_id: object, update: JsonObject) -> Routed:
        """A v2 state_update: ``idle`` ends the session's prompt turn."""
        if update.get("state") != "idle" or not isinstance(session_id, str):
            return Routed()
        for key, request in self._client_requests.items():
            if request.method == "session/prompt" and request.session_id == session_id:
                request.idle = True
                request.stop_reason = update.get("stopReason")
                return self._maybe_end_turn(key, request)
        return Routed()

    def _maybe_end_turn(self, key: str, request: _ClientRequest) -> Routed:
        if not (request.accepted and request.idle):
            return Routed()
        del self._client_requests[key]
        out = Routed(to_client=self.bridge.flush(force=True))
        out.to_client.extend(self.bridge.end_turn(request.session_id))
        if request.cancelled:
            out.to_client.append(_error(request.request_id, REQUEST_CANCELLED, "request cancelled"))
            return out
        result: JsonObject = {"stopReason": stop_reason_v2_to_v1(request.stop_reason)}
        out.to_client.append({"jsonrpc": "2.0", "id": request.request_id, "result": result})
        return out

    def _agent_response(self, message: JsonObject) -> Routed:
        request_id = message["id"]
        key = _key(request_id) or ""
        request = self._client_requests.get(key)
        if request is None:
            return Routed(notes=[f"agent answered unknown request {short_repr(request_id)}"])
        if "error" in message:
            del self._client_requests[key]
            error = message["error"]
            try:
                error = _copy_params(error)
            except AcpError:
                error = None
            if not (isinstance(error, dict) and isinstance(error.get("code"), int)):
                error = {"code": INTERNAL_ERROR, "message": "the agent answered with an error"}
            return Routed(to_client=[{"jsonrpc": "2.0", "id": request_id, "error": error}])
        if request.method == "session/prompt":
            request.accepted = True
            return self._maybe_end_turn(key, request)
        del self._client_requests[key]
        if request.method == "initialize" and _version(message["result"]) == V1_PROTOCOL_VERSION:
            self.passthrough = True  # a v1 agent: its answer, and all after it, as they are
            return self._pass_agent(message)
        try:
            result = shown_json(_RESULTS[request.method](message["result"]))
        except AcpError as exc:
            reason = f"the agent's {request.method} result has no v1 form: {exc}"
            return Routed(to_client=[_error(request_id, INTERNAL_ERROR, reason)], notes=[reason])
        return Routed(to_client=[{"jsonrpc": "2.0", "id": request_id, "result": result}])

    # -- a v1 agent: everything passes -----------------------------------------------

    def _pass_client(self, message: object) -> Routed:
        if isinstance(message, list):
            out = Routed()
            for item in message:
                out.extend(self._pass_client(item))
            return out
        if isinstance(message, dict) and isinstance(message.get("method"), str):
            key = _key(message.get("id"))
            if key is not None and key not in self._client_requests:
                self._client_requests[key] = _ClientRequest(message["id"], message["method"], None)
        try:
            return Routed(to_agent=[_copy_params(message)])
        except AcpError as exc:
            return Routed(notes=[f"client: not passed: {exc}"])

    def _pass_agent(self, message: object) -> Routed:
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and "method" not in item and "id" in item:
                self._client_requests.pop(_key(item["id"]) or "", None)
        try:
            return Routed(to_client=[_copy_params(message)])
        except AcpError as exc:
            return Routed(notes=[f"agent: not passed: {exc}"])

    # -- time and the end --------------------------------------------------------------

    def flush(self, *, now_ms: float | None = None) -> list[JsonObject]:
        """Terminal output due now (see `V2ToV1Bridge.flush`)."""
        if self._bridge is None or self._closed:
            return []
        return self.bridge.flush(now_ms=now_ms)

    def agent_closed(self, reason: str) -> Routed:
        """The agent is gone: the last output, then an error for every open request."""
        if self._closed:
            return Routed()
        self._closed = True
        out = Routed(to_client=self._bridge.finish() if self._bridge is not None else [])
        for request in self._client_requests.values():
            text = f"the agent ended before answering {request.method}: {reason}"
            out.to_client.append(_error(request.request_id, INTERNAL_ERROR, text))
        self._client_requests.clear()
        return out

    def client_closed(self) -> Routed:
        """The client is gone: nothing can be answered; open requests are forgotten."""
        self._agent_requests.clear()
        return Routed()


def _initialize_result(result: object) -> JsonObject:
    return initialize_result_v2_to_v1(result)


_RESULTS: Final[dict[str, Callable[[object], JsonObject]]] = {
    "initialize": _initialize_result,
    "authenticate": lambda result: _meta_only(result),
    "session/new": lambda result: session_result_v2_to_v1(result, new=True),
    "session/load": lambda result: session_result_v2_to_v1(result, new=False),
    "session/resume": lambda result: session_result_v2_to_v1(result, new=False),
    "session/close": lambda result: _meta_only(result),
    "session/delete": lambda result: _meta_only(result),
    "session/list": list_sessions_result_v2_to_v1,
    "session/set_config_option": config_result_v2_to_v1,
    "logout": lambda result: _meta_only(result),
}


def _version(result: object) -> object:
    return result.get("protocolVersion") if isinstance(result, dict) else None


def _meta_only(result: object) -> JsonObject:
    out: JsonObject = {}
    meta = result.get("_meta") if isinstance(result, dict) else None
    if isinstance(meta, dict):
        out["_meta"] = _copy_params(meta)
    return out


def _copy_params(params: object) -> Any:
    try:
        return copy_json(params, "params")
    except FieldError as exc:
        raise exc.to_public() from exc


def _key(request_id: object) -> str | None:
    """A dictionary key for a JSON-RPC id (strings and integers only)."""
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        return None
    return json.dumps(request_id)


def _method(message: object) -> object:
    return message.get("method") if isinstance(message, dict) else None


def _params(message: object) -> JsonObject:
    params = message.get("params") if isinstance(message, dict) else None
    return params if isinstance(params, dict) else {}


def _notification(method: str, params: object) -> JsonObject:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def _error(request_id: object, code: int, message: str) -> JsonObject:
    """A JSON-RPC error response; an id that is not a string or integer becomes null."""
    text = f"termscribe bridge: {message}"
    if _key(request_id) is None:
        request_id = None
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}}
