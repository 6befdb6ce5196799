"""Meta mode of the v2→v1 bridge: a terminal as append-only text.

The v1 ``_meta.terminal_output`` convention (Zed, codex-acp) only appends:
the client cannot be told to replace what it shows.  `LineReleaser` decides
which transcript text to append, line by line:

* committed lines (scrolled out of the transcript window) are final;
* window lines above the last one are released too, so line-oriented output
  shows as it comes; the last line (where the cursor usually is, with a
  progress bar or a prompt) waits until it is followed by another line, or
  until the terminal is final (exited or end of input), when every line goes;
* a line already released can still change on screen (a program moved the
  cursor up and redrew it, or cleared the screen).  Text sent cannot be taken
  back, so the releaser appends a separator line (`SEPARATOR`) and the
  current text from the first changed line on;
* a replacement snapshot likewise appends a separator (when something was
  shown) and then the new transcript;
* what happened is said outside the output, where no output can imitate it:
  each separator adds a note (`REPLACED_MARKER`, `redrawn_marker`) to
  `LineReleaser.notes`, which the bridge shows as a text item of the tool
  call's content, next to the terminal.  The separator itself claims
  nothing (output may print the same line);
* with ``reset`` (an SGR reset, when lines carry colour), each separator
  starts with it, so nothing of the old output colours what follows;
* resending costs output that no new input paid for: a program that moves up
  and rewrites one character of a 2,000-column line would make the bridge
  send 2,000 characters for 6 bytes.  So a release that resends lines waits
  (nothing at all is released) until the output received since the last
  resend is worth the resent text at `REDRAW_CHARS_PER_BYTE`; once the
  terminal is final it goes at once.  What is resent stays at most that many
  characters per byte of output, plus one resend.

Each released line is sent with its ``\\n``.  Without markers, the text
appended over a terminal's life is its transcript, with a final newline.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "REDRAW_CHARS_PER_BYTE",
    "REPLACED_MARKER",
    "SEPARATOR",
    "LineReleaser",
    "redrawn_marker",
]

#: The line between output shown before and the text that supersedes it.
SEPARATOR: Final = "─" * 24
REPLACED_MARKER: Final = (
    "termscribe: the output was replaced by a new snapshot; "
    "the terminal shows it after the last ──── line"
)
#: Characters of resent text one byte of new output pays for (see above).
REDRAW_CHARS_PER_BYTE: Final = 8


def redrawn_marker(count: int) -> str:
    lines = "line" if count == 1 else "lines"
    return (
        f"termscribe: {count} {lines} of output changed on screen after being shown; "
        "the terminal shows the current text after the last ──── line"
    )


class LineReleaser:
    """Turns a transcript's evolving lines into append-only text."""

    def __init__(self, *, reset: str = "") -> None:
        # Written before a marker line (an SGR reset when lines carry colour).
        self._reset = reset
        # Window lines released so far, top first: the client shows them in
        # this order, right after the committed lines released before them.
        self._shown: list[str] = []
        self._sent_any = False
        self._replaced = False
        self._credit = 0  # resent characters the output since the last resend pays for
        #: What the separators sent stand for, for the caller to show outside the output.
        self.notes: list[str] = []

    def replaced(self) -> None:
        """The transcript restarted from a snapshot."""
        self._shown = []
        if self._sent_any:
            self._replaced = True

    def earn(self, size: int) -> None:
        """`size` bytes of output arrived."""
        self._credit += size * REDRAW_CHARS_PER_BYTE

    def release(self, committed: list[str], window: list[str], *, final: bool) -> str | None:
        """Text to append now: `committed` lines taken since the last call, and
        the releasable part of the current `window` lines.

        None when a resend has to wait (see the module docstring): nothing was
        released, and the caller passes the same committed lines, and those
        taken since, next time.
        """
        out: list[str] = []
        notes: list[str] = []
        if self._replaced:
            out.append(self._reset + SEPARATOR)
            notes.append(REPLACED_MARKER)
        redraw_at = -1  # where the resent lines start in `out`
        redrawn = 0  # how many lines shown before are superseded
        shown = self._shown
        same = _common_prefix(committed, shown)
        if same < min(len(committed), len(shown)):
            redraw_at, redrawn = len(out), len(shown) - same
            out.append(self._reset + SEPARATOR)
            notes.append(redrawn_marker(redrawn))
            out.extend(committed[same:])
            shown = []
        elif len(committed) <= len(shown):
            shown = shown[len(committed) :]
        else:
            out.extend(committed[len(shown) :])
            shown = []
        releasable = window[:-1]
        if final and window and window[-1]:
            releasable = window
        same = _common_prefix(releasable, shown)
        if same < len(shown):
            redraw_at, redrawn = len(out), len(shown) - same
            out.append(self._reset + SEPARATOR)
            notes.append(redrawn_marker(redrawn))
        out.extend(releasable[same:])
        if redraw_at >= 0:
            cost = sum(len(line) + 1 for line in out[redraw_at : redraw_at + 1 + redrawn])
            if cost > self._credit and not final:
                return None
            self._credit = 0
        self._replaced = False
        self.notes.extend(notes)
        self._shown = list(releasable)
        if not out:
            return ""
        self._sent_any = True
        return "".join(f"{line}\n" for line in out)


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
