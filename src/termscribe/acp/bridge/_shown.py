"""The agent's own text, made safe to show, as the bridge hands it to a v1 client.

The rule (SECURITY.md, "Text the agent writes itself"): every string the
bridge gives a v1 client that a client may show, the agent's own as much as
a terminal's output, is shown safe the way command and cwd are
(`display_text`): C0 controls but line feed and tab, DEL, C1 (U+009B
included) become visible markers such as ``<U+001B>``, so no escape
sequence (OSC 52, a title change, a cursor move) reaches a client's
terminal; bidi controls (U+202E) and invisible characters become markers by
the core's Unicode policy; input that spells a marker (``<U+…``,
``[termscribe:``) is escaped, so the agent cannot forge one of the bridge's
notes.  A CR before an LF is dropped (the line ends anyway).

It applies to message and thought text, text and resource content inside
tool calls, titles, descriptions, option and command names, plan entries,
config option names, elicitation messages, and every string value of
``rawInput`` and ``rawOutput`` (a client may show them; the command it is
asked to allow must be the command it shows).  It does not apply to what a
client sends back or matches rather than shows (ids, option and config
values, URIs, MIME types, base64 data, enumerations such as ``kind``), nor
to ``_meta`` (extension data for programs; meta mode's terminal output in it
is a sanitized transcript already).  Text mode and meta mode apply it alike.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .._export import display_text
from ._text import safe_prefix

__all__ = ["EXEMPT_KEYS", "shown_json", "shown_text"]

#: Keys whose string values a client sends back, matches or decodes rather
#: than shows: kept exactly.
EXEMPT_KEYS: Final = frozenset(
    {
        "_meta",
        "jsonrpc",
        "method",
        "id",
        "sessionUpdate",
        "type",
        "kind",
        "status",
        "priority",
        "role",
        "audience",
        "mode",
        "outcome",
        "action",
        "sessionId",
        "messageId",
        "toolCallId",
        "terminalId",
        "optionId",
        "configId",
        "groupId",
        "group",
        "value",
        "currentValue",
        "category",
        "planId",
        "elicitationId",
        "requestId",
        "methodId",
        "uri",
        "url",
        "mimeType",
        "data",
        "blob",
        "updatedAt",
        "lastModified",
        "cwd",
        "path",
        "additionalDirectories",
        "format",
        "pattern",
        "enum",
        "const",
        "default",
        "nextCursor",
        "protocolVersion",
        "version",
    }
)
# Text that `display_text` returns unchanged: printable ASCII, LF and tab,
# spelling no marker.
_PLAIN: Final = re.compile(r"[ -~\n\t]*")
_SPELLED: Final = ("<U+", "[termscribe:")
#: display_text sees a line at most this long at once (a transcript line
#: keeps 65,536 cells); longer lines are shown in pieces.
_PIECE: Final = 16384


def shown_text(text: str) -> str:
    """`text` safe to show (see the module docstring); unchanged when it is."""
    if _PLAIN.fullmatch(text) and not any(s in text for s in _SPELLED):
        return text
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join("\t".join(_piece(part) for part in line.split("\t")) for line in lines)


def _piece(text: str) -> str:
    out = []
    while len(text) > _PIECE:
        head = safe_prefix(text, _PIECE) or text[:_PIECE]
        out.append(display_text(head))
        text = text[len(head) :]
    out.append(display_text(text))
    return "".join(out)


def shown_json(value: Any, *, exempt: frozenset[str] = EXEMPT_KEYS) -> Any:
    """A copy of a JSON value with every string shown safe but those under
    `exempt` keys (pass an empty set for opaque data such as ``rawInput``)."""
    if isinstance(value, str):
        return shown_text(value)
    if isinstance(value, list):
        return [shown_json(item, exempt=exempt) for item in value]
    if isinstance(value, dict):
        return {
            key: item if key in exempt else shown_json(item, exempt=exempt)
            for key, item in value.items()
        }
    return value
