"""`StoredTerminal`: a terminal as its `TerminalStore` writes it.

The store decides when a terminal changes and keeps what is the store's:
sessions and first-seen order, revisions, the store-wide retention cap,
which transcripts stay live, the observer, the shared values.  How a
terminal's own fields change is written here, once: a store calls these
methods and never sets a terminal's fields itself.  Readers see the
`TerminalState` it is (no method here is part of the public API).

None of these methods can fail on values the store validated: `apply`
validates a whole message before it calls any of them (invariant 5).
"""

from __future__ import annotations

from termscribe import Transcript

from ._models import TerminalUpdate
from ._shared import SharedValues
from ._terminal import TerminalState, TranscriptFactory, added, has
from ._validate import OMITTED, JsonObject, patched

__all__ = ["StoredTerminal"]


class StoredTerminal(TerminalState):
    """A `TerminalState` with the methods its store writes it through."""

    __slots__ = ()

    def record_change(self, revision: int) -> None:
        """The terminal changed at store revision `revision` (its `version`)."""
        self._version = revision

    def attach(self, tool_call_id: str) -> bool:
        """Link a tool call that shows this terminal; False when it already was."""
        if has(self._tool_call_ids, tool_call_id):
            return False
        self._tool_call_ids = added(self._tool_call_ids, tool_call_id)
        return True

    def name_command(self, command: str) -> bool:
        """A v1 terminal's command (its tool call's ``rawInput``), taken only
        when none is known; False when one was."""
        if self._command is not None:
            return False
        self._command = command
        return True

    def patch(self, update: TerminalUpdate, shared: SharedValues) -> None:
        """A ``terminal_update``'s patches of the command, cwd, exit status and
        ``_meta`` (not of the output: see `restart`)."""
        self._command = patched(self._command, update.command)
        if all(patch is OMITTED for patch in (update.cwd, update.exit_status, update.meta)):
            return
        traits = self._traits
        self._traits = shared.traits(
            traits.patched(
                cwd=shared.string(patched(traits.cwd, update.cwd)),
                exit_status=shared.status(patched(traits.exit_status, update.exit_status)),
                meta=patched(traits.meta, update.meta),
            )
        )

    def restart(self, transcript: Transcript, shared: SharedValues) -> int:
        """A snapshot replaced (or cleared) the output: start again from
        nothing in `transcript`; the number of raw bytes let go."""
        self._traits = shared.traits(self._traits.next_snapshot())
        self._transcript = transcript
        freed = len(self._raw)
        self._raw = bytearray()
        return freed

    def set_output_meta(self, meta: JsonObject, shared: SharedValues) -> None:
        """The ``output._meta`` of the snapshot the output restarted from."""
        self._traits = shared.traits(self._traits.with_output_meta(meta))

    def append(self, data: bytes, max_retained: int, store_room: int, shared: SharedValues) -> int:
        """Output: all of `data` goes to the transcript (made again for good if
        it was let go); of the raw bytes, what fits in `max_retained` for this
        terminal and in `store_room` left in the store is kept, the rest
        counted as dropped.  The number of bytes kept."""
        transcript = self._transcript
        if isinstance(transcript, TranscriptFactory):
            transcript = self._writing()
        transcript.feed(data)
        room = min(max_retained - len(self._raw), store_room)
        kept = data
        if len(data) > room:
            kept = data[: max(room, 0)]
            self._traits = shared.traits(self._traits.dropping(len(data) - len(kept)))
        self._raw += kept
        return len(kept)

    def finish(self) -> None:
        """End of input: flush the transcript (one let go is made finished)."""
        transcript = self._transcript
        if not isinstance(transcript, TranscriptFactory):
            transcript.finish()

    def compact(self) -> None:
        """The transcript goes idle (`Transcript.compact`)."""
        transcript = self._transcript
        if not isinstance(transcript, TranscriptFactory):
            transcript.compact()

    def let_go(self, factory: TranscriptFactory) -> bool:
        """Let the transcript go, for `factory` to make again from the raw
        bytes (held at their exact size from now), when they can make the
        same one: not past a retention cap, no lines taken.  False when
        they cannot, or it was let go already."""
        traits = self._traits
        if traits.keep or traits.dropped or isinstance(self._transcript, TranscriptFactory):
            return False
        self._transcript = factory
        self._raw = bytes(self._raw)
        return True
