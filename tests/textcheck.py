"""The text checker of SECURITY.md ("What a checker asserts", text part)."""

from __future__ import annotations

import re
import unicodedata

_FORBIDDEN = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f"  # C0 except LF, DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi controls
    "\u2028\u2029\ufdd0-\ufdef\ufffe\uffff"  # separators, noncharacters
    "\U000e0000-\U000e007f]"  # tags
)
_JOINERS = re.compile("[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def assert_safe_text(text: str) -> None:
    text.encode("utf-8")  # strict: no surrogates
    match = _FORBIDDEN.search(text)
    assert match is None, f"forbidden {match.group()!r} at {match.start()}"
    for index, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf" and not _JOINERS.match(ch):
            raise AssertionError(f"invisible format character {ch!r} at {index}")
        if (ord(ch) & 0xFFFE) == 0xFFFE:
            raise AssertionError(f"noncharacter {ch!r} at {index}")
    for match in _JOINERS.finditer(text):
        index = match.start()
        assert index > 0, "joiner at start of text"
        prev = text[index - 1]
        assert prev != "\n" and not prev.isspace(), f"joiner after {prev!r} at {index}"
