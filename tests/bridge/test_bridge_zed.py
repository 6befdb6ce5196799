"""Meta mode as Zed reads it.

Zed (``crates/agent_servers``, ``acp_thread``) reads the v1 ``_meta``
terminal convention by three rules, which `ZedClient` applies strictly:

1. a display terminal is created only from ``_meta.terminal_info`` on a
   ``tool_call`` (on a ``tool_call_update`` it is ignored);
2. ``terminal_output`` and ``terminal_exit`` are read only from a
   ``tool_call_update`` (on a ``tool_call`` they are ignored);
3. an update whose content names a terminal it does not know fails whole.

Whatever order the v2 messages come in, the client must end up with every
terminal, its whole output and its exit, and no failed update.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest
from bridge_wire import chunk, snapshot, terminal_update, text_item, tool_call, updates
from wire import notify
from zed_client import ZedClient

from termscribe.acp import V2ToV1Bridge
from termscribe.acp.bridge._meta import SEPARATOR

CWD = "/workspace/project"


def feed(messages: list[Any], **options: Any) -> tuple[ZedClient, list[dict[str, Any]]]:
    bridge = V2ToV1Bridge(mode="meta", **options)
    client = ZedClient()
    out: list[dict[str, Any]] = []
    for message in messages:
        sent = list(bridge.apply(message).messages) + bridge.flush()
        client.receive(sent)
        out += sent
    sent = bridge.finish()
    client.receive(sent)
    return client, out + sent


def _run_tests(state_first: bool = False) -> list[Any]:
    anchor = tool_call("call_1", "term_1", title="Run tests", kind="execute", status="in_progress")
    state = [
        terminal_update("term_1", command="cargo test", cwd=CWD),
        chunk("term_1", b"compiling\n"),
        chunk("term_1", b"ok\n"),
        terminal_update("term_1", exit_status={"exitCode": 0}),
    ]
    done = notify(
        {"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed"}
    )
    return [*state, anchor, done] if state_first else [anchor, *state, done]


def _complete(client: ZedClient) -> None:
    assert client.failed == [] and client.ignored == []
    terminal = client.terminals["term_1"]
    assert terminal["output"] == "compiling\nok\n"
    assert terminal["exit"] == {"terminal_id": "term_1", "exit_code": 0, "signal": None}
    assert terminal["cwd"] == CWD
    call = client.calls["call_1"]
    assert call["status"] == "completed"
    assert call["content"] == [{"type": "terminal", "terminalId": "term_1"}]


@pytest.mark.parametrize("state_first", [False, True])
def test_terminal_info_only_on_a_tool_call_output_only_on_updates(state_first: bool) -> None:
    client, out = feed(_run_tests(state_first))
    _complete(client)
    for update in updates(out):
        meta = update.get("_meta") or {}
        if update["sessionUpdate"] == "tool_call":
            assert set(meta) <= {"terminal_info"}
        else:
            assert "terminal_info" not in meta


def test_state_first_rides_on_the_first_tool_call() -> None:
    _, out = feed(_run_tests(state_first=True))
    first = next(updates(out))
    assert first["sessionUpdate"] == "tool_call"
    assert first["_meta"]["terminal_info"] == {"terminal_id": "term_1", "cwd": CWD}
    assert [u["sessionUpdate"] for u in updates(out)].count("tool_call") == 1


def test_a_terminal_attached_later_announces_the_tool_call_again() -> None:
    messages = [
        tool_call("call_1", title="Build", kind="execute", status="in_progress", content=[]),
        tool_call("call_1", "term_1", before=[text_item("building")]),
        terminal_update("term_1", command="make", cwd=CWD),
        chunk("term_1", b"done\n"),
    ]
    client, out = feed(messages)
    assert client.failed == [] and client.ignored == []
    calls = [u for u in updates(out) if u["sessionUpdate"] == "tool_call"]
    assert len(calls) == 2
    again = calls[1]
    # the same id, and what the client had: Zed replaces the whole call
    assert (again["title"], again["kind"], again["status"]) == ("Build", "execute", "in_progress")
    assert again["content"] == [text_item("building"), {"type": "terminal", "terminalId": "term_1"}]
    assert again["_meta"]["terminal_info"] == {"terminal_id": "term_1", "cwd": CWD}
    assert client.terminals["term_1"]["output"] == "done\n"


def test_a_cwd_that_comes_later_is_not_lost() -> None:
    messages = [
        tool_call("call_1", "term_1", title="Run"),
        terminal_update("term_1", command="make"),
        terminal_update("term_1", cwd=CWD),
        chunk("term_1", b"x\n"),
    ]
    client, out = feed(messages)
    assert client.failed == [] and client.terminals["term_1"]["cwd"] == CWD
    infos = [
        u["_meta"]["terminal_info"] for u in updates(out) if "terminal_info" in u.get("_meta", {})
    ]
    assert infos == [{"terminal_id": "term_1"}, {"terminal_id": "term_1", "cwd": CWD}]


def test_the_command_is_sent_as_raw_input_unless_the_agent_gave_one() -> None:
    _, out = feed(_run_tests())
    announced = [u for u in updates(out) if "terminal_info" in (u.get("_meta") or {})]
    assert announced[-1]["rawInput"] == {"command": "cargo test", "cwd": CWD}
    raw = {"cmd": ["cargo", "test"]}
    messages = [tool_call("call_1", "term_1", title="Run", rawInput=raw), *_run_tests()[1:]]
    _, out = feed(messages)
    assert all(u.get("rawInput", raw) == raw for u in updates(out))


def test_two_terminals_in_one_tool_call() -> None:
    messages = [
        tool_call("call_1", "a", "b", title="Both"),
        terminal_update("a", command="one", cwd=CWD),
        terminal_update("b", command="two", cwd=CWD),
        chunk("a", b"A\n"),
        chunk("b", b"B\n"),
        terminal_update("a", exit_status={"exitCode": 0}),
        terminal_update("b", exit_status={"exitCode": 1}),
    ]
    client, _ = feed(messages)
    assert client.failed == [] and client.ignored == []
    assert {t: v["output"] for t, v in client.terminals.items()} == {"a": "A\n", "b": "B\n"}
    assert client.terminals["b"]["exit"]["exit_code"] == 1
    assert client.calls["call_1"]["content"] == [
        {"type": "terminal", "terminalId": "a"},
        {"type": "terminal", "terminalId": "b"},
    ]


@pytest.mark.parametrize("seed", range(12))
def test_any_order_follows_the_rules(seed: int) -> None:
    """Shuffled v2 messages (chunks of one terminal kept in order)."""
    rng = random.Random(seed)
    anchor, *state, done = _run_tests()
    order = [anchor, done, *state]
    rng.shuffle(order)
    chunks = iter([m for m in state if m["params"]["update"]["sessionUpdate"] != "terminal_update"])
    ordered = [next(chunks) if m in state and "data" in m["params"]["update"] else m for m in order]
    client, _ = feed(ordered)
    assert client.failed == [] and client.ignored == []
    assert client.terminals["term_1"]["output"] == "compiling\nok\n"
    assert client.terminals["term_1"]["exit"]["exit_code"] == 0


def test_a_terminal_with_nothing_to_show_is_not_announced() -> None:
    client, out = feed([tool_call("call_1", "term_1", title="Wait")])
    assert client.terminals == {} and client.failed == []
    assert all(u.get("content") == [] for u in updates(out) if "content" in u)


# -- colours for clients that emulate a terminal --------------------------------------

_SGR_ONLY = re.compile(r"\x1b\[[0-9;:]*m")


def test_ansi_output_keeps_colours_and_nothing_else() -> None:
    data = b"\x1b[32mgreen\x1b[0m plain\n\x1b]52;c;aGk=\x07\x1b[?25lred: \x1b[31mx\x1b[0m\n"
    messages = [tool_call("c", "t", title="Colours"), chunk("t", data), snapshot("t", b"new\n")]
    client, _ = feed(messages, meta_output="ansi")
    output = client.terminals["t"]["output"]
    assert "\x1b[" in output and "green" in output
    escapes = re.findall(r"\x1b[^a-zA-Z]*[a-zA-Z]?", output)
    assert escapes and all(_SGR_ONLY.fullmatch(e) for e in escapes), escapes
    assert "52;" not in output and "\x07" not in output
    # the snapshot's separator starts with a reset, so old colours end there
    assert f"\x1b[0m{SEPARATOR}\nnew\n" in output
    assert _SGR_ONLY.sub("", output).startswith("green plain\n")


def test_text_output_has_no_escapes() -> None:
    data = b"\x1b[32mgreen\x1b[0m\n"
    client, _ = feed([tool_call("c", "t", title="T"), chunk("t", data)])
    assert client.terminals["t"]["output"] == "green\n"


def test_meta_output_is_checked() -> None:
    with pytest.raises(ValueError):
        V2ToV1Bridge(mode="meta", meta_output="html")


def test_every_split_gives_the_same_ansi() -> None:
    data = b"\x1b[1;34mbold blue\x1b[0m \xe2\x9c\x93\n"
    whole, _ = feed([tool_call("c", "t", title="T"), chunk("t", data)], meta_output="ansi")
    for cut in itertools.islice(range(1, len(data)), 0, None, 3):
        split, _ = feed(
            [tool_call("c", "t", title="T"), chunk("t", data[:cut]), chunk("t", data[cut:])],
            meta_output="ansi",
        )
        assert split.terminals["t"]["output"] == whole.terminals["t"]["output"]
