#!/usr/bin/env python3
"""Build src/termscribe/data/demo-session.ndjson, the session `termscribe demo` shows.

An ACP v2 session log as a client receives it over stdio: newline-delimited
JSON-RPC, one message or batch per line.  The terminal output is written here
as readable byte strings and base64-encoded chunk by chunk.  It covers:

* a coloured test run, its chunks split inside a UTF-8 character and inside an
  escape sequence, shown by a tool call whose terminal content came first;
* an install with a carriage-return progress bar, whose content anchor arrives
  only after the terminal's updates and chunks;
* a failing build (exit code 2), its exit and tool-call status in one batch;
* a dev server asked for with a command permission request, resynchronised by
  a replacement snapshot mid-stream, then stopped with SIGTERM;
* a snapshot replay (output and exit in one terminal_update), as on session/load.

Usage: python scripts/make_demo_session.py [--check] [OUT]
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "src" / "termscribe" / "data" / "demo-session.ndjson"

SESSION = "sess_4f9c2e"
CWD = "/home/dev/acme-web"
ESC = b"\x1b"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def split_at(data: bytes, *cuts: int) -> list[bytes]:
    """Cut `data` at the given offsets (chunk boundaries have no meaning)."""
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def sgr(*codes: int) -> bytes:
    return ESC + b"[" + ";".join(map(str, codes)).encode() + b"m"


GREEN, RED, YELLOW, CYAN, GREY, BOLD, RESET = (
    sgr(32),
    sgr(31),
    sgr(93),
    sgr(36),
    sgr(90),
    sgr(1),
    sgr(0),
)

# -- terminal output -----------------------------------------------------------

TESTS = (
    b"\r\n "
    + sgr(42, 30)
    + b" RUN "
    + sgr(49, 39)
    + b" "
    + CYAN
    + b"v1.6.0 "
    + GREY
    + CWD.encode()
    + RESET
    + b"\r\n\r\n"
    + b" "
    + GREEN
    + "✓".encode()
    + RESET
    + b" src/utils/format.test.ts "
    + GREY
    + b"(8 tests)"
    + RESET
    + b" 12ms\r\n"
    + b" "
    + GREEN
    + "✓".encode()
    + RESET
    + b" src/api/client.test.ts "
    + GREY
    + b"(14 tests)"
    + RESET
    + b" 41ms\r\n"
    + b" "
    + GREEN
    + "✓".encode()
    + RESET
    + b" src/components/Button.test.tsx "
    + GREY
    + b"(5 tests)"
    + RESET
    + b" 88ms\r\n\r\n"
    + GREY
    + b" Test Files "
    + RESET
    + BOLD
    + GREEN
    + b" 3 passed"
    + RESET
    + GREY
    + b" (3)"
    + RESET
    + b"\r\n"
    + GREY
    + b"      Tests "
    + RESET
    + BOLD
    + GREEN
    + b" 27 passed"
    + RESET
    + GREY
    + b" (27)"
    + RESET
    + b"\r\n"
    + GREY
    + b"   Duration "
    + RESET
    + b" 1.24s "
    + GREY
    + b"(transform 210ms, tests 141ms)"
    + RESET
    + b"\r\n"
)
_check = TESTS.index("✓".encode())
_second_green = TESTS.index(GREEN, _check + 3)
TESTS_CHUNKS = split_at(
    TESTS,
    _check + 1,  # inside the 3-byte UTF-8 encoding of ✓
    _second_green + 3,  # inside ESC [ 3 2 m
    TESTS.index(b"Test Files"),
)


def progress(done: int, total: int, what: bytes) -> bytes:
    filled = done * 20 // total
    bar = b"#" * filled + b"." * (20 - filled)
    return b"\r" + ESC + b"[K" + CYAN + b"[" + bar + b"]" + RESET + b" " + what


INSTALL = [
    ESC + b"[?25l" + progress(0, 10, b"idealTree: resolving dependencies"),
    progress(3, 10, b"reify: fetching react@18.3.1")
    + progress(5, 10, b"reify: fetching vite@5.2.11"),
    progress(8, 10, b"reify: extracting typescript@5.4.5") + progress(10, 10, b"reify: done"),
    b"\r"
    + ESC
    + b"[K"
    + ESC
    + b"[?25h"
    + b"\nadded 312 packages, and audited 313 packages in 4s\n\n"
    + b"58 packages are looking for funding\n  run `npm fund` for details\n\n"
    + b"found "
    + GREEN
    + BOLD
    + b"0"
    + RESET
    + b" vulnerabilities\n",
]

BUILD = (
    b"\n> acme-web@0.3.0 build\n> tsc -p . && vite build\n\n"
    + CYAN
    + b"src/api/client.ts"
    + RESET
    + b":"
    + YELLOW
    + b"42"
    + RESET
    + b":"
    + YELLOW
    + b"7"
    + RESET
    + b" - "
    + sgr(91)
    + b"error"
    + RESET
    + GREY
    + b" TS2322: "
    + RESET
    + b"Type 'string' is not assignable to type 'number'.\n\n"
    + sgr(7)
    + b"42"
    + RESET
    + b'       retries: "3",\n'
    + sgr(7)
    + b"  "
    + RESET
    + b"       "
    + sgr(91)
    + b"~~~~~~~"
    + RESET
    + b"\n\n\n"
    + b"Found 1 error in src/api/client.ts"
    + GREY
    + b":42"
    + RESET
    + b"\n\n"
)

DEV_BEFORE_RESYNC = b"\n> acme-web@0.3.0 dev\n> vite\n\n"
DEV_SNAPSHOT = (
    DEV_BEFORE_RESYNC
    + b"  "
    + GREEN
    + BOLD
    + b"VITE"
    + RESET
    + GREEN
    + b" v5.2.11"
    + RESET
    + b"  ready in "
    + BOLD
    + b"312"
    + RESET
    + b" ms\n\n"
    + b"  "
    + GREEN
    + "➜".encode()
    + RESET
    + b"  "
    + BOLD
    + b"Local"
    + RESET
    + b":   "
    + CYAN
    + b"http://localhost:"
    + BOLD
    + b"5173"
    + RESET
    + CYAN
    + b"/"
    + RESET
    + b"\n"
)
DEV_AFTER = [
    GREY
    + b"10:44:02"
    + RESET
    + b" "
    + CYAN
    + BOLD
    + b"[vite]"
    + RESET
    + GREEN
    + b" hmr update "
    + RESET
    + GREY
    + b"/src/App.tsx"
    + RESET
    + b"\n",
    b"^C\n",
]

GIT_LOG = (
    YELLOW
    + b"9c1e4b2"
    + RESET
    + b" fix(api): retry idempotent requests\n"
    + YELLOW
    + b"41d07aa"
    + RESET
    + b" feat(ui): dark mode toggle\n"
    + YELLOW
    + b"e8b3c19"
    + RESET
    + b" chore: bump vite to 5.2.11\n"
)

# -- messages ------------------------------------------------------------------


def notify(update: dict[str, Any]) -> dict[str, Any]:
    params = {"sessionId": SESSION, "update": update}
    return {"jsonrpc": "2.0", "method": "session/update", "params": params}


def say(message_id: str, text: str) -> dict[str, Any]:
    return notify(
        {
            "sessionUpdate": "agent_message_chunk",
            "messageId": message_id,
            "content": {"type": "text", "text": text},
        }
    )


def tool_call(call_id: str, **fields: Any) -> dict[str, Any]:
    return notify({"sessionUpdate": "tool_call_update", "toolCallId": call_id, **fields})


def terminal_content(terminal_id: str) -> list[dict[str, Any]]:
    return [{"type": "terminal", "terminalId": terminal_id}]


def terminal_update(terminal_id: str, **fields: Any) -> dict[str, Any]:
    return notify({"sessionUpdate": "terminal_update", "terminalId": terminal_id, **fields})


def chunk(terminal_id: str, data: bytes) -> dict[str, Any]:
    update = {
        "sessionUpdate": "terminal_output_chunk",
        "terminalId": terminal_id,
        "data": b64(data),
    }
    return notify(update)


def session() -> list[Any]:
    lines: list[Any] = [say("msg_1", "Let me install the dependencies and run the tests.")]

    # An install whose tool call (the content anchor) is only sent at the end.
    lines.append(terminal_update("term_install", command="npm install", cwd=CWD))
    lines += [chunk("term_install", data) for data in INSTALL]
    lines.append(terminal_update("term_install", exitStatus={"exitCode": 0, "signal": None}))
    lines.append(
        tool_call(
            "call_install",
            title="Install dependencies",
            kind="execute",
            status="completed",
            content=terminal_content("term_install"),
        )
    )

    # A coloured test run: the anchor first, then the terminal state and chunks.
    lines.append(
        tool_call(
            "call_test",
            title="Run the test suite",
            kind="execute",
            status="pending",
            content=terminal_content("term_test"),
        )
    )
    lines.append(terminal_update("term_test", command="npm test -- --run", cwd=CWD))
    lines.append(tool_call("call_test", status="in_progress"))
    lines += [chunk("term_test", data) for data in TESTS_CHUNKS]
    lines.append(terminal_update("term_test", exitStatus={"exitCode": 0}))
    lines.append(tool_call("call_test", status="completed"))

    # A failing build; exit status and tool-call status arrive in one batch.
    lines.append(say("msg_2", "Tests pass. Now the production build."))
    lines.append(
        tool_call(
            "call_build",
            title="Build for production",
            kind="execute",
            status="in_progress",
            content=terminal_content("term_build"),
        )
    )
    lines.append(
        terminal_update(
            "term_build",
            command="npm run build",
            cwd=CWD,
            _meta={"acme.dev/shell": "bash"},
        )
    )
    lines.append(chunk("term_build", BUILD))
    lines.append(
        [
            terminal_update("term_build", exitStatus={"exitCode": 2, "signal": None}),
            tool_call("call_build", status="failed"),
        ]
    )

    # A dev server: permission first, then a resync snapshot, then SIGTERM.
    lines.append(say("msg_3", "The build fails on a type error; I'll check it in the dev server."))
    lines.append(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "session/request_permission",
            "params": {
                "sessionId": SESSION,
                "title": "Start the dev server?",
                "subject": {
                    "type": "command",
                    "command": "npm run dev",
                    "cwd": CWD,
                    "toolCallId": "call_dev",
                    "terminalId": None,
                },
                "options": [
                    {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                    {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
                ],
            },
        }
    )
    lines.append(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "result": {"outcome": {"outcome": "selected", "optionId": "allow"}},
        }
    )
    lines.append(
        tool_call(
            "call_dev",
            title="Start the dev server",
            kind="execute",
            status="in_progress",
            content=terminal_content("term_dev"),
        )
    )
    lines.append(terminal_update("term_dev", command="npm run dev", cwd=CWD))
    lines.append(chunk("term_dev", DEV_BEFORE_RESYNC))
    # The agent resynchronises: this snapshot replaces everything sent so far.
    lines.append(
        terminal_update(
            "term_dev",
            output={"data": b64(DEV_SNAPSHOT), "_meta": {"acme.dev/reason": "resync"}},
        )
    )
    lines += [chunk("term_dev", data) for data in DEV_AFTER]
    lines.append(terminal_update("term_dev", exitStatus={"signal": "SIGTERM"}))
    lines.append(tool_call("call_dev", status="completed"))

    # Replay of an earlier command (as on session/load): one snapshot, exit included.
    lines.append(
        terminal_update(
            "term_git",
            command="git log --oneline -3",
            cwd=CWD,
            output={"data": b64(GIT_LOG)},
            exitStatus={"exitCode": 0},
        )
    )
    lines.append(
        tool_call(
            "call_git",
            title="Show recent commits",
            kind="execute",
            status="completed",
            content=terminal_content("term_git"),
        )
    )
    lines.append(say("msg_4", "Done: `retries` must be a number in src/api/client.ts:42."))
    return lines


def render() -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in session())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if OUT is not up to date")
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date; run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
