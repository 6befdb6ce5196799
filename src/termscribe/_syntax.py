"""Numbers and parameters of control sequences: the parser's limits, and
what a CSI sequence's parameter string and body hold.

Every buffer of the parser (``_parser``) has a named limit here; a sequence
that overflows one is consumed and never dispatched.
"""

from __future__ import annotations

import re

__all__ = [
    "MAX_CACHED_SEQUENCES",
    "MAX_INTERMEDIATES",
    "MAX_PARAMS",
    "MAX_PARAM_CHARS",
    "MAX_PARAM_VALUE",
    "MAX_STRING_CHARS",
    "CsiBodies",
    "ParsedParams",
    "csi_fields",
    "parse_params",
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

_CSI_FIELDS = re.compile(r"([<-?]?)([0-9:;]*)([ -/]*)([@-~])")


def csi_fields(body: str) -> tuple[str, str, str, str]:
    """A CSI sequence's body, as _grammar.RUN_ITEMS takes it (``"?25h"``), as the
    arguments of csi_dispatch: private marker, parameters, intermediates,
    final (``("?", "25", "", "h")``)."""
    m = _CSI_FIELDS.fullmatch(body)
    if m is None:
        raise ValueError(f"not the body of a CSI sequence: {body!r}")
    private, params, intermediates, final = m.groups()
    return private, params, intermediates, final


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
