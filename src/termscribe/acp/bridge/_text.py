"""Text mode of the v2→v1 bridge: a terminal as one capped, fenced text block.

v1 ``tool_call_update`` content replaces the whole content array, so every
update resends the terminal's text.  To keep what the bridge emits linear in
the output, that text is capped (`DEFAULT_MAX_TEXT_CHARS`): past the cap the
block keeps the first quarter (how the command started) and the live tail,
with a visible omission marker between them.  `CappedText` maintains both
ends incrementally from committed transcript lines, so memory and the work per
update are bounded by the cap and the transcript window, not the output size.

`console_block` wraps the text in a Markdown code fence that the text cannot
close: the fence is one backtick longer than the longest backtick run inside.
Inside a fence Markdown renders nothing, so neither the output nor the command
can inject links or markup.  The block's first line is always the command and
its last line always the bridge's status line, so output cannot forge either.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from typing import Final

from .._export import display_text, exit_summary
from .._terminal import TerminalState

__all__ = [
    "DEFAULT_MAX_TEXT_CHARS",
    "CappedText",
    "console_block",
    "fenced",
    "omission_marker",
]

#: Characters of transcript one text block shows at most (plus an omission
#: marker).  64 Ki characters is a few thousand lines: more than a chat view
#: shows at once, small enough that resending it is cheap.
DEFAULT_MAX_TEXT_CHARS: Final = 64 * 1024
#: Smallest cap accepted: room for a head, a tail and their marker.
MIN_TEXT_CHARS: Final = 256
#: A cut never separates a character from this many marks that follow it.
_MAX_CUT_SHIFT: Final = 64
_BACKTICKS: Final = re.compile(r"`+")
_JOINERS: Final = frozenset("\u200c\u200d")


def omission_marker(count: int) -> str:
    return f"[termscribe: {count} characters omitted]"


class CappedText:
    """The text of a transcript (``"\\n".join(lines)``) capped at `max_chars`.

    Feed committed lines with `add`; `render` adds the live window lines.  When
    the whole text fits it is returned exactly; otherwise the result is a
    prefix of at most a quarter of the cap (cut at a line end when possible),
    a marker line counting the characters left out, and a suffix of the rest
    of the cap.
    """

    def __init__(self, max_chars: int = DEFAULT_MAX_TEXT_CHARS) -> None:
        if max_chars < MIN_TEXT_CHARS:
            raise ValueError(f"max_chars must be at least {MIN_TEXT_CHARS}")
        self.max_chars = max_chars
        self.head_limit = max_chars // 4
        self.tail_limit = max_chars - self.head_limit
        self._head: list[str] = []
        self._head_chars = 0  # each line counted with its "\n"
        self._head_open = True
        self._head_cut = ""  # start of the line that did not fit in the head
        self._tail: deque[str] = deque()
        self._tail_chars = 0
        self._committed_chars = 0

    def add(self, line: str) -> None:
        """One more committed line (final, never changes again)."""
        size = len(line) + 1
        self._committed_chars += size
        if self._head_open:
            if self._head_chars + size <= self.head_limit:
                self._head.append(line)
                self._head_chars += size
                return
            self._head_open = False
            self._head_cut = safe_prefix(line, self.head_limit - self._head_chars)
        tail = self._tail
        tail.append(line)
        self._tail_chars += size
        # Keep the shortest run of last lines holding max_chars: enough for the
        # uncapped case (the whole text fits) and for any tail.
        while len(tail) > 1 and self._tail_chars - len(tail[0]) - 1 >= self.max_chars:
            self._tail_chars -= len(tail.popleft()) + 1

    def render(self, window: list[str]) -> str:
        """The capped text, given the current window lines (the live part)."""
        live = "\n".join(window)
        total = self._committed_chars + len(live)
        if total <= self.max_chars:
            return "".join(f"{line}\n" for line in (*self._head, *self._tail)) + live
        head = "".join(f"{line}\n" for line in self._head)
        if not self._head_open:
            head += self._head_cut
        tail = self._tail_text(live)
        marker = omission_marker(total - len(head) - len(tail))
        if head and not head.endswith("\n"):
            head += "\n"
        return f"{head}{marker}\n{tail}"

    def _tail_text(self, live: str) -> str:
        budget = self.tail_limit
        if len(live) >= budget:
            return safe_suffix(live, budget)
        parts = [live]
        budget -= len(live)
        for line in reversed(self._tail):
            size = len(line) + 1
            if size > budget:
                if len(parts) == 1 and not live:
                    parts.append(safe_suffix(f"{line}\n", budget))
                break
            parts.append(f"{line}\n")
            budget -= size
        return "".join(reversed(parts))


def _attached(char: str) -> bool:
    """True for characters that belong to the character before them."""
    return (
        unicodedata.combining(char) != 0
        or unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char in _JOINERS
        or "\ufe00" <= char <= "\ufe0f"
        or "\U000e0100" <= char <= "\U000e01ef"
        or "\U0001f3fb" <= char <= "\U0001f3ff"
    )


def safe_prefix(text: str, size: int) -> str:
    """At most `size` characters from the start, not ending inside a cluster."""
    if size >= len(text):
        return text
    cut = max(size, 0)
    floor = max(cut - _MAX_CUT_SHIFT, 0)
    while cut > floor and (_attached(text[cut]) or text[cut - 1] in _JOINERS):
        cut -= 1
    return text[:cut]


def safe_suffix(text: str, size: int) -> str:
    """At most `size` characters from the end, not starting inside a cluster."""
    if size >= len(text):
        return text
    start = len(text) - max(size, 0)
    ceiling = min(start + _MAX_CUT_SHIFT, len(text))
    while start < ceiling and (_attached(text[start]) or text[start - 1] in _JOINERS):
        start += 1
    return text[start:]


def console_block(terminal: TerminalState, text: str, *, finished: bool) -> str:
    """The terminal as a fenced ``console`` block: command, cwd, text, status.

    `text` is the (capped) transcript; `finished` means no more input will
    come, so a terminal without exit status is reported as such, not as
    running.
    """
    lines: list[str] = []
    if terminal.command is None:
        lines.append("$ (command not reported)")
    else:
        first, *rest = display_text(terminal.command, multiline=True).split("\n")
        lines.append(f"$ {first}")
        lines.extend(f"> {line}" for line in rest)
    if terminal.cwd is not None:
        lines.append(f"  cwd {display_text(terminal.cwd)}")
    header = "\n".join(lines) + "\n"
    if text and not text.endswith("\n"):
        text += "\n"
    status = exit_summary(terminal) if terminal.exited or finished else "running"
    return fenced(f"{header}{text}└ {status}")


def fenced(body: str, info: str = "console") -> str:
    """`body` in a Markdown code fence one backtick longer than any run inside."""
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{body}\n{fence}"
