"""A real v1 client (the official Python SDK) driving ``termscribe bridge -- v2_agent.py``.

`run_proxy` starts the proxy through the SDK's own `spawn_agent_process`,
records every raw message in both directions, and checks each message the
client receives against the official v1 schema (trimmed copy in ``data/``)
and the SDK's models; `agent_log` reads back what the scripted agent
received, checked against the v2 schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from acp import RequestError, spawn_agent_process
from acp import schema as sdk
from acp.connection import StreamDirection, StreamEvent
from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse
from bridge_wire import DATA, check_v1

AGENT = Path(__file__).parent / "v2_agent.py"
#: Generous: the machine may be loaded; nothing waits this long when it works.
TIMEOUT_S = 60.0

# The SDK model and v1 schema definition of each response the client can get.
_V1_RESULTS = {
    "initialize": (sdk.InitializeResponse, "InitializeResponse"),
    "authenticate": (sdk.AuthenticateResponse, "AuthenticateResponse"),
    "session/new": (sdk.NewSessionResponse, "NewSessionResponse"),
    "session/load": (sdk.LoadSessionResponse, "LoadSessionResponse"),
    "session/prompt": (sdk.PromptResponse, "PromptResponse"),
    "session/close": (sdk.CloseSessionResponse, "CloseSessionResponse"),
    "session/resume": (sdk.ResumeSessionResponse, "ResumeSessionResponse"),
    "session/list": (sdk.ListSessionsResponse, "ListSessionsResponse"),
    "session/delete": (sdk.DeleteSessionResponse, "DeleteSessionResponse"),
    "session/set_config_option": (
        sdk.SetSessionConfigOptionResponse,
        "SetSessionConfigOptionResponse",
    ),
    "session/set_mode": (sdk.SetSessionModeResponse, "SetSessionModeResponse"),
    "logout": (sdk.LogoutResponse, "LogoutResponse"),
}
_V1_AGENT_METHODS = (
    "session/update",
    "session/request_permission",
    "elicitation/create",
    "elicitation/complete",
    "$/cancel_request",
)
# The v2 definition of each request params / response result the agent gets.
_V2_PARAMS = {
    "initialize": "InitializeRequest",
    "auth/login": "LoginAuthRequest",
    "session/new": "NewSessionRequest",
    "session/resume": "ResumeSessionRequest",
    "session/prompt": "PromptRequest",
    "session/cancel": "CancelSessionNotification",
    "session/close": "CloseSessionRequest",
    "session/list": "ListSessionsRequest",
    "session/delete": "DeleteSessionRequest",
    "session/set_config_option": "SetSessionConfigOptionRequest",
    "auth/logout": "LogoutAuthRequest",
    "$/cancel_request": "CancelRequestNotification",
}


@cache
def _validator(file: str, name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((DATA / file).read_text(encoding="utf-8"))
    root = {**schema, "$ref": f"#/$defs/{name}"}
    cls = jsonschema.validators.validator_for(root)
    return cls(root, format_checker=cls.FORMAT_CHECKER)


def v1_valid(name: str, value: Any) -> None:
    _validator("acp-v1-schema-bridge.json", name).validate(value)


def v2_valid(name: str, value: Any) -> None:
    _validator("acp-v2-schema-proxy.json", name).validate(value)


@dataclass
class RecordingClient:
    """The v1 client's side: records updates, answers permission requests."""

    choice: str | None = "opt_allow_once"
    updates: list[Any] = field(default_factory=list)
    permissions: list[dict[str, Any]] = field(default_factory=list)
    seen_text: asyncio.Event = field(default_factory=asyncio.Event)
    wait_for: str = ""

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.permissions.append(
            {
                "sessionId": session_id,
                "toolCall": tool_call.model_dump(by_alias=True, exclude_none=True),
                "options": [o.model_dump(by_alias=True, exclude_none=True) for o in options],
            }
        )
        if self.choice is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.choice)
        )

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)
        text = getattr(getattr(update, "content", None), "text", None)
        if self.wait_for and text == self.wait_for:
            self.seen_text.set()

    def on_connect(self, conn: Any) -> None:
        pass

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None


@dataclass
class Wire:
    """Every raw message the client sent and received, in order."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    methods: dict[Any, str] = field(default_factory=dict)  # request id → method

    def observe(self, event: StreamEvent) -> None:
        message = event.message
        if event.direction == StreamDirection.OUTGOING:
            self.sent.append(message)
            if "method" in message and "id" in message:
                self.methods[message["id"]] = message["method"]
        else:
            self.received.append(message)
            check_received(message, self.methods)

    def response_index(self, request_id: Any) -> int:
        for i, message in enumerate(self.received):
            if message.get("id") == request_id and "method" not in message:
                return i
        raise AssertionError(f"no response to {request_id!r}")

    def last_request_id(self, method: str) -> Any:
        return [m["id"] for m in self.sent if m.get("method") == method][-1]


def check_received(message: dict[str, Any], methods: dict[Any, str]) -> None:
    """One message the v1 client got: valid v1 (schema and SDK), never a terminal call."""
    assert message.get("jsonrpc") == "2.0"
    method = message.get("method")
    if method is not None:
        assert method in _V1_AGENT_METHODS, method  # what the proxy sends a v1 client
        check_v1(message)
        return
    assert "id" in message
    v1_valid("RequestId", message["id"])
    if "error" in message:
        v1_valid("Error", message["error"])
        sdk.Error.model_validate(message["error"])
        return
    model, name = _V1_RESULTS[methods[message["id"]]]
    v1_valid(name, message["result"])
    model.model_validate(message["result"])


@contextlib.asynccontextmanager
async def run_proxy(
    client: RecordingClient, tmp_path: Path, *options: str, unstable: bool = False
) -> AsyncIterator[tuple[Any, Any, Wire]]:
    """The SDK's connection to ``termscribe bridge OPTIONS -- python v2_agent.py``."""
    wire = Wire()
    env = {
        "PYTHONPATH": os.pathsep.join(sys.path),
        "V2_AGENT_LOG": str(tmp_path / "agent.ndjson"),
    }
    with open(tmp_path / "stderr.txt", "wb") as stderr:
        async with spawn_agent_process(
            client,
            sys.executable,
            "-m",
            "termscribe",
            "bridge",
            *options,
            "--",
            sys.executable,
            str(AGENT),
            env=env,
            transport_kwargs={"stderr": stderr.fileno(), "shutdown_timeout": TIMEOUT_S},
            observers=[wire.observe],
            use_unstable_protocol=unstable,  # the SDK routes elicitation only then
        ) as (conn, process):
            yield conn, process, wire


def agent_log(tmp_path: Path) -> list[dict[str, Any]]:
    """What the agent received, each message checked against the v2 schema."""
    path = tmp_path / "agent.ndjson"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    messages = [json.loads(line) for line in lines]
    for message in messages:
        assert message["jsonrpc"] == "2.0"
        method = message.get("method")
        if method is not None:
            v2_valid(_V2_PARAMS[method], message["params"])
        elif "result" in message:  # answers to the agent's requests
            if "action" in message["result"]:
                v2_valid("CreateElicitationResponse", message["result"])
            else:
                v2_valid("RequestPermissionResponse", message["result"])
        else:
            assert isinstance(message["error"]["code"], int)
            assert isinstance(message["error"]["message"], str)
    return messages


async def within(awaitable: Any) -> Any:
    """Await with the generous test timeout."""
    return await asyncio.wait_for(awaitable, TIMEOUT_S)
