"""The plain-chunk shortcut (acp/_plain.py) against the general parser.

`TerminalStore.apply` takes a message that meets `plain_chunk`'s
precondition without the general parser; these tests hold the two equal:
what `plain_chunk` reads is what `parse_message` reads (strict or not,
legacy or not), and a store applying generated messages through `apply`
ends in the same state, with the same results, errors and observer calls,
as one applying them through the general path only.  The messages are plain
chunks with a few of their members changed (another value or type, a
subclass of the right type, a member added or removed, base64 that is not
canonical) and the broken messages of tests/wrongjson.py.
"""

from __future__ import annotations

import base64
import copy
from collections import OrderedDict
from typing import Any

from acp_wire import anchor, chunk, snapshot, terminal_update
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wrongjson import V2_MESSAGES, broken, store_state

from termscribe.acp import InvalidMessageError, TerminalState, TerminalStore
from termscribe.acp._errors import FieldError
from termscribe.acp._messages import ParsedMessage, parse_message
from termscribe.acp._models import TerminalOutputChunk
from termscribe.acp._ops import Chunk
from termscribe.acp._plain import plain_chunk

SETTINGS = settings(
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Str(str):
    """A string that is not of the exact type."""


class Dict(dict):  # type: ignore[type-arg]
    """An object that is not of the exact type."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _not_canonical(data: bytes) -> st.SearchStrategy[str]:
    """Encodings of `data` that strict base64 refuses (or reads otherwise)."""
    encoded = _b64(data)
    variants = [
        encoded.rstrip("="),
        encoded + "\n",
        " " + encoded,
        encoded + "====",
        encoded.replace("+", "-").replace("/", "_"),
        encoded + "é",
        "=" + encoded,
    ]
    if encoded.endswith("="):
        # Pad bits that are not zero: the last character before the padding, plus one.
        cut = encoded.rstrip("=")
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        bumped = alphabet[(alphabet.index(cut[-1]) + 1) % 64]
        variants.append(cut[:-1] + bumped + encoded[len(cut) :])
    return st.sampled_from(variants)


_OTHER_VALUES = st.sampled_from(
    [
        None,
        0,
        1.5,
        True,
        "",
        "x",
        [],
        {},
        ["eA=="],
        {"data": "eA=="},
        b"eA==",
        "session/update",
        "terminal_output_chunk",
        "terminal_update",
        float("nan"),
    ]
)
_EXTRA_MEMBERS = st.sampled_from(
    [
        ("_meta", {"seq": 1}),
        ("_meta", None),
        ("_meta", 1),
        ("_meta", {"bad": float("nan")}),
        ("extra", {"k": [1, 2]}),
        ("extra", float("inf")),
        ("id", 7),
        ("sessionId", "other"),
        ("update", {}),
    ]
)
# Where a member may be changed: the message, its params, its update.
_LEVELS: dict[str, tuple[str, ...]] = {
    "message": ("jsonrpc", "method", "params"),
    "params": ("sessionId", "update"),
    "update": ("sessionUpdate", "terminalId", "data"),
}


def _at(message: dict[str, Any], level: str) -> dict[str, Any]:
    if level == "message":
        return message
    if level == "params":
        return message["params"]  # type: ignore[no-any-return]
    return message["params"]["update"]  # type: ignore[no-any-return]


@st.composite
def near_plain(draw: st.DrawFn) -> Any:
    """A plain chunk message, maybe with a few members changed."""
    data = draw(st.binary(max_size=40))
    terminal_id = draw(st.sampled_from(["t1", "t2", ""]))
    session = draw(st.sampled_from(["sess_1", "sess_2"]))
    message: Any = chunk(terminal_id, data, session)
    if draw(st.integers(0, 4)) == 0:
        message["params"]["update"]["data"] = draw(_not_canonical(data))
    for _ in range(draw(st.integers(0, 3))):
        if not (isinstance(message, dict) and isinstance(message.get("params"), dict)):
            break
        if not isinstance(message["params"].get("update"), dict):
            break
        level = draw(st.sampled_from(sorted(_LEVELS)))
        target = _at(message, level)
        key = draw(st.sampled_from(_LEVELS[level]))
        change = draw(st.sampled_from(["value", "subclass", "remove", "add", "base64"]))
        if change == "value":
            target[key] = draw(_OTHER_VALUES)
        elif change == "subclass" and key in target:
            value = target[key]
            if isinstance(value, str):
                target[key] = Str(value)
            elif isinstance(value, dict):
                target[key] = draw(st.sampled_from([Dict, OrderedDict]))(value)
        elif change == "remove":
            target.pop(key, None)
        elif change == "add":
            name, value = draw(_EXTRA_MEMBERS)
            target.setdefault(name, copy.deepcopy(value))
        elif change == "base64" and level == "update":
            target["data"] = draw(_not_canonical(data))
    if draw(st.integers(0, 9)) == 0:
        message = draw(st.sampled_from([Dict, OrderedDict]))(message)
    return message


_MESSAGES = st.one_of(
    near_plain(),
    near_plain(),
    broken([*V2_MESSAGES, chunk("t1", b"plain\n")]),
    st.sampled_from(
        [
            anchor("call_1", "t1"),
            terminal_update("t1", command="make"),
            snapshot("t1", b"snapshot\n"),
            chunk("t1", b"\x1b[31mred\x1b[0m\r\n"),
        ]
    ),
)


def _general(message: object, legacy: bool, strict: bool) -> ParsedMessage | str:
    try:
        return parse_message(message, legacy=legacy, strict=strict)
    except FieldError as exc:
        return f"FieldError({exc.field!r}, {exc.reason!r})"


@SETTINGS
@given(message=_MESSAGES)
def test_plain_chunk_reads_what_the_general_parser_reads(message: Any) -> None:
    plain = plain_chunk(message)
    if plain is None:
        return
    session_id, terminal_id, data = plain
    expected = ParsedMessage((Chunk(session_id, TerminalOutputChunk(terminal_id, data)),), (), 0)
    for legacy in (True, False):
        for strict in (True, False):
            assert _general(message, legacy, strict) == expected
    assert type(session_id) is str and type(terminal_id) is str and type(data) is bytes


def test_plain_chunk_takes_the_plain_message_and_nothing_near_it() -> None:
    message = chunk("t1", b"\x1b[32mok\x1b[0m\n")
    assert plain_chunk(message) == ("sess_1", "t1", b"\x1b[32mok\x1b[0m\n")
    assert plain_chunk(chunk("", b"")) == ("sess_1", "", b"")
    with_meta = copy.deepcopy(message)
    with_meta["params"]["update"]["_meta"] = {"seq": 1}
    subclassed = copy.deepcopy(message)
    subclassed["params"]["update"]["terminalId"] = Str("t1")
    padded = chunk("t1", b"a")
    padded["params"]["update"]["data"] = "YR=="  # pad bits set
    for other in (with_meta, subclassed, padded, Dict(message), terminal_update("t1")):
        assert plain_chunk(other) is None


class _Recorder:
    """An OutputObserver that writes down what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def output_replaced(self, terminal: TerminalState) -> None:
        self.calls.append(("replaced", terminal.key, terminal.version))

    def output_appended(self, terminal: TerminalState, data: bytes) -> None:
        self.calls.append(("appended", terminal.key, data, terminal.bytes_received))


def _outcome(apply: Any, message: object) -> object:
    try:
        return apply(message)
    except InvalidMessageError as exc:
        return ("InvalidMessageError", exc.field, exc.terminal_id, exc.reason, exc.index)
    except Exception as exc:
        return type(exc).__name__


@settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    messages=st.lists(_MESSAGES, max_size=12),
    strict=st.booleans(),
    legacy=st.booleans(),
    finish_at=st.integers(0, 20),
)
def test_apply_equals_the_general_path(
    messages: list[Any], strict: bool, legacy: bool, finish_at: int
) -> None:
    seen, general = _Recorder(), _Recorder()
    options: dict[str, Any] = {"strict": strict, "legacy": legacy, "max_retained_bytes": 50}
    options["max_total_retained_bytes"] = 80
    store = TerminalStore(observer=seen, **options)
    reference = TerminalStore(observer=general, **options)

    def general_apply(message: object) -> object:
        return reference.commit(reference.prepare(message))

    for index, message in enumerate(messages):
        if index == finish_at:
            store.finish()
            reference.finish()
        assert _outcome(store.apply, message) == _outcome(general_apply, message)
        assert store_state(store) == store_state(reference)
    assert seen.calls == general.calls


def test_plain_chunks_do_not_go_through_the_general_parser() -> None:
    store = TerminalStore()
    store.apply(anchor("call_1", "t1"))

    def fail(message: object, *, session_id: str | None = None) -> ParsedMessage:
        raise AssertionError("parsed")

    store.prepare = fail  # type: ignore[method-assign]
    result = store.apply(chunk("t1", b"abc"))
    assert result.changed == (("sess_1", "t1"),) and result.warnings == ()
    terminal = store.get("sess_1", "t1")
    assert terminal is not None and terminal.text() == "abc"
