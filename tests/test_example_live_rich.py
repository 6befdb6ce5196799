"""examples/live_rich.py: the live Rich view driven by ``changes()``, run headless."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from chunking import transcript_of
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "live_rich.py"
RECORDINGS = ROOT / "corpus" / "recordings"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("live_rich", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("name", "rows"), [("tqdm_progress", 30), ("tqdm_progress", 2), ("pip_download", 3)]
)
def test_headless_it_shows_the_whole_transcript(name: str, rows: int) -> None:
    # The committed lines printed as they became final, then the last
    # window: together what a terminal shows at the end, line for line.
    # Live leaves the window's last line (the cursor's) without a line end,
    # so the output is the text exactly.
    path = RECORDINGS / f"{name}.raw"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, EXAMPLE, "--headless", "--width=200", "--chunk=7", f"--rows={rows}", path],
        capture_output=True,
        env=env,
        timeout=120,
        check=True,
    )
    # The recordings' window is 100 columns wide (their .json files).
    expected = transcript_of([path.read_bytes()], columns=100, rows=rows).text()
    assert result.stdout.decode("utf-8") == expected
    assert result.stderr == b""


def test_in_a_terminal_the_window_is_redrawn_in_place_and_ends_on_the_last_lines() -> None:
    live_rich = example()
    path = RECORDINGS / "pip_download.raw"
    out = io.StringIO()
    # The colour system of every console in these tests: Rich remembers a
    # style's codes for the first colour system it renders it in (Style.render
    # keeps them, and Style's combining caches share styles process-wide), so
    # a console of another system here would change what later tests see.
    console = Console(
        record=True, file=out, force_terminal=True, width=120, color_system="truecolor"
    )
    chunks = list(live_rich.read_chunks(path, 16))
    transcript = live_rich.show(chunks, console, columns=100, rows=3)
    # Live moved the cursor up and erased lines to redraw the window.
    assert "\x1b[1A" in out.getvalue() and "\x1b[2K" in out.getvalue()
    window = transcript.changes().window
    assert len(window) == 3 and window[-1].text == ""
    tail = "\n".join(line.text for line in window) + "\n"
    recorded = console.export_text()
    assert recorded.endswith(tail)
    assert "Successfully downloaded numpy pandas" in tail
    # The final lines were printed in order above the window.
    committed = transcript.lines()[: -len(window)]
    assert len(committed) > 5
    position = 0
    for line in committed:
        position = recorded.index(line.text + "\n", position) + len(line.text) + 1


def test_by_default_it_plays_a_bundled_recording_in_its_recorded_size() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, EXAMPLE, "--headless"],
        capture_output=True,
        env=env,
        timeout=120,
        check=True,
    )
    # tqdm_progress.json: 100 columns, 30 rows.
    path = RECORDINGS / "tqdm_progress.raw"
    expected = transcript_of([path.read_bytes()], columns=100, rows=30).text()
    assert result.stdout.decode("utf-8") == expected
