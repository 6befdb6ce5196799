"""Text and JSON reports of a `SessionLog`, produced piece by piece.

The ``iter_*`` functions yield the report in pieces so a caller can write it
out as it goes; transcripts come from a `TranscriptSource`, by default the
store's own (`IN_MEMORY`), or one that keeps committed lines elsewhere (the
CLI spools them to disk so a long log needs little memory).

Strings from the log that are not terminal output (command, cwd, ids, titles)
go through `display_text` before they reach a human: control characters become
visible ``<U+001B>`` markers rather than being interpreted, so a command shown
for review cannot hide part of itself, and the core's Unicode policy then
marks bidi and invisible characters the same way transcripts do.

JSON output escapes as ``\\uXXXX`` every code point the text export would not
show as itself (`json_escapes`), decided from the same control set and the
same class table, so neither format can carry an invisible character the
other would have exposed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from itertools import chain, zip_longest
from typing import Any, Final, Protocol

from termscribe import render_text
from termscribe._rows import SEAL, SEAL_BRACKET
from termscribe._unicode import SINGLE, WIDE, ZERO, char_class, class_runs

from ._log import SessionLog
from ._store import TerminalStore
from ._terminal import TerminalState

__all__ = [
    "IN_MEMORY",
    "TranscriptSource",
    "display_text",
    "dumps_json",
    "exit_summary",
    "export_json",
    "export_text",
    "iter_json",
    "iter_text",
    "json_escapes",
    "tool_call_label",
]

# The controls display_text makes visible as markers: C0 but tab (and line
# feed when multiline), DEL and C1.  The core never sees them.
_MARKED_CONTROLS: Final = "\x00-\x08\x0b-\x1f\x7f-\x9f"
_SURROGATE_RANGE: Final = "\ud800-\udfff"  # not UTF-8: display_text makes them U+FFFD
_CONTROLS: Final = re.compile(f"[{_MARKED_CONTROLS}]")
_CONTROLS_AND_LF: Final = re.compile(f"[\n{_MARKED_CONTROLS}]")
_SURROGATES: Final = re.compile(f"[{_SURROGATE_RANGE}]")
#: Classes of the core's table (`termscribe._unicode`) whose code points a
#: transcript stores as themselves whatever surrounds them; every other class
#: is shown as a marker or U+FFFD, at least in some context.
SHOWN_CLASSES: Final = frozenset({SINGLE, WIDE, ZERO})
# Code points of a shown class that JSON escapes all the same: the controls
# and surrogates above (json.dumps itself escapes the rest of C0), and the
# seals of markers (see termscribe._rows), which input never shows raw.
_JSON_UNSHOWN: Final = re.compile(f"[{_MARKED_CONTROLS}{_SURROGATE_RANGE}{SEAL}{SEAL_BRACKET}]")


class TranscriptSource(Protocol):
    """Where an export reads a terminal's transcript from."""

    def text_lines(self, terminal: TerminalState) -> Iterable[str]:
        """The lines of the text transcript (``text().split("\\n")``)."""
        ...

    def html(self, terminal: TerminalState) -> Iterable[str]:
        """The pieces of the HTML fragment (``html()``)."""
        ...


class _InMemory:
    def text_lines(self, terminal: TerminalState) -> Iterable[str]:
        return terminal.text().split("\n")

    def html(self, terminal: TerminalState) -> Iterable[str]:
        return (terminal.html(),)


IN_MEMORY: Final[TranscriptSource] = _InMemory()


def display_text(value: str, *, multiline: bool = False) -> str:
    """A string from the log made safe to show (see the module docstring)."""
    controls = _CONTROLS if multiline else _CONTROLS_AND_LF
    value = _SURROGATES.sub("\ufffd", value)
    # The text between controls rendered (input that spells a marker is
    # escaped there), the controls as markers of their own.
    parts = controls.split(value)
    shown = [render_text(part.encode("utf-8"), mode="strip") for part in parts]
    marks = [f"<U+{ord(ch):04X}>" for ch in controls.findall(value)]
    return "".join(chain.from_iterable(zip_longest(shown, marks, fillvalue="")))


def exit_summary(terminal: TerminalState) -> str:
    """One phrase for the exit status, e.g. ``exit code 1`` or ``killed by SIGTERM``."""
    status = terminal.exit_status
    if status is None:
        return "no exit status reported"
    code, signal = status.exit_code, status.signal
    if code is not None and signal is not None:
        return f"exit code {code}, signal {display_text(signal)}"
    if code is not None:
        return f"exit code {code}"
    if signal is not None:
        return f"killed by {display_text(signal)}"
    return "exited"


def tool_call_label(store: TerminalStore, terminal: TerminalState, tool_call_id: str) -> str:
    """``id “title” (status)`` for a tool call showing this terminal, safe to show."""
    label = display_text(tool_call_id)
    info = store.tool_call(terminal.session_id, tool_call_id)
    if info is not None and info.title:
        label += f" “{display_text(info.title)}”"
    if info is not None and info.status:
        label += f" ({display_text(info.status)})"
    return label


# -- JSON ---------------------------------------------------------------------


def export_json(log: SessionLog, terminal_id: str | None = None) -> dict[str, Any]:
    """The DESIGN.md "Public contract" object (call `log.finish()` first)."""
    return {
        "terminals": [{**_terminal_fields(t), "text": t.text()} for t in log.select(terminal_id)],
        "errors": [e.to_json() for e in log.errors_for(terminal_id)],
    }


