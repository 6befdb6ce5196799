"""The grammar of what the parser takes at once in GROUND: syntax only.

Regular expressions over decoded text for the items whose syntax is
complete within one piece of text (``BATCH_ITEM``): printable runs with
the SGR sequences inside them, complete CSI sequences, strings, escape
sequences, and C0 and C1 controls. A stretch of them in a row is a
*batch* (``batch_parts``): the parser
hands it to the Performer at once, as a list of parts, which the
Performer executes item by item (see ``_performer``). Nothing here knows
what an item means. Also here: ESC Fe as the C1 control it stands for
(``as_c1``).

A batch's parts alternate: text, item, text, item, ..., text (so their
number is odd). A text is printable characters with complete SGR
sequences (``ESC [ params m``) among them, maybe empty; an item is one of

* a complete control sequence other than such an SGR, ``ESC [`` or the
  C1 CSI ``U+009B``, then an optional private marker, at most
  MAX_PARAM_CHARS parameter characters, at most MAX_INTERMEDIATES
  intermediates and a final;
* a complete OSC string (payload within MAX_STRING_CHARS, no control in
  it) or SOS/PM/APC string, ended by BEL or ST (``ESC \\``);
* an escape sequence that is not one of those, nor ST, nor ESC Fe (which
  ``as_c1`` made C1 controls): ``ESC`` with at most one intermediate and
  a final;
* a C0 control other than ESC, CAN and SUB, or a C1 control that neither
  starts nor ends a sequence or string.

Anything else (CAN, SUB, DEL, an incomplete or overlong sequence, the C1
controls that start strings) ends the batch, and the parser's state
machine takes it; each item means exactly what the state machine would
dispatch for it. The pure-Python scan (``batch_parts_by_regex``) and the
C scan of the optional extension give the same parts for every input (a
test holds them equal on generated input); ``batch_parts`` is the one in
use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ._accel import speedups
from ._syntax import MAX_INTERMEDIATES, MAX_PARAM_CHARS, MAX_STRING_CHARS

__all__ = [
    "BATCH_ITEM",
    "SGR_SPLIT",
    "as_c1",
    "batch_parts",
    "batch_parts_by_regex",
    "sgr_split",
    "without_sgr",
    "without_sgr_by_regex",
]

# Printable characters in GROUND (everything but C0, DEL and C1), and the
# SGR sequences a batch's texts hold among them: colour-heavy logs change
# style every few characters.
_PRINTABLE = r"[^\x00-\x1f\x7f-\x9f]"
_SGR = rf"\x1b\[[0-9;:]{{0,{MAX_PARAM_CHARS}}}m"
# The SGR sequences inside such a run; split() gives text, params, text, ...
SGR_SPLIT = re.compile(r"\x1b\[([0-9;:]*)m")
# SGR_SPLIT.split, by one C scan where the extension is built.
sgr_split: Callable[[str], list[str]] = SGR_SPLIT.split if speedups is None else speedups.sgr_split


def without_sgr_by_regex(text: str) -> str:
    """``text`` without its SGR sequences (as SGR_SPLIT finds them)."""
    return SGR_SPLIT.sub("", text)


# The same by one C pass where the extension is built: what an unstyled
# model prints of styled text.
without_sgr: Callable[[str], str] = (
    without_sgr_by_regex if speedups is None else speedups.without_sgr
)
_CSI_BODY = rf"[<-?]?[0-9:;]{{0,{MAX_PARAM_CHARS}}}[ -/]{{0,{MAX_INTERMEDIATES}}}"
#: The pattern of an item of a batch (see the module docstring): a control sequence
#: (an SGR only with a private marker or intermediates, or after the C1
#: CSI: the others are part of the text), a string, an escape sequence,
#: or a control executed in GROUND.
BATCH_ITEM = (
    rf"\x1b(?:\[(?:[<-?][0-9:;]{{0,{MAX_PARAM_CHARS}}}[ -/]{{0,{MAX_INTERMEDIATES}}}[@-~]"
    rf"|[0-9:;]{{0,{MAX_PARAM_CHARS}}}(?:[ -/]{{1,{MAX_INTERMEDIATES}}}[@-~]|[@-ln-~]))"
    rf"|\][^\x00-\x1f\x80-\x9f]{{0,{MAX_STRING_CHARS}}}(?:\x07|\x1b\\)"
    r"|[X^_][^\x07\x18\x1a\x1b\x80-\x9f]*+(?:\x07|\x1b\\)"
    r"|[ -/]?(?:(?<=[ -/])[0-~]|[0-?`-~]))"
    rf"|\x9b{_CSI_BODY}[@-~]"
    r"|[\x00-\x17\x19\x1c-\x1f\x80-\x8f\x91-\x97\x99\x9a]"
)


@lru_cache(maxsize=1)
def _batch() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A batch (texts and items, at least one of either), and the split of
    one into its parts: made when first needed (the C scan needs neither),
    never changed."""
    return (
        re.compile(rf"(?:{_PRINTABLE}++|{_SGR}|{BATCH_ITEM})++"),
        re.compile(f"({BATCH_ITEM})"),
    )


def batch_parts_by_regex(text: str, start: int) -> tuple[int, list[str]]:
    """Where the batch at ``start`` ends, and its parts (see the module
    docstring); ``(start, [])`` if there is none (``start`` clamped to the
    end of ``text``, as a regex's position is)."""
    batch, split = _batch()
    m = batch.match(text, start)
    if m is None:
        return min(start, len(text)), []
    return m.end(), split.split(m.group())


def _batch_parts_in_c(text: str, start: int) -> tuple[int, list[str]]:
    """The same, by one C scan of _speedups."""
    return speedups.batch_parts(text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES, MAX_STRING_CHARS)


batch_parts: Callable[[str, int], tuple[int, list[str]]] = (
    batch_parts_by_regex
    if speedups is None or not hasattr(speedups, "batch_parts")
    else _batch_parts_in_c
)


def as_c1(text: str) -> str:
    """``text`` with each ESC Fe escape sequence replaced by the C1 control
    it stands for (see the module docstring)."""
    # One pass for the usual answer: memchr finds no ESC in text without
    # sequences, where the regex engine would try each position.
    if "\x1b" not in text or _FE.search(text) is None:
        return text
    # The four that programs send (IND, NEL, HTS, RI) by str.replace, which
    # takes a flood of them at C speed; the rest, rare, by the regex.
    text = (
        text.replace("\x1bD", "\x84")
        .replace("\x1bE", "\x85")
        .replace("\x1bH", "\x88")
        .replace("\x1bM", "\x8d")
    )
    if _OTHER_FE.search(text) is None:
        return text
    return _OTHER_FE.sub(_c1_of, text)


def _c1_of(m: re.Match[str]) -> str:
    return chr(ord(m.group()[1]) + 0x40)


# ESC Fe: the finals 0x40-0x5F but the introducers of sequences and strings
# (P X [ ] ^ _) and ST's backslash.
_FE_FINALS = "@-OQ-WYZ"
_FE = re.compile(f"\x1b[{_FE_FINALS}]")
_OTHER_FE = re.compile("\x1b[@-CF-GI-LN-OQ-WYZ]")
