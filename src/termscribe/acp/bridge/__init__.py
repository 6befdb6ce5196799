"""The v2→v1 bridge: `V2ToV1Bridge` and what it takes and returns.

Its names are exported from `termscribe.acp`; this subpackage is private by
convention.  `_core` holds the bridge itself; `_plan` (with `_calls` and
`_permission`) reads each message into what v1 can carry before anything
changes; `_view`, `_text` and `_meta` show a terminal's output in text and
meta mode; `_policy` decides when to send.
"""

from ._core import (
    BRIDGE_MODES,
    META_OUTPUTS,
    BridgeResult,
    NotBridged,
    V2ToV1Bridge,
    mode_for_client,
)
from ._policy import FlushTimer, ResendPolicy
from ._text import DEFAULT_MAX_TEXT_CHARS

__all__ = [
    "BRIDGE_MODES",
    "DEFAULT_MAX_TEXT_CHARS",
    "META_OUTPUTS",
    "BridgeResult",
    "FlushTimer",
    "NotBridged",
    "ResendPolicy",
    "V2ToV1Bridge",
    "mode_for_client",
]
