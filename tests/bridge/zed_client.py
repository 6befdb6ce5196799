"""A v1 client that reads the ``_meta`` terminal convention by Zed's three rules.

Zed (``crates/agent_servers``, ``acp_thread``):

1. creates a display terminal only from ``_meta.terminal_info`` on a
   ``tool_call`` (on a ``tool_call_update`` it is ignored);
2. reads ``terminal_output`` and ``terminal_exit`` only from a
   ``tool_call_update`` (on a ``tool_call`` they are ignored);
3. fails a whole update whose content names a terminal it does not know.

`ZedClient` applies them strictly and records what it ignored and which
updates failed, so a test can demand neither happened.
"""

from __future__ import annotations

from typing import Any

from bridge_wire import check_v1, updates


class ZedClient:
    """The state Zed builds from v1 tool-call updates, by its rules."""

    def __init__(self) -> None:
        self.terminals: dict[str, dict[str, Any]] = {}
        self.calls: dict[str, dict[str, Any]] = {}
        self.failed: list[dict[str, Any]] = []
        self.ignored: list[str] = []

    def receive(self, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            check_v1(message)
        for update in updates(messages):
            kind = update["sessionUpdate"]
            if kind not in ("tool_call", "tool_call_update"):
                continue
            meta = update.get("_meta") or {}
            if kind == "tool_call":
                info = meta.get("terminal_info")
                if info is not None:
                    terminal = self.terminals.setdefault(
                        info["terminal_id"], {"output": "", "exit": None}
                    )
                    terminal["cwd"] = info.get("cwd")
                self.ignored += [k for k in ("terminal_output", "terminal_exit") if k in meta]
            else:
                self.ignored += ["terminal_info"] if "terminal_info" in meta else []
            named = [
                item["terminalId"]
                for item in update.get("content") or []
                if item.get("type") == "terminal"
            ]
            if any(t not in self.terminals for t in named):
                self.failed.append(update)
                continue
            if kind == "tool_call":  # an upsert: the whole call is replaced
                self.calls[update["toolCallId"]] = dict(update)
            else:
                self.calls.setdefault(update["toolCallId"], {}).update(update)
            if kind == "tool_call_update":
                output = meta.get("terminal_output")
                if output is not None:
                    self.terminals[output["terminal_id"]]["output"] += output["data"]
                exit_ = meta.get("terminal_exit")
                if exit_ is not None:
                    self.terminals[exit_["terminal_id"]]["exit"] = exit_
