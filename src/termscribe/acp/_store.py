"""`TerminalStore`: a reducer over ACP session updates, one transcript per terminal.

Rules (ACP v2 RFD "display-only terminal output"):

* Terminals are keyed by ``(sessionId, terminalId)``; the same terminalId in two
  sessions is two terminals, and terminalIds never mix with toolCallIds.
* A terminal is created the first time its id is seen in terminal content of a
  tool call, a ``terminal_update`` or a ``terminal_output_chunk``, in whatever
  order those arrive; fields not yet reported stay unknown (None).
* ``terminal_update`` fields are patches: omitted leaves, null clears, a value
  replaces.  A concrete ``output`` is an authoritative snapshot: it replaces all
  retained bytes and restarts the transcript from it (nothing of the previous
  output is merged in); ``output: null`` clears the output the same way.
* ``terminal_output_chunk`` data is decoded on its own and appended, in received
  order, to the current snapshot, through one incremental transcript per
  terminal (so a chunk may split a code point or an escape sequence).
* Exit status is independent of tool-call status.
* A command permission subject never touches terminal state: it is kept as a
  `PermissionRecord` that refers to a terminal and/or tool call by id.
* Tool-call and terminal associations accumulate in both directions: once a
  tool call showed a terminal they stay linked (order independent).
* Raw bytes retained are capped per terminal (`DEFAULT_MAX_RETAINED_BYTES`)
  and per store (`DEFAULT_MAX_TOTAL_RETAINED_BYTES`); past a cap the
  transcript continues and `raw_truncated` is set.

Memory.  A long session has many finished terminals; each costs its raw
bytes and little more.  A terminal that exited (or any, once the store is
finished) whose raw bytes were kept whole lets its transcript go: its
reads (`text()`, `html()`…) make one again from the raw bytes, the same
transcript (output does not depend on chunking), and output that still
comes makes it again for good.  The raw bytes are then held exactly, not
in a growing buffer.  Not let go: a terminal past a retention cap (its
transcript is all there is), one whose lines were taken (`take_lines`),
and every terminal of a store with an observer (a bridge reads positions
in the live transcripts).  Terminals are kept by session, then by id (no
key object each), and what many terminals have alike (session id, cwd,
plain exit status, snapshot generation) is one `TerminalTraits` object for
all of them; `_meta` objects, output past the cap and a kept transcript
make a terminal's traits its own.  Up to `MAX_SHARED_VALUES` traits and
strings (session ids, cwds, tool call kinds and statuses) are shared.

Change tracking, for consumers that poll (such as a v2-to-v1 bridge): the
store has a `revision` counter that grows with every change; each terminal's
`version` is the revision of its last change, so ``store.changed_since(r)`` lists
what changed after revision ``r``.  `snapshot_generation` counts output
replacements: when it moved, earlier transcript text may have been replaced and
must be re-read whole; otherwise the transcript only grew by appended output.

Consumers that need the output bytes themselves (a bridge keeping its own
incremental view) pass an `OutputObserver`: it sees every accepted snapshot
replacement and appended chunk, in application order.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Final

from termscribe import Transcript
from termscribe._transcript import HOLD_BYTES

from ._errors import AcpWarning, FieldError, InvalidMessageError, StoreFinishedError
from ._messages import ParsedMessage, parse_batch_items, parse_message, parse_session_update
from ._models import TerminalOutput
from ._ops import Anchor, Chunk, LegacyCommand, Op, Permission, ToolCallPatch, Update
from ._plain import plain_chunk
from ._shared import MAX_SHARED_VALUES, SharedValues
from ._stored import StoredTerminal
from ._terminal import (
    ApplyResult,
    IdSet,
    OutputObserver,
    PermissionRecord,
    TerminalKey,
    TerminalState,
    TerminalTraits,
    ToolCallInfo,
    TranscriptFactory,
    added,
    members,
)
from ._validate import OMITTED, patched

__all__ = [
    "DEFAULT_MAX_RETAINED_BYTES",
    "DEFAULT_MAX_TOTAL_RETAINED_BYTES",
    "LIVE_TERMINALS",
    "MAX_SHARED_VALUES",
    "TerminalStore",
]

# Raw bytes kept per terminal (for re-rendering and export).  64 MiB holds the
# longest real build logs while bounding memory; xterm.js bounds its parser
# payloads at 10 MB and its scrollback by lines for the same reason.
DEFAULT_MAX_RETAINED_BYTES: Final = 64 * 1024 * 1024
# Raw bytes kept by a whole store: many terminals of a long session share it.
DEFAULT_MAX_TOTAL_RETAINED_BYTES: Final = 512 * 1024 * 1024
# Terminals whose transcripts stay live at once: those given output most
# recently.  The others are compact (`Transcript.compact`): an idle terminal
# holds its lines and little more, not an interpreter.  Output interleaved
# over more terminals than this pays a compaction and a wake per switch.
LIVE_TERMINALS: Final = 8


class _ToolCall:
    __slots__ = ("kind", "status", "terminal_ids", "title")

    def __init__(self) -> None:
        self.title: str | None = None
        self.kind: str | None = None
        self.status: str | None = None
        self.terminal_ids: IdSet = ()


class TerminalStore:
    """Terminal state of ACP sessions, built from the messages an ACP client receives.

    ``apply`` takes one JSON-RPC message (dict), a batch (list) or a bare
    SessionUpdate dict, or any of them as a pydantic model (the official SDK's:
    read through ``model_dump``, unset fields omitted).  A malformed message
    raises `InvalidMessageError` and leaves the store exactly as it was; for
    any JSON value, that or success are the only outcomes.  No I/O.
    """

    def __init__(
        self,
        *,
        mode: str = "lines",
        columns: int | None = None,
        rows: int = 24,
        max_retained_bytes: int = DEFAULT_MAX_RETAINED_BYTES,
        max_total_retained_bytes: int = DEFAULT_MAX_TOTAL_RETAINED_BYTES,
        styled: bool = True,
        legacy: bool = True,
        observer: OutputObserver | None = None,
        strict: bool = False,
    ) -> None:
        """Transcript options (`mode`, `columns`, `rows`, `styled`) apply to every
        terminal; ``styled=False`` keeps text only (``html()`` is then plain).

        Raw output bytes are retained up to `max_retained_bytes` per terminal
        and `max_total_retained_bytes` for the whole store (whichever is
        reached first); past either, transcripts go on and `raw_truncated` is
        set.  A snapshot replacement frees what its terminal retained.

        `legacy` also ingests the v1 ``_meta.terminal_*`` convention; `observer`
        is told about output as it is applied.  By default a malformed optional
        field (a relative cwd, an exit code of -1, a ``_meta`` that is not an
        object) is read as omitted with a warning, as the schema's
        ``x-deserialize-default-on-error`` says; ids, chunk data and snapshots
        are always checked.  `strict` rejects the message instead.
        """
        if max_retained_bytes < 0:
            raise ValueError("max_retained_bytes must be >= 0")
        if max_total_retained_bytes < 0:
            raise ValueError("max_total_retained_bytes must be >= 0")
        self._mode = mode
        self._columns = columns
        self._rows = rows
        self._styled = styled
        # Fail on bad transcript options now, not on the first terminal.
        self._new_transcript()
        self._factory = TranscriptFactory(self._new_transcript)
        self._shared = SharedValues()
        self._max_retained = max_retained_bytes
        self._max_total_retained = max_total_retained_bytes
        self._retained = 0  # raw bytes retained by all terminals
        self._legacy = legacy
        self._strict = strict
        self._observer = observer
        # Terminals by session, then id; across sessions, in first-seen
        # order once there are two (one session's dict has that order).
        self._sessions: dict[str | None, dict[str, StoredTerminal]] = {}
        self._order: list[StoredTerminal] | None = None
        # Each terminal given plain chunks (see apply), with the result they
        # give, which depends on the terminal only.
        self._plain: dict[tuple[str | None, str], tuple[StoredTerminal, ApplyResult]] = {}
        self._tool_calls: dict[str | None, dict[str, _ToolCall]] = {}  # by session, then id
        self._legacy_terminals: set[TerminalKey] = set()  # announced by v1 terminal_info
        self._permissions: list[PermissionRecord] = []
        # Positions in _permissions of those naming a terminal, or a tool call.
        self._permissions_by_terminal: dict[tuple[str | None, str], list[int]] = {}
        self._permissions_by_tool_call: dict[tuple[str | None, str], list[int]] = {}
        self._revision = 0
        self._finished = False
        # Terminals with a live transcript, given output last at the end;
        # the last of them, which the next chunk most likely goes to.
        self._live: dict[StoredTerminal, None] = {}
        self._feeding: StoredTerminal | None = None

    # -- reading -----------------------------------------------------------

    @property
    def revision(self) -> int:
        """Grows with every change to any terminal."""
        return self._revision

    @property
    def finished(self) -> bool:
        return self._finished

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[TerminalState]:
        """Terminals in first-seen order."""
        return iter(tuple(self._all()))

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            hash(key)  # as a dict would: unhashable is an error
            return False
        return self.get(*key) is not None

    def terminals(self) -> tuple[TerminalState, ...]:
        """All terminals in first-seen order."""
        return tuple(self._all())

    def get(self, session_id: str | None, terminal_id: str) -> TerminalState | None:
        terminals = self._sessions.get(session_id)
        return None if terminals is None else terminals.get(terminal_id)

    def find(self, terminal_id: str) -> tuple[TerminalState, ...]:
        """Terminals with this id, in any session."""
        return tuple(t for t in self._all() if t.terminal_id == terminal_id)

    def changed_since(self, revision: int) -> tuple[TerminalState, ...]:
        """Terminals changed after `revision` (a value of `revision` read earlier)."""
        return tuple(t for t in self._all() if t.version > revision)

    def _all(self) -> Collection[StoredTerminal]:
        """Every terminal, in first-seen order."""
        if self._order is not None:
            return self._order
        for terminals in self._sessions.values():
            return terminals.values()
        return ()

    def tool_call(self, session_id: str | None, tool_call_id: str) -> ToolCallInfo | None:
        call = self._tool_calls.get(session_id, {}).get(tool_call_id)
        if call is None:
            return None
        return ToolCallInfo(
            session_id, tool_call_id, call.title, call.kind, call.status, members(call.terminal_ids)
        )

    def terminals_for_tool_call(
        self, session_id: str | None, tool_call_id: str
    ) -> tuple[TerminalState, ...]:
        call = self._tool_calls.get(session_id, {}).get(tool_call_id)
        if call is None:
            return ()
        ids = members(call.terminal_ids)
        return tuple(self._sessions[session_id][t] for t in ids) if ids else ()

    def permissions(self) -> tuple[PermissionRecord, ...]:
        """All command permission requests, in received order."""
        return tuple(self._permissions)

    def permissions_for(self, terminal: TerminalState) -> tuple[PermissionRecord, ...]:
        """Command permissions naming this terminal or one of its tool calls."""
        session_id = terminal.session_id
        found = set(self._permissions_by_terminal.get((session_id, terminal.terminal_id), ()))
        for tool_call_id in terminal.tool_call_ids:
            found.update(self._permissions_by_tool_call.get((session_id, tool_call_id), ()))
        return tuple(self._permissions[i] for i in sorted(found))

    # -- writing -----------------------------------------------------------

    def apply(self, message: object, *, session_id: str | None = None) -> ApplyResult:
        """Apply a JSON-RPC message, a batch or a bare SessionUpdate, all or nothing.

        `session_id` names the session of a bare SessionUpdate (messages carry
        their own).  Raises `InvalidMessageError` for a malformed message (or any
        malformed batch item), leaving the store unchanged, and
        `StoreFinishedError` after `finish`.
        """
        chunk = plain_chunk(message)
        if chunk is None:
            return self._commit(self.prepare(message, session_id=session_id))
        self._check_open()  # then what _commit does with the one Chunk prepare reads (see _plain)
        known = self._plain.get(chunk[:2])
        if known is None:
            terminal = self._terminal(chunk[0], chunk[1])[0]
            known = self._plain[terminal.key] = (terminal, ApplyResult((terminal.key,), (), 0))
        self._append(known[0], chunk[2])
        self._touch(known[0])
        return known[1]

    def prepare(self, message: object, *, session_id: str | None = None) -> ParsedMessage:
        """`apply`'s first half: validate `message` (what `apply` takes) and
        read it into the operations to apply, changing nothing.

        Raises what `apply` raises.  The value returned is opaque: pass it to
        `commit`.  For a caller that has work of its own to do between the
        halves and must leave everything as it was when a message is
        rejected: `V2ToV1Bridge` validates here, plans its v1 messages, then
        commits.
        """
        self._check_open()
        if isinstance(message, list):
            parsed, errors = parse_batch_items(
                message, session_id=session_id, legacy=self._legacy, strict=self._strict
            )
            if errors:
                index, exc = errors[0]
                raise exc.to_public(index if index >= 0 else None) from exc
            return parsed
        try:
            return parse_message(
                message, session_id=session_id, legacy=self._legacy, strict=self._strict
            )
        except FieldError as exc:
            raise exc.to_public() from exc

    def apply_session_update(self, session_id: str, update: object, **_meta: object) -> ApplyResult:
        """Apply one SessionUpdate of `session_id` (a dict or the SDK's model), all or
        nothing: ``Client.session_update`` of the official Python SDK, to call from it.

        The SDK passes the notification's ``_meta`` entries as keyword arguments;
        the store reads no notification ``_meta``, so they are ignored.
        """
        self._check_open()
        try:
            parsed = parse_session_update(
                update, session_id, legacy=self._legacy, strict=self._strict
            )
        except FieldError as exc:
            raise exc.to_public() from exc
        return self._commit(parsed)

    def apply_each(
        self, batch: list[object], *, session_id: str | None = None
    ) -> tuple[ApplyResult, tuple[InvalidMessageError, ...]]:
        """Apply the valid items of a JSON-RPC batch; return the errors of the others.

        JSON-RPC batch items are independent messages, so a log reader that
        must not lose anything applies what it can: each item is validated on
        its own, the valid ones are applied in array order and the invalid ones
        are returned (not raised) and change nothing.
        """
        self._check_open()
        parsed, errors = parse_batch_items(
            batch, session_id=session_id, legacy=self._legacy, strict=self._strict
        )
        public = tuple(exc.to_public(index if index >= 0 else None) for index, exc in errors)
        return self._commit(parsed), public

    def _check_open(self) -> None:
        if self._finished:
            raise StoreFinishedError("the store is finished; it accepts no more messages")

    def commit(self, prepared: ParsedMessage) -> ApplyResult:
        """`apply`'s second half: apply what `prepare` read, all of it (it was
        validated: this cannot fail on it).  `StoreFinishedError` after `finish`.

        Committing twice applies the message twice, as applying it twice would.
        """
        self._check_open()
        return self._commit(prepared)

    def _commit(self, parsed: ParsedMessage) -> ApplyResult:
        """`commit` of a store known to be open."""
        changed: dict[TerminalKey, None] = {}
        skipped: list[AcpWarning] = []
        for op in parsed.ops:
            if isinstance(op, LegacyCommand):
                changed.update(dict.fromkeys(self._legacy_command(op)))
                continue
            if isinstance(op, (Update, Chunk)) and op.legacy:
                terminal_id = (
                    op.update.terminal_id if isinstance(op, Update) else op.chunk.terminal_id
                )
                if self.get(op.session_id, terminal_id) is None:
                    what = "terminal_exit" if isinstance(op, Update) else "terminal_output"
                    reason = f"ignored _meta.{what}: no terminal_info announced this terminal"
                    skipped.append(AcpWarning(reason, terminal_id))
                    continue
            key = self._apply_op(op)
            if key is not None:
                changed[key] = None
        return ApplyResult(tuple(changed), parsed.warnings + tuple(skipped), parsed.ignored)

    def _legacy_command(self, op: LegacyCommand) -> list[TerminalKey]:
        call = self._tool_calls.get(op.session_id, {}).get(op.tool_call_id)
        ids = members(call.terminal_ids) if call else ()
        changed = []
        for terminal_id in ids:
            terminal = self._sessions[op.session_id][terminal_id]
            key = terminal.key
            if key in self._legacy_terminals and terminal.name_command(op.command):
                self._touch(terminal)
                changed.append(key)
        return changed

    def finish(self) -> None:
        """End of input: flush every transcript.  Idempotent; no `apply` after it."""
        if self._finished:
            return
        self._finished = True
        self._factory.finished = True
        for terminal in self._all():
            terminal.finish()
            self._let_go(terminal)

    def _apply_op(self, op: Op) -> TerminalKey | None:
        if isinstance(op, ToolCallPatch):
            self._patch_tool_call(op)
            return None
        if isinstance(op, Permission):
            self._add_permission(op)
            return None
        if isinstance(op, Anchor):
            terminal, created = self._terminal(op.session_id, op.content.terminal_id)
            if op.legacy:
                self._legacy_terminals.add(terminal.key)
            call = self._tool_call(op.session_id, op.tool_call_id)
            if not terminal.attach(op.tool_call_id):
                return terminal.key if created else None
            call.terminal_ids = added(call.terminal_ids, terminal.terminal_id)
        elif isinstance(op, Update):
            terminal, _ = self._terminal(op.session_id, op.update.terminal_id)
            self._patch_terminal(terminal, op)
        else:
            assert isinstance(op, Chunk)  # _commit handles LegacyCommand
            terminal, _ = self._terminal(op.session_id, op.chunk.terminal_id)
            self._append(terminal, op.chunk.data)
        self._touch(terminal)
        return terminal.key

    def _add_permission(self, op: Permission) -> None:
        position = len(self._permissions)
        self._permissions.append(
            PermissionRecord(op.session_id, op.request_id, op.title, op.subject)
        )
        subject = op.subject
        if subject.terminal_id is not None:
            key = (op.session_id, subject.terminal_id)
            self._permissions_by_terminal.setdefault(key, []).append(position)
        if subject.tool_call_id is not None:
            key = (op.session_id, subject.tool_call_id)
            self._permissions_by_tool_call.setdefault(key, []).append(position)

    def _terminal(self, session_id: str | None, terminal_id: str) -> tuple[StoredTerminal, bool]:
        terminals = self._sessions.get(session_id)
        if terminals is None:
            if self._sessions and self._order is None:  # a second session
                self._order = list(self._all())
            session_id = self._shared.string(session_id)
            terminals = self._sessions[session_id] = {}
        else:
            terminal = terminals.get(terminal_id)
            if terminal is not None:
                return terminal, False
        traits = self._shared.traits(TerminalTraits(session_id))
        terminal = terminals[terminal_id] = StoredTerminal(
            terminal_id, traits, self._new_transcript()
        )
        if self._order is not None:
            self._order.append(terminal)
        self._touch(terminal)
        return terminal, True

    def _touch(self, terminal: StoredTerminal) -> None:
        self._revision += 1
        terminal.record_change(self._revision)

    def _new_transcript(self) -> Transcript:
        return Transcript(
            mode=self._mode,
            columns=self._columns,
            rows=self._rows,
            styled=self._styled,
            hold_bytes=HOLD_BYTES,
        )

    def _patch_tool_call(self, op: ToolCallPatch) -> None:
        call = self._tool_call(op.session_id, op.tool_call_id)
        call.title = patched(call.title, op.title)
        call.kind = self._shared.string(patched(call.kind, op.kind))
        call.status = self._shared.string(patched(call.status, op.status))

    def _tool_call(self, session_id: str | None, tool_call_id: str) -> _ToolCall:
        calls = self._tool_calls.get(session_id)
        if calls is None:
            calls = self._tool_calls[self._shared.string(session_id)] = {}
        call = calls.get(tool_call_id)
        if call is None:
            call = calls[tool_call_id] = _ToolCall()
        return call

    def _patch_terminal(self, terminal: StoredTerminal, op: Update) -> None:
        update = op.update
        terminal.patch(update, self._shared)
        if update.output is not OMITTED:
            self._replace_output(terminal, update.output)
        if update.exit_status is not OMITTED and terminal.exited:
            self._compact(terminal)  # output after its exit is rare

    def _replace_output(self, terminal: StoredTerminal, output: TerminalOutput | None) -> None:
        self._retained -= terminal.restart(self._new_transcript(), self._shared)
        if self._observer is not None:
            self._observer.output_replaced(terminal)
        if output is not None:
            if output.meta is not None:
                terminal.set_output_meta(output.meta, self._shared)
            self._append(terminal, output.data)

    def _append(self, terminal: StoredTerminal, data: bytes) -> None:
        if terminal is not self._feeding:
            self._switch(terminal)
        store_room = self._max_total_retained - self._retained
        self._retained += terminal.append(data, self._max_retained, store_room, self._shared)
        if self._observer is not None:
            self._observer.output_appended(terminal, data)

    def _switch(self, terminal: StoredTerminal) -> None:
        """``terminal`` is given output: it is live, and the terminal given
        output least recently is compacted if more than LIVE_TERMINALS are."""
        live = self._live
        live.pop(terminal, None)
        live[terminal] = None
        self._feeding = terminal
        if len(live) > LIVE_TERMINALS:
            self._compact(next(iter(live)))

    def _compact(self, terminal: StoredTerminal) -> None:
        self._live.pop(terminal, None)
        self._plain.pop(terminal.key, None)  # made again by its next chunk
        if self._feeding is terminal:
            self._feeding = None
        terminal.compact()
        if terminal.exited:
            self._let_go(terminal)

    def _let_go(self, terminal: StoredTerminal) -> None:
        """A finished terminal's transcript goes when its raw bytes can make it
        again (see the module docstring)."""
        if self._observer is not None or not terminal.let_go(self._factory):
            return
        self._live.pop(terminal, None)
        self._plain.pop(terminal.key, None)
        if self._feeding is terminal:
            self._feeding = None
