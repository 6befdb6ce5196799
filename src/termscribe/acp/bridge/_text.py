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
Inside a fence Markdown renders nothing, so the output cannot inject links or
markup.  What the bridge states (command, cwd, omission, status) is outside
the fence, agent strings in code spans, so no output can pass for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from typing import Final

from .._export import display_text
from .._terminal import TerminalState

__all__ = [
    "DEFAULT_MAX_TEXT_CHARS",
    "CappedText",
    "code_span",
    "command_line",
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
        head, omitted, tail = self.parts(window)
        if not omitted:
            return head
        return f"{head}{omission_marker(omitted)}\n{tail}"

    def parts(self, window: list[str]) -> tuple[str, int, str]:
        """(head, characters omitted, tail): the whole text as the head and 0
        when it fits the cap; otherwise the head ends with a newline."""
        live = "\n".join(window)
        total = self._committed_chars + len(live)
        if total <= self.max_chars:
            return "".join(f"{line}\n" for line in (*self._head, *self._tail)) + live, 0, ""
        head = "".join(f"{line}\n" for line in self._head)
        if not self._head_open:
            head += self._head_cut
        tail = self._tail_text(live)
        omitted = total - len(head) - len(tail)
        if head and not head.endswith("\n"):
            head += "\n"
        return head, max(omitted, 1), tail

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


def console_block(
    terminal: TerminalState, text: str | tuple[str, int, str], *, finished: bool
) -> str:
    """The terminal as Markdown: what the bridge states outside any code
    block, the output inside one.

    A first line with the command and cwd (``Command `make` in `/work```, each
    in a code span), the output in a fenced ``console`` block (two blocks
    with an omission line between them when capped: `CappedText.parts`),
    and a last line with the status (``Status: exit code 1``).  The fence is
    longer than any backtick run inside, so output cannot close it: every
    line the output makes is inside a code block, and every line the bridge
    makes is outside one, so no output can pass for the bridge's command,
    cwd, omission or status line.  `finished` means no more input will
    come, so a terminal without exit status is reported as such, not as
    running.
    """
    head, omitted, tail = (text, 0, "") if isinstance(text, str) else text
    parts = [command_line(terminal.command, terminal.cwd), _output(head)]
    if omitted:
        parts += [f"termscribe: {omitted} characters omitted", _output(tail)]
    parts.append(f"Status: {_status(terminal, finished)}")
    return "\n\n".join(parts)


def command_line(command: str | None, cwd: str | None) -> str:
    """``Command `…` in `…```: the bridge's statement of a command and its cwd.

    A command of several lines follows in a fenced ``sh`` block of its own."""
    where = f" in {code_span(cwd)}" if cwd is not None else ""
    if command is None:
        return f"Command not reported{where}"
    if "\n" not in command:
        return f"Command {code_span(command)}{where}"
    lines = command.count("\n") + 1
    return f"Command ({lines} lines){where}:\n\n" + fenced(
        display_text(command, multiline=True), "sh"
    )


def _output(text: str) -> str:
    return fenced(text.removesuffix("\n"))


def _status(terminal: TerminalState, finished: bool) -> str:
    status = terminal.exit_status
    if status is None:
        return "no exit status reported" if terminal.exited or finished else "running"
    code, signal = status.exit_code, status.signal
    if code is not None and signal is not None:
        return f"exit code {code}, signal {code_span(signal)}"
    if code is not None:
        return f"exit code {code}"
    if signal is not None:
        return f"killed by {code_span(signal)}"
    return "exited"


def code_span(text: str) -> str:
    """`text` as one Markdown code span on one line: controls and line breaks
    shown as markers (`display_text`), delimited by a backtick run longer than
    any inside, so nothing in it is Markdown."""
    shown = display_text(text)
    longest = max((len(run) for run in _BACKTICKS.findall(shown)), default=0)
    ticks = "`" * (longest + 1)
    edge = shown[:1] == "`" or shown[-1:] == "`" or (shown[:1] == " " and shown[-1:] == " ")
    pad = " " if edge and shown.strip(" ") else ""
    return f"{ticks}{pad}{shown}{pad}{ticks}"


def fenced(body: str, info: str = "console") -> str:
    """`body` in a Markdown code fence one backtick longer than any run inside."""
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{body}\n{fence}"
