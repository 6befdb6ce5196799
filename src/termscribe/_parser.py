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
* In GROUND, a stretch of complete items (printable runs with the SGR
  sequences among them, control sequences, strings, escape sequences and
  controls: the grammar is in ``_grammar``) is found by one scan and handed
  over at once, ``Performer.batch(parts)``; by default, and always with
  ``one_by_one`` (``TERMSCRIBE_ONE_BY_ONE=1``), it becomes the calls one by
  one (``_performer.replay``), exactly those the state machine would make.
  A printable run alone is one ``print``. The parser batches by syntax
  only: it never looks at what a sequence means. Character-by-character
  work happens only inside other escape sequences, and string payloads are
  consumed in runs.

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
from collections.abc import Callable
from functools import partial

from ._grammar import as_c1, batch_parts
from ._performer import ONE_BY_ONE, Performer, replay
from ._syntax import MAX_INTERMEDIATES, MAX_PARAM_CHARS, MAX_STRING_CHARS

__all__ = ["STATE_NAMES", "Parser", "Performer"]

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


class Parser:
    """The vt100.net state machine over decoded text, calling a Performer."""

    __slots__ = (
        "_batch",
        "_collect",
        "_final",
        "_ignore",
        "_params",
        "_payload",
        "_payload_len",
        "_perform",
        "_private",
        "_state",
        "_string_end",
    )

    def __init__(self, performer: Performer, *, one_by_one: bool = ONE_BY_ONE) -> None:
        """A parser calling ``performer``; ``one_by_one`` replays every
        batch event by event rather than handing it to the performer's
        ``batch`` (see ``_performer.ONE_BY_ONE``)."""
        self._perform = performer
        self._batch: Callable[[list[str]], None] = (
            partial(replay, performer) if one_by_one else performer.batch
        )
        self._payload: list[str] = []
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
        text = as_c1(text)
        i = 0
        n = len(text)
        while i < n:
            if self._state == GROUND:
                i = self._ground(text, i, n)
                if i == n:
                    break
            i = self._advance(text, i)

    def _ground(self, text: str, i: int, n: int) -> int:
        """The fast path of GROUND: the batch at ``i`` (see ``_grammar``),
        handed over at once; returns where the state machine is needed (or
        ``n``)."""
        end, parts = batch_parts(text, i)
        if end > i:
            self._string_end = None
            if len(parts) == 1:
                text_only = parts[0]
                if "\x1b" in text_only:
                    self._batch(parts)
                else:
                    self._perform.print(text_only)
            else:
                self._batch(parts)
        return end

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
        if state == GROUND:  # DEL, which is ignored (xterm): the batches take the rest
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
