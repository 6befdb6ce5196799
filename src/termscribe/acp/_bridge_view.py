"""The v2→v1 bridge's own incremental view of one terminal's output.

Each terminal the bridge shows gets a `TerminalView`: a transcript fed with
the store's bytes as they are committed, and what each mode keeps of it.
Text mode keeps a `CappedText`; meta mode keeps the committed lines not yet
released and a `LineReleaser`, plus what the client was told in
``_meta.terminal_info`` (see `_bridge_zed`).  With ``colour=True`` (meta
mode for clients that emulate a terminal) a line is its safe ANSI rendering
(`ansi_lines`: only SGR built from validated values, a reset after any
styled line) instead of its text.
"""

from __future__ import annotations

from termscribe import Line, Transcript, ansi_lines

from ._bridge_calls import CallKey, PendingTally
from ._bridge_meta import LineReleaser
from ._bridge_text import CappedText

__all__ = ["TerminalView"]


class TerminalView:
    """One terminal as the bridge shows it."""

    def __init__(
        self,
        new_transcript: Transcript,
        mode: str,
        max_chars: int,
        tally: PendingTally,
        *,
        colour: bool = False,
    ) -> None:
        self.transcript = new_transcript
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

    def absorb(self) -> None:
        for line in self.transcript.take_lines():
            if self.capped is not None:
                self.capped.add(line.text)
            else:
                self.committed.append(self._line(line))

    def window(self) -> list[str]:
        return [self._line(line) for line in self.transcript.lines()]

    def _line(self, line: Line) -> str:
        return ansi_lines([line]) if self.colour else line.text
