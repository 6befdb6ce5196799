"""Invariant 8: no process-wide mutable state that one transcript can change
under another (SECURITY.md, "cross-transcript state").

Many threads render at once, with a switch interval of a microsecond so that
they interleave inside every cache lookup; the outputs must equal those of
one thread, and no raw bidi or invisible character may reach any of them. A
second test runs a workload that touches every path and checks that no
module-level container of the package changed.
"""

from __future__ import annotations

import copy
import random
import sys
import threading
import types
from collections.abc import Callable, Iterator

import pytest
from profiles import is_deep

import termscribe
from termscribe import Transcript, render_ansi, render_html, render_text
from termscribe.acp import TerminalStore

# A line an attacker wants shown raw: bidi controls and a zero-width space.
_HOSTILE = "user\u202e \u2066// admin\u2069 \u200b x\ufe0f\ufe0f 漢\u202e字 é\u202e\n"
_CJK = [*range(0x4E00, 0x9FA0), *range(0xAC00, 0xD7A0), *range(0x20000, 0x2A6E0)]


def _cjk_text(rng: random.Random) -> bytes:
    # Distinct wide code points, each after a one-cell one so that no run is
    # all wide: every chunk teaches a transcript's cell table new entries.
    chars = rng.sample(_CJK, 600)
    return "\n".join(
        "".join(chr(cp) + "é" for cp in chars[i : i + 40]) for i in range(0, 600, 40)
    ).encode()


@pytest.fixture
def fine_switching() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _run_threads(workers: list[tuple[Callable[[], None], int]]) -> None:
    """Each (work, rounds) in a thread of its own, all at once."""
    errors: list[BaseException] = []

    def loop(work: Callable[[], None], rounds: int) -> None:
        try:
            for _ in range(rounds):
                work()
        except BaseException as exc:  # reported to the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=loop, args=worker) for worker in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_threads_rendering_at_once_get_the_output_of_one_thread(fine_switching: None) -> None:
    hostile = (_HOSTILE * 30).encode()
    modes = [{"mode": "lines"}, {"mode": "lines", "columns": 33}, {"mode": "strip"}]
    expected = {
        (index, name): render(hostile, **options)  # type: ignore[arg-type]
        for index, options in enumerate(modes)
        for name, render in (("text", render_text), ("html", render_html), ("ansi", render_ansi))
    }
    assert all("\u202e" not in out and "\u200b" not in out for out in expected.values())
    iterations = {"hostile": 0, "cjk": 0}

    def hostile_worker() -> None:
        for index, options in enumerate(modes):
            for name, render in (
                ("text", render_text),
                ("html", render_html),
                ("ansi", render_ansi),
            ):
                assert render(hostile, **options) == expected[index, name]  # type: ignore[arg-type]
        iterations["hostile"] += 1

    def cjk_worker(seed: int) -> Callable[[], None]:
        rng = random.Random(seed)

        def work() -> None:
            data = _cjk_text(rng)
            assert render_text(data) == data.decode()
            iterations["cjk"] += 1

        return work

    # Enough rounds that the old shared tables leaked within a few (the deep
    # profile runs five times as many).
    rounds = 5 if is_deep() else 1
    _run_threads([(hostile_worker, 30 * rounds), *[(cjk_worker(i), 100 * rounds) for i in (1, 2)]])
    assert iterations == {"hostile": 30 * rounds, "cjk": 200 * rounds}


def test_one_hostile_stream_leaves_other_transcripts_caches_alone() -> None:
    quiet = Transcript()
    quiet.feed("漢é字\x1b[31m赤\x1b[0m\n".encode())
    model = quiet._model  # type: ignore[attr-defined]
    cells = dict(model.cell_table.table)
    palette = list(model.palette)
    loud = Transcript()
    for seed in range(20):
        loud.feed(_cjk_text(random.Random(seed)))
    for n in range(300):
        loud.feed(b"\x1b[38;5;%dm\x1b[48;2;%d;1;2mx" % (n % 256, n % 256))
    assert model.cell_table.table == cells
    assert list(model.palette) == palette


def _containers(module: types.ModuleType) -> Iterator[tuple[str, object]]:
    """Module-level and class-level containers of a termscribe module."""
    for name, value in vars(module).items():
        if isinstance(value, (dict, list, set, bytearray)):
            yield f"{module.__name__}.{name}", value
        elif hasattr(value, "cache_info") and getattr(value, "__module__", "") == module.__name__:
            yield f"{module.__name__}.{name}()", value
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr, member in vars(value).items():
                if isinstance(member, (dict, list, set, bytearray)):
                    yield f"{module.__name__}.{name}.{attr}", member


def _snapshot(value: object) -> object:
    if hasattr(value, "cache_info"):
        return value.cache_info().currsize  # type: ignore[attr-defined]
    return copy.copy(value)


def test_rendering_changes_no_module_level_container() -> None:
    def workload(n: int) -> None:
        # Different numbers, code points and links each time, so that a
        # cache keyed by what the input holds would grow.
        data = (
            _HOSTILE.encode()
            + _cjk_text(random.Random(n))
            + b"\x1b[1;3%dmred\x1b[0m \x1b]8;;https://example.com/%d\x1b\\link\x1b]8;;\x1b\\"
            % (n, n)
            + b"\r\n\x1b[2K\x1b[%dA\x1b[%dCx\x1b[%db\x1b[?1049hfull\x1b[?1049l\x1b(0lqk\x1b(B"
            % (n, n + 5, n + 2)
            + b"\x1b[%d;%dHa\x1b[38;2;%d;1;1mb\x9b%dCc\r\n" % (n, n + 1, n, n)
        )
        for options in ({}, {"mode": "strip"}, {"mode": "screen", "columns": 40}, {"columns": 9}):
            for render in (render_text, render_html, render_ansi):
                render(data, **options)  # type: ignore[arg-type]
        store = TerminalStore()
        store.apply(
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {
                    "sessionId": "s",
                    "update": {
                        "sessionUpdate": "terminal_output_chunk",
                        "terminalId": "t",
                        "data": "G1szMW1yZWQbWzBtIOa8og==",
                    },
                },
            }
        )

    workload(1)  # lazily built immutable tables (compiled regexes) are made here
    modules = [m for name, m in sorted(sys.modules.items()) if name.startswith("termscribe")]
    assert termscribe.__name__ in {m.__name__ for m in modules}
    before = {name: _snapshot(value) for m in modules for name, value in _containers(m)}
    workload(2)
    after = {name: _snapshot(value) for m in modules for name, value in _containers(m)}
    changed = sorted(name for name in before if after[name] != before[name])
    assert changed == []
