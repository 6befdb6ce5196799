"""A progress line on stderr for long exports, shown only when stderr is a
terminal (and only after the first second), for the command-line modules."""

from __future__ import annotations

import time
from typing import IO, Final, TextIO

__all__ = ["Progress"]

_AFTER: Final = 1.0  # seconds before a progress line appears
_EVERY: Final = 0.25  # seconds between updates


class Progress:
    def __init__(self, err: TextIO, label: str) -> None:
        self._err = err
        self._label = label
        try:
            self._enabled = err.isatty()
        except (AttributeError, ValueError):
            self._enabled = False
        self._next = time.monotonic() + _AFTER
        self._shown = False

    def update(self, source: IO[bytes], lines: int | None = None) -> None:
        """Show how far into ``source`` the export is (at most every 0.25 s)."""
        if not self._enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + _EVERY
        try:
            mib = source.tell() / (1024 * 1024)
        except (OSError, ValueError):
            mib = 0.0
        parts = [f"{lines} lines"] if lines is not None else []
        if mib:
            parts.append(f"{mib:.0f} MiB")
        self._err.write(f"\r{self._label}: {', '.join(parts) or '...'}")
        self._err.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the progress line, if one was shown."""
        if self._shown:
            self._err.write("\r\x1b[K")
            self._err.flush()
            self._shown = False
