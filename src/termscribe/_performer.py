"""What the parser calls: the events of a ``Performer``.

The vte-like events (``print``, ``execute``, ``csi_dispatch``,
``esc_dispatch``, ``osc_dispatch``, ``dcs_dispatch``), and one hook for
what the parser recognised at once: ``batch(parts)``, a stretch of texts
and items in a row (the grammar and the shape of ``parts`` are in
``_grammar``). By default ``batch`` replays the parts (``replay``): exactly
the calls the state machine would make for them, one by one. A model may
execute a batch itself, provided it calls, for each item, the same
functions its events call, so that each control keeps one meaning; the
``TERMSCRIBE_ONE_BY_ONE=1`` switch (``ONE_BY_ONE``) makes the parser
replay every batch instead, and a test holds both equal.
"""

from __future__ import annotations

import os
from typing import Final

from ._grammar import sgr_split
from ._syntax import csi_fields

__all__ = [
    "IGNORED_STRINGS",
    "ONE_BY_ONE",
    "Performer",
    "dispatch_item",
    "replay",
    "replay_text",
]

#: Whether every batch is replayed event by event (no model executes one
#: itself): set by ``TERMSCRIBE_ONE_BY_ONE=1`` in the environment, read once
#: at import (as ``TERMSCRIBE_PURE_PYTHON``). The output is the same either
#: way; the switch is the oracle the batch executors are held to.
ONE_BY_ONE: Final = os.environ.get("TERMSCRIBE_ONE_BY_ONE", "") == "1"


class Performer:
    """Receives what the parser recognises. Every event but ``batch`` is a
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

    def batch(self, parts: list[str]) -> None:
        """A batch (see ``_grammar``): texts and items alternating. By
        default, the same calls as if they had come one by one."""
        replay(self, parts)


def replay(performer: Performer, parts: list[str]) -> None:
    """Make the calls a batch stands for, one by one, on ``performer``."""
    text = parts[0]
    if text:
        replay_text(performer, text)
    for index in range(1, len(parts), 2):
        dispatch_item(performer, parts[index])
        text = parts[index + 1]
        if text:
            replay_text(performer, text)


def replay_text(performer: Performer, text: str) -> None:
    """The calls of a batch's text: its printable runs and SGR sequences."""
    if "\x1b" not in text:
        performer.print(text)
        return
    pieces = sgr_split(text)
    if pieces[0]:
        performer.print(pieces[0])
    for index in range(1, len(pieces), 2):
        performer.csi_dispatch("", pieces[index], "", "m")
        if pieces[index + 1]:
            performer.print(pieces[index + 1])


#: What follows ESC in the SOS, PM and APC strings a batch may hold
#: (``ESC X``, ``ESC ^``, ``ESC _``): the parser dispatches nothing for
#: them (the sos/pm/apc string state of vt100.net's parser ignores them).
IGNORED_STRINGS = frozenset("X^_")


def dispatch_item(performer: Performer, item: str) -> None:
    """The call one item of a batch stands for (see ``_grammar``)."""
    lead = item[0]
    if lead == "\x1b":
        kind = item[1]
        if kind == "[":
            performer.csi_dispatch(*csi_fields(item[2:]))
        elif kind == "]":
            performer.osc_dispatch(item[2:-1] if item[-1] == "\x07" else item[2:-2])
        elif kind not in IGNORED_STRINGS:
            performer.esc_dispatch(item[1:-1], item[-1])
    elif lead == "\x9b":
        performer.csi_dispatch(*csi_fields(item[1:]))
    else:
        performer.execute(item)
