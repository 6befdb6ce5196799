"""The grammar of what the parser takes at once in GROUND.

Syntax only, as regular expressions over decoded text: printable runs (with
the SGR sequences inside them), complete CSI sequences, strings and escape
sequences, line ends, whole lines of text, text redrawn after CRs, and runs
of control sequences and C1 controls each followed by text. The parser
(``_parser``) uses them to hand over at once what its state machine would
dispatch one by one; the Performer's defaults (``_performer``) and the
interpreters split what they hand over with the same patterns. Also here:
ESC Fe as the C1 control it stands for (``as_c1``).

The hottest of these passes come as ``X_by_regex`` and, when the optional
extension is built, a C scan that gives the regex's answer on every input
(a test holds each pair equal on generated input); ``X`` is the one in
use: where a run of control sequences ends (``sequence_run_end``), the
whole lines of text after a line end (``text_lines_end``, for
``TEXT_LINES``; ``tagged_lines_end``, for ``TAGGED_LINES``), a progress bar
redrawn after CRs (``plain_overwrites_end``), lines of them
(``overwritten_lines_end``, for ``OVERWRITTEN_LINES``), and styled text cut at its
SGR sequences or without them (``sgr_split``, ``without_sgr``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._accel import speedups
from ._syntax import MAX_INTERMEDIATES, MAX_PARAM_CHARS, MAX_STRING_CHARS

__all__ = [
    "C1_INTRODUCERS",
    "CSI",
    "ERASE",
    "ESCAPES",
    "ESCAPE_ITEM",
    "IGNORED_STRINGS",
    "LINE_SEQUENCES",
    "NEWLINES",
    "OVERSTRUCK",
    "OVERWRITES",
    "OVERWRITE_CHAS",
    "OVERWRITE_ELS",
    "OVERWRITE_ERASES",
    "OVERWRITE_STARTS",
    "OVERWRITTEN_LINES",
    "REP",
    "RUN_ITEMS",
    "SEQUENCE_ITEMS",
    "SEQUENCE_LINES",
    "SGR_SPLIT",
    "STRING",
    "TAGGED_LINES",
    "TEXT",
    "TEXT_LINES",
    "as_c1",
    "overwrites_end",
    "overwritten_lines_end",
    "overwritten_lines_end_by_regex",
    "sequence_run_end",
    "sequence_run_end_by_regex",
    "sequence_run_end_in_c",
    "sgr_split",
    "tagged_lines_end",
    "tagged_lines_end_by_regex",
    "tagged_lines_end_in_c",
    "text_end",
    "text_end_by_regex",
    "text_lines_end",
    "text_lines_end_by_regex",
    "text_lines_end_in_c",
    "without_sgr",
    "without_sgr_by_regex",
]

# Printable run in GROUND: everything but C0, DEL and C1, possibly with
# complete SGR sequences inside (the most common sequence by far: colour-heavy
# logs change style every few characters). The loop is unrolled so the regex
# engine scans character classes, not an alternation per character.
_PRINTABLE = r"[^\x00-\x1f\x7f-\x9f]"
_SGR = rf"\x1b\[[0-9;:]{{0,{MAX_PARAM_CHARS}}}m"
TEXT = re.compile(rf"{_PRINTABLE}*+(?:{_SGR}{_PRINTABLE}*+)*+")


def text_end_by_regex(text: str, start: int, max_params: int = MAX_PARAM_CHARS) -> int:
    """Where the TEXT match at ``start`` ends (``max_params`` is the
    MAX_PARAM_CHARS TEXT is made with, for the C scan's signature)."""
    return TEXT.match(text, start).end()  # type: ignore[union-attr]  # matches ""


#: text_end_by_regex, by the C scan of _speedups where the extension is
#: built (the printable text the parser prints at once in GROUND).
text_end: Callable[[str, int, int], int] = (
    text_end_by_regex if speedups is None else speedups.text_end
)
# The SGR sequences inside such a run; split() gives text, params, text, ...
SGR_SPLIT = re.compile(r"\x1b\[([0-9;:]*)m")
# SGR_SPLIT.split, by one C scan where the extension is built: styled lines
# are cut this way one at a time.
sgr_split: Callable[[str], list[str]] = SGR_SPLIT.split if speedups is None else speedups.sgr_split


def without_sgr_by_regex(text: str) -> str:
    """``text`` without its SGR sequences (as SGR_SPLIT finds them)."""
    return SGR_SPLIT.sub("", text)


# The same by one C pass where the extension is built: what an unstyled
# model prints of styled text.
without_sgr: Callable[[str], str] = (
    without_sgr_by_regex if speedups is None else speedups.without_sgr
)
# A complete CSI sequence on the no-ignore path of the diagram: optional
# private marker, parameters, intermediates, final. Anything else (C0 inside,
# overflow, a marker after parameters, a split at the end of a chunk) takes
# the state machine, which produces the same dispatch.
CSI = re.compile(
    "(?:\x1b\\[|\x9b)([<-?]?)"
    f"([0-9:;]{{0,{MAX_PARAM_CHARS}}})([ -/]{{0,{MAX_INTERMEDIATES}}})([@-~])"
)
# A complete OSC (payload within the cap, no C0 inside) or SOS/PM/APC string
# ended by BEL or ST: build logs put one before every line.
STRING = re.compile(
    rf"\x1b(?:\]([^\x00-\x1f\x80-\x9f]{{0,{MAX_STRING_CHARS}}})|[X^_][^\x07\x18\x1a\x1b\x80-\x9f]*)"
    r"(?:\x07|\x1b\\)"
)
# A complete escape sequence (not CSI, a string, ST or an ESC Fe, which
# as_c1 made C1 controls) with at most one intermediate, dispatched as the
# state machine would: floods of RIS, DECSC or DECALN cost no more than
# other sequences.
ESCAPE_ITEM = re.compile(r"\x1b([ -/]?)((?<=[ -/])[0-~]|[0-?`-~])")
# One or more of them in a row.
ESCAPES = re.compile(f"(?:{ESCAPE_ITEM.pattern})+")
# C1 controls that start a sequence or string (or end one): the state
# machine's; every other C1 is simply executed in GROUND.
C1_INTRODUCERS = frozenset("\x90\x98\x9b\x9c\x9d\x9e\x9f")
# Line ends, often repeated: "\r\n", "\r\r\n", blank lines.
NEWLINES = re.compile(r"[\r\n]+")
# Whole lines of printable text (with SGR inside, as TEXT), each ended by LF
# (after CRs, if any): most of a log, once a line has ended.
TEXT_LINES = re.compile(rf"(?:{TEXT.pattern}\r*+\n)++")


def text_lines_end_by_regex(text: str, start: int) -> int:
    """Where the TEXT_LINES match at ``start`` ends, or -1 if there is none."""
    m = TEXT_LINES.match(text, start)
    return -1 if m is None else m.end()


def text_lines_end_in_c(text: str, start: int) -> int:
    """The same, by the C scan of _speedups: one pass over the lines (every
    quantifier of TEXT_LINES is possessive and the parts of a line never
    overlap, so the regex never backtracks either), where the regex engine
    tests a character class per character. After a line end the parser
    tries it on all that follows: an application log is one run."""
    return speedups.text_lines_end(text, start, MAX_PARAM_CHARS, False)


text_lines_end = text_lines_end_by_regex if speedups is None else text_lines_end_in_c

# Whole lines of printable text and CRs, anywhere in a line, each ended by
# LF: a progress bar redrawn after CRs and ended by a line end, then the
# next, as tqdm and pip draw them.
OVERWRITTEN_LINES = re.compile(rf"(?:(?:{_PRINTABLE}|\r)*+\n)++")


def overwritten_lines_end_by_regex(text: str, start: int) -> int:
    """Where the OVERWRITTEN_LINES match at ``start`` ends, or -1 if there
    is none."""
    m = OVERWRITTEN_LINES.match(text, start)
    return -1 if m is None else m.end()


#: overwritten_lines_end_by_regex, by one C pass where the extension is built.
overwritten_lines_end: Callable[[str, int], int] = (
    overwritten_lines_end_by_regex if speedups is None else speedups.overwritten_lines_end
)

# A complete SOS, PM or APC string: never dispatched. Build logs put one
# before every line (ESC _ bk;t=... BEL), so lines with them are tried too.
_IGNORED_STRING = r"\x1b[X^_][^\x07\x18\x1a\x1b\x80-\x9f]*(?:\x07|\x1b\\)"
IGNORED_STRINGS = re.compile(_IGNORED_STRING)
TAGGED_LINES = re.compile(
    rf"(?:{_PRINTABLE}*+(?:(?:{_SGR}|{_IGNORED_STRING}){_PRINTABLE}*+)*+\r*+\n)++"
)


def tagged_lines_end_by_regex(text: str, start: int) -> int:
    """Where the TAGGED_LINES match at ``start`` ends, or -1 if there is none."""
    m = TAGGED_LINES.match(text, start)
    return -1 if m is None else m.end()


def tagged_lines_end_in_c(text: str, start: int) -> int:
    """The same, by the C scan of text_lines_end_in_c taking the strings too
    (the parts of a line never overlap here either)."""
    return speedups.text_lines_end(text, start, MAX_PARAM_CHARS, True)


tagged_lines_end = tagged_lines_end_by_regex if speedups is None else tagged_lines_end_in_c
# The same with two more sequences and two controls, tried last
# (a LINES_WITH_SEQUENCES run): REP (repeat the last printed character) or BS
# right after a printable ASCII character (not after another sequence: an
# SGR's final is ASCII too), BS only before another (overstrike, as man
# pages print bold and underlined letters: "N\bN", "_\bx"), EL erasing
# to the end of the line (grep and ls put one after each colour), and TAB
# (columns of text).
_REP = rf"\x1b\[[0-9]{{0,{MAX_PARAM_CHARS}}}b"
_EL = r"\x1b\[0?K"
SEQUENCE_LINES = re.compile(
    rf"(?:(?:{_PRINTABLE}++(?:(?<=[\x20-\x7e])(?:{_REP}|\x08(?=[\x20-\x7e])))?+"
    rf"|{_SGR}|{_EL}|\t|{_IGNORED_STRING})*+\r*+\n)++"
)
# The REP and EL sequences alone, for interpreters taking those lines.
REP = re.compile(_REP)
ERASE = re.compile(_EL)
# In such lines, a character that the one after the BS after it is
# printed over (overstrike).
OVERSTRUCK = re.compile(r"[\x20-\x7e]\x08")
# The REP and EL sequences, TABs and BSs inside such lines; split() gives
# text, parameter, final, control, text, ... (a sequence's or a control's
# groups None).
LINE_SEQUENCES = re.compile(r"\x1b\[([0-9]*)([bK])|([\t\x08])")
# Text after lone CRs, repeated: a progress bar or spinner redrawn in place
# ("\r 10%\r 20%"), or text overwriting a line cell by cell. The text is
# printable characters (at least one) with SGR sequences among them, as
# TEXT; an EL sequence erasing to the end of the line or the whole line may
# come right after the CR and right after the text ("\r\x1b[2K 10%", git's
# "\r 10%\x1b[K"). CHA to the first column may stand for the CR (Node's
# readline.cursorTo(0), which spinners use: "\x1b[1G\x1b[0K⠙ 10%").
_ERASE_ANY = r"\x1b\[[02]?K"
_TO_FIRST_COLUMN = r"\x1b\[1?G"
OVERWRITES = re.compile(
    rf"(?:(?:\r|{_TO_FIRST_COLUMN})(?:{_ERASE_ANY})?+(?=(?:{_SGR})*+{_PRINTABLE})"
    rf"{TEXT.pattern}(?:{_ERASE_ANY})?+)++"
)
# The usual case, plain text after CRs, is tried first: it is quicker.
_PLAIN_OVERWRITES = re.compile(rf"(?:\r{_PRINTABLE}++)++")
# The sequences _TO_FIRST_COLUMN and _ERASE_ANY take, for interpreters.
OVERWRITE_CHAS = ("\x1b[G", "\x1b[1G")
OVERWRITE_ELS = ("\x1b[K", "\x1b[0K", "\x1b[2K")


def plain_overwrites_end_by_regex(text: str, start: int) -> int:
    """Where the run of CRs each followed by printable text that starts at
    ``start`` ends, or -1 if there is none."""
    m = _PLAIN_OVERWRITES.match(text, start)
    return -1 if m is None else m.end()


def _plain_overwrites_end_in_c(text: str, start: int) -> int:
    """The same, by the C scan of _speedups (one pass, where the regex
    engine tests the class of each character)."""
    return speedups.plain_overwrites_end(text, start)


plain_overwrites_end = (
    plain_overwrites_end_by_regex if speedups is None else _plain_overwrites_end_in_c
)


def overwrites_end_by_regex(text: str, i: int) -> int:
    """Where the overwrite run (OVERWRITES) at the CR at ``i`` ends, or -1
    if there is none. The usual case, plain text after each CR, is tried
    first: OVERWRITES goes on from where that ends only with an escape
    sequence there or right after a CR there."""
    end = plain_overwrites_end(text, i)
    if end >= 0 and "\x1b" not in text[end : end + 2]:
        return end
    m = OVERWRITES.match(text, i)
    return -1 if m is None else m.end()


def _overwrites_end_in_c(text: str, i: int) -> int:
    """The same, by one C scan of _speedups."""
    return speedups.overwrites_end(text, i, MAX_PARAM_CHARS)


overwrites_end = overwrites_end_by_regex if speedups is None else _overwrites_end_in_c


# What starts each text of such runs; split() gives "", start, text, ...
OVERWRITE_STARTS = re.compile(rf"(\r|{_TO_FIRST_COLUMN})")
# The EL sequences of such runs; split() gives text, parameter, text, ...
OVERWRITE_ERASES = re.compile(r"\x1b\[([02]?)K")


def _sequence_item(group: str) -> str:
    """The pattern of an item of a sequence run, its parts in groups
    (``group`` is ``"("``) or not (``"(?:"``: the regex engine saves groups
    on every repetition), the item followed by printable text.

    A run of control sequences and C1 controls in GROUND, each followed by
    printable text, is handed over as one run (SEQUENCE_RUN) once many
    have come one by one: floods of cursor moves or of C1 controls. An item
    is a CSI sequence as CSI takes it; a C1 control that is executed; ST,
    which does nothing in GROUND; or a string started by a C1 control and
    aborted by another C1 control (not ST) before any C0 control, which
    dispatches nothing. The groups of SEQUENCE_ITEMS: the CSI's four, the
    C1 control, the text after the item."""
    return (
        rf"(?:(?:\x1b\[|\x9b){group}[<-?]?){group}[0-9:;]{{0,{MAX_PARAM_CHARS}}})"
        rf"{group}[ -/]{{0,{MAX_INTERMEDIATES}}}){group}[@-~])"
        rf"|{group}[\x80-\x8f\x91-\x97\x99\x9a])|\x9c"
        rf"|[\x90\x98\x9d-\x9f]{_PRINTABLE}*(?=[\x80-\x9b\x9d-\x9f]))"
        rf"{group}{_PRINTABLE}*)"
    )


SEQUENCE_ITEMS = re.compile(_sequence_item("("))
# The items of a sequence run once ST and aborted strings are taken out
# (they dispatch nothing), for split(): two groups, the item's first
# character (the C1 control executed, or the CSI introducer) and, for a CSI
# sequence, its body (see csi_fields). split() gives the text before the
# first item, then for each item its two groups and the text after it, with
# the SGR sequences TEXT takes (the CSI branch leaves those), for
# interpreters that print text and SGR at once (print_with_sgr). Three
# entries an item, where SEQUENCE_ITEMS.split() would give seven, and a
# pattern that starts with a character class, which the regex engine scans
# for instead of trying every position.
RUN_ITEMS = re.compile(
    r"([\x1b\x80-\x8f\x91-\x97\x99-\x9b])(?:"
    rf"(?:(?<=\x1b)\[(?![0-9:;]{{0,{MAX_PARAM_CHARS}}}m)|(?<=\x9b))"
    rf"([<-?]?[0-9:;]{{0,{MAX_PARAM_CHARS}}}[ -/]{{0,{MAX_INTERMEDIATES}}}[@-~])"
    r"|(?<=[\x80-\x8f\x91-\x97\x99\x9a]))"
)
# Possessive: items cannot be cut another way, and it is faster.
_SEQUENCE_RUN = re.compile(f"(?:{_sequence_item('(?:')}){{2,}}+")


def sequence_run_end_by_regex(text: str, start: int) -> int:
    """Where the sequence run (two items or more) from ``start`` ends, or
    -1 if there is none."""
    m = _SEQUENCE_RUN.match(text, start)
    return -1 if m is None else m.end()


def sequence_run_end_in_c(text: str, start: int) -> int:
    """The same, by the C scan of _speedups: one pass with no backtracking
    (the parts of an item never overlap), where the regex engine tries each
    alternative of each item in turn."""
    return speedups.sequence_run_end(text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES)


sequence_run_end = sequence_run_end_by_regex if speedups is None else sequence_run_end_in_c


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
