"""Idle transcripts hold little: made lazily, compacted, frozen when finished.

A transcript makes its interpreter on its first interpreted byte;
``compact`` puts a ``lines`` model, its parser and its decoder to rest
(``_lines._rest``) and the next feed makes them again; ``finish`` keeps only
what reading needs. None of it may change anything read: a transcript
compacted after every chunk, read between chunks, gives what one never
compacted gives, on Hypothesis streams of the whole VT grammar split at
any byte (code points and sequences split, the alternate screen, margins,
saved cursors, modes), and a model woken from rest is in the state the one
put to rest was in. A ``TerminalStore`` compacts the terminals not given
output lately and those that exited; an idle terminal then costs a few
hundred bytes of the store's transcript (bounded below).
"""

from __future__ import annotations

import base64
import gc
import tracemalloc
from typing import Any

import pytest
from chunking import chunks_random
from hypothesis import given, settings
from hypothesis import strategies as st
from test_changes import Client
from vtgrammar import ALL, HypothesisChooser, stream

from termscribe import Transcript
from termscribe._budget import output_constant
from termscribe._lines import Frozen, LinesModel, Resting, _rest
from termscribe._lines._repeat import state_key, state_value
from termscribe._parser import Parser
from termscribe._rows import StylePalette
from termscribe._style import DEFAULT, Link
from termscribe._transcript import HOLD_BYTES
from termscribe.acp import TerminalStore
from termscribe.acp._store import LIVE_TERMINALS
from termscribe.acp._terminal import TranscriptFactory

OPTIONS: list[dict[str, Any]] = [
    {},
    {"columns": 12, "rows": 4},
    {"columns": 12, "rows": 4, "max_lines": 3},
    {"rows": 3, "newline": "lf"},
    {"rows": 5, "newline": "crlf", "styled": False},
    {"rows": 3, "max_lines": 0},
    {"rows": 3, "hold_bytes": 20},
    # Modes compact does not apply to: it must do nothing there.
    {"rows": 3, "alt_screen": "snapshot"},
    {"mode": "strip"},
    {"mode": "screen", "columns": 12, "rows": 4},
]

# Extra pieces the grammar does not draw: split code points, strings, links,
# a sequence left open, DEC line drawing, REP, tab stops, a marker spelled.
_EXTRA = [
    "é中\u0301😀",
    "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
    "\x1b]0;title",
    "\x1bP1$r",
    "\x1b(0lqk\x1b(B",
    "x\x1b[5b",
    "\x1b[3g\x1bH",
    "[termscribe: 3 lines omitted] <U+0041>",
    "\x1b[38;5;196;48;2;1;2;3;4m",
    "\x1b7\x1b[?1049h\x1b[?1049l\x1b8",
]


def _reads(transcript: Transcript, client: Client) -> tuple[object, ...]:
    changes = client.update(transcript)
    return (
        transcript.text(),
        transcript.lines(),
        transcript.html(),
        transcript.ansi(hyperlinks=True),
        changes.reset,
        changes.committed,
        changes.window,
        transcript.output_limit(),
    )


def _state(transcript: Transcript) -> tuple[object, ...]:
    """The state of a live lines model, its parser and its decoder, but for
    what a model at rest need not keep (caches, the alternate screen's rows
    after it was left: it is made blank when entered)."""
    model = transcript._model
    assert isinstance(model, LinesModel)
    key = [  # rows pending by value (state_key compares them by identity)
        (name, tuple(map(state_value, model._pending)) if name == "_pending" else value)
        for name, value in state_key(model)  # type: ignore[attr-defined]
        if name != "_alt"
    ]
    parser = transcript._parser
    assert parser is not None and transcript._decoder is not None
    slots = [
        getattr(parser, name) for name in Parser.__slots__ if name not in ("_perform", "_batch")
    ]
    committed = model.committed
    return (
        key,
        state_value(model._alt.saved),
        slots,
        transcript._decoder.getstate(),
        (committed.total, committed.dropped, committed.taken, committed.lines()),
        model._palette.styles,
    )


