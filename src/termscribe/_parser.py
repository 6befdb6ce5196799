"""Syntax of terminal output: the DEC/ANSI parser of vt100.net.

This module knows syntax only. It splits decoded text into printable runs,
control functions and sequences, and calls a :class:`Performer`; meaning (what
a cursor move or a colour does) lives in the interpreters.

The state machine is Paul Flo Williams' "A parser for DEC's ANSI-compatible
video terminals" (https://vt100.net/emu/dec_ansi_parser), one method per
state, named as on the diagram. Rules of this file:

* Anywhere: CAN (0x18) and SUB (0x1A) abort the current sequence (nothing is
  dispatched) and return to GROUND; ESC starts a new escape sequence whatever
  the state; the C1 controls U+0080-U+009F (only as decoded code points: a raw
  byte 0x80-0x9F is ill-formed UTF-8 and became U+FFFD earlier) act as their
  7-bit equivalents (0x9B = CSI, 0x9D = OSC, 0x90 = DCS, 0x9C = ST, 0x98/0x9E/
  0x9F = SOS/PM/APC, others are executed).
* Every buffer has a named limit below. A sequence that overflows one is
  marked ignored: it is consumed to its end and never dispatched, and the
  parser resynchronises on the next sequence.
* Printable runs are found by one compiled regex (together with the
  complete SGR sequences inside them: ``print_with_sgr``), and complete,
  well-formed CSI sequences and strings in GROUND by others; all produce
  exactly the calls the state machine would. Character-by-character work
  happens only inside other escape sequences, and string payloads are
  consumed in runs.
* Some runs are grouped into one event, which a Performer may take at once
  or, by default, as the calls one by one: text redrawn after lone CRs
  (``overwrite_run``), and, after a line end, the complete lines of text
  that follow (``text_lines``, SOS/PM/APC strings in them removed, as they
  are never dispatched; ``lines_with_sequences`` when REP sequences right
  after a printable ASCII character, EL sequences erasing to the end of
  the line or TABs are in them too); and, once many have
  come one by one, control sequences and C1 controls each followed by
  text (``sequence_run``; where such a run ends is found by a regex, or by
  the same scan in C when the optional extension is built:
  ``sequence_run_end``); and escape sequences in a row (``escape_run``).

Differences from the original diagram, each a deliberate choice:

* Colon (0x3A) is a parameter character (sub-parameters, ``38:2::r:g:b``), as
  in vte and xterm, instead of sending the sequence to CSI_IGNORE.
* DEL (0x7F) is ignored in GROUND, as xterm does, instead of printed.
* BEL (0x07) ends OSC strings (xterm) and also SOS/PM/APC strings (a common
  extension: build logs use ``ESC _ ... BEL`` for timestamps).
* A string (OSC, DCS, SOS/PM/APC) is dispatched only when it ends with ST
  (``ESC \\`` or 0x9C) or BEL. ESC followed by anything other than ``\\``
  aborts the string; CAN/SUB abort it too. An open string at ``finish()`` is
  dropped.
* An escape sequence of ESC and one final in 0x40-0x5F (ECMA-35's "Fe":
  ``ESC D``, ``ESC E``, ``ESC M``...) is reported as the C1 control it is
  the 7-bit form of (``execute("\\x84")``), so that each C1 control has one
  meaning, written once, and floods of them take the runs of C1 controls.
  The finals that start a sequence or string (``P X [ ] ^ _``) and ST
  (``ESC \\``) keep their own transitions. A test compares the two forms
  on generated streams in every mode, the pair split across two ``feed``
  calls too.
* Code points above U+00A0 inside an escape or control sequence header are
  not part of any valid sequence: in ESCAPE states they end the sequence
  without dispatch, in CSI/DCS headers they send it to the ignore state. In
  string payloads they are ordinary payload characters.
"""

from __future__ import annotations

import re

from ._accel import speedups

__all__ = [
    "ERASE",
    "LINE_SEQUENCES",
    "MAX_INTERMEDIATES",
    "MAX_PARAMS",
    "MAX_PARAM_CHARS",
    "MAX_PARAM_VALUE",
    "MAX_STRING_CHARS",
    "OVERSTRUCK",
    "OVERWRITE_CHAS",
    "OVERWRITE_ELS",
    "OVERWRITE_ERASES",
    "OVERWRITE_STARTS",
    "REP",
    "RUN_ITEMS",
    "SEQUENCE_ITEMS",
    "SGR_SPLIT",
    "CsiBodies",
    "ParsedParams",
    "Parser",
    "Performer",
    "csi_fields",
    "parse_params",
    "sequence_run_end",
    "sequence_run_end_by_regex",
]

