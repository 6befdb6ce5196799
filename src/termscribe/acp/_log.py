"""`SessionLog`: a session log (NDJSON JSON-RPC) applied line by line to a store.

One message or batch per line, as ACP's stdio transport sends them.  A line
that cannot be applied is recorded as a `LogIssue` with its number and costs
only itself; in a batch only the bad items are dropped (JSON-RPC batch items
are independent messages).  The CLI reads the lines; nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._json import JSONError, parse_json
from ._errors import InvalidMessageError
from ._store import TerminalStore
from ._terminal import TerminalKey, TerminalState

__all__ = ["LogIssue", "SessionLog"]


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
        # Terminals changed by the last line, for consumers that follow along.
        self.last_changed: tuple[TerminalKey, ...] = ()

    def feed_line(self, line: bytes | str, number: int | None = None) -> None:
        """Apply one log line (blank lines are skipped); `number` defaults to the next one."""
        self.line_count = number if number is not None else self.line_count + 1
        self.last_changed = ()
        number = self.line_count
        if not line.strip():
            return
        try:
            message = parse_json(line)
        except JSONError as exc:
            self.add_error(number, str(exc))
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
        self.last_changed = result.changed
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
