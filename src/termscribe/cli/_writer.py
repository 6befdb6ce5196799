"""How the ``render`` command writes lines: ``LineWriter``."""

from __future__ import annotations

from collections.abc import Callable

from .._budget import styled_within
from .._rows import Line

__all__ = ["Anchors", "LineWriter"]

#: What puts line anchors into rendered HTML (see _sections.AnchoredLines):
#: (html, number of lines, characters it may write) to html.
Anchors = Callable[[str, int, int], str]


class LineWriter:
    """Lines as a renderer writes them: each followed by a newline, but for
    the very last (``last``), which the caller ends as its format needs.

    ``limit`` is how many characters the call may write to stay within the
    transcript's output limit (see _budget): past it, lines are written
    unstyled, their text unchanged."""

    def __init__(
        self, render_lines: Callable[[list[Line]], str], anchors: Anchors | None = None
    ) -> None:
        self._render = render_lines
        self._anchors = anchors

    def lines(self, lines: list[Line], limit: int) -> str:
        return self.group(lines, limit, 1) + "\n"

    def last(self, lines: list[Line], limit: int, frame: int = 0) -> str:
        return self.group(lines, limit, frame)

    def group(self, lines: list[Line], limit: int, frame: int) -> str:
        """Lines joined with newlines, within ``limit`` with ``frame`` more
        characters around them."""
        html = styled_within(lines, limit, self._render, frame)
        if self._anchors is not None:
            html = self._anchors(html, len(lines), limit - frame)
        return html
