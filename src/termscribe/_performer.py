"""What the parser calls: the events of a ``Performer``.

The vte-like events (``print``, ``execute``, ``csi_dispatch``,
``esc_dispatch``, ``osc_dispatch``, ``dcs_dispatch``), and one more:
``run(kind, text)``, a run of several of them that the parser recognised
at once (the kinds are below; ``_grammar`` has each one's pattern). An
interpreter may take a run whole, as long as it ends where the events one
by one would; by default ``run`` replays it (``replay``): exactly the calls
the state machine makes, so that an interpreter that takes no run at once
needs nothing but the vte-like events.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from ._grammar import (
    ESCAPE_ITEM,
    LINE_SEQUENCES,
    OVERWRITE_ERASES,
    OVERWRITE_STARTS,
    SEQUENCE_ITEMS,
    sgr_split,
)

__all__ = [
    "ESCAPE_RUN",
    "LINES",
    "LINES_WITH_SEQUENCES",
    "LINE_ENDS",
    "OVERWRITE_RUN",
    "OVERWRITTEN_LINES",
    "REPLAYS",
    "RUN_KINDS",
    "SEQUENCE_RUN",
    "TEXT_WITH_SGR",
    "Performer",
    "overwrite_unit",
    "replay",
]

# The kinds of run (``Performer.run``), each with an example.

#: Printable text with complete SGR sequences (``ESC [ params m``) inside:
#: ``"a\x1b[1mb\x1b[0m"``.
TEXT_WITH_SGR: Final = 0
#: Two or more CR and LF controls in a row: ``"\r\r\n"``.
LINE_ENDS: Final = 1
#: CRs (or CHA to the first column: ``ESC [ G``, ``ESC [ 1 G``), each
#: followed by text: printable characters (at least one) with complete SGR
#: sequences among them, and maybe an EL sequence erasing to the end of the
#: line or the whole line (``ESC [ K``, ``ESC [ 0 K``, ``ESC [ 2 K``) right
#: after the CR and right after the text:
#: ``"\r10%\r\x1b[2K\x1b[1m20%\x1b[0m\x1b[K"``.
OVERWRITE_RUN: Final = 2
#: Lines of printable text after a line end, each ended by LF after any
#: number of CRs, with complete SGR sequences inside (as TEXT_WITH_SGR):
#: ``"a\x1b[1mb\x1b[0m\n\nc\r\n"``.
LINES: Final = 3
#: Lines as LINES, with more inside: REP (``ESC [ count b``) right after a
#: printable ASCII character, BS between two printable ASCII characters, EL
#: erasing to the end of the line (``ESC [ K``, ``ESC [ 0 K``) and TAB:
#: ``"a\x1b[79b\x1b[31m\x1b[Kb\tc_\x08d\r\n"``.
LINES_WITH_SEQUENCES: Final = 4
#: Control sequences and C1 controls, each followed by printable text (no
#: C0, DEL, C1 or escape sequence): ``"\x1b[5;1Hx\x1b[6;1Hy"``,
#: ``"\x84a\x85b"``. ST and strings started by a C1 control and aborted by
#: another before any C0 control may be in it; they dispatch nothing.
SEQUENCE_RUN: Final = 5
#: Escape sequences in a row (not CSI, strings or ST), as ``esc_dispatch``
#: takes them: ``"\x1b7\x1b8\x1b(0"``.
ESCAPE_RUN: Final = 6
#: Lines after a line end, each printable text and CRs anywhere in it
#: (at least one line; no escape sequence), ended by LF: a progress bar
#: redrawn after CRs, then ended, line after line:
#: ``"\r10%\r55%\r100%\r\ndone\n"``.
OVERWRITTEN_LINES: Final = 7
#: Their names, by kind.
RUN_KINDS: Final = (
    "TEXT_WITH_SGR",
    "LINE_ENDS",
    "OVERWRITE_RUN",
    "LINES",
    "LINES_WITH_SEQUENCES",
    "SEQUENCE_RUN",
    "ESCAPE_RUN",
    "OVERWRITTEN_LINES",
)


class Performer:
    """Receives what the parser recognises. Every event but ``run`` is a
    no-op here."""

    def print(self, text: str) -> None:
        """A run of printable characters (no C0, DEL or C1 inside)."""

    def execute(self, control: str) -> None:
        """A C0 control, or a C1 control that does not start a sequence."""

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

    def run(self, kind: int, text: str) -> None:
        """A run of several events, of ``kind`` (see RUN_KINDS). By
        default, the same calls as if they had come one by one."""
        REPLAYS[kind](self, text)


def replay(performer: Performer, kind: int, text: str) -> None:
    """Make the calls a run of ``kind`` stands for, one by one, on
    ``performer`` (what ``Performer.run`` does by default; an interpreter
    that takes some runs whole calls it, or ``REPLAYS[kind]``, for the
    others)."""
    REPLAYS[kind](performer, text)


def _text_with_sgr(m: Performer, run: str) -> None:
    parts = sgr_split(run)
    if parts[0]:
        m.print(parts[0])
    for index in range(1, len(parts), 2):
        m.csi_dispatch("", parts[index], "", "m")
        if parts[index + 1]:
            m.print(parts[index + 1])


def _line_ends(m: Performer, run: str) -> None:
    for control in run:
        m.execute(control)


def _lines(m: Performer, run: str) -> None:
    for line in run.split("\n")[:-1]:
        text = line.rstrip("\r")
        _print_text(m, text)
        _line_end(m, line[len(text) :] + "\n")


def _lines_with_sequences(m: Performer, run: str) -> None:
    for line in run.split("\n")[:-1]:
        text = line.rstrip("\r")
        parts = LINE_SEQUENCES.split(text)
        _print_text(m, parts[0])
        for index in range(1, len(parts), 4):
            control = parts[index + 2]
            if control is None:
                m.csi_dispatch("", parts[index], "", parts[index + 1])
            else:
                m.execute(control)
            _print_text(m, parts[index + 3])
        _line_end(m, line[len(text) :] + "\n")


def _print_text(m: Performer, text: str) -> None:
    if "\x1b" in text:
        m.run(TEXT_WITH_SGR, text)
    elif text:
        m.print(text)


def _line_end(m: Performer, ends: str) -> None:
    if len(ends) > 1:
        m.run(LINE_ENDS, ends)
    else:
        m.execute("\n")


def _overwrites(m: Performer, run: str) -> None:
    units = OVERWRITE_STARTS.split(run)
    for start, unit in zip(units[1::2], units[2::2], strict=True):
        if start == "\r":
            m.execute("\r")
        else:
            m.csi_dispatch("", start[2:-1], "", "G")
        overwrite_unit(m, unit)


def overwrite_unit(m: Performer, unit: str) -> None:
    """The calls of what follows one CR (or CHA) of an OVERWRITE_RUN, up to
    the next: text, maybe with SGR sequences, and EL sequences."""
    if "\x1b" not in unit:
        m.print(unit)
        return
    parts = OVERWRITE_ERASES.split(unit)
    _print_text(m, parts[0])
    for index in range(1, len(parts), 2):
        m.csi_dispatch("", parts[index], "", "K")
        _print_text(m, parts[index + 1])


def _sequences(m: Performer, run: str) -> None:
    for private, params, intermediates, final, control, text in SEQUENCE_ITEMS.findall(run):
        if final:
            m.csi_dispatch(private, params, intermediates, final)
        elif control:
            m.execute(control)
        if text:
            m.print(text)


def _escape_run(m: Performer, run: str) -> None:
    esc_dispatch = m.esc_dispatch
    for intermediates, final in ESCAPE_ITEM.findall(run):
        esc_dispatch(intermediates, final)


def _overwritten_lines(m: Performer, run: str) -> None:
    parts = _LINE_CONTROLS.split(run)  # text, control, text, ...
    if parts[0]:
        m.print(parts[0])
    for index in range(1, len(parts), 2):
        m.execute(parts[index])
        if parts[index + 1]:
            m.print(parts[index + 1])


_LINE_CONTROLS = re.compile(r"([\r\n])")

#: The calls one by one, by kind: ``REPLAYS[kind](performer, text)``.
REPLAYS: tuple[Callable[[Performer, str], None], ...] = (
    _text_with_sgr,
    _line_ends,
    _overwrites,
    _lines,
    _lines_with_sequences,
    _sequences,
    _escape_run,
    _overwritten_lines,
)
