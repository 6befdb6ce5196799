"""termscribe: safe transcripts of untrusted terminal byte streams.

>>> from termscribe import render_text
>>> render_text(b"\\x1b[32m 50%\\x1b[0m\\r100%\\n")
'100%\\n'
"""

from ._decoder import Utf8Decoder
from ._html_theme import STYLESHEET as HTML_STYLESHEET
from ._line import Line
from ._parser import Parser
from ._performer import Performer
from ._render_ansi import ansi_lines
from ._render_html import html_end, html_lines, html_start
from ._style import Link, Style
from ._transcript import (
    DEFAULT_MAX_LINES,
    MODES,
    Transcript,
    render_ansi,
    render_html,
    render_text,
)
from ._urls import safe_url

__all__ = [
    "DEFAULT_MAX_LINES",
    "HTML_STYLESHEET",
    "MODES",
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
    "render_text",
    "safe_url",
]

__version__ = "0.1.0"
