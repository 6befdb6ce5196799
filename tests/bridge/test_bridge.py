"""V2ToV1Bridge: what a v1 client receives for v2 terminals, tool calls and permissions."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from bridge_wire import (
    block_parts,
    check_v1,
    chunk,
    last_blocks,
    load_fixture,
    notify,
    permission,
    snapshot,
    terminal_items,
    terminal_update,
    text_item,
    tool_call,
    updates,
)

from termscribe import render_text
from termscribe._parser import Parser
from termscribe._transcript import DEFAULT_MAX_LINES
from termscribe.acp import InvalidMessageError, V2ToV1Bridge, mode_for_client
from termscribe.acp.bridge._meta import REPLACED_MARKER, SEPARATOR

OUTPUT = (
    b"\x1b[1mrunning 3 tests\x1b[0m\r\n"
    b"test a ... \x1b[32mok\x1b[0m\n"
    b"progress 10%\rprogress 100%\n"
    b"evil \x1b]52;c;aGk=\x07 \xe2\x80\xae fake ``` fence\n"
    b"tail without newline"
)


def run(
    messages: list[Any], mode: str = "text", flush_each: bool = True, **options: Any
) -> tuple[V2ToV1Bridge, list[dict[str, Any]]]:
    """Feed messages one by one (flushing after each); all v1 messages, each checked."""
    bridge = V2ToV1Bridge(mode=mode, **options)
    out: list[dict[str, Any]] = []
    for message in messages:
        out.extend(bridge.apply(message).messages)
        if flush_each:
            out.extend(bridge.flush())
    out.extend(bridge.finish())
    for message in out:
        check_v1(message)
    return bridge, out


def session(data: bytes, pieces: list[bytes] | None = None) -> list[Any]:
    pieces = pieces if pieces is not None else [data]
    return [
        tool_call("call_1", "term_1", title="Run tests", kind="execute", status="in_progress"),
        terminal_update("term_1", command="cargo test", cwd="/workspace/project"),
        *(chunk("term_1", p) for p in pieces),
        terminal_update("term_1", exit_status={"exitCode": 0}),
        notify(
            {"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed"}
        ),
    ]


def test_text_mode_shows_the_sanitized_transcript_in_a_fence() -> None:
    bridge, out = run(session(OUTPUT))
    assert terminal_items(out) == []  # no v1 terminal resource in text mode
    block = last_blocks(out)["call_1"]
    header, text, status = block_parts(block)
    assert header == "Command `cargo test` in `/workspace/project`"
    transcript = bridge.store.get("sess_1", "term_1").text()  # type: ignore[union-attr]
    assert transcript == render_text(OUTPUT)
    assert text == transcript + "\n"  # a final newline closes the last line
    assert status == "Status: exit code 0"
    assert "\x1b" not in block and "\u202e" not in block
    assert "<U+202E>" in block
    fence = block.split("\n\n")[1].split("\n", 1)[0].removesuffix("console")
    assert len(fence) == 4  # the output holds a ``` run


def test_first_v2_update_announces_a_v1_tool_call() -> None:
    _, out = run(session(b"hi\n"))
    kinds = [u["sessionUpdate"] for u in updates(out)]
    assert kinds[0] == "tool_call"
    assert kinds.count("tool_call") == 1
    first = next(updates(out))
    assert first["title"] == "Run tests"
    assert first["kind"] == "execute"
    assert first["status"] == "in_progress"


def test_non_terminal_items_keep_their_place() -> None:
    messages = [
        tool_call("c", "t", before=[text_item("before")]),
        chunk("t", b"out\n"),
    ]
    _, out = run(messages)
    content = [u["content"] for u in updates(out) if "content" in u][-1]
    assert content[0] == text_item("before")
    assert content[1]["content"]["text"].startswith("Command not reported\n\n```console\nout\n")


def _final_text(pieces: list[bytes], mode: str) -> str:
    _, out = run(session(b"".join(pieces), pieces), mode=mode)
    if mode == "text":
        return block_parts(last_blocks(out)["call_1"])[1]
    return "".join(
        u["_meta"]["terminal_output"]["data"]
        for u in updates(out)
        if "terminal_output" in (u.get("_meta") or {})
    )


@pytest.mark.parametrize("mode", ["text", "meta"])
@pytest.mark.parametrize("seed", range(8))
def test_chunk_splits_do_not_change_the_final_text(mode: str, seed: int) -> None:
    rng = random.Random(seed)
    data = OUTPUT * 3
    cuts = sorted(rng.sample(range(1, len(data)), rng.randint(1, 30)))
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    one = _final_text([data], mode)
    byte_by_byte = _final_text([data[i : i + 1] for i in range(len(data))], mode)
    assert _final_text(pieces, mode) == one == byte_by_byte
    assert one == render_text(data) + "\n"


def test_output_before_the_anchor_is_not_lost() -> None:
    messages = [chunk("t", b"early\n"), terminal_update("t", command="make"), tool_call("c", "t")]
    _, out = run(messages)
    assert block_parts(last_blocks(out)["c"])[1] == "early\n"


def test_snapshot_replaces_the_text() -> None:
    messages = [tool_call("c", "t"), chunk("t", b"old line\n"), snapshot("t", b"new line\n")]
    _, out = run(messages)
    assert block_parts(last_blocks(out)["c"])[1] == "new line\n"


def test_between_flushes_nothing_is_sent() -> None:
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("c", "t"))
    for _ in range(50):
        assert bridge.apply(chunk("t", b"x" * 100)).messages == ()
    assert bridge.pending == 5000
    sent = bridge.flush()
    assert len(sent) == 1
    assert bridge.pending == 0
    assert bridge.flush() == []


def test_small_output_waits_for_the_time_rule() -> None:
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("c", "t"))
    bridge.flush(now_ms=0)
    bridge.apply(chunk("t", b"a few bytes\n"))
    assert bridge.flush(now_ms=100) == []  # below min_bytes, not yet max_delay_ms
    (sent,) = bridge.flush(now_ms=600)
    assert "a few bytes" in json.dumps(sent)


def test_exit_is_sent_at_the_next_flush_and_with_the_status() -> None:
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("c", "t"))
    bridge.flush(now_ms=0)
    bridge.apply(chunk("t", b"done\n"))
    bridge.apply(terminal_update("t", exit_status={"signal": "SIGTERM"}))
    result = bridge.apply(
        notify({"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "cancelled"})
    )
    (message,) = result.messages
    update = message["params"]["update"]
    assert update["status"] == "failed"  # v1 has no "cancelled"
    assert block_parts(update["content"][0]["content"]["text"])[1:] == (
        "done\n",
        "Status: killed by `SIGTERM`",
    )


def test_cap_keeps_head_and_live_tail() -> None:
    lines = b"".join(b"line %05d\n" % i for i in range(20_000))
    _, out = run([tool_call("c", "t"), chunk("t", lines)], max_text_chars=4096)
    text = block_parts(last_blocks(out)["c"])[1]
    assert text.startswith("line 00000\nline 00001\n")
    assert text.endswith("line 19999\n")
    assert "characters omitted]" in text
    assert len(text) < 4096 + 100


@pytest.mark.parametrize(
    ("mode", "meta_output"), [("text", "text"), ("meta", "text"), ("meta", "ansi")]
)
def test_each_output_byte_is_interpreted_once(mode: str, meta_output: str) -> None:
    """The views read the store's transcripts: output is parsed once."""
    parsed: list[str] = []
    feed = Parser.feed

    def recording(self: Parser, text: str) -> None:
        parsed.append(text)
        feed(self, text)

    output = b"\x1b[1mone-of-a-kind\x1b[0m output\nsecond-of-a-kind\n"
    bridge = V2ToV1Bridge(mode=mode, meta_output=meta_output)
    Parser.feed = recording  # type: ignore[method-assign]
    try:
        for message in session(output, [output[:20], output[20:]]):
            bridge.apply(message)
            bridge.flush()
        bridge.finish()
    finally:
        Parser.feed = feed  # type: ignore[method-assign]
    seen = "".join(parsed)
    assert seen.count("one-of-a-kind") == 1 and seen.count("second-of-a-kind") == 1


