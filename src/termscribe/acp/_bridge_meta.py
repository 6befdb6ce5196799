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
  back, so the releaser appends a marker line and the current text from the
  first changed line on;
* a replacement snapshot likewise appends a marker line (when something was
  shown) and then the new transcript.

Each released line is sent with its ``\\n``.  Without markers, the text
appended over a terminal's life is its transcript, with a final newline.
"""

from __future__ import annotations

from typing import Final

__all__ = ["LineReleaser", "redrawn_marker"]

REPLACED_MARKER: Final = "[termscribe: output replaced by a new snapshot]"


def redrawn_marker(count: int) -> str:
    lines = "line" if count == 1 else "lines"
    return f"[termscribe: {count} {lines} above changed on screen; current text follows]"


class LineReleaser:
    """Turns a transcript's evolving lines into append-only text."""

    def __init__(self) -> None:
        # Window lines released so far, top first: the client shows them in
        # this order, right after the committed lines released before them.
        self._shown: list[str] = []
        self._sent_any = False
        self._replaced = False

    def replaced(self) -> None:
        """The transcript restarted from a snapshot."""
        self._shown = []
        if self._sent_any:
            self._replaced = True

    def release(self, committed: list[str], window: list[str], *, final: bool) -> str:
        """Text to append now: `committed` lines taken since the last call, and
        the releasable part of the current `window` lines."""
        out: list[str] = []
        if self._replaced:
            out.append(REPLACED_MARKER)
            self._replaced = False
        shown = self._shown
        same = _common_prefix(committed, shown)
        if same < min(len(committed), len(shown)):
            out.append(redrawn_marker(len(shown) - same))
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
            out.append(redrawn_marker(len(shown) - same))
        out.extend(releasable[same:])
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