@settings(max_examples=200, deadline=None)
@given(
    st.data(),
    st.sampled_from(OPTIONS),
    st.integers(0, 2**32),
    st.lists(st.sampled_from(["compact", "read", "take", "none"]), min_size=1, max_size=8),
)
def test_compacted_transcripts_read_as_live_ones(
    data: st.DataObject, options: dict[str, Any], seed: int, steps: list[str]
) -> None:
    chooser = HypothesisChooser(data)
    text = "".join(
        stream(chooser, 12, 4, ALL) + chooser.choice(["\r\n", "\n", "", *_EXTRA])
        for _ in range(chooser.integer(1, 6))
    )
    live, resting = Transcript(**options), Transcript(**options)
    live_client, resting_client = Client(), Client()
    for index, chunk in enumerate(chunks_random(text.encode(), seed, 11)):
        step = steps[index % len(steps)]
        live.feed(chunk)
        resting.feed(chunk)
        if step == "take":
            assert resting.take_lines() == live.take_lines()
        if step == "compact":
            resting.compact()
            if isinstance(resting._model, Resting):
                assert resting._parser is None and resting._decoder is None
            elif options.get("mode", "lines") == "lines" and "alt_screen" not in options:
                assert isinstance(resting._model, LinesModel) and resting._model.alternate
        if step in ("compact", "read"):
            assert _reads(resting, resting_client) == _reads(live, live_client)
        if step == "compact" and isinstance(resting._model, Resting):
            resting.feed(b"")  # wakes nothing: no byte to interpret
            assert isinstance(resting._model, Resting)
            resting.feed(b"\x1b[m")  # changes nothing visible; wakes it
            live.feed(b"\x1b[m")
            resting._settled()  # interprets what a hold_bytes held
            live._settled()
            assert _state(resting) == _state(live)
    resting.compact()
    assert _reads(resting, resting_client) == _reads(live, live_client)
    live.finish()
    resting.finish()
    assert isinstance(resting._model, (Resting, Frozen))
    assert resting._parser is None and resting._decoder is None
    assert _reads(resting, resting_client) == _reads(live, live_client)
    assert resting.take_lines() == live.take_lines()
    assert _reads(resting, resting_client) == _reads(live, live_client)


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_a_transcript_never_fed_makes_no_model_and_reads_as_a_fed_one(
    options: dict[str, Any],
) -> None:
    idle = Transcript(**options)
    fed = Transcript(**options)
    fed.feed(b"\x1b[m")  # interpreted (read, if held): the model is made
    fed._settled()
    if options.get("mode") == "screen":
        # Made at once: the pyte screen checks its own limits.
        assert idle._model is not None
        return
    assert idle._model is None and fed._model is not None
    # Alike but for output_limit, which counts the bytes fed.
    assert _reads(idle, Client())[:-1] == _reads(fed, Client())[:-1]
    assert idle.take_lines() == [] and idle._model is None
    idle.compact()
    idle.finish()
    fed.finish()
    assert idle._model is None
    assert _reads(idle, Client())[:-1] == _reads(fed, Client())[:-1]


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_the_output_limit_is_the_models(options: dict[str, Any]) -> None:
    """output_limit is computed from the options, not a model: it must be
    what the model's reach and window give (see _budget)."""
    transcript = Transcript(**options)
    model = transcript._new_model()[0]
    inner = getattr(model, "model", model)  # the lines model of a snapshot
    reach = inner.width if options.get("mode") == "screen" else inner.reach
    rows = 1 if options.get("mode") == "strip" else transcript.rows
    if options.get("alt_screen") == "snapshot":
        rows *= 2
    assert transcript.output_limit() == output_constant(reach, rows)


def test_what_transcripts_at_rest_share_is_immutable() -> None:
    """The only objects all transcripts at rest share: tuples of immutable
    values (a Style has no setter; its attributes are set once)."""
    assert type(_rest._NONE) is tuple and _rest._NONE == (0, 0, 0)
    assert type(_rest._DEFAULT_STYLES) is tuple
    assert _rest._DEFAULT_STYLES == (DEFAULT,)
    assert _rest._DEFAULT_STYLES[0] is DEFAULT


def test_a_compacted_palette_gives_the_codes_it_gave() -> None:
    styles = [DEFAULT.apply_sgr(sgr) for sgr in ("31", "1;32", "4", "38;5;100", "31")]
    styles.insert(2, styles[0].with_link(Link.make("https://example.com")))
    whole = StylePalette()
    codes = [whole.code(style) for style in styles]
    compacted = StylePalette()
    for style in styles[:3]:
        compacted.code(style)
    compacted.compact()
    assert [compacted.code(style) for style in styles] == codes
    assert compacted.styles == whole.styles
    remade = StylePalette.of(whole.styles)
    assert [remade.code(style) for style in styles] == codes
    assert remade._link_chars == whole._link_chars


# -- the store -----------------------------------------------------------------


def _note(update: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": "s", "update": update},
    }


def _chunk(terminal_id: str, data: bytes) -> dict[str, Any]:
    encoded = base64.b64encode(data).decode()
    return _note(
        {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id, "data": encoded}
    )


def _create(terminal_id: str) -> dict[str, Any]:
    return _note(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "call_" + terminal_id,
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": terminal_id}],
        }
    )


