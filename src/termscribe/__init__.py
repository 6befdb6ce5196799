"""termscribe: safe transcripts of untrusted terminal byte streams.

>>> from termscribe import render_text
>>> render_text(b"\\x1b[32m 50%\\x1b[0m\\r100%\\n")
'100%\\n'
"""

from ._decoder import Utf8Decoder
from ._line import Line
from ._parser import Parser, Performer
from ._style import Link, Style
from ._transcript import DEFAULT_MAX_LINES, MODES, Transcript, render_text

__all__ = [
    "DEFAULT_MAX_LINES",
    "MODES",
    "Line",
    "Link",
    "Parser",
    "Performer",
    "Style",
    "Transcript",
    "Utf8Decoder",
    "render_text",
]

__version__ = "0.1.0"
