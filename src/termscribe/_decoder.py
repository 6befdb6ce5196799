"""Incremental UTF-8 decoding.

Terminal output arrives in chunks that may split a multi-byte code point
anywhere. :class:`Utf8Decoder` keeps up to three bytes of an incomplete code
point between calls and replaces ill-formed input with U+FFFD following the
Unicode "maximal subpart" practice (Unicode 15, section 3.9), which is what
CPython's incremental ``utf-8`` decoder with ``errors="replace"`` implements.

Raw bytes 0x80-0x9F are never C1 controls here: on their own they are
ill-formed UTF-8 and become U+FFFD. Only properly encoded U+0080-U+009F reach
the parser as C1 controls (see ``_parser``).

U+E000 and U+E001 are the seals of real markers (see ``_rows``): in input
they become their own markers here, sealed, so that no input code point is
a seal.
"""

from __future__ import annotations

import codecs

from ._rows import SEAL, SEAL_BRACKET

__all__ = ["Utf8Decoder"]


class Utf8Decoder:
    """Bytes to str, chunk by chunk; identical output for every chunking."""

    __slots__ = ("_decoder",)

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def feed(self, data: bytes | bytearray) -> str:
        """Decode ``data``; an incomplete trailing code point is held back."""
        decoder = self._decoder
        held = decoder.getstate()[0]
        text = decoder.decode(data, False)
        # A seal is encoded EE 80 80 or EE 80 81, so no byte EE, none
        # decoded: a search for one byte (memchr) rules out most chunks,
        # where a search of the text for U+E000 tests every code point.
        if _SEAL_LEAD in data or _SEAL_LEAD in held:
            return _unseal_input(text)
        return text

    def finish(self) -> str:
        """Flush: a held-back incomplete code point becomes U+FFFD."""
        return _unseal_input(self._decoder.decode(b"", True))

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


# The first byte of the seals' UTF-8 encoding.
_SEAL_LEAD = SEAL.encode()[:1]

_SEALS_AS_INPUT = str.maketrans({SEAL: f"{SEAL}U+E000>", SEAL_BRACKET: f"{SEAL}U+E001>"})


def _unseal_input(text: str) -> str:
    """``text`` with the seals it contains as their sealed markers."""
    if text.isascii() or (SEAL not in text and SEAL_BRACKET not in text):
        return text
    return text.translate(_SEALS_AS_INPUT)
