"""The v2→v1 bridge's incremental view of one terminal's output.

Each terminal the bridge shows gets a `TerminalView`: what each mode keeps
of the terminal's transcript, the store's own (the bytes are interpreted
once).  `read` takes in the lines committed since it last read
(`TerminalState.changes`), so the view costs what changed, and returns the
live window.  Text mode keeps a `CappedText`; meta mode keeps the committed
lines not yet released and a `LineReleaser`, plus what the client was told
in ``_meta.terminal_info`` (see `_core`).  With ``colour=True`` (meta mode
for clients that emulate a terminal; the store's transcripts are then
styled) a line is its safe ANSI rendering (`ansi_lines`: only SGR built from
validated values, a reset after any styled line) instead of its text.

The bridge reads after every append, so a line is lost only when one chunk
commits more than the store's ``max_lines`` (the transcript's default):
then the transcript's marker line that counts the dropped lines is taken in
with the lines after it, as ``text()`` shows them.
"""

from __future__ import annotations

from typing import Final

from termscribe import ChangePosition, Line, ansi_lines

from .._terminal import TerminalState
from ._calls import CallKey, PendingTally
from ._meta import LineReleaser
from ._text import CappedText

__all__ = ["MAX_NOTES", "TerminalView"]

#: Notes about a terminal's output a meta-mode tool call shows (the latest).
MAX_NOTES: Final = 4


class TerminalView:
    """One terminal as the bridge shows it."""

    def __init__(
        self,
        mode: str,
        max_chars: int,
        tally: PendingTally,
        *,
        colour: bool = False,
    ) -> None:
        self._position: ChangePosition | None = None  # where `read` got to
        self.capped = CappedText(max_chars) if mode == "text" else None
        self.colour = colour
        self.releaser = LineReleaser(reset="\x1b[0m" if colour else "")
        self.committed: list[str] = []  # meta: committed lines not yet released
        self._pending = 0  # meta: output bytes not yet released
        self.signature: tuple[object, ...] | None = None
        self.exit_sent: object = None
        self._primary: CallKey | None = None  # meta: tool call carrying its _meta
        self.announced = False  # meta: terminal_info sent on a tool_call
        self.info_cwd: str | None = None  # meta: the cwd that terminal_info carried
        self.released_any = False  # meta: some output was sent
        self.has_output = False  # some output arrived
        self.finished = False
        self._tally = tally
        # meta: what the separators in the output stand for (the latest
        # MAX_NOTES), shown next to the terminal in the tool call's content
        self.notes: list[str] = []

    # What a flush can send counts in the bridge's pending total: output of a
    # terminal whose primary tool call the client knows.
    @property
    def pending(self) -> int:
        return self._pending

    @pending.setter
    def pending(self, value: int) -> None:
        if self._primary is not None:
            self._tally.total += value - self._pending
        self._pending = value

    @property
    def primary(self) -> CallKey | None:
        return self._primary

    @primary.setter
    def primary(self, value: CallKey | None) -> None:
        counted = (self._primary is not None) - (value is not None)
        self._tally.total -= counted * self._pending
        self._primary = value

    def take_notes(self) -> bool:
        """Move the releaser's new notes to `notes`; whether there were any."""
        new = self.releaser.notes
        if not new:
            return False
        self.notes = [*self.notes, *new][-MAX_NOTES:]
        self.releaser.notes = []
        return True

    def replaced(self) -> None:
        """The terminal's output was replaced: what was kept of it goes."""
        self._position = None
        if self.capped is not None:
            self.capped = CappedText(self.capped.max_chars)
        self.committed = []
        self.releaser.replaced()

    def read(self, terminal: TerminalState, *, window: bool = True) -> list[str]:
        """Take in the lines `terminal` committed since the last read; the
        lines of its live window (none with ``window=False``)."""
        since = self._position
        changes = terminal.changes(since, window=window)
        committed = changes.committed
        if changes.reset and since is not None:
            # Lines left the head (max_lines) since the last read: the new
            # ones are the last, after the marker that counts what was dropped.
            fresh = changes.position.line - since.line
            committed = committed[max(0, len(committed) - fresh) :]
        self._position = changes.position
        for line in committed:
            if self.capped is not None:
                self.capped.add(line.text)
            else:
                self.committed.append(self._line(line))
        return [self._line(line) for line in changes.window]

    def _line(self, line: Line) -> str:
        return ansi_lines([line]) if self.colour else line.text
