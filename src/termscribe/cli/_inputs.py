"""What ``render`` reads: raw terminal bytes, asciinema recordings, typescripts.

The kind is told by content (the first line), never by the file name alone:

* **asciicast** (asciinema's ``.cast``, versions 2 and 3): a JSON header
  line with ``"version": 2`` or ``3``, then one JSON array per event.
  Output events (``"o"``) are the stream; input (``"i"``), markers
  (``"m"``), exit (``"x"``) events and comment lines (``#``, v3) are left
  out. The header's size (v2 ``width``/``height``, v3 ``term.cols``/
  ``term.rows``) is the terminal's unless ``--columns``/``--rows`` say
  otherwise. Resize events (``"r"``, data ``"COLSxROWS"``) come out of the
  stream as ``Resize`` values, between its bytes, for ``render`` to apply.
  Lines that are not events are skipped and counted.
* **typescript** (util-linux ``script``): a first line ``Script started on
  …`` and a last line ``Script done on …``; both are dropped (and the
  header's ``COLUMNS``/``LINES``, when present, give the size).
* **raw**: anything else, passed on unchanged.

A first line that looks like JSON but that the parser refuses, whatever the
reason (a nesting too deep for its stack, bytes that are not UTF-8, ``NaN``,
an integer of too many digits; see ``termscribe._json``), is raw input; a
recording's line that fails so is skipped and counted, like any line that
is not an event.

Everything is read as it arrives, line by line for recordings, so a pipe's
output shows before its end and memory stays bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final, NamedTuple

__all__ = ["INPUT_KINDS", "MAX_EVENT_BYTES", "Input", "Resize", "open_input_stream"]

#: --input-format choices; "auto" tells by content.
INPUT_KINDS: Final = ("auto", "raw", "asciicast", "typescript")
#: Longest recording line read (asciinema writes one event per line; output
#: is flushed every few milliseconds, so real lines are far shorter).
MAX_EVENT_BYTES: Final = 16 * 1024 * 1024
#: Bytes looked at to tell the kind of input (the first line, at most).
_SNIFF_BYTES: Final = 4096
#: Bytes held back at the end of a typescript, where "Script done" may be.
_TAIL_BYTES: Final = 512

_SCRIPT_START: Final = b"Script started on "
_SCRIPT_DONE: Final = b"\nScript done on "
# Patterns compiled when first used (by re's cache), not at every start:
# most inputs are raw streams, which need neither.
_SCRIPT_SIZE: Final = rb'COLUMNS="([0-9]{1,9})" LINES="([0-9]{1,9})"'
_RESIZE: Final = r"([0-9]{1,9})x([0-9]{1,9})"


class Resize(NamedTuple):
    """The terminal's new size, from a recording's resize event."""

    columns: int
    rows: int


class Input:
    """A stream to render: its bytes in chunks (and the recording's
    resizes between them), and the size it was made at."""

    def __init__(self, kind: str, chunks: Iterator[bytes | Resize]) -> None:
        self.kind = kind
        self.chunks = chunks
        self.columns: int | None = None
        self.rows: int | None = None
        self.skipped = 0  # recording lines that were not events


def open_input_stream(source: BinaryIO, kind: str = "auto") -> Input:
    """Tell what ``source`` holds (unless ``kind`` says) and return its stream."""
    read = getattr(source, "read1", source.read)
    head = _first_line(read)
    if kind == "auto":
        kind = _kind(head)
    if kind == "asciicast":
        return _asciicast(head, source)
    if kind == "typescript":
        return _typescript(head, read)
    return Input("raw", _raw(head, read))


def _first_line(read: object) -> bytes:
    """Up to the first newline (or _SNIFF_BYTES), waiting only as long as needed."""
    head = b""
    while b"\n" not in head and len(head) < _SNIFF_BYTES:
        chunk = read(_SNIFF_BYTES - len(head))  # type: ignore[operator]
        if not chunk:
            break
        head += chunk
    return bytes(head)


def _kind(head: bytes) -> str:
    if head.startswith(_SCRIPT_START):
        return "typescript"
    if head.startswith(b"{"):
        from .._json import JSONError, parse_json  # recordings only: off the startup path

        try:
            header = parse_json(head.split(b"\n", 1)[0])
        except JSONError:
            return "raw"  # whatever the reason: a deep nesting, bad UTF-8, NaN
        if isinstance(header, dict) and header.get("version") in (2, 3):
            return "asciicast"
    return "raw"


def _raw(head: bytes, read: object) -> Iterator[bytes]:
    if head:
        yield head
    while chunk := read(64 * 1024):  # type: ignore[operator]
        yield chunk


# -- asciicast -------------------------------------------------------------------


def _asciicast(head: bytes, source: BinaryIO) -> Input:
    from .._json import JSONError, parse_json

    first, _, rest = head.partition(b"\n")
    stream = Input("asciicast", iter(()))
    try:
        header = parse_json(first)
    except JSONError:
        header = {}  # the size is left to the options; the events are read
    if isinstance(header, dict):
        size = header.get("term") if header.get("version") == 3 else header
        if isinstance(size, dict):
            key_columns, key_rows = (
                ("cols", "rows")
                if header.get("version") == 3
                else (
                    "width",
                    "height",
                )
            )
            stream.columns = _size(size.get(key_columns))
            stream.rows = _size(size.get(key_rows))
    stream.chunks = _events(stream, rest, source)
    return stream


def _size(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _events(stream: Input, rest: bytes, source: BinaryIO) -> Iterator[bytes | Resize]:
    pending = rest
    while True:
        if b"\n" not in pending:
            line = source.readline(MAX_EVENT_BYTES + 1)
            pending += line
            if not line:
                if pending.strip():
                    yield from _event(stream, pending)
                return
            if not line.endswith(b"\n") and len(line) > MAX_EVENT_BYTES:
                stream.skipped += 1  # an overlong line: skip the rest of it
                while (more := source.readline(1 << 20)) and not more.endswith(b"\n"):
                    pass
                pending = b""
                continue
        line, _, pending = pending.partition(b"\n")
        yield from _event(stream, line)


def _event(stream: Input, line: bytes) -> Iterator[bytes | Resize]:
    from .._json import JSONError, parse_json  # loaded by _asciicast: a dictionary lookup

    if not line.strip() or line.lstrip().startswith(b"#"):
        return  # blank, or a v3 comment
    try:
        event = parse_json(line)
    except JSONError:
        stream.skipped += 1
        return
    if not (isinstance(event, list) and len(event) >= 3 and isinstance(event[1], str)):
        stream.skipped += 1
        return
    code, data = event[1], event[2]
    if code == "o" and isinstance(data, str):
        yield data.encode("utf-8", "surrogatepass")  # lone surrogates become U+FFFD
    elif code == "r":
        size = re.fullmatch(_RESIZE, data) if isinstance(data, str) else None
        columns, rows = (_size(int(size.group(1))), _size(int(size.group(2)))) if size else (0, 0)
        if columns and rows:
            yield Resize(columns, rows)
        else:
            stream.skipped += 1


# -- typescript ------------------------------------------------------------------


def _typescript(head: bytes, read: object) -> Input:
    first, newline, rest = head.partition(b"\n")
    stream = Input("typescript", iter(()))
    if first.startswith(_SCRIPT_START):
        size = re.search(_SCRIPT_SIZE, first)
        if size:
            stream.columns = _size(int(size.group(1)))
            stream.rows = _size(int(size.group(2)))
        head = rest if newline else b""
    stream.chunks = _without_done_line(head, read)
    return stream


def _without_done_line(head: bytes, read: object) -> Iterator[bytes]:
    """The bytes, holding back the last _TAIL_BYTES to drop a final
    ``Script done on …`` line (and the newline script writes before it)."""
    tail = head
    while chunk := read(64 * 1024):  # type: ignore[operator]
        tail += chunk
        if len(tail) > _TAIL_BYTES:
            yield tail[:-_TAIL_BYTES]
            tail = tail[-_TAIL_BYTES:]
    if tail.startswith(_SCRIPT_DONE[1:]):
        tail = b""
    else:
        done = tail.rfind(_SCRIPT_DONE)
        if done >= 0 and tail.find(b"\n", done + 1) in (-1, len(tail) - 1):
            tail = tail[:done]
    if tail:
        yield tail
