"""When the v2→v1 bridge sends: the resend rule and a flush timer.  Pure, no clock.

Text mode resends a terminal's whole (capped) text on every update, because
v1 ``tool_call_update`` content replaces the whole content array.  Sending it
after every chunk would cost (number of chunks) × (text size): quadratic, the
agent-shell #342 failure (about 890 MB of JSON for 280 KB of output).
`ResendPolicy` makes a tool call's content due again only when

* something structural changed (its content was replaced, a terminal was
  added, a command, cwd or exit status changed, a snapshot replaced output):
  sent at once, or
* the output that arrived since the last send is at least `growth` times the
  size of what was last sent (and at least `min_bytes`), or
* output has been waiting for `max_delay_ms` (only when the caller passes the
  time), so a quiet command's last lines still show.

With ``growth = 1`` the sizes sent while the text grows double at most once
per send (total below twice the final size), and once the text is at its cap
C each resend of about C bytes needs C new bytes: the total stays about
``2 × cap + output`` for a fast stream, and ``C × elapsed / max_delay_ms`` is
the most a slow trickle can add.

`FlushTimer` tells a caller (the CLI) when to call ``flush``: at most every
`interval_ms`, sooner once `max_bytes` of output are waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "DEFAULT_FLUSH_BYTES",
    "DEFAULT_FLUSH_MS",
    "FlushTimer",
    "ResendPolicy",
]

#: Default `FlushTimer` interval: a tenth of a second reads as live.
DEFAULT_FLUSH_MS: Final = 100.0
#: Default `FlushTimer` byte trigger.
DEFAULT_FLUSH_BYTES: Final = 64 * 1024


@dataclass(frozen=True)
class ResendPolicy:
    """When a tool call's content is worth resending (see the module docstring)."""

    min_bytes: int = 1024
    growth: float = 1.0
    max_delay_ms: float = 500.0

    def __post_init__(self) -> None:
        if self.min_bytes < 1 or self.growth <= 0 or self.max_delay_ms < 0:
            raise ValueError("min_bytes must be >= 1, growth > 0 and max_delay_ms >= 0")

    def due(self, pending: int, last_size: int, waited_ms: float | None) -> bool:
        """`pending` bytes arrived since a send of `last_size` characters, `waited_ms` ago."""
        if pending <= 0:
            return False
        if pending >= max(self.min_bytes, self.growth * last_size):
            return True
        return waited_ms is not None and waited_ms >= self.max_delay_ms


class FlushTimer:
    """When to call `V2ToV1Bridge.flush`: pure, the caller passes the clock."""

    def __init__(
        self, interval_ms: float = DEFAULT_FLUSH_MS, max_bytes: int = DEFAULT_FLUSH_BYTES
    ) -> None:
        if interval_ms < 0 or max_bytes < 1:
            raise ValueError("interval_ms must be >= 0 and max_bytes >= 1")
        self.interval_ms = interval_ms
        self.max_bytes = max_bytes
        self._last: float | None = None

    def due(self, now_ms: float, pending: int) -> bool:
        """True when something is pending and the interval passed or enough bytes wait."""
        if pending <= 0:
            return False
        if self._last is None or pending >= self.max_bytes:
            return True
        return now_ms - self._last >= self.interval_ms

    def wait_ms(self, now_ms: float, pending: int) -> float | None:
        """How long until `due` (0 if now), or None when nothing is pending."""
        if pending <= 0:
            return None
        if self.due(now_ms, pending) or self._last is None:
            return 0.0
        return max(0.0, self._last + self.interval_ms - now_ms)

    def flushed(self, now_ms: float) -> None:
        self._last = now_ms
