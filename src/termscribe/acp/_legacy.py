"""The v1 ``_meta.terminal_*`` convention (Zed, codex-acp, claude-agent-acp).

Before ACP v2, agents that ran commands themselves reported them on ordinary
``tool_call`` / ``tool_call_update`` messages:

* ``_meta.terminal_info: {terminal_id, cwd}``: the tool call shows a terminal;
  the command is in ``rawInput.command`` (a string, or an argv list);
* ``_meta.terminal_output: {terminal_id, data}``: append ``data``, a plain UTF-8
  string (older builds name it ``terminal_output_delta``; when both keys are
  present only ``terminal_output`` is used, as they carry the same payload);
* ``_meta.terminal_exit: {terminal_id, exit_code, signal}``: the process ended.

They become the same operations as their v2 counterparts, so one store serves
both generations.  ``_meta`` values are implementation-defined, so a malformed
entry is skipped with a warning instead of rejecting the tool call.

As in Zed, only ``terminal_info`` makes a terminal: output or an exit for a
terminal the store does not know is skipped with a warning (codex-acp sends
``terminal_output_delta`` for parsed read and search commands, which have no
terminal and would otherwise become terminals that never exit).  The command
may come later than ``terminal_info``, in a ``rawInput`` of its own
(claude-agent-acp): `legacy_command` reads it for the tool call's terminals
that have none yet.  ``exit_code: null`` is an exit without a code.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ._errors import AcpWarning
from ._models import (
    MAX_EXIT_CODE,
    TerminalContent,
    TerminalExitStatus,
    TerminalOutputChunk,
    TerminalUpdate,
)
from ._ops import Anchor, Chunk, LegacyCommand, Op, Update
from ._validate import OMITTED, Patch, is_absolute_path, type_name

__all__ = ["LEGACY_KEYS", "legacy_command", "parse_legacy_meta"]

LEGACY_KEYS = ("terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit")


def parse_legacy_meta(
    meta: Mapping[str, Any],
    *,
    session_id: str | None,
    tool_call_id: str,
    raw_input: object,
) -> tuple[list[Op], list[AcpWarning]]:
    """Operations for the legacy keys of one tool call's ``_meta``."""
    ops: list[Op] = []
    warnings: list[AcpWarning] = []

    def entry(key: str, anchor: bool = False) -> tuple[str, Mapping[str, Any]] | None:
        value = meta.get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            warnings.append(AcpWarning(f"ignored _meta.{key}: not an object"))
            return None
        terminal_id = value.get("terminal_id")
        if not isinstance(terminal_id, str):
            warnings.append(AcpWarning(f"ignored _meta.{key}: terminal_id is not a string"))
            return None
        if anchor:
            ops.append(Anchor(session_id, tool_call_id, TerminalContent(terminal_id), legacy=True))
        return terminal_id, value

    info = entry("terminal_info", anchor=True)
    if info is not None:
        terminal_id, value = info
        cwd: Patch[str] = OMITTED
        if isinstance(value.get("cwd"), str) and is_absolute_path(value["cwd"]):
            cwd = value["cwd"]
        elif "cwd" in value:
            warning = "ignored _meta.terminal_info.cwd: not an absolute path"
            warnings.append(AcpWarning(warning, terminal_id))
        command = _command_from_raw_input(raw_input)
        ops.append(Update(session_id, TerminalUpdate(terminal_id, command=command, cwd=cwd), True))

    output_key = "terminal_output" if "terminal_output" in meta else "terminal_output_delta"
    output = entry(output_key)
    if output is not None:
        terminal_id, value = output
        data = value.get("data")
        if isinstance(data, str):
            # surrogatepass: a lone surrogate from JSON reaches the decoder as
            # ill-formed bytes and becomes U+FFFD there, like any bad byte.
            raw = data.encode("utf-8", "surrogatepass")
            ops.append(Chunk(session_id, TerminalOutputChunk(terminal_id, raw), True))
        else:
            warnings.append(
                AcpWarning(f"ignored _meta.{output_key}.data: {type_name(data)}", terminal_id)
            )

    exit_entry = entry("terminal_exit")
    if exit_entry is not None:
        terminal_id, value = exit_entry
        status = _exit_status(value, terminal_id, warnings)
        ops.append(Update(session_id, TerminalUpdate(terminal_id, exit_status=status), True))
    return ops, warnings


def legacy_command(
    meta: object, raw_input: object, *, session_id: str | None, tool_call_id: str
) -> LegacyCommand | None:
    """The command of a v1 tool call message without ``terminal_info`` but with
    ``rawInput.command``, for the terminals it showed before."""
    if isinstance(meta, dict) and meta.get("terminal_info") is not None:
        return None  # terminal_info took the command along
    command = _command_from_raw_input(raw_input)
    if not isinstance(command, str):
        return None
    return LegacyCommand(session_id, tool_call_id, command)


def _command_from_raw_input(raw_input: object) -> Patch[str]:
    if not isinstance(raw_input, dict):
        return OMITTED
    command = raw_input.get("command")
    if isinstance(command, str):
        return command
    if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
        return shlex.join(command)
    return OMITTED


def _exit_status(
    value: Mapping[str, Any], terminal_id: str, warnings: list[AcpWarning]
) -> TerminalExitStatus:
    code = value.get("exit_code")
    if code is not None and (
        not isinstance(code, int) or isinstance(code, bool) or not 0 <= code <= MAX_EXIT_CODE
    ):
        warnings.append(AcpWarning("ignored _meta.terminal_exit.exit_code", terminal_id))
        code = None
    signal = value.get("signal")
    if signal is not None and not isinstance(signal, str):
        warnings.append(AcpWarning("ignored _meta.terminal_exit.signal", terminal_id))
        signal = None
    return TerminalExitStatus(exit_code=code, signal=signal)
