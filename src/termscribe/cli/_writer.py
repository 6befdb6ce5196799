"""How the ``render`` command writes lines: ``Writer``, and ``LineWriter``
for text, ANSI and HTML fragments (pages: _sections.PageWriter)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .._budget import styled_within
from .._rows import Line

__all__ = ["LineWriter", "Writer"]


class Writer(Protocol):
    """Writes the lines of an output: ``lines`` for lines that are final,
    in order, then ``last`` once for the rest.  ``limit`` is how many
    characters the call may write to stay within the transcript's output
    limit (see _budget); ``frame`` what comes after ``last``'s lines."""

    def lines(self, lines: list[Line], limit: int) -> str: ...

    def last(self, lines: list[Line], limit: int, frame: int = 0) -> str: ...


class LineWriter:
    """Lines as a renderer writes them: each followed by a newline, but for
    the very last (``last``), which the caller ends as its format needs.
    Past ``limit``, lines are written unstyled, their text unchanged."""

    def __init__(self, render_lines: Callable[[list[Line]], str]) -> None:
        self._render = render_lines

    def lines(self, lines: list[Line], limit: int) -> str:
        return styled_within(lines, limit, self._render, 1) + "\n"

    def last(self, lines: list[Line], limit: int, frame: int = 0) -> str:
        return styled_within(lines, limit, self._render, frame)
