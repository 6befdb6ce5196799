"""CI log markers that a terminal would not show, surfaced in the bytes
before they are rendered (only when asked for: the stream is otherwise
rendered as a terminal shows it).

* **GitLab sections** (HTML pages with ``--sections``): GitLab's runner
  writes ``section_start:TS:NAME[OPTIONS]\\r\\e[0K`` at the start of a line,
  then the section's header, and ``section_end:TS:NAME\\r\\e[0K`` (on a line
  of its own, or before the next section's start). On a terminal the CR
  and the erase hide the marker; here ``\\r\\e[0K`` becomes a space after
  it, so that the marker is kept as the line's first text, where the page
  writer finds it (see _ci and _sections), and nothing of what the log
  says about its sections is hidden.
* **Buildkite timestamps** (``--timestamps``): Buildkite's agent writes
  ``ESC _bk;t=MILLISECONDS BEL`` (an APC string, which a transcript drops)
  at the start of each line. Each becomes ``[HH:MM:SS] `` (UTC) printed
  there, after an empty APC string, so that a sequence the marker cut
  short ends as it would have.

Only the markers' exact forms are rewritten; anything else, a malformed or
overlong marker included, goes on to the parser unchanged. What is
inserted is plain ASCII text that the transcript sanitises like any other.
The filter holds back at most a marker's length at the end of a chunk, and
only while a marker could still be completed there (no newline after it).
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Final, TypeVar

__all__ = ["MAX_MARKER_BYTES", "ci_markers", "first_line"]

#: Longest marker held back at the end of a chunk to be completed by the next.
MAX_MARKER_BYTES: Final = 512

_GITLAB: Final = (
    rb"(?P<gitlab>section_(?:start|end):[0-9]{1,20}:[A-Za-z0-9_.\-]{1,200}"
    rb"(?:\[[^\]\r\n\x1b]{0,200}\])?)\r\x1b\[0K"
)
_BUILDKITE: Final = rb"\x1b_bk;t=(?P<milliseconds>[0-9]{1,16})(?:\x07|\x1b\\)"
_MARKERS: Final = {
    (True, False): re.compile(_GITLAB),
    (False, True): re.compile(_BUILDKITE),
    (True, True): re.compile(_GITLAB + b"|" + _BUILDKITE),
}
# Where a marker that the chunk's end cuts short may start, and how it starts.
_STARTS: Final = {
    (True, False): (re.compile(rb"section_"), (b"section_",)),
    (False, True): (re.compile(rb"\x1b"), (b"\x1b_bk;t=",)),
    (True, True): (re.compile(rb"section_|\x1b"), (b"section_", b"\x1b_bk;t=")),
}

_Other = TypeVar("_Other")


def ci_markers(
    chunks: Iterator[bytes | _Other], *, gitlab: bool, timestamps: bool
) -> Iterator[bytes | _Other]:
    """``chunks`` with the markers asked for rewritten (items that are not
    bytes, such as a recording's resizes, pass through in order)."""
    if not (gitlab or timestamps):
        yield from chunks
        return
    marker = _MARKERS[gitlab, timestamps]
    starts, prefixes = _STARTS[gitlab, timestamps]
    held = b""
    for chunk in chunks:
        if not isinstance(chunk, bytes):
            if held:
                yield marker.sub(_rewrite, held)
                held = b""
            yield chunk
            continue
        data = marker.sub(_rewrite, held + chunk)
        cut = _unfinished(data, starts, prefixes)
        held = data[cut:]
        if cut:
            yield data[:cut]
    if held:
        yield held


def first_line(
    chunks: Iterator[bytes | _Other],
) -> tuple[bytes, Iterator[bytes | _Other]]:
    """The first bytes of ``chunks`` up to their first newline (at most
    MAX_MARKER_BYTES of them), and all of ``chunks``, those read included."""
    taken: list[bytes | _Other] = []
    head = b""
    for chunk in chunks:
        taken.append(chunk)
        if isinstance(chunk, bytes):
            head += chunk[: MAX_MARKER_BYTES - len(head)]
            if b"\n" in head or len(head) >= MAX_MARKER_BYTES:
                break
    return head, itertools.chain(taken, chunks)


def _rewrite(match: re.Match[bytes]) -> bytes:
    groups = match.groupdict()
    gitlab, milliseconds = groups.get("gitlab"), groups.get("milliseconds")
    if gitlab is not None:
        return gitlab + b" "
    try:
        clock = time.strftime("%H:%M:%S", time.gmtime(int(milliseconds or 0) // 1000))
    except (OverflowError, OSError, ValueError):
        return match.group()  # no time: the APC string, dropped as before
    return b"\x1b_\x1b\\[" + clock.encode("ascii") + b"] "


def _unfinished(data: bytes, starts: re.Pattern[bytes], prefixes: tuple[bytes, ...]) -> int:
    """Where a marker that may go on in the next chunk starts in ``data``
    (its length when none does)."""
    tail = max(0, len(data) - MAX_MARKER_BYTES)
    for match in starts.finditer(data, tail):
        rest = data[match.start() :]
        if b"\n" in rest or b"\x07" in rest:
            continue  # ended: not a marker, or one already rewritten
        if any(prefix.startswith(rest) or rest.startswith(prefix) for prefix in prefixes):
            return match.start()
    for prefix in prefixes:  # a marker's first bytes cut in the middle
        for size in range(min(len(data), len(prefix) - 1), 0, -1):
            if data.endswith(prefix[:size]):
                return len(data) - size
    return len(data)
