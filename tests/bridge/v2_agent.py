"""A scripted ACP v2 agent for the end-to-end tests of ``termscribe bridge -- AGENT``.

It speaks v2 NDJSON on stdin/stdout and answers ``initialize``,
``session/new``, ``session/resume`` (replaying one message) and
``session/prompt``.  Each prompt is accepted at once (v2: ``{}``); the
prompt's first word picks a script, which ends with ``state_update`` idle
unless it says otherwise:

* ``terminals``: a command whose output chunks split a UTF-8 character and
  an escape sequence; exit 0.
* ``batch``: a tool call, its terminal, output and exit in one JSON-RPC batch.
* ``snapshot``: output, then a replacement snapshot, then more output.
* ``signal``: a command killed by SIGTERM; the tool call ends ``cancelled``.
* ``permission``: asks to run a command before running it (command subject,
  no terminal yet); runs it only when allowed.
* ``unsupported``: sends requests the v1 side cannot take and reports the
  error codes it got back in an agent message.
* ``wait``: stays running until ``session/cancel``, then idles ``cancelled``.
* ``crash``: writes some output and exits with status 3.
* ``messages``: whole-message updates (new, replacing chunks, clearing,
  ``_meta`` only, a thought) and two plans, one updated.
* ``elicit``: asks the client a form question (``elicitation/create``) and
  says what it answered.
* ``ask``: a permission request about nothing the client knows (no
  subject); says what was chosen.
* ``cancelme``: like ``wait`` (the client cancels with ``$/cancel_request``).
* ``flood``: 2,000 session updates v1 cannot carry (each a note of the
  bridge's), and 256 KiB on its own stderr, then ``flooded``.

Every message it receives is appended to the file named by ``V2_AGENT_LOG``
(one JSON value per line) so that the test can check it against the v2
schema.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from typing import Any

SESSION = "sess_1"
_next_id = 0
_queue: list[dict[str, Any]] = []
_cancelled: set[str] = set()


def send(message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def receive() -> dict[str, Any]:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    message = json.loads(line)
    log = os.environ.get("V2_AGENT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(message) + "\n")
    if message.get("method") == "session/cancel":
        _cancelled.add(message["params"]["sessionId"])
    return message


def request(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Send a request and wait for its response (other messages are queued)."""
    global _next_id
    _next_id += 1
    send({"jsonrpc": "2.0", "id": f"agent-{_next_id}", "method": method, "params": params})
    while True:
        message = receive()
        if message.get("id") == f"agent-{_next_id}" and "method" not in message:
            return message
        _queue.append(message)


def update(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": SESSION, "update": body},
    }


def notify(body: dict[str, Any]) -> None:
    send(update(body))


def tool_call(tool_call_id: str, terminal_id: str | None = None, **fields: Any) -> dict[str, Any]:
    body = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, **fields}
    if terminal_id is not None:
        body["content"] = [{"type": "terminal", "terminalId": terminal_id}]
    return update(body)


def terminal(terminal_id: str, **fields: Any) -> dict[str, Any]:
    return update({"sessionUpdate": "terminal_update", "terminalId": terminal_id, **fields})


def chunk(terminal_id: str, data: bytes) -> dict[str, Any]:
    encoded = base64.b64encode(data).decode()
    return update(
        {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id, "data": encoded}
    )


def say(text: str) -> None:
    notify(
        {
            "sessionUpdate": "agent_message_chunk",
            "messageId": "msg_1",
            "content": {"type": "text", "text": text},
        }
    )


def state(name: str, stop_reason: str | None = None) -> None:
    body: dict[str, Any] = {"sessionUpdate": "state_update", "state": name}
    if stop_reason is not None:
        body["stopReason"] = stop_reason
    notify(body)


def run_terminals() -> None:
    send(tool_call("call_1", "term_1", title="Print", kind="execute", status="in_progress"))
    send(terminal("term_1", command="printf café", cwd="/work/project"))
    send(chunk("term_1", b"caf\xc3"))  # é split after its first byte
    send(chunk("term_1", b"\xa9 \x1b[3"))  # ESC [ 3 | 2 m split
    send(chunk("term_1", b"2mgreen\x1b[0m\r\n"))
    send(chunk("term_1", b"done\r\n"))
    send(terminal("term_1", exitStatus={"exitCode": 0}))
    send(tool_call("call_1", status="completed"))
    say("printed")


