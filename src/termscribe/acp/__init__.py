"""ACP v2 display-only terminal output, client side: models, `TerminalStore`, export.

Pure: no I/O.  See docs/acp.md for a walkthrough.
"""

from ._errors import AcpError, AcpWarning, InvalidMessageError, StoreFinishedError
from ._export import (
    IN_MEMORY,
    TranscriptSource,
    display_text,
    dumps_json,
    export_json,
    export_text,
    iter_json,
    iter_text,
)
from ._log import LogIssue, SessionLog
from ._models import (
    CommandPermissionSubject,
    TerminalContent,
    TerminalExitStatus,
    TerminalOutput,
    TerminalOutputChunk,
    TerminalUpdate,
)
from ._report import export_html, iter_html
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
    "IN_MEMORY",
    "OMITTED",
    "AcpError",
    "AcpWarning",
    "ApplyResult",
    "CommandPermissionSubject",
    "InvalidMessageError",
    "LogIssue",
    "Omitted",
    "Patch",
    "PermissionRecord",
    "SessionLog",
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
    "TranscriptSource",
    "decode_base64",
    "display_text",
    "dumps_json",
    "export_html",
    "export_json",
    "export_text",
    "is_absolute_path",
    "iter_html",
    "iter_json",
    "iter_text",
]