#: Parameters per CSI/DCS sequence (vte uses 32; xterm 30).
MAX_PARAMS = 32
#: Characters in the raw parameter string; bounds the work of parsing it and
#: keeps ``int()`` far below CPython's digit limit (a 50 000-digit ReDoS input
#: is consumed and ignored).
MAX_PARAM_CHARS = 256
#: A single numeric parameter saturates here, as vte saturates at u16.
MAX_PARAM_VALUE = 65535
#: Intermediate bytes per sequence (vte: 2).
MAX_INTERMEDIATES = 2
#: OSC / DCS payload characters kept (xterm.js caps payloads at 10 MB; a
#: transcript needs only OSC 8 links, whose URIs are far shorter).
MAX_STRING_CHARS = 8192

# States, named as on the vt100.net diagram.
GROUND = 0
ESCAPE = 1
ESCAPE_INTERMEDIATE = 2
CSI_ENTRY = 3
CSI_PARAM = 4
CSI_INTERMEDIATE = 5
CSI_IGNORE = 6
DCS_ENTRY = 7
DCS_PARAM = 8
DCS_INTERMEDIATE = 9
DCS_PASSTHROUGH = 10
DCS_IGNORE = 11
OSC_STRING = 12
SOS_PM_APC_STRING = 13

STATE_NAMES = {
    GROUND: "GROUND",
    ESCAPE: "ESCAPE",
    ESCAPE_INTERMEDIATE: "ESCAPE_INTERMEDIATE",
    CSI_ENTRY: "CSI_ENTRY",
    CSI_PARAM: "CSI_PARAM",
    CSI_INTERMEDIATE: "CSI_INTERMEDIATE",
    CSI_IGNORE: "CSI_IGNORE",
    DCS_ENTRY: "DCS_ENTRY",
    DCS_PARAM: "DCS_PARAM",
    DCS_INTERMEDIATE: "DCS_INTERMEDIATE",
    DCS_PASSTHROUGH: "DCS_PASSTHROUGH",
    DCS_IGNORE: "DCS_IGNORE",
    OSC_STRING: "OSC_STRING",
    SOS_PM_APC_STRING: "SOS_PM_APC_STRING",
}

