"""ACP v2 display-only terminal output, client side: models, `TerminalStore`, export.

Pure: no I/O.  See docs/acp.md for a walkthrough.
"""

from ._errors import AcpError, AcpWarning, InvalidMessageError, StoreFinishedError
from ._models import (
    CommandPermissionSubject,
    TerminalContent,
    TerminalExitStatus,
    TerminalOutput,
    TerminalOutputChunk,
    TerminalUpdate,
)
from ._store import (
    DEFAULT_MAX_RETAINED_BYTES,
    ApplyResult,
    PermissionRecord,
    TerminalKey,
    TerminalState,
    TerminalStore,
    ToolCallInfo,
)
from ._validate import OMITTED, Omitted, Patch, decode_base64, is_absolute_path

__all__ = [
    "DEFAULT_MAX_RETAINED_BYTES",
    "OMITTED",
    "AcpError",
    "AcpWarning",
    "ApplyResult",
    "CommandPermissionSubject",
    "InvalidMessageError",
    "Omitted",
    "Patch",
    "PermissionRecord",
    "StoreFinishedError",
    "TerminalContent",
    "TerminalExitStatus",
    "TerminalKey",
    "TerminalOutput",
    "TerminalOutputChunk",
    "TerminalState",
    "TerminalStore",
    "TerminalUpdate",
    "ToolCallInfo",
    "decode_base64",
    "is_absolute_path",
]
