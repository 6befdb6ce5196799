"""Transcript.changes and the compact store of committed lines.

A client that keeps ``committed`` pieces (dropping them on ``reset``) and
shows the latest ``window`` after them shows exactly ``lines()`` after every
update, for every mode and chunking; ``reset`` comes exactly when it must.
The store of committed lines is checked against a plain list of Line
objects under every operation the models use.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from chunking import chunks_random
from hypothesis import given, settings
from hypothesis import strategies as st
from vtgrammar import ALL, HypothesisChooser, stream

import termscribe
from termscribe import (
    Changes,
    Line,
    Style,
    Transcript,
    render_lines_ansi,
    render_lines_html,
    render_lines_text,
)
from termscribe._committed import BLOCK, CommittedLines
from termscribe._rows import BLANK, WIDE_TAIL, Row, omission_marker
from termscribe._style import DEFAULT
from termscribe.acp import TerminalStore

RECORDINGS = Path(__file__).resolve().parent.parent / "corpus" / "recordings"

# -- the client loop ----------------------------------------------------------


class Client:
    """What a live view keeps: committed pieces, then the last window."""

    def __init__(self) -> None:
        self.shown: list[Line] = []
        self.window: list[Line] = []
        self.position: object = None
        self.resets = 0

    def update(self, source: Transcript) -> Changes:
        changes = source.changes(self.position)  # type: ignore[arg-type]
        if changes.reset:
            self.shown.clear()
            self.resets += 1
        self.shown.extend(changes.committed)
        self.window = changes.window
        self.position = changes.position
        return changes

    def lines(self) -> list[Line]:
        return self.shown + self.window


def feed_watching(transcript: Transcript, chunks: list[bytes]) -> Client:
    """Feed the chunks, updating a client after each; it must show exactly
    lines() every time."""
    client = Client()
    client.update(transcript)
    assert client.lines() == transcript.lines()
    for chunk in chunks:
        transcript.feed(chunk)
        client.update(transcript)
        assert client.lines() == transcript.lines()
    transcript.finish()
    client.update(transcript)
    assert client.lines() == transcript.lines()
    return client


OPTIONS = [
    {"mode": "lines"},
    {"mode": "lines", "columns": 20, "rows": 4},
    {"mode": "lines", "columns": 20, "rows": 4, "max_lines": 5},
    {"mode": "lines", "rows": 3, "alt_screen": "snapshot"},
    {"mode": "strip"},
    {"mode": "strip", "max_lines": 3},
    {"mode": "screen", "columns": 20, "rows": 5},
    {"mode": "lines", "styled": False, "max_lines": 0},
]


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(OPTIONS), st.integers(0, 2**32))
def test_pieces_add_up_to_the_whole(data: st.DataObject, options: dict, seed: int) -> None:
    chooser = HypothesisChooser(data)
    text = "".join(stream(chooser, 20, 4, ALL) + "\n" for _ in range(chooser.integer(1, 6)))
    transcript = Transcript(**options)
    feed_watching(transcript, chunks_random(text.encode(), seed, 9))


@pytest.mark.parametrize("name", ["cargo_build", "pytest_color", "vim_edit", "tqdm_progress"])
@pytest.mark.parametrize("options", OPTIONS[:6], ids=repr)
def test_pieces_add_up_on_recordings(name: str, options: dict) -> None:
    data = (RECORDINGS / f"{name}.raw").read_bytes()[:30_000]
    feed_watching(Transcript(**options), chunks_random(data, zlib.crc32(name.encode()), 700))


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_without_the_window_the_committed_lines_are_the_same(options: dict) -> None:
    """A reader of committed lines only (window=False) between full reads
    gets the same committed lines and positions, and an empty window."""
    data = (RECORDINGS / "cargo_build.raw").read_bytes()[:30_000]
    full, partial = Transcript(**options), Transcript(**options)
    since_full = since_partial = None
    for piece in chunks_random(data, 7, 900):
        full.feed(piece)
        partial.feed(piece)
        a = full.changes(since_full)
        b = partial.changes(since_partial, window=False)
        assert b.window == [] and b.committed == a.committed and b.reset == a.reset
        assert (b.position.line, b.position.cut) == (a.position.line, a.position.cut)
        since_full, since_partial = a.position, b.position
    assert partial.changes(since_partial).window == full.changes(since_full).window


def test_reset_only_when_it_must() -> None:
    transcript = Transcript(rows=3)
    client = Client()
    first = client.update(transcript)
    assert first.reset and first.committed == []
    transcript.feed(b"".join(b"line %d\n" % n for n in range(10)))
    changes = client.update(transcript)
    assert not changes.reset
    assert render_lines_text(changes.committed) == "\n".join(f"line {n}" for n in range(8))
    assert render_lines_text(changes.window) == "line 8\nline 9\n"
    same = client.update(transcript)
    assert not same.reset and same.committed == [] and same.window == changes.window
    assert same.position == changes.position
    transcript.take_lines()  # lines leave the head: what was shown is gone
    assert client.update(transcript).reset
    assert client.lines() == transcript.lines()


def test_dropped_lines_reset_and_the_marker_comes_first() -> None:
    transcript = Transcript(rows=2, max_lines=3)
    client = Client()
    client.update(transcript)
    transcript.feed(b"a\nb\nc\n")
    assert not client.update(transcript).reset
    transcript.feed(b"d\ne\n")
    changes = client.update(transcript)
    assert changes.reset
    assert changes.committed[0].text == "[termscribe: 1 earlier lines omitted]"
    assert client.lines() == transcript.lines()


def test_a_position_from_another_transcript_resets() -> None:
    one, other = Transcript(), Transcript()
    one.feed(b"x\n" * 50)
    position = one.changes().position
    changes = other.changes(position)
    assert changes.reset
    with pytest.raises(TypeError):
        one.changes("position")  # type: ignore[arg-type]


def test_a_snapshot_replacement_resets_a_terminal() -> None:
    store = TerminalStore(rows=2)

    def update(data: bytes, *, snapshot: bool) -> None:
        from base64 import b64encode

        encoded = b64encode(data).decode()
        if snapshot:
            body = {
                "sessionUpdate": "terminal_update",
                "terminalId": "t",
                "output": {"data": encoded},
            }
        else:
            body = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": encoded}
        store.apply({"sessionId": "s", "update": body})

    update(b"one\ntwo\nthree\n", snapshot=True)
    terminal = store.terminals()[0]
    first = terminal.changes()
    assert first.reset
    update(b"four\nfive\n", snapshot=False)
    more = terminal.changes(first.position)
    assert not more.reset and render_lines_text(more.committed) == "three\nfour"
    update(b"fresh\n", snapshot=True)
    replaced = terminal.changes(more.position)
    assert replaced.reset
    assert render_lines_text(replaced.committed + replaced.window) == terminal.text()


def test_pieces_render_to_the_whole() -> None:
    data = (RECORDINGS / "pytest_color.raw").read_bytes()
    transcript = Transcript(rows=5)
    client = Client()
    client.update(transcript)
    texts, htmls, ansis = [], [], []
    for chunk in chunks_random(data, 1, 4096):
        transcript.feed(chunk)
        changes = client.update(transcript)
        assert not changes.reset
        texts += [render_lines_text(changes.committed)] if changes.committed else []
        htmls += [render_lines_html(changes.committed)] if changes.committed else []
        ansis += [render_lines_ansi(changes.committed)] if changes.committed else []
    window = client.window
    assert "\n".join([*texts, render_lines_text(window)]) == transcript.text()
    assert "\n".join([*htmls, render_lines_html(window)]) == render_lines_html(transcript.lines())
    assert "\n".join([*ansis, render_lines_ansi(window)]) == render_lines_ansi(transcript.lines())
    assert termscribe.render_lines_html is termscribe.html_lines


def test_the_web_page_loop_of_the_docs_shows_the_whole_body() -> None:
    """docs/live.md: the page appends committed HTML (each piece ending in
    a line end) and replaces the window."""
    data = (RECORDINGS / "git_log_graph.raw").read_bytes() * 3
    transcript = Transcript(rows=4, max_lines=50)
    page = ""
    position = None
    for chunk in chunks_random(data, 3, 300):
        transcript.feed(chunk)
        changes = transcript.changes(position)
        position = changes.position
        if changes.reset:
            page = ""
        page += render_lines_html(changes.committed) + "\n" if changes.committed else ""
        shown = page + render_lines_html(changes.window)
        assert shown == render_lines_html(transcript.lines())


def test_a_call_returns_what_changed_only() -> None:
    """The pieces of one update are what it added, whatever came before."""
    transcript = Transcript(rows=2, max_lines=None)
    transcript.feed(b"old\n" * 100_000)
    position = transcript.changes().position
    transcript.feed(b"new 1\nnew 2\n")
    changes = transcript.changes(position)
    assert [line.text for line in changes.committed] == ["old", "new 1"]
    assert [line.text for line in changes.window] == ["new 2", ""]


# -- the store of committed lines -----------------------------------------------

RED = DEFAULT.apply_sgr("31")
BOLD_LINK = DEFAULT.apply_sgr("1")

_texts = st.text(alphabet="ab <U+[termscribe:]\ue000漢😀\u0301", max_size=8)
_runs = st.lists(
    st.tuples(
        st.text(alphabet="xy漢", min_size=1, max_size=4), st.sampled_from([DEFAULT, RED, BOLD_LINK])
    ),
    min_size=1,
    max_size=4,
)
_line = st.one_of(
    _texts.map(lambda text: Line(((text, DEFAULT),), text)),
    _runs.map(lambda runs: Line(tuple(runs))),
)
_op = st.one_of(
    st.tuples(st.just("append"), _line),
    st.tuples(st.just("extend"), st.lists(_line, max_size=2 * BLOCK + 3)),
    st.tuples(
        st.just("texts"),
        st.lists(st.text(alphabet="abc漢", max_size=5), max_size=3 * BLOCK + 5),
        st.sampled_from([DEFAULT, RED]),
    ),
    st.tuples(st.just("repeat"), st.lists(_line, min_size=1, max_size=3), st.integers(0, 200)),
    st.tuples(st.just("take")),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_op, max_size=12), st.one_of(st.none(), st.integers(0, 150)))
def test_the_store_holds_what_a_list_would(ops: list[tuple], max_lines: int | None) -> None:
    store = CommittedLines(max_lines)
    held: list[Line] = []
    total = dropped = taken = 0

    def commit(lines: list[Line]) -> None:
        nonlocal total, dropped
        held.extend(lines)
        total += len(lines)
        if max_lines is not None and len(held) > max_lines:
            dropped += len(held) - max_lines
            del held[: len(held) - max_lines]

    positions = []
    for op in ops:
        positions.append((store.total, store.cut, list(held)))
        if op[0] == "append":
            store.append(op[1])
            commit([op[1]])
        elif op[0] == "extend":
            store.extend(op[1])
            commit(op[1])
        elif op[0] == "texts":
            code = store._palette.code(op[2])
            assert store.append_rows(op[1], [code * len(text) for text in op[1]])
            commit(
                [
                    Line(((text, op[2]),), text) if text else Line(((text, DEFAULT),), text)
                    for text in op[1]
                ]
            )
        elif op[0] == "repeat":
            store.extend_repeated(op[1], op[2])
            commit(op[1] * op[2])
        else:
            assert store.take() == held
            taken += len(held)
            held.clear()
        assert (store.total, store.dropped, store.taken, len(store)) == (
            total,
            dropped,
            taken,
            len(held),
        )
        assert store.lines() == held
        assert "\n".join(store.texts()) == "\n".join(line.text for line in held)
        for count in (0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 10**6):
            assert store.last(count) == held[len(held) - min(count, len(held)) :]
    marker = store.marker()
    if dropped:
        assert marker is not None and marker.text == omission_marker(
            dropped, "earlier lines"
        ).replace("\ue001", "[")
    else:
        assert marker is None
    for old_total, old_cut, _ in positions:
        if old_cut == store.cut:
            assert store.since(old_total) == held[len(held) - (total - old_total) :]
    with pytest.raises(ValueError):
        store.since(store.total + 1)


def test_stored_lines_keep_styles_and_markers() -> None:
    styled = Line((("plain ", DEFAULT), ("red", RED), ("<U+202E>", DEFAULT)))
    forged = Line((("<U+0041> [termscribe: fake]", DEFAULT),))
    store = CommittedLines(None)
    store.extend([styled, forged] * BLOCK)
    back = store.lines()
    assert back == [styled, forged] * BLOCK
    assert back[1].text == forged.text  # escaped once, not again
    assert back[0].runs[1][1] == RED and isinstance(back[0].runs[1][1], Style)


def test_committed_storage_stays_out_of_the_collector() -> None:
    import gc

    transcript = Transcript(max_lines=None)
    transcript.feed(b"".join(b"\x1b[3%dmline\x1b[0m %d\n" % (n % 8, n) for n in range(20_000)))
    gc.collect()
    store = transcript._model.committed  # type: ignore[union-attr]
    tracked = [block for block in store._blocks if gc.is_tracked(block)]
    assert len(store._blocks) > 300 and tracked == []


def _whole_renders_agree(transcript: Transcript) -> None:
    """html() and ansi() read the committed blocks; they must equal the
    renderers run on lines()."""
    from termscribe import html_end, html_start

    lines = transcript.lines()
    assert transcript.html() == html_start() + render_lines_html(lines) + html_end()
    assert transcript.ansi() == render_lines_ansi(lines)
    assert transcript.ansi(hyperlinks=True) == render_lines_ansi(lines, hyperlinks=True)
    assert transcript.text() == render_lines_text(lines)


@pytest.mark.parametrize("max_lines", [None, 70, 3])
def test_renders_from_the_blocks_equal_renders_of_lines(max_lines: int | None) -> None:
    plain = b"".join(b"plain <line> & %d\n" % n for n in range(300))
    marked = b"a <U+202E> forged [termscribe: x]\n\xe2\x80\xae real\n"
    coloured = (RECORDINGS / "pytest_color.raw").read_bytes()
    for data in (plain, plain + marked + plain, coloured + plain + coloured):
        transcript = Transcript(max_lines=max_lines)
        transcript.feed(data)
        _whole_renders_agree(transcript)
        transcript.take_lines()
        transcript.feed(plain[:500])
        _whole_renders_agree(transcript)


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from(OPTIONS))
def test_renders_from_the_blocks_equal_renders_of_lines_on_the_grammar(
    data: st.DataObject, options: dict
) -> None:
    chooser = HypothesisChooser(data)
    text = "".join(stream(chooser, 20, 4, ALL) + "\n" for _ in range(chooser.integer(1, 90)))
    transcript = Transcript(**options)
    transcript.feed(text.encode())
    _whole_renders_agree(transcript)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["", "a", "bc", "漢"]), max_size=3 * BLOCK + 5),
            st.sampled_from([DEFAULT, RED]),
        ),
        max_size=5,
    )
)
def test_rows_are_stored_as_one_by_one(batches: list[tuple[list[str], Style]]) -> None:
    """append_rows seals whole blocks at once: the blocks, the open block
    and the count are those that adding each row's line on its own makes."""
    store = CommittedLines(None)
    one_by_one = CommittedLines(None, store._palette)
    for texts, style in batches:
        code = store._palette.code(style)
        assert store.append_rows(texts, [code * len(text) for text in texts])
        for text in texts:
            one_by_one._add(text, "\x01" + code if text and code != "\x00" else "\x00")
        assert store._blocks == one_by_one._blocks
        assert (store._texts, store._layouts) == (one_by_one._texts, one_by_one._layouts)
        assert store.total == one_by_one.total


