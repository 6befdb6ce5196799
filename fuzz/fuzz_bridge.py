"""Fuzz `V2ToV1Bridge.apply`, `flush` and `finish` with fuzzer-made JSON messages.

Input as for ``fuzz_store.py`` (first byte even: NDJSON; odd: built JSON;
its other bits pick the bridge's options and when to flush).
Two bridges of the same options: A gets every message, B only those A
accepted, and both get the same ``flush`` calls with the same clock.

* `apply` returns or raises `InvalidMessageError` (DESIGN.md, invariant 5);
  when it raises, A's store is unchanged, and from then on A and B must
  produce the same v1 messages, notes and warnings, to the end of `finish`
  (a rejected message changed nothing, not even what is sent later);
* `apply` does not modify the message it was given;
* every v1 message is JSON that ``json.dumps`` can write (the CLI writes it
  so) and that reads back as the same value;
* text mode never sends a v1 terminal content item, and a text item the
  bridge made itself (not one the agent sent) passes the text checker;
  so does the ``_meta.terminal_output`` data of meta mode.

    python fuzz/fuzz_bridge.py [libFuzzer options] [CORPUS_DIR | CRASH_FILE]
"""

from __future__ import annotations

import copy
import json
from typing import Any

from common import assert_no_smuggling, assert_safe_text, fuzzed_messages, json_depth, run
from fuzz_store import COPY_DEPTH, same, snapshot

from termscribe.acp import InvalidMessageError, V2ToV1Bridge

_UPDATE_KINDS = ("tool_call", "tool_call_update")


def strings_in(value: object) -> set[str]:
    """Every string inside a JSON value (keys excluded), without recursion."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def check_out(messages: Any, mode: str, agent_strings: set[str]) -> None:
    """The v1 messages are writable JSON; text mode shows terminals as safe text."""
    assert isinstance(messages, (list, tuple)), type(messages)
    for message in messages:
        try:
            data = json.dumps(message, ensure_ascii=False)
            data.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate the agent sent: the CLI escapes it
            data = json.dumps(message)
        except (TypeError, ValueError, RecursionError) as exc:
            raise AssertionError(f"a v1 message json.dumps cannot write: {exc!r}") from exc
        same(json.loads(data), message, "a v1 message does not read back the same")
        if message.get("method") != "session/update":
            continue
        update = message["params"]["update"]
        if update.get("sessionUpdate") not in _UPDATE_KINDS:
            continue
        if mode == "meta":
            output = (update.get("_meta") or {}).get("terminal_output") or {}
            data = output.get("data")
            if isinstance(data, str) and data not in agent_strings:
                assert_safe_text(data)
                assert_no_smuggling(data)
            continue
        for item in update.get("content") or ():
            assert item.get("type") != "terminal", f"text mode sent a terminal item: {item}"
            text = item.get("content", {}).get("text") if item.get("type") == "content" else None
            if isinstance(text, str) and text not in agent_strings:
                assert_safe_text(text)
                assert_no_smuggling(text)


def test_one_input(data: bytes) -> None:
    messages = fuzzed_messages(data)
    if not messages:
        return
    flags = data[0] >> 1  # bit 0 chose NDJSON or built JSON
    mode = "meta" if flags & 1 else "text"
    options: dict[str, Any] = {"mode": mode, "transcript_mode": ("lines", "screen")[flags >> 1 & 1]}
    if flags & 4:
        options["max_text_chars"] = 256
    a = V2ToV1Bridge(**options)
    b = V2ToV1Bridge(**options)
    agent_strings: set[str] = set()
    now = 0.0
    for index, message in enumerate(messages):
        agent_strings |= strings_in(message)
        before = snapshot(a.store)
        original = copy.deepcopy(message) if json_depth(message, COPY_DEPTH) < COPY_DEPTH else None
        try:
            result = a.apply(message)
        except InvalidMessageError:
            same(snapshot(a.store), before, "a rejected message changed the bridge's store")
            continue
        other = b.apply(message)
        same(result, other, "the same message gave another result")
        if original is not None:
            same(message, original, "apply modified its argument")
        check_out(result.messages, mode, agent_strings)
        if (flags >> 3 + index % 4) & 1:
            now += 7.0 * (index + 1)
            force = bool(index & 1)
            out = a.flush(now_ms=now, force=force)
            same(out, b.flush(now_ms=now, force=force), "flush differs")
            check_out(out, mode, agent_strings)
    out = a.finish()
    same(out, b.finish(), "finish differs")
    check_out(out, mode, agent_strings)
    same(snapshot(a.store), snapshot(b.store), "the stores differ at the end")


if __name__ == "__main__":
    run(test_one_input)
