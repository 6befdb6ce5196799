"""Fuzz `TerminalStore.apply` (and `apply_each`) with fuzzer-made JSON messages.

Input: first byte even, the rest is NDJSON decoded line by line with
``json.loads`` (as a session log); odd, the rest drives a builder of JSON
values biased towards ACP messages (valid messages with a few fields
replaced, batches, arbitrary trees, very deep nesting).  The other bits of
the first byte pick the store's options and `apply` or `apply_each`.  Either way the
messages go one after another to two stores of the same options:

* store A gets every message; `apply` must return or raise
  `InvalidMessageError` (DESIGN.md, invariant 5), and when it raises, A's
  observable state must be exactly what it was before; a batch given to
  `apply_each` must never raise;
* store B gets only the messages A accepted (for `apply_each`, only the
  batch items A did not reject); its results must equal A's, and after
  `finish` both stores must be identical, so a rejected message changed
  nothing, not even state that shows only later;
* `apply` must not modify the message it was given;
* every terminal's text passes the text checker (and the smuggling rules).

    python fuzz/fuzz_store.py [libFuzzer options] [CORPUS_DIR | CRASH_FILE]
"""

from __future__ import annotations

import copy
from typing import Any

from common import assert_no_smuggling, assert_safe_text, fuzzed_messages, json_depth, run

from termscribe.acp import DEFAULT_MAX_RETAINED_BYTES, InvalidMessageError, TerminalStore
from termscribe.acp._store import ApplyResult

#: Messages nested deeper than this are not deep-copied for the
#: no-modification check (the copy itself would recurse too deeply).
COPY_DEPTH = 200


def snapshot(store: TerminalStore) -> tuple[Any, ...]:
    """Everything a user of the store can read (plus the tool-call table)."""
    terminals = tuple(
        (
            t.key,
            t.command,
            t.cwd,
            t.exit_status,
            t.meta,
            t.output_meta,
            t.tool_call_ids,
            t.version,
            t.snapshot_generation,
            t.bytes_received,
            t.raw_bytes,
            t.raw_truncated,
            t.exited,
            t.text(),
        )
        for t in store.terminals()
    )
    calls = tuple(
        store.tool_call(session_id, call_id)
        for session_id, by_id in list(store._tool_calls.items())
        for call_id in list(by_id)
    )
    return (store.revision, store.finished, terminals, calls, store.permissions())


def same(a: object, b: object, what: str) -> None:
    try:
        equal = a == b
    except RecursionError as exc:
        raise AssertionError(f"{what}: state nested too deeply to compare") from exc
    assert equal, f"{what}:\n{a!r}\n!=\n{b!r}"


def apply_one(a: TerminalStore, b: TerminalStore, message: object, each: bool) -> None:
    before = snapshot(a)
    original = copy.deepcopy(message) if json_depth(message, COPY_DEPTH) < COPY_DEPTH else None
    if each and isinstance(message, list):
        result, errors = a.apply_each(message)
        rejected = {e.index for e in errors}
        assert len(rejected) == len(errors), f"errors without a distinct index: {errors}"
        accepted = [item for i, item in enumerate(message) if i not in rejected]
        b.apply_each(accepted)
    else:
        try:
            result = a.apply(message)
        except InvalidMessageError:
            same(snapshot(a), before, "a rejected message changed the store")
            return
        other = b.apply(message)
        assert isinstance(result, ApplyResult)
        same(result, other, "the same message gave another result")
    if original is not None:
        same(message, original, "apply modified its argument")


def test_one_input(data: bytes) -> None:
    messages = fuzzed_messages(data)
    if not messages:
        return
    flags = data[0] >> 1  # bit 0 chose NDJSON or built JSON
    options: dict[str, Any] = {
        "mode": ("lines", "strip", "screen")[flags % 4 % 3],
        "legacy": bool(flags & 4),
        "max_retained_bytes": 16 if flags & 8 else DEFAULT_MAX_RETAINED_BYTES,
    }
    a = TerminalStore(**options)
    b = TerminalStore(**options)
    for message in messages:
        apply_one(a, b, message, each=bool(flags & 16))
    for store in (a, b):
        store.finish()
    same(snapshot(a), snapshot(b), "a store given rejected messages ends up different")
    for terminal in a.terminals():
        assert_safe_text(terminal.text())
        assert_no_smuggling(terminal.text())


if __name__ == "__main__":
    run(test_one_input)