_ROW_STYLES = [DEFAULT, RED, DEFAULT.apply_sgr("1;44"), DEFAULT.apply_sgr("4")]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(["a", "é", " ", BLANK, WIDE_TAIL, "<U+", "[termscribe:", "\u2028"]),
                st.integers(0, len(_ROW_STYLES) - 1),
            ),
            max_size=12,
        ),
        max_size=6,
    ),
    st.sampled_from([None, 3]),
)
def test_rows_are_stored_as_the_line_of_the_row(
    rows: list[list[tuple[str, int]]], max_lines: int | None
) -> None:
    """append_row (committing a window row from its cells) holds what the
    Line of the row (Line.from_row) holds, or declines and holds nothing."""
    store = CommittedLines(max_lines)
    reference = CommittedLines(max_lines)
    palette = store._palette
    codes = [palette.code(style) for style in _ROW_STYLES]
    for cells in rows:
        row = Row()
        row.text = "".join(cell for cell, _ in cells)
        row.styles = "".join(codes[index] for _, index in cells)
        line = Line.from_row(row, palette.styles)
        reference.append(line)
        before = (store.total, store.lines())
        if not store.append_row(row.text, row.styles):
            assert (store.total, store.lines()) == before
            assert BLANK in row.text or WIDE_TAIL in row.text or Line.needs_seal(row.text)
            store.append(line)
        assert store.lines() == reference.lines()
    assert (store.total, store.dropped) == (reference.total, reference.dropped)