def test_many_lines_between_flushes_keep_the_head() -> None:
    """More lines than a transcript's max_lines arrive before one flush: the
    view took them in as they came, so the first lines still lead."""
    pieces = [
        b"".join(b"line %06d\n" % i for i in range(k, k + 40_000)) for k in (0, 40_000, 80_000)
    ]
    bridge = V2ToV1Bridge(mode="text", max_text_chars=4096)
    bridge.apply(tool_call("c", "t"))
    for piece in pieces:
        bridge.apply(chunk("t", piece))
    out = bridge.flush(force=True)
    text = block_parts(last_blocks(out)["c"])[1]
    assert text.startswith("line 000000\nline 000001\n")
    assert text.endswith("line 119999\n")
    assert "earlier lines" not in text


def test_one_chunk_past_max_lines_says_what_was_dropped() -> None:
    data = b"".join(b"%06d\n" % i for i in range(DEFAULT_MAX_LINES + 100))
    bridge = V2ToV1Bridge(mode="text", max_text_chars=4096)
    bridge.apply(tool_call("c", "t"))
    bridge.apply(chunk("t", data))
    text = block_parts(last_blocks(bridge.flush(force=True))["c"])[1]
    marker, first, _ = text.split("\n", 2)
    dropped = re.fullmatch(r"\[termscribe: (\d+) earlier lines omitted\]", marker)
    assert dropped is not None  # the store's transcript's marker, as text() has it
    assert first == f"{int(dropped[1]):06d}"
    assert bridge.store.get("sess_1", "t").text().startswith(f"{marker}\n{first}\n")  # type: ignore[union-attr]
    assert text.endswith(f"{DEFAULT_MAX_LINES + 99:06d}\n")


