"""The store's operations: what one validated wire message asks the store to do.

Parsing (`_messages`, `_legacy`) turns a message into a tuple of these, checking
everything first; `TerminalStore` then applies them, which cannot fail.  That
split is what makes a rejected message leave the store unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ._models import CommandPermissionSubject, TerminalContent, TerminalOutputChunk, TerminalUpdate
from ._validate import OMITTED, Patch

__all__ = ["Anchor", "Chunk", "LegacyCommand", "Op", "Permission", "ToolCallPatch", "Update"]


@dataclass(frozen=True)
class Anchor:
    """Terminal content seen in a tool call: creates the terminal and links the two.

    `legacy`: from a v1 ``_meta.terminal_info`` (the only legacy key that
    creates a terminal; legacy output and exit apply to known terminals only).
    """

    session_id: str | None
    tool_call_id: str
    content: TerminalContent
    legacy: bool = False


@dataclass(frozen=True)
class LegacyCommand:
    """A v1 tool call's ``rawInput.command``, for its legacy terminals still without one
    (claude-agent-acp sends it after ``terminal_info``)."""

    session_id: str | None
    tool_call_id: str
    command: str


@dataclass(frozen=True)
class ToolCallPatch:
    """Display fields of a tool call (patch semantics, like the tool_call_update wire)."""

    session_id: str | None
    tool_call_id: str
    title: Patch[str] = OMITTED
    kind: Patch[str] = OMITTED
    status: Patch[str] = OMITTED


@dataclass(frozen=True)
class Update:
    session_id: str | None
    update: TerminalUpdate
    legacy: bool = False


@dataclass(frozen=True)
class Chunk:
    session_id: str | None
    chunk: TerminalOutputChunk
    legacy: bool = False


@dataclass(frozen=True)
class Permission:
    """A session/request_permission request whose subject is a command."""

    session_id: str | None
    request_id: object
    title: str | None
    subject: CommandPermissionSubject


Op: TypeAlias = Anchor | ToolCallPatch | Update | Chunk | Permission | LegacyCommand
