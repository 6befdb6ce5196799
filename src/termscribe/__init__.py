"""termscribe: safe transcripts of untrusted terminal byte streams.

>>> from termscribe import render_text
>>> render_text(b"\\x1b[32m 50%\\x1b[0m\\r100%\\n")
'100%\\n'
"""

from typing import TYPE_CHECKING

from ._changes import ChangePosition, Changes
from ._decoder import Utf8Decoder
from ._parser import Parser
from ._performer import Performer
from ._render._text import render_lines_text
from ._rows import Line
from ._style import Link, Style
from ._transcript import (
    DEFAULT_MAX_LINES,
    MODES,
    Transcript,
    render_ansi,
    render_html,
    render_text,
)

if TYPE_CHECKING:
    from ._render._ansi import ansi_lines
    from ._render._ansi import ansi_lines as render_lines_ansi
    from ._render._html import html_end, html_lines, html_start
    from ._render._html import html_lines as render_lines_html
    from ._render._theme import STYLESHEET as HTML_STYLESHEET
    from ._render._urls import safe_url

# The renderers of HTML and ANSI (and what only they need) are imported when
# first used, so that a text transcript, and ``termscribe render``, start
# without them.
_LAZY = {
    "HTML_STYLESHEET": ("_render._theme", "STYLESHEET"),
    "ansi_lines": ("_render._ansi", "ansi_lines"),
    "render_lines_ansi": ("_render._ansi", "ansi_lines"),
    "render_lines_html": ("_render._html", "html_lines"),
    "html_end": ("_render._html", "html_end"),
    "html_lines": ("_render._html", "html_lines"),
    "html_start": ("_render._html", "html_start"),
    "safe_url": ("_render._urls", "safe_url"),
}


def __getattr__(name: str) -> object:
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), attribute)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "DEFAULT_MAX_LINES",
    "HTML_STYLESHEET",
    "MODES",
    "ChangePosition",
    "Changes",
    "Line",
    "Link",
    "Parser",
    "Performer",
    "Style",
    "Transcript",
    "Utf8Decoder",
    "ansi_lines",
    "html_end",
    "html_lines",
    "html_start",
    "render_ansi",
    "render_html",
    "render_lines_ansi",
    "render_lines_html",
    "render_lines_text",
    "render_text",
    "safe_url",
]

__version__ = "0.1.0"
