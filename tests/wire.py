"""ACP v2 wire-message builders shared by the tests of tests/acp and tests/bridge."""

from __future__ import annotations

import base64
from typing import Any

SESSION = "sess_1"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def notify(update: dict[str, Any], session: str = SESSION) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": session, "update": update},
    }


def terminal_update(terminal_id: str, session: str = SESSION, **fields: Any) -> dict[str, Any]:
    """A terminal_update notification; `meta=` and `exit_status=` map to the wire names."""
    update: dict[str, Any] = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
    for key, value in fields.items():
        update[{"meta": "_meta", "exit_status": "exitStatus"}.get(key, key)] = value
    return notify(update, session)


def snapshot(terminal_id: str, data: bytes, session: str = SESSION) -> dict[str, Any]:
    return terminal_update(terminal_id, session, output={"data": b64(data)})


def chunk(terminal_id: str, data: bytes, session: str = SESSION) -> dict[str, Any]:
    update = {
        "sessionUpdate": "terminal_output_chunk",
        "terminalId": terminal_id,
        "data": b64(data),
    }
    return notify(update, session)
