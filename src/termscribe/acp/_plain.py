"""The message an agent sends most: a ``terminal_output_chunk`` and nothing else.

A command's output arrives as many small ``session/update`` notifications,
each holding one ``terminal_output_chunk``.  `plain_chunk` recognises the
plainest of them and returns what the general parser (`_messages`) would
read from it, without building its objects; every other message, valid or
not, is left to the general parser, which alone reports errors.

The precondition, stated here only (`plain_chunk` checks all of it):

* the message is a dict whose ``method`` is ``"session/update"`` and whose
  ``params`` is a dict with a string ``sessionId`` and an ``update``;
* the update is a dict of exactly three members: ``sessionUpdate`` is
  ``"terminal_output_chunk"``, ``terminalId`` a string and ``data`` the
  canonical base64 of some bytes (`_validate.canonical_base64`), so that
  there is no ``_meta`` or unknown member to validate or keep;
* each of those values is of the exact built-in type (no subclass, no
  model), so that nothing can compare or behave otherwise than the general
  parser assumes.

Other members of the message and of ``params`` are not read by the general
parser either.  For such a message `parse_message` returns, strict or not,
legacy or not, one `Chunk` of ``(sessionId, TerminalOutputChunk(terminalId,
data))``, no warning and nothing ignored.  tests/acp/test_acp_plain.py
holds the two equal on generated messages.
"""

from __future__ import annotations

from typing import Final

from ._messages import SESSION_UPDATE
from ._models import TerminalOutputChunk
from ._validate import canonical_base64

__all__ = ["plain_chunk"]

_CHUNK: Final = TerminalOutputChunk.SESSION_UPDATE


def plain_chunk(message: object) -> tuple[str, str, bytes] | None:
    """``(sessionId, terminalId, data)`` of a message that meets the
    precondition (see the module), or None for any other."""
    if type(message) is not dict:
        return None
    method = message.get("method")
    params = message.get("params")
    if type(method) is not str or method != SESSION_UPDATE or type(params) is not dict:
        return None
    session_id = params.get("sessionId")
    update = params.get("update")
    if type(session_id) is not str or type(update) is not dict or len(update) != 3:
        return None
    kind = update.get("sessionUpdate")
    terminal_id = update.get("terminalId")
    encoded = update.get("data")
    if (
        type(kind) is not str
        or kind != _CHUNK
        or type(terminal_id) is not str
        or type(encoded) is not str
    ):
        return None
    data = canonical_base64(encoded)
    return None if data is None else (session_id, terminal_id, data)
