"""The plain-text renderer.

Lines reach it already sanitised (see ``_unicode``): only printable text,
markers and no controls. Lines are joined with ``\\n``; styles and links are
dropped (a link's text stays, its target does not appear).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._rows import Line

__all__ = ["render_lines_text"]


def render_lines_text(lines: Iterable[Line]) -> str:
    return "\n".join(line.text for line in lines)
