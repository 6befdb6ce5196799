"""Errors and warnings of the ACP layer.

Every malformed protocol message surfaces as one `InvalidMessageError`, raised at
a public boundary (`TerminalStore.apply` or a model's `from_wire`) from the
internal `FieldError` that located the problem.  Messages name the wire field
and the terminal but never echo payloads: a bad 80 MB snapshot must not turn into
an 80 MB error message.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AcpError",
    "AcpWarning",
    "FieldError",
    "InvalidMessageError",
    "StoreFinishedError",
    "short_repr",
]

# Identifiers quoted in messages are cut to this many characters.
_MAX_QUOTED_CHARS = 60


def short_repr(value: object) -> str:
    """A bounded repr for error messages (ids, signal names, types).

    Only scalars are quoted: the repr of a container is as long as the
    container and fails on deep nesting, and an integer too long for `repr`
    raises; those are named by their type instead.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 192:
        return f"an integer of {value.bit_length()} bits"
    if value is not None and not isinstance(value, (str, int, float, bool)):
        return f"a value of type {type(value).__name__}"
    text = repr(value)
    if len(text) > _MAX_QUOTED_CHARS:
        text = text[: _MAX_QUOTED_CHARS - 3] + "..."
    return text


class AcpError(Exception):
    """Base class of every error raised by `termscribe.acp`."""


class InvalidMessageError(AcpError, ValueError):
    """A protocol message was rejected; the store that received it is unchanged.

    Attributes:
        field: dotted wire path of the offending field, relative to the message
            given to the API (for example ``"params.update.cwd"``; a batch item is
            prefixed with its index, ``"[2].params.update.cwd"``).
        terminal_id: the terminal the message was about, when it could be read.
        reason: what is wrong, in a few words.
        index: position of the offending item in a batch, or None.
    """

    def __init__(
        self,
        field: str,
        terminal_id: str | None,
        reason: str,
        *,
        index: int | None = None,
    ) -> None:
        self.field = field
        self.terminal_id = terminal_id
        self.reason = reason
        self.index = index
        where = f"field {field!r}" if field else "message"
        about = f" (terminal {short_repr(terminal_id)})" if terminal_id is not None else ""
        super().__init__(f"invalid {where}{about}: {reason}")


class StoreFinishedError(AcpError):
    """A message was applied to a store after `TerminalStore.finish()`."""


@dataclass(frozen=True)
class AcpWarning:
    """Something suspicious that did not stop a message from being applied.

    Example: one JSON-RPC batch holding two `terminal_output_chunk` items for
    the same terminal (the RFD forbids it, since batch items may be processed in
    any order); the store still applies them in array order.
    """

    message: str
    terminal_id: str | None = None
    index: int | None = None

    def __str__(self) -> str:
        return self.message


class FieldError(Exception):
    """Internal: a wire field failed validation.

    Parsers raise it with the path of the field relative to the object they
    parse; callers prepend their own path segment with `within` as it travels up,
    and the public boundary turns it into `InvalidMessageError`.
    """

    def __init__(self, field: str, reason: str, terminal_id: str | None = None) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.terminal_id = terminal_id

    def within(self, prefix: str, terminal_id: str | None = None) -> FieldError:
        """The same error seen from the enclosing object at `prefix`."""
        if not prefix:
            field = self.field
        elif not self.field:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        return FieldError(field, self.reason, self.terminal_id or terminal_id)

    def to_public(self, index: int | None = None) -> InvalidMessageError:
        return InvalidMessageError(self.field, self.terminal_id, self.reason, index=index)
