"""Session-log export: NDJSON JSON-RPC lines in, text and JSON reports out.

`SessionLog` applies a log line by line (one message or batch per line, as
ACP's stdio transport sends them) and records the lines it had to reject, so
one bad line costs only itself.  The CLI feeds it; nothing here does I/O.

Strings from the log that are not terminal output (command, cwd, ids, titles)
go through `display_text` before they reach a human: control characters become
visible ``<U+001B>`` markers rather than being interpreted, so a command shown
for review cannot hide part of itself, and the core's Unicode policy then
marks bidi and invisible characters the same way transcripts do.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from termscribe import render_text

from ._errors import InvalidMessageError
from ._store import TerminalState, TerminalStore

__all__ = [
    "LogIssue",
    "SessionLog",
    "display_text",
    "dumps_json",
    "exit_summary",
    "export_json",
    "export_text",
]

_CONTROLS: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROLS_AND_LF: Final = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_SURROGATES: Final = re.compile(r"[\ud800-\udfff]")
# Characters that json.dumps(ensure_ascii=False) would write raw but that a
# terminal or editor showing the JSON could act on or render deceptively.
_JSON_UNSAFE: Final = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
    "\ud800-\udfff\U000e0000-\U000e007f]"
)


@dataclass(frozen=True)
class LogIssue:
    """A rejected line (error) or a suspicious one (warning) of a session log."""

    line: int
    terminal_id: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "terminalId": self.terminal_id, "message": self.message}


class SessionLog:
    """A `TerminalStore` fed from the lines of an NDJSON session log."""

    def __init__(self, store: TerminalStore | None = None) -> None:
        self.store = store if store is not None else TerminalStore()
        self.errors: list[LogIssue] = []
        self.warnings: list[LogIssue] = []
        self.line_count = 0

    def feed_line(self, line: bytes | str, number: int | None = None) -> None:
        """Apply one log line (blank lines are skipped); `number` defaults to the next one."""
        self.line_count = number if number is not None else self.line_count + 1
        number = self.line_count
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.add_error(number, f"not valid UTF-8 (byte {exc.start})")
                return
        if not line.strip():
            return
        try:
            message = json.loads(line, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            self.add_error(number, f"not valid JSON: {exc.msg} (column {exc.colno})")
            return
        except ValueError as exc:
            self.add_error(number, f"not valid JSON: {exc}")
            return
        except RecursionError:
            self.add_error(number, "not valid JSON: nested too deeply")
            return
        self.feed_message(message, number)

    def feed_message(self, message: object, number: int) -> None:
        """Apply one decoded message or batch; a batch keeps its valid items."""
        if isinstance(message, list):
            result, errors = self.store.apply_each(message)
            for error in errors:
                self._add_invalid(number, error)
        else:
            try:
                result = self.store.apply(message)
            except InvalidMessageError as exc:
                self._add_invalid(number, exc)
                return
        for warning in result.warnings:
            self.warnings.append(LogIssue(number, warning.terminal_id, warning.message))

    def add_error(self, number: int, message: str, terminal_id: str | None = None) -> None:
        self.errors.append(LogIssue(number, terminal_id, message))

    def _add_invalid(self, number: int, exc: InvalidMessageError) -> None:
        self.add_error(number, str(exc), exc.terminal_id)

    def finish(self) -> None:
        """End of the log: flush every transcript (see `TerminalStore.finish`)."""
        self.store.finish()

    def select(self, terminal_id: str | None = None) -> tuple[TerminalState, ...]:
        """The terminals to export, in first-seen order (all, or those with this id)."""
        if terminal_id is None:
            return self.store.terminals()
        return self.store.find(terminal_id)

    def errors_for(self, terminal_id: str | None = None) -> list[LogIssue]:
        """Errors about the selected terminal, or about no terminal in particular."""
        if terminal_id is None:
            return list(self.errors)
        return [e for e in self.errors if e.terminal_id in (None, terminal_id)]


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


def display_text(value: str, *, multiline: bool = False) -> str:
    """A string from the log made safe to show (see the module docstring)."""
    controls = _CONTROLS if multiline else _CONTROLS_AND_LF
    value = controls.sub(lambda m: f"<U+{ord(m.group()):04X}>", value)
    value = _SURROGATES.sub("\ufffd", value)
    return render_text(value.encode("utf-8"), mode="strip")


def exit_summary(terminal: TerminalState) -> str:
    """One phrase for the exit status, e.g. ``exit code 1`` or ``killed by SIGTERM``."""
    status = terminal.exit_status
    if status is None:
        return "no exit status reported"
    code, signal = status.exit_code, status.signal
    if code is not None and signal is not None:
        return f"exit code {code}, signal {display_text(signal)}"
    if code is not None:
        return f"exit code {code}"
    if signal is not None:
        return f"killed by {display_text(signal)}"
    return "exited"


def export_json(log: SessionLog, terminal_id: str | None = None) -> dict[str, Any]:
    """The DESIGN.md "Public contract" JSON object (call `log.finish()` first)."""
    return {
        "terminals": [_terminal_json(t) for t in log.select(terminal_id)],
        "errors": [e.to_json() for e in log.errors_for(terminal_id)],
    }


def _terminal_json(terminal: TerminalState) -> dict[str, Any]:
    status = terminal.exit_status
    return {
        "terminalId": terminal.terminal_id,
        "sessionId": terminal.session_id,
        "command": terminal.command,
        "cwd": terminal.cwd,
        "exitStatus": None if status is None else status.to_wire(),
        "meta": terminal.meta,
        "toolCallIds": list(terminal.tool_call_ids),
        "text": terminal.text(),
    }


def dumps_json(obj: object) -> str:
    """JSON text that stays readable (UTF-8) yet safe to print to a terminal.

    Control, bidi and invisible characters (and lone surrogates, which cannot be
    written as UTF-8) are escaped as ``\\uXXXX``; they can only occur inside
    JSON strings, where an escape means the same character.
    """
    text = json.dumps(obj, ensure_ascii=False, indent=2)
    return _JSON_UNSAFE.sub(_json_escape, text) + "\n"


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def export_text(log: SessionLog, terminal_id: str | None = None) -> str:
    """A plain-text report: per terminal a ``$ command`` header, facts, transcript, exit.

    Transcript lines are prefixed with ``│ `` so output can never pass for a
    header of its own (call `log.finish()` first).
    """
    terminals = log.select(terminal_id)
    several_sessions = len({t.session_id for t in log.store.terminals()}) > 1
    blocks = [_terminal_text(log, t, several_sessions) for t in terminals]
    return "\n".join(blocks)


def _terminal_text(log: SessionLog, terminal: TerminalState, show_session: bool) -> str:
    out: list[str] = []
    if terminal.command is None:
        out.append("$ (command not reported)")
    else:
        first, *rest = display_text(terminal.command, multiline=True).split("\n")
        out.append(f"$ {first}")
        out.extend(f"> {line}" for line in rest)
    facts = [f"cwd {display_text(terminal.cwd) if terminal.cwd is not None else '(unknown)'}"]
    facts.append(f"terminal {display_text(terminal.terminal_id)}")
    if show_session and terminal.session_id is not None:
        facts.append(f"session {display_text(terminal.session_id)}")
    out.append("  " + " · ".join(facts))
    for tool_call_id in terminal.tool_call_ids:
        out.append("  tool call " + tool_call_label(log.store, terminal, tool_call_id))
    for permission in log.store.permissions_for(terminal):
        title = display_text(permission.title) if permission.title else "permission requested"
        subject = permission.subject
        out.append(
            f"  permission: {title}: {display_text(subject.command)} in {display_text(subject.cwd)}"
        )
    text = terminal.text()
    if text:
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        out.extend(f"│ {line}".rstrip() for line in lines)
    out.append(f"└ {exit_summary(terminal)}")
    return "\n".join(out) + "\n"


def tool_call_label(store: TerminalStore, terminal: TerminalState, tool_call_id: str) -> str:
    """``id "title" (status)`` for a tool call showing this terminal, made safe to show."""
    label = display_text(tool_call_id)
    info = store.tool_call(terminal.session_id, tool_call_id)
    if info is not None and info.title:
        label += f" “{display_text(info.title)}”"
    if info is not None and info.status:
        label += f" ({display_text(info.status)})"
    return label
