"""The renderers share no mutable state (DESIGN.md invariant 8).

Every cache a renderer uses lives for one call. These tests check the modules
for anything mutable at module level, and render many transcripts at once
from several threads, one of them a hostile stream that churns styles and
link targets, expecting exactly what each gives when rendered alone.
"""

from __future__ import annotations

import ast
import inspect
import threading
from pathlib import Path
from types import ModuleType

import pytest
from chunking import transcript_of

from termscribe._render import _ansi, _contrast, _html, _text, _theme, _urls

CSI = b"\x1b["
OSC = b"\x1b]"
ST = b"\x1b\\"

MODULES = [_ansi, _contrast, _html, _text, _theme, _urls]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_no_mutable_module_state(module: ModuleType) -> None:
    for name, value in vars(module).items():
        if name.startswith("__"):
            continue
        assert not isinstance(value, (dict, list, set, bytearray)), (
            f"{module.__name__}.{name} is a mutable {type(value).__name__}"
        )
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    rebinds = [node for node in ast.walk(tree) if isinstance(node, (ast.Global, ast.Nonlocal))]
    assert rebinds == [], f"{module.__name__} rebinds module names"


def _ordinary(seed: int) -> bytes:
    return b"".join(
        CSI + b"%d;%dmline %d " % (30 + (seed + i) % 8, 40 + i % 8, i)
        + OSC + b"8;;https://s%d.example/%d" % (seed, i % 5) + ST + b"link"
        + OSC + b"8;;" + ST + CSI + b"0m "
        # Styles that render alike (an unsafe link changes nothing) merge.
        + CSI + b"3%dma" % (i % 8) + OSC + b"8;;javascript:%d" % i + ST + b"b"
        + OSC + b"8;;" + ST + b"c" + CSI + b"0m\r\n"
        for i in range(300)
    )  # fmt: skip


def _churn() -> bytes:
    """Thousands of distinct styles and link targets, none repeated."""
    return b"".join(
        CSI + b"38;2;%d;%d;%d;48;5;%dm" % (i % 256, i // 256 % 256, 7, i % 256)
        + OSC + b"8;;https://churn.example/%d" % i + ST + b"x"
        + (b"\r\n" if i % 100 == 99 else b"")
        for i in range(12_000)
    )  # fmt: skip


def test_threads_render_as_alone() -> None:
    streams = [_churn()] + [_ordinary(seed) for seed in range(5)]
    transcripts = [transcript_of([data], max_lines=None) for data in streams]
    renders = [
        lambda t: t.html(),
        lambda t: t.html(standalone=True),
        lambda t: t.ansi(),
        lambda t: t.ansi(hyperlinks=True),
        lambda t: t.text(),
    ]
    alone = [[render(t) for render in renders] for t in transcripts]
    failures: list[str] = []
    barrier = threading.Barrier(len(transcripts))

    def work(index: int) -> None:
        barrier.wait()
        for round_ in range(3):
            for which, render in enumerate(renders):
                if render(transcripts[index]) != alone[index][which]:
                    failures.append(f"stream {index}, renderer {which}, round {round_}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(transcripts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert alone[1][0].count("<a ") == 300 and alone[1][0].count(">abc</span>") == 300
    assert "https://churn.example/11999" in alone[0][3]