# -- meta mode ------------------------------------------------------------------------


def test_meta_mode_matches_the_zed_convention() -> None:
    _, out = run(session(b"Applying migrations\nDone\n"), mode="meta")
    fixture = load_fixture("terminal-output-meta-flow.json") + load_fixture(
        "terminal-command-started.json"
    )
    want_keys = {
        name: set(entry)
        for notification in fixture
        for name, entry in (notification["update"].get("_meta") or {}).items()
    }
    got: dict[str, list[dict[str, Any]]] = {}
    for update in updates(out):
        for name, entry in (update.get("_meta") or {}).items():
            got.setdefault(name, []).append(entry)
    assert set(got) == {"terminal_info", "terminal_output", "terminal_exit"}
    for name, entries in got.items():
        for entry in entries:
            assert set(entry) <= want_keys[name]
            assert entry["terminal_id"] == "term_1"
    assert got["terminal_exit"] == [{"terminal_id": "term_1", "exit_code": 0, "signal": None}]
    data = "".join(e["data"] for e in got["terminal_output"])
    assert data == "Applying migrations\nDone\n"
    # The terminal item first appears alongside terminal_info, on a tool_call
    # (the extension Zed reads; tests/bridge/test_bridge_zed.py has the rules).
    first = next(u for u in updates(out) if u.get("content"))
    assert first["sessionUpdate"] == "tool_call"
    assert first["content"] == [{"type": "terminal", "terminalId": "term_1"}]
    assert "terminal_info" in first["_meta"]


def test_meta_mode_output_is_append_only_and_linear() -> None:
    bridge = V2ToV1Bridge(mode="meta")
    bridge.apply(tool_call("c", "t"))
    bridge.flush()
    sent = []
    for n in range(100):
        bridge.apply(chunk("t", b"line %d\n" % n))
        for message in bridge.flush():
            meta = message["params"]["update"]["_meta"]
            if "terminal_output" in meta:  # the first flush also announces the terminal
                sent.append(meta["terminal_output"]["data"])
    assert "".join(sent) == "".join(f"line {n}\n" for n in range(100))
    assert all(len(s) < 12 for s in sent)


def test_meta_mode_snapshot_adds_a_separator_and_the_new_transcript() -> None:
    messages = [tool_call("c", "t"), chunk("t", b"old\n"), snapshot("t", b"new\n")]
    _, out = run(messages, mode="meta")
    data = "".join(
        u["_meta"]["terminal_output"]["data"]
        for u in updates(out)
        if "terminal_output" in (u.get("_meta") or {})
    )
    assert data == f"old\n{SEPARATOR}\nnew\n"
    # what the separator stands for is said outside the output, next to the terminal
    content = [u["content"] for u in updates(out) if "content" in u][-1]
    assert content == [{"type": "terminal", "terminalId": "t"}, text_item(REPLACED_MARKER)]


def test_mode_for_client_reads_the_meta_capability() -> None:
    assert mode_for_client({"_meta": {"terminal_output": True}}) == "meta"
    assert mode_for_client({"_meta": {"terminal_output": "yes"}}) == "text"
    assert mode_for_client({"terminal": True}) == "text"
    assert mode_for_client(None) == "text"


# -- permissions, passthrough, errors ---------------------------------------------------


def test_command_permission_shows_the_exact_command_and_keeps_the_id() -> None:
    command = "rm -rf build\x1b[8m && echo ok"
    bridge = V2ToV1Bridge()
    result = bridge.apply(permission("req-1", type="command", command=command, cwd="/w"))
    for message in result.messages:
        check_v1(message)
    announce, request = result.messages
    assert announce["params"]["update"]["sessionUpdate"] == "tool_call"
    assert request["id"] == "req-1"
    tool = request["params"]["toolCall"]
    # the command the client is asked to allow is the command it shows (SECURITY.md)
    assert tool["rawInput"] == {"command": "rm -rf build<U+001B>[8m && echo ok", "cwd": "/w"}
    assert tool["title"] == "rm -rf build<U+001B>[8m && echo ok"
    assert tool["toolCallId"] == announce["params"]["update"]["toolCallId"]
    assert [o["optionId"] for o in request["params"]["options"]] == ["allow", "deny"]


