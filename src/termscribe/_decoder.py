"""Incremental UTF-8 decoding.

Terminal output arrives in chunks that may split a multi-byte code point
anywhere. :class:`Utf8Decoder` keeps up to three bytes of an incomplete code
point between calls and replaces ill-formed input with U+FFFD following the
Unicode "maximal subpart" practice (Unicode 15, section 3.9), which is what
CPython's incremental ``utf-8`` decoder with ``errors="replace"`` implements.

Raw bytes 0x80-0x9F are never C1 controls here: on their own they are
ill-formed UTF-8 and become U+FFFD. Only properly encoded U+0080-U+009F reach
the parser as C1 controls (see ``_parser``).
"""

from __future__ import annotations

import codecs

__all__ = ["Utf8Decoder"]


class Utf8Decoder:
    """Bytes to str, chunk by chunk; identical output for every chunking."""

    __slots__ = ("_decoder",)

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def feed(self, data: bytes | bytearray) -> str:
        """Decode ``data``; an incomplete trailing code point is held back."""
        return self._decoder.decode(data, False)

    def finish(self) -> str:
        """Flush: a held-back incomplete code point becomes U+FFFD."""
        return self._decoder.decode(b"", True)

    def getstate(self) -> bytes:
        """The bytes held back (see setstate)."""
        return self._decoder.getstate()[0]

    def setstate(self, held: bytes) -> None:
        """Hold back ``held`` (from getstate of a decoder) as if this
        decoder had been fed them."""
        self._decoder.setstate((held, 0))

    @property
    def pending(self) -> int:
        """Number of bytes held back, waiting for the rest of a code point."""
        return len(self._decoder.getstate()[0])
