"""ACP v2 display-only terminal output, client side: models, `TerminalStore`, export.

Pure: no I/O.  The README's "Using termscribe in an ACP client" is a walkthrough.
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
from ._proxy import PROXY_MODES, Routed, V1ClientProxy
from ._report import export_html, iter_html
from ._store import DEFAULT_MAX_RETAINED_BYTES, DEFAULT_MAX_TOTAL_RETAINED_BYTES, TerminalStore
from ._terminal import (
    ApplyResult,
    OutputObserver,
    PermissionRecord,
    TerminalKey,
    TerminalState,
    ToolCallInfo,
)
from ._to_v2 import V1ToV2Bridge, terminal_updates
from ._validate import OMITTED, Omitted, Patch, decode_base64, is_absolute_path
from .bridge import (
    BRIDGE_MODES,
    DEFAULT_MAX_TEXT_CHARS,
    META_OUTPUTS,
    BridgeResult,
    FlushTimer,
    NotBridged,
    ResendPolicy,
    V2ToV1Bridge,
    mode_for_client,
)
from .convert import ConversionError, IncompatibleTerminalError

__all__ = [
    "BRIDGE_MODES",
    "DEFAULT_MAX_RETAINED_BYTES",
    "DEFAULT_MAX_TEXT_CHARS",
    "DEFAULT_MAX_TOTAL_RETAINED_BYTES",
    "IN_MEMORY",
    "META_OUTPUTS",
    "OMITTED",
    "PROXY_MODES",
    "AcpError",
    "AcpWarning",
    "ApplyResult",
    "BridgeResult",
    "CommandPermissionSubject",
    "ConversionError",
    "FlushTimer",
    "IncompatibleTerminalError",
    "InvalidMessageError",
    "LogIssue",
    "NotBridged",
    "Omitted",
    "OutputObserver",
    "Patch",
    "PermissionRecord",
    "ResendPolicy",
    "Routed",
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
    "V1ClientProxy",
    "V1ToV2Bridge",
    "V2ToV1Bridge",
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
    "mode_for_client",
    "terminal_updates",
]