def test_command_permission_for_a_known_tool_call_does_not_touch_its_content() -> None:
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("call_1", "t"))
    result = bridge.apply(
        permission(3, type="command", command="make", cwd="/w", toolCallId="call_1")
    )
    (request,) = result.messages
    check_v1(request)
    assert request["params"]["toolCall"] == {
        "toolCallId": "call_1",
        "title": "make",
        "rawInput": {"command": "make", "cwd": "/w"},
    }


def test_permission_without_subject_and_unknown_option_kinds() -> None:
    message = permission(9)
    message["params"]["options"].append({"optionId": "x", "name": "X", "kind": "_vendor"})
    bridge = V2ToV1Bridge()
    result = bridge.apply(message)
    for out in result.messages:
        check_v1(out)
    assert len(result.messages[-1]["params"]["options"]) == 2
    assert any("option" in str(n) for n in result.not_bridged)


def test_an_option_meta_that_is_not_an_object_is_left_out() -> None:
    message = permission(9)
    options = message["params"]["options"]
    options[0]["_meta"] = []
    options[1]["_meta"] = {"kept": True}
    (*_, request) = V2ToV1Bridge().apply(message).messages
    check_v1(request)
    sent = request["params"]["options"]
    assert "_meta" not in sent[0] and sent[1]["_meta"] == {"kept": True}


def test_a_location_meta_that_is_not_an_object_is_left_out() -> None:
    locations = [{"path": "/w/a", "_meta": []}, {"path": "/w/b", "_meta": {"kept": 1}}]
    (message,) = V2ToV1Bridge().apply(tool_call("c", locations=locations)).messages
    check_v1(message)
    sent = message["params"]["update"]["locations"]
    assert sent == [{"path": "/w/a"}, {"path": "/w/b", "_meta": {"kept": 1}}]
    assert locations[0] == {"path": "/w/a", "_meta": []}  # the input is not changed


def test_passthrough_and_not_bridged() -> None:
    bridge = V2ToV1Bridge()
    response = {"jsonrpc": "2.0", "id": 1, "result": {"stopReason": "end_turn"}}
    assert bridge.apply(response).messages == (response,)
    text = {
        "sessionUpdate": "agent_message_chunk",
        "messageId": "m",
        "content": {"type": "text", "text": "hi"},
    }
    (message,) = bridge.apply(notify(text)).messages
    check_v1(message)
    plan = bridge.apply(notify({"sessionUpdate": "_vendor_update"}))
    assert plan.messages == ()
    assert "_vendor_update" in str(plan.not_bridged[0])


def test_invalid_message_raises_and_changes_nothing() -> None:
    bridge = V2ToV1Bridge()
    bridge.apply(tool_call("c", "t"))
    bridge.flush()
    bad = [
        chunk("t", b"lost"),
        notify({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "!"}),
    ]
    before = copy.deepcopy(bad)
    with pytest.raises(InvalidMessageError):
        bridge.apply(bad)
    assert bad == before
    assert bridge.pending == 0
    assert bridge.flush(force=True) == []


def test_batch_items_are_bridged_in_order() -> None:
    bridge = V2ToV1Bridge()
    result = bridge.apply([tool_call("c", "t"), chunk("t", b"x\n")])
    (announce,) = result.messages
    assert announce["params"]["update"]["sessionUpdate"] == "tool_call"
    # The whole batch is applied first, so the announcement already shows the output.
    assert "\\nx\\n" in json.dumps(announce)
    assert bridge.flush(force=True) == []


def test_lenient_optional_fields_follow_the_store() -> None:
    bad_cwd = terminal_update("t", command="make", cwd="relative")
    lenient = V2ToV1Bridge()
    lenient.apply(tool_call("c", "t", title="T"))
    result = lenient.apply(bad_cwd)
    assert ["cwd" in str(w) for w in result.warnings] == [True]
    assert lenient.store.get("sess_1", "t").command == "make"  # type: ignore[union-attr]
    strict = V2ToV1Bridge(strict=True)
    strict.apply(tool_call("c", "t", title="T"))
    with pytest.raises(InvalidMessageError):
        strict.apply(bad_cwd)
