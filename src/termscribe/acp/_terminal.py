"""What a `TerminalStore` reports: terminals, tool calls, permissions and the
result of applying a message.  The store is the only writer of these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, NamedTuple, Protocol, TypeAlias

from termscribe import ChangePosition, Changes, Line, Transcript
from termscribe._rich_hooks import RichLines

from ._errors import AcpWarning
from ._models import CommandPermissionSubject, TerminalExitStatus
from ._validate import JsonObject, copy_json

__all__ = [
    "SMALL_SET",
    "ApplyResult",
    "IdSet",
    "OutputObserver",
    "PermissionRecord",
    "TerminalKey",
    "TerminalState",
    "TerminalTraits",
    "ToolCallInfo",
    "TranscriptFactory",
    "added",
    "has",
    "members",
]

#: Ids an `IdSet` holds as a tuple before it becomes a dict: most terminals
#: are shown by one tool call, and most tool calls show one terminal.
SMALL_SET: Final = 4
#: An ordered set of ids: one id alone, a tuple while small, a dict (keys)
#: past `SMALL_SET`.  A store keeps one for each of many terminals.
IdSet: TypeAlias = "str | tuple[str, ...] | dict[str, None]"


def members(ids: IdSet) -> tuple[str, ...]:
    """The ids of `ids`, in order."""
    return (ids,) if isinstance(ids, str) else tuple(ids)


def has(ids: IdSet, member: str) -> bool:
    return ids == member if isinstance(ids, str) else member in ids


def added(ids: IdSet, new: str) -> IdSet:
    """`ids` with `new` at the end (the caller checked it was not in)."""
    if isinstance(ids, dict):
        ids[new] = None
        return ids
    if isinstance(ids, str):
        return (ids, new)
    if not ids:
        return new
    if len(ids) < SMALL_SET:
        return (*ids, new)
    grown = dict.fromkeys(ids)
    grown[new] = None
    return grown


class TranscriptFactory:
    """How a store makes its terminals' transcripts, and makes one again for a
    terminal whose transcript it let go (see `TerminalStore`): from the raw
    bytes, finished when the store is."""

    __slots__ = ("finished", "make")

    def __init__(self, make: Callable[[], Transcript]) -> None:
        self.make = make
        self.finished = False

    def rebuild(self, raw: bytes | bytearray) -> Transcript:
        transcript = self.make()
        transcript.feed(bytes(raw))
        if self.finished:
            transcript.finish()
        return transcript


class TerminalKey(NamedTuple):
    session_id: str | None
    terminal_id: str


@dataclass(frozen=True)
class ToolCallInfo:
    """What the store knows about one tool call (display fields and terminals)."""

    session_id: str | None
    tool_call_id: str
    title: str | None
    kind: str | None
    status: str | None
    terminal_ids: tuple[str, ...]


@dataclass(frozen=True)
class PermissionRecord:
    """A session/request_permission request with a command subject."""

    session_id: str | None
    request_id: object
    title: str | None
    subject: CommandPermissionSubject


@dataclass(frozen=True)
class ApplyResult:
    """What one `TerminalStore.apply` did.

    changed: terminals whose state changed, in first-change order.
    warnings: problems that did not stop the message (see `AcpWarning`).
    ignored: valid messages or session updates that are not about terminals.
    """

    changed: tuple[TerminalKey, ...]
    warnings: tuple[AcpWarning, ...]
    ignored: int


class TerminalTraits(NamedTuple):
    """The fields of a terminal that most terminals share with many others: a
    store keeps one object for equal traits (see `TerminalStore`).

    ``dropped`` counts output bytes past the retention cap (``raw_truncated``
    when not 0); ``keep`` holds a finished terminal's transcript (lines were
    taken, or output came after the transcript was let go once).
    """

    session_id: str | None
    cwd: str | None = None
    exit_status: TerminalExitStatus | None = None
    snapshot_generation: int = 0
    dropped: int = 0
    keep: bool = False
    meta: JsonObject | None = None
    output_meta: JsonObject | None = None

    def share_key(self) -> tuple[object, ...] | None:
        """What equal traits have in common; None for traits few terminals have
        (``_meta`` objects, exit statuses with more than a code and a signal,
        output past the cap, a transcript kept)."""
        status = self.exit_status
        if self.meta is not None or self.output_meta is not None or self.dropped or self.keep:
            return None
        if status is None:
            return (self.session_id, self.cwd, None, self.snapshot_generation)
        if status.meta is not None or status.extra or status.wire_nulls:
            return None
        code = (status.exit_code, status.signal)
        return (self.session_id, self.cwd, code, self.snapshot_generation)

    def patched(
        self, cwd: str | None, exit_status: TerminalExitStatus | None, meta: JsonObject | None
    ) -> TerminalTraits:
        """These traits with the fields a ``terminal_update`` patches, as patched."""
        return self._replace(cwd=cwd, exit_status=exit_status, meta=meta)

    def next_snapshot(self) -> TerminalTraits:
        """The traits of the output a snapshot replaced (or cleared) this one's
        with: nothing dropped yet, no ``output._meta`` yet."""
        generation = self.snapshot_generation + 1
        return self._replace(snapshot_generation=generation, dropped=0, output_meta=None)

    def with_output_meta(self, output_meta: JsonObject) -> TerminalTraits:
        return self._replace(output_meta=output_meta)

    def dropping(self, count: int) -> TerminalTraits:
        """These traits with `count` more output bytes past the retention cap."""
        return self._replace(dropped=self.dropped + count)

    def kept(self) -> TerminalTraits:
        """These traits with the transcript kept (see the class docstring)."""
        return self if self.keep else self._replace(keep=True)


class TerminalState(RichLines):
    """One terminal as the store sees it.  Read-only: the store is its only writer.

    Rich shows its transcript (``console.print(terminal)``, ``termscribe[rich]``)."""

    # A store may hold a hundred thousand: slots, not an instance dict, and
    # what many terminals share in one `TerminalTraits`.
    __slots__ = (
        "_command",
        "_raw",
        "_terminal_id",
        "_tool_call_ids",
        "_traits",
        "_transcript",
        "_version",
    )

    def __init__(self, terminal_id: str, traits: TerminalTraits, transcript: Transcript) -> None:
        # A finished terminal whose raw bytes the store kept whole holds
        # the store's TranscriptFactory instead of a transcript (see
        # TerminalStore), unless its traits `keep` it.
        self._transcript: Transcript | TranscriptFactory = transcript
        self._terminal_id = terminal_id
        self._traits = traits
        self._command: str | None = None
        self._tool_call_ids: IdSet = ()
        self._raw: bytes | bytearray = bytearray()
        self._version = 0

    @property
    def key(self) -> TerminalKey:
        return TerminalKey(self._traits.session_id, self._terminal_id)

    @property
    def session_id(self) -> str | None:
        return self._traits.session_id

    @property
    def terminal_id(self) -> str:
        return self._terminal_id

    @property
    def command(self) -> str | None:
        """The command as reported (descriptive only; never to be executed)."""
        return self._command

    @property
    def cwd(self) -> str | None:
        return self._traits.cwd

    @property
    def exit_status(self) -> TerminalExitStatus | None:
        """The last reported exit status, None while running or after it was cleared."""
        return self._traits.exit_status

    @property
    def exited(self) -> bool:
        return self._traits.exit_status is not None

    @property
    def meta(self) -> JsonObject | None:
        """The terminal-scoped ``_meta`` as last patched (a copy)."""
        meta = self._traits.meta
        return None if meta is None else copy_json(meta, "_meta")

    @property
    def output_meta(self) -> JsonObject | None:
        """``output._meta`` of the current snapshot (a copy), None without one."""
        meta = self._traits.output_meta
        return None if meta is None else copy_json(meta, "_meta")

    @property
    def tool_call_ids(self) -> tuple[str, ...]:
        """Tool calls that showed this terminal, in first-seen order."""
        return members(self._tool_call_ids)

    @property
    def version(self) -> int:
        """Store revision of this terminal's last change; strictly increasing."""
        return self._version

    @property
    def snapshot_generation(self) -> int:
        """Number of times a ``terminal_update`` replaced (or cleared) the output."""
        return self._traits.snapshot_generation

    @property
    def bytes_received(self) -> int:
        """Output bytes since the current snapshot began, the snapshot included."""
        return len(self._raw) + self._traits.dropped

    @property
    def raw_bytes(self) -> bytes:
        """A copy of the retained raw output (the first bytes, up to the store's cap)."""
        return bytes(self._raw)

    @property
    def raw_truncated(self) -> bool:
        """True when output went past the retention cap (the transcript still has it)."""
        return self._traits.dropped > 0

    def _reading(self) -> Transcript:
        """The transcript, made again from the raw bytes (and not kept) when let go."""
        transcript = self._transcript
        if isinstance(transcript, TranscriptFactory):
            return transcript.rebuild(self._raw)
        return transcript

    def _writing(self) -> Transcript:
        """The transcript, made again and kept when let go: it is to change."""
        transcript = self._transcript
        if isinstance(transcript, TranscriptFactory):
            transcript = self._transcript = transcript.rebuild(self._raw)
            self._raw = bytearray(self._raw)
            self._traits = self._traits.kept()
        return transcript

    def text(self) -> str:
        """The sanitized plain-text transcript of the current output."""
        return self._reading().text()

    def lines(self) -> list[Line]:
        """The transcript's lines not yet taken by `take_lines`."""
        return self._reading().lines()

    def take_lines(self) -> list[Line]:
        """Remove and return the transcript lines that are final so far.

        For consumers that stream a transcript out (to disk, or as v1 text
        content) instead of keeping it: `text()`, `html()` and `lines()` then
        cover only the rest.  Lines taken before `snapshot_generation` moved
        belong to output that a snapshot has since replaced.
        """
        self._traits = self._traits.kept()  # what was taken is not in the raw bytes' transcript
        return self._writing().take_lines()

    def changes(self, since: ChangePosition | None = None, *, window: bool = True) -> Changes:
        """What changed in the transcript since ``since`` (see
        `Transcript.changes`); a snapshot replacement resets it."""
        return self._reading().changes(since, window=window)

    def html(self) -> str:
        """The transcript as an HTML fragment, ``<pre class="termscribe">`` (style it
        with `termscribe.HTML_STYLESHEET`)."""
        return self._reading().html()

    def ansi(self, *, hyperlinks: bool = False) -> str:
        """The transcript as safe ANSI, as `termscribe.Transcript.ansi`."""
        return self._reading().ansi(hyperlinks=hyperlinks)

    def __repr__(self) -> str:
        return (
            f"TerminalState(session_id={self.session_id!r}, terminal_id={self.terminal_id!r}, "
            f"command={self._command!r}, exit_status={self.exit_status!r}, "
            f"version={self._version})"
        )


class OutputObserver(Protocol):
    """Sees terminal output as a `TerminalStore` applies it.

    Called while a validated message is committed, so only accepted output is
    seen and a rejected message calls nothing.  Implementations must not raise.
    """

    def output_replaced(self, terminal: TerminalState) -> None:
        """The output was replaced by a snapshot (its bytes follow) or cleared."""

    def output_appended(self, terminal: TerminalState, data: bytes) -> None:
        """`data` was appended to the output (all of it, whatever the retention cap)."""
