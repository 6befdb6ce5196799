"""The text checker of SECURITY.md ("What a checker asserts", text part).

Hidden code points are Unicode's own: default ignorables and the general
categories Cf, Co, Cn, Zl and Zp (the ``regex`` module's properties, not the
package's tables). Only a joiner may stay raw, in the context the package
promises: directly after a visible character that is not a space, or a ZWJ or
ZWNJ directly after such a variation selector.
"""

from __future__ import annotations

import re

import regex

_FORBIDDEN = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f"  # C0 except LF, DEL, C1
    "\ufdd0-\ufdef\ufffe\uffff]"  # noncharacters
)
HIDDEN = regex.compile(
    r"[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]", regex.V1
)
JOINER = regex.compile(r"[\p{Variation_Selector}\u034f\u200c\u200d]")
SELECTOR = regex.compile(r"\p{Variation_Selector}")


def assert_no_hidden_runs(text: str) -> None:
    """No hidden code point but a joiner in context: after a visible
    character that is not a space, or a ZWJ or ZWNJ after a selector that
    is."""
    for match in HIDDEN.finditer(text):
        index, ch = match.start(), match.group()
        assert JOINER.match(ch), f"hidden {ch!r} raw at {index}"
        assert index > 0, "joiner at the start of the text"
        prev = text[index - 1]
        if HIDDEN.match(prev):
            assert SELECTOR.match(prev) and ch in "\u200c\u200d", f"{prev!r} {ch!r} at {index}"
            assert index > 1 and not HIDDEN.match(text[index - 2]), f"three at {index}"
        else:
            assert not prev.isspace(), f"joiner after {prev!r} at {index}"


def assert_safe_text(text: str) -> None:
    text.encode("utf-8")  # strict: no surrogates
    match = _FORBIDDEN.search(text)
    assert match is None, f"forbidden {match.group()!r} at {match.start()}"
    for index, ch in enumerate(text):
        if (ord(ch) & 0xFFFE) == 0xFFFE:
            raise AssertionError(f"noncharacter {ch!r} at {index}")
    assert_no_hidden_runs(text)