def iter_json(
    log: SessionLog, terminal_id: str | None = None, source: TranscriptSource = IN_MEMORY
) -> Iterator[str]:
    """`export_json` as JSON text, in pieces: one line per terminal and per error."""
    yield '{\n  "terminals": ['
    for number, terminal in enumerate(log.select(terminal_id)):
        fields = _safe_json(json.dumps(_terminal_fields(terminal), ensure_ascii=False))
        yield ("," if number else "") + "\n    " + fields[:-1] + ', "text": "'
        for index, line in enumerate(source.text_lines(terminal)):
            escaped = _safe_json(json.dumps(line, ensure_ascii=False)[1:-1])
            yield "\\n" + escaped if index else escaped
        yield '"}'
    yield '\n  ],\n  "errors": ['
    for number, error in enumerate(log.errors_for(terminal_id)):
        yield ("," if number else "") + "\n    " + dumps_json(error.to_json()).rstrip("\n")
    yield "\n  ]\n}\n"


def _terminal_fields(terminal: TerminalState) -> dict[str, Any]:
    status = terminal.exit_status
    return {
        "terminalId": terminal.terminal_id,
        "sessionId": terminal.session_id,
        "command": terminal.command,
        "cwd": terminal.cwd,
        "exitStatus": None if status is None else status.to_wire(),
        "meta": terminal.meta,
        "toolCallIds": list(terminal.tool_call_ids),
    }


def dumps_json(obj: object, *, indent: int | None = None) -> str:
    """JSON text that stays readable (UTF-8) yet safe to print to a terminal.

    A code point is written as ``\\uXXXX`` when the text export would not show
    it as itself (see `json_escapes`); such code points can only occur inside
    JSON strings, where an escape means the same character.
    """
    return _safe_json(json.dumps(obj, ensure_ascii=False, indent=indent)) + "\n"


def json_escapes(char: str) -> bool:
    """Whether JSON output escapes this code point: exactly those that the text
    export never shows as themselves, or not in every context.

    That is one decision for both formats: a control display_text marks, a
    lone surrogate, or a code point whose class in the core's table is not
    one of `SHOWN_CLASSES` (bidi and invisible characters, noncharacters,
    joiners and variation selectors, which a transcript keeps only after a
    character they can join).  Escaping is lossless, so JSON takes the safe
    side where the text export depends on context.
    """
    return (
        char in "\t\n"  # JSON strings cannot hold them raw either
        or _JSON_UNSHOWN.match(char) is not None
        or char_class(char) not in SHOWN_CLASSES
    )


def _safe_json(text: str) -> str:
    if text.isascii():  # the usual case: only DEL can be left (json.dumps escaped C0)
        return text.replace("\x7f", "\\u007f")
    out: list[str] = []
    for cls, run in class_runs(text):
        if cls in SHOWN_CLASSES:
            out.append(_JSON_UNSHOWN.sub(_escape_match, run))
        else:
            out.extend(map(_escape, run))
    return "".join(out)


def _escape_match(match: re.Match[str]) -> str:
    return _escape(match.group())


def _escape(char: str) -> str:
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


# -- text ---------------------------------------------------------------------


def export_text(log: SessionLog, terminal_id: str | None = None) -> str:
    """A plain-text report (call `log.finish()` first); see `iter_text`."""
    return "".join(iter_text(log, terminal_id))


def iter_text(
    log: SessionLog, terminal_id: str | None = None, source: TranscriptSource = IN_MEMORY
) -> Iterator[str]:
    """Per terminal: a ``$ command`` header, facts, the transcript, an exit line.

    Transcript lines are prefixed with ``│ `` so output can never pass for a
    header of its own.
    """
    several_sessions = len({t.session_id for t in log.store.terminals()}) > 1
    for number, terminal in enumerate(log.select(terminal_id)):
        if number:
            yield "\n"
        yield _header(log, terminal, several_sessions)
        for line in _without_final_empty_line(source.text_lines(terminal)):
            yield f"│ {line}".rstrip() + "\n"
        yield f"└ {exit_summary(terminal)}\n"


def _header(log: SessionLog, terminal: TerminalState, show_session: bool) -> str:
    out: list[str] = []
    if terminal.command is None:
        out.append("$ (command not reported)")
    else:
        first, *rest = display_text(terminal.command, multiline=True).split("\n")
        out.append(f"$ {first}")
        out.extend(f"> {line}" for line in rest)
    facts = [f"cwd {display_text(terminal.cwd) if terminal.cwd is not None else '(unknown)'}"]
    facts.append(f"terminal {display_text(terminal.terminal_id)}")
    if show_session and terminal.session_id is not None:
        facts.append(f"session {display_text(terminal.session_id)}")
    out.append("  " + " · ".join(facts))
    for tool_call_id in terminal.tool_call_ids:
        out.append("  tool call " + tool_call_label(log.store, terminal, tool_call_id))
    for permission in log.store.permissions_for(terminal):
        title = display_text(permission.title) if permission.title else "permission requested"
        subject = permission.subject
        out.append(
            f"  permission: {title}: {display_text(subject.command)} in {display_text(subject.cwd)}"
        )
    return "\n".join(out) + "\n"


def _without_final_empty_line(lines: Iterable[str]) -> Iterator[str]:
    """All lines but a last empty one (a transcript ending in a newline)."""
    pending: str | None = None
    for line in lines:
        if pending is not None:
            yield pending
        pending = line
    if pending:
        yield pending