def run_batch() -> None:
    send(
        [
            tool_call("call_2", "term_2", title="Build", kind="execute", status="in_progress"),
            terminal("term_2", command="make", cwd="/work/project"),
            chunk("term_2", b"built\n"),
            tool_call("call_2", status="failed"),
        ]
    )
    send(terminal("term_2", exitStatus={"exitCode": 2}))


def run_snapshot() -> None:
    send(tool_call("call_3", "term_3", title="Replay", kind="execute", status="in_progress"))
    send(terminal("term_3", command="replay", cwd="/work/project"))
    send(chunk("term_3", b"old line\n"))
    snapshot = base64.b64encode(b"new line\n").decode()
    send(terminal("term_3", output={"data": snapshot}))
    send(chunk("term_3", b"tail\n"))
    send(terminal("term_3", exitStatus={"exitCode": 0}))
    send(tool_call("call_3", status="completed"))


def run_signal() -> None:
    send(tool_call("call_4", "term_4", title="Sleep", kind="execute", status="in_progress"))
    send(terminal("term_4", command="sleep 100", cwd="/work/project"))
    send(chunk("term_4", b"started\n"))
    send(terminal("term_4", exitStatus={"signal": "SIGTERM"}))
    send(tool_call("call_4", status="cancelled"))


def permission_params(cwd: str, kinds: tuple[str, ...]) -> dict[str, Any]:
    return {
        "sessionId": SESSION,
        "title": "Remove the build directory?",
        "subject": {
            "type": "command",
            "command": "rm -rf build",
            "cwd": cwd,
            "toolCallId": "call_5",
        },
        "options": [{"optionId": f"opt_{kind}", "name": kind, "kind": kind} for kind in kinds],
    }


def run_permission() -> None:
    answer = request(
        "session/request_permission",
        permission_params("/work/project", ("allow_once", "reject_once")),
    )
    outcome = answer.get("result", {}).get("outcome", {})
    if outcome.get("optionId") != "opt_allow_once":
        say(f"not run: {json.dumps(answer)}")
        return
    send(tool_call("call_5", "term_5", status="in_progress"))
    send(terminal("term_5", command="rm -rf build", cwd="/work/project"))
    send(chunk("term_5", b"removed\n"))
    send(terminal("term_5", exitStatus={"exitCode": 0}))
    send(tool_call("call_5", status="completed"))
    say("allowed and run")


def run_unsupported() -> None:
    codes = []
    answers = [
        request("_example/custom", {"sessionId": SESSION}),
        request("session/request_permission", permission_params("relative/dir", ("allow_once",))),
        request("session/request_permission", permission_params("/work", ("allow_session",))),
        request("elicitation/create", {"sessionId": SESSION, "message": "Name?", "mode": "form"}),
    ]
    for answer in answers:
        codes.append(str(answer.get("error", {}).get("code")))
    say("errors: " + " ".join(codes))


def run_wait() -> None:
    say("waiting")
    while SESSION not in _cancelled:
        _queue.append(receive())  # handled after the turn
    state("idle", "cancelled")


def run_crash() -> None:
    send(tool_call("call_6", "term_6", title="Crash", kind="execute", status="in_progress"))
    send(terminal("term_6", command="crash", cwd="/work/project"))
    send(chunk("term_6", b"about to crash\n"))
    sys.exit(3)


def whole(kind: str, message_id: str, *texts: str | None, **fields: Any) -> None:
    body: dict[str, Any] = {"sessionUpdate": kind, "messageId": message_id, **fields}
    if texts == (None,):
        body["content"] = None
    elif texts:
        body["content"] = [{"type": "text", "text": t} for t in texts]
    notify(body)


def plan(plan_id: str, *entries: tuple[str, str]) -> None:
    items = [{"content": c, "priority": "high", "status": s} for c, s in entries]
    notify(
        {
            "sessionUpdate": "plan_update",
            "plan": {"type": "items", "planId": plan_id, "entries": items},
        }
    )


def run_messages() -> None:
    whole("agent_message", "m1", "A", "B")
    notify(
        {
            "sessionUpdate": "agent_message_chunk",
            "messageId": "m2",
            "content": {"type": "text", "text": "x"},
        }
    )
    whole("agent_message", "m2", "y")
    whole("agent_message", "m2", None)
    whole("agent_thought", "t1", "thinking")
    whole("agent_message", "m3", _meta={"source": "replay"})
    plan("p1", ("step 1", "pending"), ("step 2", "cancelled"))
    plan("p2", ("other", "in_progress"))
    plan("p1", ("step 1", "completed"))


