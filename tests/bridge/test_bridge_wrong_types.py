"""Invariant 5 for the bridge and its CLI: for any JSON value, `apply` succeeds
(every message it emits can be written as JSON) or raises `InvalidMessageError`
and changes nothing; `termscribe bridge` never dies on one line.

The messages are valid ones with one value anywhere replaced by a value of
another JSON type, or removed; see tests/wrongjson.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from bridge_wire import check_v1, chunk, terminal_update, tool_call, updates
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wrongjson import DEEP_VALUES, V2_MESSAGES, broken, json_depth, nested, store_state

from termscribe.acp import InvalidMessageError, V2ToV1Bridge
from termscribe.acp._validate import MAX_JSON_DEPTH

FUZZ = settings(
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FOLLOW_UP = [
    chunk("term_1", b"after\n"),
    terminal_update("term_2", exit_status={"exitCode": 0}),
    tool_call("call_3", "term_1", title="again"),
]


def loaded(mode: str) -> V2ToV1Bridge:
    bridge = V2ToV1Bridge(mode=mode, max_text_chars=512)
    for message in V2_MESSAGES:
        for out in bridge.apply(message).messages:
            check_v1(out)
    bridge.flush()
    return bridge


def writable(message: Any) -> None:
    """Plain JSON that json.dumps writes even from a deep stack."""
    json.dumps(message, allow_nan=False)
    assert json_depth(message) <= MAX_JSON_DEPTH + 8


def follow_up(bridge: V2ToV1Bridge) -> list[Any]:
    """What the bridge does next: equal for equal states."""
    out: list[Any] = [bridge.pending, store_state(bridge.store)]
    for message in FOLLOW_UP:
        result = bridge.apply(message)
        out += [result.messages, [str(n) for n in result.not_bridged], bridge.pending]
        out += bridge.flush(now_ms=0)
    out += bridge.finish()
    return out


def check(message: Any, mode: str) -> None:
    bridge, twin = loaded(mode), loaded(mode)
    try:
        result = bridge.apply(message)
    except InvalidMessageError:
        assert follow_up(bridge) == follow_up(twin)
        return
    for out in result.messages:
        writable(out)
    for out in bridge.flush(force=True) + bridge.finish():
        writable(out)


@FUZZ
@given(broken(), st.sampled_from(["text", "meta"]))
def test_bridge_applies_or_rejects_a_broken_message_unchanged(message: Any, mode: str) -> None:
    check(message, mode)


@FUZZ
@given(
    st.lists(st.one_of(broken(), st.sampled_from(V2_MESSAGES)), min_size=1, max_size=3),
    st.sampled_from(["text", "meta"]),
)
def test_bridge_applies_or_rejects_a_broken_batch_unchanged(batch: list[Any], mode: str) -> None:
    check(batch, mode)


def permission_options(*options: Any) -> dict[str, Any]:
    message = json.loads(json.dumps(V2_MESSAGES[5]))
    message["params"]["options"] = list(options)
    return message


ALLOW = {"optionId": "allow", "name": "Allow", "kind": "allow_once"}


@pytest.mark.parametrize("mode", ["text", "meta"])
def test_the_reported_crashes(mode: str) -> None:
    bridge = V2ToV1Bridge(mode=mode)
    block = {"type": "content", "content": {"type": {}}}
    result = bridge.apply(tool_call("c", "t", before=[block]))
    assert any("expected a string type" in str(n) for n in result.not_bridged)
    result = bridge.apply(permission_options({**ALLOW, "kind": []}, ALLOW))
    assert "1 option(s) that v1 cannot carry left out" in str(result.not_bridged[0])
    assert result.messages[-1]["params"]["options"] == [ALLOW]
    result = bridge.apply({"jsonrpc": "2.0", "id": 1, "result": nested(988, "list")})
    assert result.messages == ()
    assert "nested deeper than" in str(result.not_bridged[0])


@pytest.mark.parametrize(
    "value", [*DEEP_VALUES, float("nan"), float("inf"), 10**5000], ids=lambda v: type(v).__name__
)
def test_values_json_cannot_write_back_are_left_out_with_a_note(value: Any) -> None:
    bridge = V2ToV1Bridge()
    result = bridge.apply(tool_call("c", "t", rawInput=value, rawOutput={"ok": True}))
    (message,) = result.messages
    check_v1(message)
    assert "rawInput" not in message["params"]["update"]
    assert message["params"]["update"]["rawOutput"] == {"ok": True}
    assert "rawInput left out" in str(result.not_bridged[0])


# -- the CLI ----------------------------------------------------------------------

GOOD = json.dumps(
    {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": "s",
            "update": {
                "sessionUpdate": "agent_message_chunk",
                "messageId": "m",
                "content": {"type": "text", "text": "still here"},
            },
        },
    }
)
BAD_LINES = [
    json.dumps(tool_call("c", "t", before=[{"type": "content", "content": {"type": {}}}])),
    json.dumps(permission_options({**ALLOW, "kind": []})),
    '{"jsonrpc":"2.0","id":1,"result":' + "[" * 988 + "]" * 988 + "}",
    "[" * 100_000 + "]" * 100_000,
    '{"jsonrpc":"2.0","id":1,"result":NaN}',
    '{"jsonrpc":"2.0","id":1,"result":-Infinity}',
    '{"jsonrpc":"2.0","id":1,"result":1e999}',
    '{"jsonrpc":"2.0","id":1,"result":' + "9" * 5000 + "}",
    "5",
    "null",
    '"session/update"',
    "[]",
    '{"jsonrpc":"2.0","id":{},"method":"session/request_permission","params":{}}',
]


def test_no_line_kills_the_bridge_cli() -> None:
    """In a real process, so the stack is as deep as in use."""
    lines = [line for bad in BAD_LINES for line in (bad, GOOD)]
    result = subprocess.run(
        [sys.executable, "-m", "termscribe.cli", "bridge"],
        input="\n".join(lines).encode() + b"\n",
        capture_output=True,
        timeout=60,
    )
    err = result.stderr.decode()
    assert "Traceback" not in err
    out = [json.loads(line) for line in result.stdout.decode().splitlines()]
    chunks = [u for u in updates(out) if u["sessionUpdate"] == "agent_message_chunk"]
    assert [u["content"]["text"] for u in chunks] == ["still here"] * len(BAD_LINES)
    for message in out:
        check_v1(message)
    for number in range(1, 2 * len(BAD_LINES), 2):  # each bad line is reported
        assert f"line {number}:" in err
    assert result.returncode == 1


def test_no_line_kills_the_acp_cli(tmp_path: Any) -> None:
    log = tmp_path / "session.ndjson"
    session = [json.dumps(m) for m in V2_MESSAGES[:3]]
    tail = json.dumps(chunk("term_1", b"after the bad lines\n", session="sess_1"))
    log.write_text("\n".join([*session, *BAD_LINES, tail]) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "termscribe.cli", "acp", "--format", "json", str(log)],
        capture_output=True,
        timeout=60,
    )
    assert "Traceback" not in result.stderr.decode()
    report = json.loads(result.stdout)
    assert [t["terminalId"] for t in report["terminals"]] == ["term_1", "t"]
    # The output's first line ends in CR LF: its bare LFs then only move
    # down (the "auto" line feed policy), so the lines keep their columns.
    last_lines = report["terminals"][0]["text"].splitlines()[-2:]
    assert [line.strip() for line in last_lines] == ["more output", "after the bad lines"]
    # Lines 4 to 16 are the bad ones; a type the store does not read and 1e999
    # in a response are accepted; 988 levels are too deep for json.loads or not,
    # depending on the stack depth it is called from.
    rejected = {e["line"] for e in report["errors"]}
    assert {7, 8, 9, 11, 12, 13, 14, 15, 16} <= rejected <= {6, 7, 8, 9, 11, 12, 13, 14, 15, 16}
    assert result.returncode == 1