def _exit(terminal_id: str) -> dict[str, Any]:
    update = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
    return _note({**update, "exitStatus": {"exitCode": 0}})


def test_the_store_keeps_the_terminals_fed_last_live_and_reads_the_others_alike() -> None:
    count = LIVE_TERMINALS + 4
    store = TerminalStore()
    references = [Transcript(hold_bytes=HOLD_BYTES) for _ in range(count)]
    pieces = [b"\x1b[1;3", b"1mred", "\r\n中".encode()[:-1], "中".encode()[-1:], b"\x1b[0m\r\n"]
    for round_ in range(3):
        for piece in pieces:
            for index in range(count):  # interleaved: every switch compacts the oldest
                data = piece + f"{index}.{round_} ".encode()
                store.apply(_chunk(f"t{index}", data))
                references[index].feed(data)
                terminal = store.get("s", f"t{index}")
                assert terminal is not None
                assert terminal.text() == references[index].text()
        resting = [
            store.get("s", f"t{index}")._transcript._model  # type: ignore[union-attr]
            for index in range(count)
        ]
        assert sum(isinstance(model, Resting) for model in resting) == count - LIVE_TERMINALS
    store.apply(_exit("t11"))
    # exited: its transcript at rest, or let go (its raw bytes make it again)
    exited = store.get("s", "t11")._transcript  # type: ignore[union-attr]
    assert isinstance(exited, TranscriptFactory) or isinstance(exited._model, Resting)
    store.apply(_chunk("t11", b"after the exit\r\n"))  # late output is kept
    references[11].feed(b"after the exit\r\n")
    store.finish()
    for index, reference in enumerate(references):
        reference.finish()
        terminal = store.get("s", f"t{index}")
        assert terminal is not None
        assert (terminal.text(), terminal.html(), terminal.lines()) == (
            reference.text(),
            reference.html(),
            reference.lines(),
        )


# An idle terminal: the log lines of a short command, coloured, then nothing.
_LITTLE = b"\x1b[32m$ make\x1b[0m\r\nbuilding...\r\n\x1b[1mdone\x1b[0m\r\n"
# A terminal that printed a screenful and more: its window is full.
_SCREENFUL = b"".join(b"\x1b[36m%4d\x1b[0m compiling module_%d.c\r\n" % (i, i) for i in range(40))


def _heap_per_terminal(output: bytes, *, exit_: bool, take: bool, count: int = 300) -> float:
    """Heap bytes per terminal of a store of ``count`` terminals, each made by
    a tool call, given ``output``, read (and its final lines taken, as
    ``termscribe acp`` does), maybe exited, then left idle."""

    def terminal(store: TerminalStore, terminal_id: str) -> None:
        store.apply(_create(terminal_id))
        if output:
            store.apply(_chunk(terminal_id, output))
        state = store.get("s", terminal_id)
        assert state is not None
        if take:
            state.take_lines()
        state.text()
        if exit_:
            store.apply(_exit(terminal_id))

    store = TerminalStore(max_retained_bytes=0)
    for index in range(LIVE_TERMINALS + 2):  # what stays live, module caches
        terminal(store, f"warm{index}")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for index in range(count):
            terminal(store, f"t{index:04d}")
        for index in range(LIVE_TERMINALS):  # the last ones measured go idle too
            store.apply(_chunk(f"warm{index}", b""))
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / count


# Per idle terminal, measured 2026-12-02 (CPython 3.11.7): the store's own
# records of a terminal and its tool call come to about 1,000 bytes (the
# TerminalState, its key, the tool call, dict entries); an idle transcript
# to 250 bytes (the Transcript object), plus about 300 at rest (the
# Resting, its tuples) and the window's content: a few hundred bytes for
# three short coloured rows, 1.5 KB for a full window of 24 such rows (their
# text and styles, the palette's styles). Before, a terminal cost 7.3 KB
# without output and 8.7 KB with a little. The bounds leave room for
# another CPython's object sizes, not for a window of rows or a model.
@pytest.mark.parametrize(
    ("output", "exit_", "take", "bound"),
    [
        (b"", False, False, 1_600),
        (_LITTLE, False, False, 2_400),
        (_LITTLE, True, False, 2_800),  # the exit status is a few hundred bytes
        (_LITTLE, False, True, 2_400),
        (_SCREENFUL, False, True, 3_800),
    ],
    ids=["no output", "a little output", "exited", "lines taken", "a full window"],
)
def test_an_idle_terminal_costs_little(output: bytes, exit_: bool, take: bool, bound: int) -> None:
    assert _heap_per_terminal(output, exit_=exit_, take=take) < bound
