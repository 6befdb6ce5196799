"""One JSON text from untrusted input, with every way it can fail made one error.

``json.loads`` fails in more ways than a ``JSONDecodeError``: a text nested
deeper than the interpreter's recursion limit raises ``RecursionError`` (the
C scanner counts its depth against it; 3,000 ``[`` are enough), one too big
for memory ``MemoryError``, an integer of more than 4,300 digits a plain
``ValueError``, and bytes are taken in whichever of UTF-8, -16 or -32 they
look like.  `parse_json` reads UTF-8 only (the encoding of JSON on the wire,
RFC 8259 section 8.1, and of asciinema's recordings), refuses ``NaN`` and
``Infinity`` (not JSON), and turns each failure into `JSONError`, a
``ValueError`` with a one-line message, so that a reader of untrusted lines
catches one exception and reports or skips the line.
"""

from __future__ import annotations

import json

__all__ = ["JSONError", "parse_json"]


class JSONError(ValueError):
    """The text is not one JSON value this reader takes; the message says why."""


def parse_json(text: bytes | str) -> object:
    """The value of the JSON text ``text`` (bytes: UTF-8), or `JSONError`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise JSONError(f"not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise JSONError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise JSONError("not valid JSON: nested too deeply") from None
    except MemoryError:
        raise JSONError("not valid JSON: too large for memory") from None
    except ValueError as exc:  # NaN, Infinity; an integer of too many digits
        raise JSONError(f"not valid JSON: {exc}") from None


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")
