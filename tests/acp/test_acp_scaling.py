"""The store's bookkeeping is linear: 4x the work within 6x the time (see
tests/scaling.py for how it is timed)."""

from __future__ import annotations

from collections.abc import Callable

from acp_wire import anchor, permission
from scaling import assert_linear

from termscribe.acp import TerminalStore


def anchor_one_terminal_from_n_tool_calls(n: int) -> Callable[[], object]:
    messages = [anchor(f"call_{i}", "t") for i in range(n)]

    def run() -> TerminalStore:
        store = TerminalStore()
        for message in messages:
            store.apply(message)
        return store

    return run


def test_anchoring_one_terminal_from_many_tool_calls_is_linear() -> None:
    store = anchor_one_terminal_from_n_tool_calls(3)()
    assert store.get("sess_1", "t").tool_call_ids == ("call_0", "call_1", "call_2")  # type: ignore[union-attr]
    assert_linear(anchor_one_terminal_from_n_tool_calls, 2000)


def permissions_of_every_terminal(n: int) -> Callable[[], object]:
    """n terminals, each with a tool call and a permission naming one of them."""
    store = TerminalStore()
    for i in range(n):
        store.apply(anchor(f"call_{i}", f"t{i}"))
        named = {"toolCallId": f"call_{i}"} if i % 2 else {"terminalId": f"t{i}"}
        store.apply(permission(request_id=i, **named))
    terminals = store.terminals()

    def run() -> list[object]:
        return [store.permissions_for(terminal) for _ in range(5) for terminal in terminals]

    return run


def test_permissions_for_every_terminal_is_linear() -> None:
    found = permissions_of_every_terminal(4)()[:4]
    assert [[p.request_id for p in ps] for ps in found] == [[0], [1], [2], [3]]  # type: ignore[attr-defined]
    # At 1,000 terminals the store's dicts fit in the CPU's caches and at
    # 4,000 they do not once the heap is large (after the rest of the suite):
    # that measured 6.3x to 7.5x for linear work. From 4,000 both sizes miss
    # the caches alike (2.8x to 3.6x there), and quadratic work still fails.
    assert_linear(permissions_of_every_terminal, 4000, fresh=False)
