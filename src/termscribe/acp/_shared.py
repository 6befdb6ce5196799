"""`SharedValues`: one object for the equal values many terminals of a
`TerminalStore` hold (see its Memory notes), so that a hundred thousand
terminals of one session cost one session id, one cwd, one exit status."""

from __future__ import annotations

from typing import Final, TypeVar

from ._models import TerminalExitStatus
from ._terminal import TerminalTraits

__all__ = ["MAX_SHARED_VALUES", "SharedValues"]

#: Traits, strings and exit statuses a store shares between its terminals.
MAX_SHARED_VALUES: Final = 4096

_S = TypeVar("_S", str, "str | None")


class SharedValues:
    """A store's tables of shared values, each up to `MAX_SHARED_VALUES`:
    past that, a new value is kept as given."""

    __slots__ = ("_statuses", "_strings", "_traits")

    def __init__(self) -> None:
        self._strings: dict[str, str] = {}
        self._statuses: dict[tuple[int | None, str | None], TerminalExitStatus] = {}
        self._traits: dict[tuple[object, ...], TerminalTraits] = {}

    def string(self, value: _S) -> _S:
        """One object for equal strings that many terminals or tool calls have
        (session ids, cwds, tool call kinds and statuses).  Not commands nor
        titles: most are unique."""
        if not isinstance(value, str):
            return value
        shared = self._strings.get(value)
        if shared is not None:
            return shared
        if len(self._strings) < MAX_SHARED_VALUES:
            self._strings[value] = value
        return value

    def status(self, status: TerminalExitStatus | None) -> TerminalExitStatus | None:
        """One object for equal plain exit statuses (a code and a signal only)."""
        if status is None or status.meta is not None or status.extra or status.wire_nulls:
            return status
        key = (status.exit_code, status.signal)
        shared = self._statuses.get(key)
        if shared is not None:
            return shared
        if len(self._statuses) < MAX_SHARED_VALUES:
            self._statuses[key] = status
        return status

    def traits(self, traits: TerminalTraits) -> TerminalTraits:
        """One object for equal traits (see `TerminalTraits.share_key`)."""
        key = traits.share_key()
        if key is None:
            return traits
        shared = self._traits.get(key)
        if shared is not None:
            return shared
        if len(self._traits) < MAX_SHARED_VALUES:
            self._traits[key] = traits
        return traits
