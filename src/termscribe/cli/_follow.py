"""``render --follow``: lines written when the input pauses, not only once
they are final.

A line is final when it scrolls out of the window (``--rows``): until then
a cursor-up may still change it.  So a short build piped into ``render``
would show nothing until it ends.  With ``--follow`` the input is read by a
thread (``Prefetch``), and whenever nothing has come for ``PAUSE`` seconds
the lines of the window above its last one (where the cursor usually is)
are written at once (``Ahead``); when they become final later they are not
written again.

What this gives up: a line written early is written as it was then.  A
program that moves the cursor up to redraw lines it printed before (a
multi-line progress display such as ``docker compose pull``'s, or a test
runner rewriting its status lines) and pauses in between has the lines of
its first frame written as they were at the pause, and later frames'
changes to them lost; a line the cursor is on when the input pauses, if it
is not the window's last (the cursor moved up and stopped there), is
written too, however it is finished later.  Output thus depends on the
input's timing, which is why following is the default only when standard
output is a terminal (and the input is not a regular file): output to a
file stays the same for every chunking and timing.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Final, Generic, TypeVar

from .._rows import Line
from .._transcript import Transcript

__all__ = ["FOLLOW_QUEUE", "PAUSE", "PAUSED", "Ahead", "Paused", "Prefetch"]

#: Chunks read ahead of the transcript (each at most the reader's chunk size).
FOLLOW_QUEUE: Final = 4
#: Seconds without input after which the input has paused.
PAUSE: Final = 0.05

_Item = TypeVar("_Item")


class Paused:
    """The type of PAUSED."""

    def __repr__(self) -> str:
        return "PAUSED"


#: What ``Prefetch.get`` returns when nothing came within its wait.
PAUSED: Final = Paused()
_END: Final = object()


class Prefetch(Generic[_Item]):
    """The items of ``chunks``, read by a thread of their own as they come
    (at most FOLLOW_QUEUE ahead); an error reading them is raised by ``get``.
    The thread is a daemon: a command that stops early (Ctrl-C, ``| head``)
    does not wait for its input."""

    def __init__(self, chunks: Iterator[_Item]) -> None:
        self._queue: queue.Queue[object] = queue.Queue(FOLLOW_QUEUE)
        self._done = False
        thread = threading.Thread(target=self._read, args=(chunks,), daemon=True)
        thread.start()

    def _read(self, chunks: Iterator[_Item]) -> None:
        try:
            for chunk in chunks:
                self._queue.put(chunk)
        except Exception as exc:  # handed to the reader, which reports it
            self._queue.put(exc)
        self._queue.put(_END)

    def get(self, wait: float | None) -> _Item | Paused | None:
        """The next item; None at the end; PAUSED if none came within
        ``wait`` seconds (None: wait for it)."""
        if self._done:
            return None
        try:
            item = self._queue.get(timeout=wait) if wait is not None else self._queue.get()
        except queue.Empty:
            return PAUSED
        if item is _END:
            self._done = True
            return None
        if isinstance(item, Exception):
            self._done = True
            raise item
        return item  # type: ignore[return-value]


class Ahead:
    """How many lines of a transcript were written before they became final."""

    def __init__(self) -> None:
        self.count = 0

    def settle(self, transcript: Transcript) -> list[Line]:
        """The lines of the window above its last not written yet (to
        write now, as the input paused)."""
        window = transcript.changes(None).window[:-1]
        new = window[self.count :]
        self.count += len(new)
        return new

    def skip(self, lines: list[Line]) -> list[Line]:
        """``lines``, final now, less those written ahead of time."""
        if not self.count:
            return lines
        taken = min(self.count, len(lines))
        self.count -= taken
        return lines[taken:]