def run_elicit() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    params = {"sessionId": SESSION, "mode": "form", "message": "Name?", "requestedSchema": schema}
    answer = request("elicitation/create", params)
    say(f"elicited: {json.dumps(answer.get('result', answer.get('error')))}")


def run_ask() -> None:
    options = [
        {"optionId": "go", "name": "Go on", "kind": "allow_once"},
        {"optionId": "stop", "name": "Stop", "kind": "reject_once"},
    ]
    params = {"sessionId": SESSION, "title": "Keep going?", "options": options}
    answer = request("session/request_permission", params)
    say(f"asked: {json.dumps(answer.get('result'))}")


def run_flood() -> None:
    for i in range(2000):
        notify({"sessionUpdate": "_example_unknown", "index": i, "padding": "x" * 64})
    for _ in range(256):
        sys.stderr.write("e" * 1023 + "\n")
    sys.stderr.flush()
    say("flooded")


SCRIPTS = {
    "terminals": run_terminals,
    "batch": run_batch,
    "snapshot": run_snapshot,
    "signal": run_signal,
    "permission": run_permission,
    "unsupported": run_unsupported,
    "wait": run_wait,
    "crash": run_crash,
    "flood": run_flood,
    "messages": run_messages,
    "elicit": run_elicit,
    "ask": run_ask,
    "cancelme": run_wait,
}


def config_options(model: object) -> list[dict[str, Any]]:
    choices = [{"value": "fast", "name": "Fast"}, {"value": "slow", "name": "Slow"}]
    return [
        {
            "configId": "model",
            "name": "Model",
            "type": "select",
            "currentValue": model,
            "options": choices,
        },
        {"configId": "x", "name": "Vendor", "type": "_vendor_kind", "payload": 1},
    ]


def handle(message: dict[str, Any]) -> None:
    method = message.get("method")
    if "id" not in message or method is None:
        return
    reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
    params = message.get("params") or {}
    if method == "initialize":
        reply["result"] = {
            "protocolVersion": 2,
            "info": {"name": "scripted-v2-agent", "version": "1.0"},
            "capabilities": {"session": {"prompt": {"image": {}}}},
            "authMethods": [{"methodId": "token", "name": "Token", "type": "agent"}],
        }
    elif method == "auth/login":
        reply["result"] = {}
    elif method == "session/new":
        command = {"name": "web", "description": "Search", "input": {"type": "text", "hint": "q"}}
        notify({"sessionUpdate": "available_commands_update", "availableCommands": [command]})
        reply["result"] = {"sessionId": SESSION, "configOptions": config_options("fast")}
    elif method == "session/resume":
        if params.get("replayFrom") is not None:  # v2 replay: whole messages
            whole("user_message", "u0", "hello")
            whole("agent_message", "a0", "replayed")
            plan("main", ("replayed step", "completed"))
        reply["result"] = {"configOptions": config_options("fast")}
    elif method == "session/set_config_option":
        reply["result"] = {"configOptions": config_options(params.get("value"))}
        notify({"sessionUpdate": "config_option_update", "configOptions": config_options("slow")})
    elif method == "session/list":
        session = {"sessionId": SESSION, "cwd": "/work/project", "title": "Scripted"}
        reply["result"] = {"sessions": [session], "nextCursor": "c2"}
    elif method in ("session/delete", "auth/logout", "session/close"):
        reply["result"] = {}
    elif method == "session/prompt":
        send({**reply, "result": {}})
        state("running")
        words = " ".join(b.get("text", "") for b in params.get("prompt", [])).split()
        script = SCRIPTS.get(words[0] if words else "")
        if script is None:
            say("unknown script")
        else:
            _cancelled.discard(SESSION)
            script()
        if script is not run_wait:  # (cancelme is run_wait too)
            state("idle", "end_turn")
        return
    else:
        reply["error"] = {"code": -32601, "message": f"unknown method {method}"}
    send(reply)


def main() -> None:
    while True:
        handle(_queue.pop(0) if _queue else receive())


if __name__ == "__main__":
    main()