# Printable run in GROUND: everything but C0, DEL and C1, possibly with
# complete SGR sequences inside (the most common sequence by far: colour-heavy
# logs change style every few characters). The loop is unrolled so the regex
# engine scans character classes, not an alternation per character.
_PRINTABLE = r"[^\x00-\x1f\x7f-\x9f]"
_SGR = rf"\x1b\[[0-9;:]{{0,{MAX_PARAM_CHARS}}}m"
_TEXT = re.compile(rf"{_PRINTABLE}*+(?:{_SGR}{_PRINTABLE}*+)*+")
# The SGR sequences inside such a run; split() gives text, params, text, ...
SGR_SPLIT = re.compile(r"\x1b\[([0-9;:]*)m")
# A complete CSI sequence on the no-ignore path of the diagram: optional
# private marker, parameters, intermediates, final. Anything else (C0 inside,
# overflow, a marker after parameters, a split at the end of a chunk) takes
# the state machine, which produces the same dispatch.
_CSI = re.compile(
    "(?:\x1b\\[|\x9b)([<-?]?)"
    f"([0-9:;]{{0,{MAX_PARAM_CHARS}}})([ -/]{{0,{MAX_INTERMEDIATES}}})([@-~])"
)
# A complete OSC (payload within the cap, no C0 inside) or SOS/PM/APC string
# ended by BEL or ST: build logs put one before every line.
_STRING = re.compile(
    rf"\x1b(?:\]([^\x00-\x1f\x80-\x9f]{{0,{MAX_STRING_CHARS}}})|[X^_][^\x07\x18\x1a\x1b\x80-\x9f]*)"
    r"(?:\x07|\x1b\\)"
)
# A complete escape sequence (not CSI, a string, ST or an ESC Fe, which
# _as_c1 made C1 controls) with at most one intermediate, dispatched as the
# state machine would: floods of RIS, DECSC or DECALN cost no more than
# other sequences.
_ESCAPE_ITEM = re.compile(r"\x1b([ -/]?)((?<=[ -/])[0-~]|[0-?`-~])")
# One or more of them in a row.
_ESCAPES = re.compile(f"(?:{_ESCAPE_ITEM.pattern})+")
# C1 controls that start a sequence or string (or end one): the state
# machine's; every other C1 is simply executed in GROUND.
_C1_INTRODUCERS = frozenset("\x90\x98\x9b\x9c\x9d\x9e\x9f")
# Line ends, often repeated: "\r\n", "\r\r\n", blank lines.
_NEWLINES = re.compile(r"[\r\n]+")
# Whole lines of printable text (with SGR inside, as _TEXT), each ended by LF
# (after CRs, if any): most of a log, once a line has ended.
_TEXT_LINES = re.compile(rf"(?:{_TEXT.pattern}\r*+\n)++")
# A complete SOS, PM or APC string: never dispatched. Build logs put one
# before every line (ESC _ bk;t=... BEL), so lines with them are tried too.
_IGNORED_STRING = r"\x1b[X^_][^\x07\x18\x1a\x1b\x80-\x9f]*(?:\x07|\x1b\\)"
_IGNORED_STRINGS = re.compile(_IGNORED_STRING)
_TAGGED_LINES = re.compile(
    rf"(?:{_PRINTABLE}*+(?:(?:{_SGR}|{_IGNORED_STRING}){_PRINTABLE}*+)*+\r*+\n)++"
)
# The same with two more sequences and two controls, tried last
# (lines_with_sequences): REP (repeat the last printed character) or BS
# right after a printable ASCII character (not after another sequence: an
# SGR's final is ASCII too), BS only before another (overstrike, as man
# pages print bold and underlined letters: "N\bN", "_\bx"), EL erasing
# to the end of the line (grep and ls put one after each colour), and TAB
# (columns of text).
_REP = rf"\x1b\[[0-9]{{0,{MAX_PARAM_CHARS}}}b"
_EL = r"\x1b\[0?K"
_SEQUENCE_LINES = re.compile(
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
# _TEXT; an EL sequence erasing to the end of the line or the whole line may
# come right after the CR and right after the text ("\r\x1b[2K 10%", git's
# "\r 10%\x1b[K"). CHA to the first column may stand for the CR (Node's
# readline.cursorTo(0), which spinners use: "\x1b[1G\x1b[0K⠙ 10%").
_ERASE_ANY = r"\x1b\[[02]?K"
_TO_FIRST_COLUMN = r"\x1b\[1?G"
_OVERWRITES = re.compile(
    rf"(?:(?:\r|{_TO_FIRST_COLUMN})(?:{_ERASE_ANY})?+(?=(?:{_SGR})*+{_PRINTABLE})"
    rf"{_TEXT.pattern}(?:{_ERASE_ANY})?+)++"
)
# The usual case, plain text after CRs, is tried first: it is quicker.
_PLAIN_OVERWRITES = re.compile(rf"(?:\r{_PRINTABLE}++)++")
# The sequences _TO_FIRST_COLUMN and _ERASE_ANY take, for interpreters.
OVERWRITE_CHAS = ("\x1b[G", "\x1b[1G")
OVERWRITE_ELS = ("\x1b[K", "\x1b[0K", "\x1b[2K")


def _overwrites_at(text: str, i: int) -> re.Match[str] | None:
    """The overwrite run at the CR at ``i``, if any."""
    m = _PLAIN_OVERWRITES.match(text, i)
    if m is not None and not text.startswith("\x1b", m.end()):
        return m
    return _OVERWRITES.match(text, i)


# What starts each text of such runs; split() gives "", start, text, ...
OVERWRITE_STARTS = re.compile(rf"(\r|{_TO_FIRST_COLUMN})")
# The EL sequences of such runs; split() gives text, parameter, text, ...
OVERWRITE_ERASES = re.compile(r"\x1b\[([02]?)K")


def _sequence_item(group: str) -> str:
    """The pattern of an item of a sequence run, its parts in groups
    (``group`` is ``"("``) or not (``"(?:"``: the regex engine saves groups
    on every repetition), the item followed by printable text.

    A run of control sequences and C1 controls in GROUND, each followed by
    printable text, is handed over as one event (sequence_run) once many
    have come one by one: floods of cursor moves or of C1 controls. An item
    is a CSI sequence as _CSI takes it; a C1 control that is executed; ST,
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
# the SGR sequences _TEXT takes (the CSI branch leaves those), for
# interpreters that print text and SGR at once (print_with_sgr). Three
# entries an item, where SEQUENCE_ITEMS.split() would give seven, and a
# pattern that starts with a character class, which the regex engine scans
# for: 7 ms where the split with seven took 10, on 32 000 cursor moves.
RUN_ITEMS = re.compile(
    r"([\x1b\x80-\x8f\x91-\x97\x99-\x9b])(?:"
    rf"(?:(?<=\x1b)\[(?![0-9:;]{{0,{MAX_PARAM_CHARS}}}m)|(?<=\x9b))"
    rf"([<-?]?[0-9:;]{{0,{MAX_PARAM_CHARS}}}[ -/]{{0,{MAX_INTERMEDIATES}}}[@-~])"
    r"|(?<=[\x80-\x8f\x91-\x97\x99\x9a]))"
)
_CSI_FIELDS = re.compile(r"([<-?]?)([0-9:;]*)([ -/]*)([@-~])")


def csi_fields(body: str) -> tuple[str, str, str, str]:
    """A CSI sequence's body, as RUN_ITEMS takes it (``"?25h"``), as the
    arguments of csi_dispatch: private marker, parameters, intermediates,
    final (``("?", "25", "", "h")``)."""
    m = _CSI_FIELDS.fullmatch(body)
    if m is None:
        raise ValueError(f"not the body of a CSI sequence: {body!r}")
    private, params, intermediates, final = m.groups()
    return private, params, intermediates, final


# Possessive: items cannot be cut another way, and it is faster.
_SEQUENCE_RUN = re.compile(f"(?:{_sequence_item('(?:')}){{2,}}+")


def sequence_run_end_by_regex(text: str, start: int) -> int:
    """Where the sequence run (two items or more) from ``start`` ends, or
    -1 if there is none."""
    m = _SEQUENCE_RUN.match(text, start)
    return -1 if m is None else m.end()


def _sequence_run_end_in_c(text: str, start: int) -> int:
    """The same, by the C scan of _speedups (about 1 ns a character where
    the regex takes about 10 on floods of C1 controls)."""
    return speedups.sequence_run_end(text, start, MAX_PARAM_CHARS, MAX_INTERMEDIATES)


sequence_run_end = sequence_run_end_by_regex if speedups is None else _sequence_run_end_in_c

# Items one by one before a sequence_run is tried (and again after each try).
_GROUP_AFTER = 16

# Runs consumed at once inside sequences and strings.
_PARAM_RUN = re.compile(r"[0-9:;]+")
_IGNORE_RUN = re.compile(r"[ -?\x7f]+")
_OSC_RUN = re.compile(r"[^\x00-\x1f\x80-\x9f]+")
_PASSTHROUGH_RUN = re.compile(r"[^\x18\x1a\x1b\x7f-\x9f]+")
_SOS_RUN = re.compile(r"[^\x07\x18\x1a\x1b\x80-\x9f]+")


# (entry, param, intermediate, ignore) states of a DCS header and of a CSI.
_HEADER_STATES = {
    False: (DCS_ENTRY, DCS_PARAM, DCS_INTERMEDIATE, DCS_IGNORE),
    True: (CSI_ENTRY, CSI_PARAM, CSI_INTERMEDIATE, CSI_IGNORE),
}

# (state, (private, params, intermediates, final), payload) of a string that
# saw ESC and is dispatched only if ST follows.
_PendingString = tuple[int, tuple[str, str, str, str], str]


# Marks "ESC arrived inside a string that will not be dispatched", so that the
# ST it may start is not reported as an escape sequence either.
_NOTHING: _PendingString = (GROUND, ("", "", "", ""), "")
_STRING_STATES = frozenset(
    (
        DCS_ENTRY,
        DCS_PARAM,
        DCS_INTERMEDIATE,
        DCS_PASSTHROUGH,
        DCS_IGNORE,
        OSC_STRING,
        SOS_PM_APC_STRING,
    )
)


class Performer:
    """Receives what the parser recognises. Every method is a no-op here."""

    def print(self, text: str) -> None:
        """A run of printable characters (no C0, DEL or C1 inside)."""

    def print_with_sgr(self, run: str) -> None:
        """Printable text with complete SGR sequences (``ESC [ params m``)
        inside. By default, the same calls as if they had come one by one."""
        parts = SGR_SPLIT.split(run)
        if parts[0]:
            self.print(parts[0])
        for index in range(1, len(parts), 2):
            self.csi_dispatch("", parts[index], "", "m")
            if parts[index + 1]:
                self.print(parts[index + 1])

    def execute(self, control: str) -> None:
        """A C0 control, or a C1 control that does not start a sequence."""

    def execute_run(self, run: str) -> None:
        """Two or more CR and LF controls in a row. By default, the same
        calls as if they had come one by one."""
        for control in run:
            self.execute(control)

    def text_lines(self, run: str) -> None:
        """Lines of printable text, each ended by LF after any number of
        CRs, with complete SGR sequences inside (as ``print_with_sgr``):
        ``"a\\x1b[1mb\\x1b[0m\\n\\nc\\r\\n"``. By default, the same calls
        as if they had come one by one."""
        for line in run.split("\n")[:-1]:
            text = line.rstrip("\r")
            self._print_text(text)
            self._line_end(line[len(text) :] + "\n")

    def lines_with_sequences(self, run: str) -> None:
        """Lines as ``text_lines``, with more inside: REP (``ESC [ count
        b``) right after a printable ASCII character, BS between two
        printable ASCII characters, EL erasing to the end of the line
        (``ESC [ K``, ``ESC [ 0 K``) and TAB:
        ``"a\\x1b[79b\\x1b[31m\\x1b[Kb\\tc_\\x08d\\r\\n"``. By default, the
        same calls as if they had come one by one."""
        for line in run.split("\n")[:-1]:
            text = line.rstrip("\r")
            parts = LINE_SEQUENCES.split(text)
            self._print_text(parts[0])
            for index in range(1, len(parts), 4):
                control = parts[index + 2]
                if control is None:
                    self.csi_dispatch("", parts[index], "", parts[index + 1])
                else:
                    self.execute(control)
                self._print_text(parts[index + 3])
            self._line_end(line[len(text) :] + "\n")

    def _print_text(self, text: str) -> None:
        if "\x1b" in text:
            self.print_with_sgr(text)
        elif text:
            self.print(text)

    def _line_end(self, ends: str) -> None:
        if len(ends) > 1:
            self.execute_run(ends)
        else:
            self.execute("\n")

    def overwrite_run(self, run: str) -> None:
        """CRs (or CHA to the first column: ``ESC [ G``, ``ESC [ 1 G``),
        each followed by text: printable characters (at least one) with
        complete SGR sequences among them, as ``print_with_sgr``, and maybe
        an EL sequence erasing to the end of the line or the whole line
        (``ESC [ K``, ``ESC [ 0 K``, ``ESC [ 2 K``) right after the CR and
        right after the text: ``"\\r10%\\r\\x1b[2K\\x1b[1m20%\\x1b[0m\\x1b[K"``.
        By default, the same calls as if they had come one by one."""
        units = OVERWRITE_STARTS.split(run)
        for start, unit in zip(units[1::2], units[2::2], strict=True):
            if start == "\r":
                self.execute("\r")
            else:
                self.csi_dispatch("", start[2:-1], "", "G")
            if "\x1b" not in unit:
                self.print(unit)
                continue
            parts = OVERWRITE_ERASES.split(unit)
            self._print_text(parts[0])
            for index in range(1, len(parts), 2):
                self.csi_dispatch("", parts[index], "", "K")
                self._print_text(parts[index + 1])

    def sequence_run(self, run: str) -> None:
        """Control sequences and C1 controls, each followed by printable
        text (no C0, DEL, C1 or escape sequence): ``"\\x1b[5;1Hx\\x1b[6;1Hy"``,
        ``"\\x84a\\x85b"``. ST and strings started by a C1 control and
        aborted by another before any C0 control may be in it; they
        dispatch nothing. By default, the same calls as if they had come
        one by one (see SEQUENCE_ITEMS)."""
        for private, params, intermediates, final, control, text in SEQUENCE_ITEMS.findall(run):
            if final:
                self.csi_dispatch(private, params, intermediates, final)
            elif control:
                self.execute(control)
            if text:
                self.print(text)

    def escape_run(self, run: str) -> None:
        """Escape sequences in a row (not CSI, strings or ST), as
        ``esc_dispatch`` takes them: ``"\\x1b7\\x1b8\\x1b(0"``. By
        default, the same calls as if they had come one by one."""
        esc_dispatch = self.esc_dispatch
        for intermediates, final in _ESCAPE_ITEM.findall(run):
            esc_dispatch(intermediates, final)

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        """A complete control sequence; ``params`` is raw (see parse_params)."""

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        """A complete escape sequence (not CSI, OSC, DCS or a string)."""

    def osc_dispatch(self, payload: str) -> None:
        """An operating system command ended by ST or BEL."""

    def dcs_dispatch(
        self, private: str, params: str, intermediates: str, final: str, payload: str
    ) -> None:
        """A device control string ended by ST."""


def parse_params(raw: str) -> tuple[int | tuple[int, ...], ...]:
    """Parse a raw parameter string into values.

    ``""`` gives ``()``; an empty parameter is 0 (callers apply defaults);
    a parameter with colon sub-parameters becomes a tuple (``"38:2::1:2:3"``
    gives ``((38, 2, 0, 1, 2, 3),)``). Values saturate at MAX_PARAM_VALUE.
    Extra parameters beyond MAX_PARAMS are dropped.
    """
    if not raw:
        return ()
    out: list[int | tuple[int, ...]] = []
    for part in raw.split(";")[:MAX_PARAMS]:
        if ":" in part:
            out.append(tuple(_value(p) for p in part.split(":")))
        else:
            out.append(_value(part))
    return tuple(out)


#: Entries a model's ParsedParams or CsiBodies keeps before it starts afresh.
MAX_CACHED_SEQUENCES = 4096


class ParsedParams(dict[str, tuple[int | tuple[int, ...], ...]]):
    """parse_params of each raw parameter string a model has seen (logs
    repeat a few hundred). Each model has its own: no stream can empty
    another's."""

    __slots__ = ()

    def __missing__(self, raw: str) -> tuple[int | tuple[int, ...], ...]:
        if len(self) >= MAX_CACHED_SEQUENCES:
            self.clear()
        value = self[raw] = parse_params(raw)
        return value


class CsiBodies(dict[str, tuple[str, str, str, str]]):
    """csi_fields of each control sequence body a model has seen."""

    __slots__ = ()

    def __missing__(self, body: str) -> tuple[str, str, str, str]:
        if len(self) >= MAX_CACHED_SEQUENCES:
            self.clear()
        value = self[body] = csi_fields(body)
        return value


def _value(digits: str) -> int:
    if not digits:
        return 0
    if len(digits) > 5:
        return MAX_PARAM_VALUE
    return min(int(digits), MAX_PARAM_VALUE)


def _as_c1(text: str) -> str:
    """``text`` with each ESC Fe escape sequence replaced by the C1 control
    it stands for (see the module docstring)."""
    if _FE.search(text) is None:  # one pass for the usual answer
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


class Parser:
    """The vt100.net state machine over decoded text, calling a Performer."""

    __slots__ = (
        "_collect",
        "_final",
        "_ignore",
        "_items",
        "_params",
        "_payload",
        "_payload_len",
        "_perform",
        "_private",
        "_state",
        "_string_end",
    )

    def __init__(self, performer: Performer) -> None:
        self._perform = performer
        self._payload: list[str] = []
        self._items = 0
        self._enter(GROUND)
        # Set when ESC arrives inside a string: the string is dispatched only
        # if the ESC turns out to start ST (ESC \\).
        self._string_end: _PendingString | None = None

    @property
    def state(self) -> str:
        """The current state's name, as on the vt100.net diagram."""
        return STATE_NAMES[self._state]

    def feed(self, text: str) -> None:
        """Parse ``text``; state carries over to the next call."""
        text = _as_c1(text)
        i = 0
        n = len(text)
        while i < n:
            if self._state == GROUND:
                i = self._ground(text, i, n)
                if i == n:
                    break
            i = self._advance(text, i)

    def _ground(self, text: str, i: int, n: int) -> int:
        """The fast paths of GROUND: consume from ``i`` what needs no state
        machine and return where it is needed (or ``n``)."""
        perform = self._perform
        text_match = _TEXT.match
        csi_match = _CSI.match
        string_match = _STRING.match
        escapes_match = _ESCAPES.match
        newlines_match = _NEWLINES.match
        overwrites_match = _OVERWRITES.match
        lines_match = _TEXT_LINES.match
        tagged_lines_match = _TAGGED_LINES.match
        run_end = sequence_run_end
        after_text = False  # a run just ended: no text (or SGR) can follow
        items = self._items  # sequences and C1 controls since a sequence_run was tried
        while i < n:
            if not after_text:
                end = text_match(text, i).end()  # type: ignore[union-attr]  # matches ""
                if end > i:
                    run = text[i:end]
                    i = end
                    if "\x1b" in run:
                        perform.print_with_sgr(run)
                    else:
                        perform.print(run)
                    after_text = True
                    continue
            after_text = False
            c = text[i]
            if (
                c == "\x1b"
                and text.startswith(OVERWRITE_CHAS, i)
                and (m := overwrites_match(text, i)) is not None
            ):
                perform.overwrite_run(m.group())
                i = m.end()
                continue
            if items >= _GROUP_AFTER and (c == "\x1b" or "\x80" <= c <= "\x9f"):
                items = 0
                end = run_end(text, i)
                if end >= 0:
                    perform.sequence_run(text[i:end])
                    i = end
                    after_text = True  # the run ends with all the text there is
                    continue
            if c == "\x1b" or c == "\x9b":
                introducer = text[i + 1 : i + 2] if c == "\x1b" else "["
                if introducer == "[":
                    m = csi_match(text, i)
                    if m is not None:
                        i = m.end()
                        items += 1
                        perform.csi_dispatch(*m.groups())
                        continue
                elif introducer and introducer in "]_^X":
                    m = string_match(text, i)
                    if m is not None:
                        i = m.end()
                        payload = m.group(1)
                        if payload is not None:
                            perform.osc_dispatch(payload)
                        continue
                elif c == "\x1b" and (m := escapes_match(text, i)) is not None:
                    i = m.end()
                    self._string_end = None
                    if m.end() - m.start() <= 3:  # one: ESC, intermediate, final
                        perform.esc_dispatch(*_ESCAPE_ITEM.match(text, m.start()).groups())  # type: ignore[union-attr]
                    else:
                        perform.escape_run(m.group())
                    continue
                self._items = items
                return i
            if c == "\n" or c == "\r":
                end = newlines_match(text, i).end()  # type: ignore[union-attr]  # matches c
                if end - i > 1:
                    perform.execute_run(text[i:end])
                elif c == "\r" and (m := _overwrites_at(text, i)) is not None:
                    end = m.end()
                    perform.overwrite_run(text[i:end])
                else:
                    perform.execute(c)
                i = end
                if text[end - 1] == "\n":
                    if (m := lines_match(text, end)) is not None:
                        i = m.end()
                        perform.text_lines(text[end:i])
                    elif (m := tagged_lines_match(text, end)) is not None:
                        i = m.end()
                        perform.text_lines(_IGNORED_STRINGS.sub("", text[end:i]))
                    elif (m := _SEQUENCE_LINES.match(text, end)) is not None:
                        i = m.end()
                        perform.lines_with_sequences(_IGNORED_STRINGS.sub("", text[end:i]))
            elif c < "\x80":
                i += 1
                if c != "\x7f":
                    perform.execute(c)
            elif c not in _C1_INTRODUCERS:
                i += 1
                items += 1
                perform.execute(c)
            else:
                self._items = items + 1
                return i
        self._items = items
        return i

    def finish(self) -> None:
        """End of input: an open sequence or string is dropped, not dispatched."""
        self._enter_ground()

    # -- the state machine -------------------------------------------------

    def _advance(self, text: str, i: int) -> int:
        """Consume at least one character at ``i``; return the next index."""
        c = text[i]
        o = ord(c)
        # Anywhere transitions.
        if o == 0x1B:
            self._enter_escape()
            return i + 1
        if o == 0x18 or o == 0x1A:
            self._string_end = None
            self._enter_ground()
            return i + 1
        if 0x80 <= o <= 0x9F:
            return self._c1(o, i)
        state = self._state
        if state == GROUND:  # only reached for code points >= U+00A0 after a split
            self._perform.print(c)
            return i + 1
        if state == ESCAPE:
            return self._escape(text, i, o)
        if state == ESCAPE_INTERMEDIATE:
            return self._escape_intermediate(o, i)
        if state in (CSI_ENTRY, CSI_PARAM, CSI_INTERMEDIATE):
            return self._header(text, i, o)
        if state == CSI_IGNORE:
            return self._csi_ignore(text, i, o)
        if state in (DCS_ENTRY, DCS_PARAM, DCS_INTERMEDIATE):
            return self._header(text, i, o)
        if state == DCS_PASSTHROUGH:
            return self._dcs_passthrough(text, i)
        if state == DCS_IGNORE:
            return i + 1
        if state == OSC_STRING:
            return self._osc_string(text, i, o)
        return self._sos_pm_apc_string(text, i, o)

    def _c1(self, o: int, i: int) -> int:
        self._string_end = None
        if o == 0x9C:  # ST
            self._end_string()
        elif o == 0x9B:
            self._enter_ground()
            self._enter(CSI_ENTRY)
        elif o == 0x9D:
            self._enter_ground()
            self._enter(OSC_STRING)
        elif o == 0x90:
            self._enter_ground()
            self._enter(DCS_ENTRY)
        elif o in (0x98, 0x9E, 0x9F):
            self._enter_ground()
            self._enter(SOS_PM_APC_STRING)
        else:
            self._enter_ground()
            self._perform.execute(chr(o))
        return i + 1

    def _escape(self, text: str, i: int, o: int) -> int:
        if o < 0x20:
            self._perform.execute(chr(o))
        elif o == 0x7F:
            pass
        elif o <= 0x2F:
            self._collect_char(chr(o))
            self._state = ESCAPE_INTERMEDIATE
        elif o == 0x5B:  # [
            self._enter(CSI_ENTRY)
        elif o == 0x5D:  # ]
            self._enter(OSC_STRING)
        elif o == 0x50:  # P
            self._enter(DCS_ENTRY)
        elif o in (0x58, 0x5E, 0x5F):  # X ^ _
            self._enter(SOS_PM_APC_STRING)
        elif o <= 0x7E:
            self._esc_dispatch(chr(o))
        else:
            self._enter_ground()
        return i + 1

    def _escape_intermediate(self, o: int, i: int) -> int:
        if o < 0x20:
            self._perform.execute(chr(o))
        elif o == 0x7F:
            pass
        elif o <= 0x2F:
            self._collect_char(chr(o))
        elif o <= 0x7E:
            self._esc_dispatch(chr(o))
        else:
            self._enter_ground()
        return i + 1

    def _esc_dispatch(self, final: str) -> None:
        pending = self._string_end
        self._string_end = None
        if final == "\\" and not self._collect and pending is not None:
            # ST ending a string: dispatch it if it was kept, and nothing else.
            if pending is not _NOTHING:
                self._dispatch_string(pending)
        elif not self._ignore:
            if not self._collect and "@" <= final <= "_" and final != "\\":  # ESC Fe
                self._perform.execute(chr(ord(final) + 0x40))
            else:
                self._perform.esc_dispatch(self._collect, final)
        self._state = GROUND

    def _header(self, text: str, i: int, o: int) -> int:
        """CSI_ENTRY/PARAM/INTERMEDIATE and DCS_ENTRY/PARAM/INTERMEDIATE: the
        same transitions, except that C0 is executed in a CSI and ignored in
        a DCS header, and the final byte dispatches a CSI but starts a DCS's
        passthrough."""
        state = self._state
        csi = state <= CSI_IGNORE
        entry, param, intermediate, ignore = _HEADER_STATES[csi]
        if o < 0x20:
            if csi:
                self._perform.execute(chr(o))
            return i + 1
        if o == 0x7F:
            return i + 1
        if 0x30 <= o <= 0x3B and state != intermediate:
            m = _PARAM_RUN.match(text, i)
            assert m is not None
            self._add_params(m.group())
            self._state = param
            return m.end()
        if 0x3C <= o <= 0x3F and state == entry:
            self._private = chr(o)
            self._state = param
            return i + 1
        if 0x20 <= o <= 0x2F:
            self._collect_char(chr(o))
            self._state = intermediate
            return i + 1
        if 0x40 <= o <= 0x7E:
            if not csi:
                self._final = chr(o)
                self._state = DCS_PASSTHROUGH
                return i + 1
            if not self._ignore:
                self._perform.csi_dispatch(self._private, self._params, self._collect, chr(o))
            self._state = GROUND
            return i + 1
        # A marker after parameters, a parameter after an intermediate, or a
        # code point above ASCII.
        self._state = ignore
        return i + 1

    def _csi_ignore(self, text: str, i: int, o: int) -> int:
        if o < 0x20:
            self._perform.execute(chr(o))
            return i + 1
        if 0x40 <= o <= 0x7E:
            self._state = GROUND
            return i + 1
        m = _IGNORE_RUN.match(text, i)
        return m.end() if m is not None else i + 1

    def _dcs_passthrough(self, text: str, i: int) -> int:
        m = _PASSTHROUGH_RUN.match(text, i)
        if m is None:  # DEL
            return i + 1
        self._put(m.group())
        return m.end()

    def _osc_string(self, text: str, i: int, o: int) -> int:
        if o == 0x07:  # BEL ends OSC (xterm)
            self._end_string()
            return i + 1
        if o < 0x20:
            return i + 1
        m = _OSC_RUN.match(text, i)
        assert m is not None
        self._put(m.group())
        return m.end()

    def _sos_pm_apc_string(self, text: str, i: int, o: int) -> int:
        if o == 0x07:
            self._state = GROUND
            return i + 1
        m = _SOS_RUN.match(text, i)
        return m.end() if m is not None else i + 1

    # -- actions -----------------------------------------------------------

    def _enter(self, state: int) -> None:
        self._state = state
        self._private = ""
        self._params = ""
        self._collect = ""
        self._final = ""
        self._ignore = False
        if self._payload:
            self._payload = []
        self._payload_len = 0

    def _enter_ground(self) -> None:
        self._enter(GROUND)

    def _enter_escape(self) -> None:
        state = self._state
        if state in _STRING_STATES:
            # Maybe the first half of ST: decide on the next character.
            dispatchable = state in (OSC_STRING, DCS_PASSTHROUGH) and not self._ignore
            self._string_end = self._pending_string() if dispatchable else _NOTHING
        else:
            self._string_end = None
        self._enter(ESCAPE)

    def _end_string(self) -> None:
        state = self._state
        if state in (OSC_STRING, DCS_PASSTHROUGH) and not self._ignore:
            self._dispatch_string(self._pending_string())
        self._enter_ground()

    def _pending_string(self) -> _PendingString:
        header = (self._private, self._params, self._collect, self._final)
        return (self._state, header, "".join(self._payload))

    def _dispatch_string(self, pending: _PendingString) -> None:
        state, (private, params, collect, final), payload = pending
        if state == OSC_STRING:
            self._perform.osc_dispatch(payload)
        else:
            self._perform.dcs_dispatch(private, params, collect, final, payload)

    def _put(self, chunk: str) -> None:
        if self._ignore:
            return
        self._payload_len += len(chunk)
        if self._payload_len > MAX_STRING_CHARS:
            self._ignore = True
            self._payload = []
            return
        self._payload.append(chunk)

    def _add_params(self, chunk: str) -> None:
        if self._ignore:
            return
        params = self._params + chunk
        if len(params) > MAX_PARAM_CHARS:
            self._ignore = True
            self._params = ""
        else:
            self._params = params

    def _collect_char(self, c: str) -> None:
        if len(self._collect) >= MAX_INTERMEDIATES:
            self._ignore = True
        else:
            self._collect += c
