"""A live Rich view of a terminal stream, driven by ``Transcript.changes()``.

    pip install 'termscribe[rich]'
    python examples/live_rich.py [RECORDING] [--chunk BYTES] [--delay SECONDS] [--rows N]
    python examples/live_rich.py --headless [--width COLUMNS] [RECORDING]

It feeds a bundled recording (``corpus/recordings/tqdm_progress.raw`` unless
another is named) to a `Transcript` a chunk at a time, as a stream arrives,
and after each chunk asks what changed.  Lines that became final are printed
once, above the live region, so they go to the terminal's scrollback as
ordinary output; the live window (a progress bar, the line being written)
is redrawn in place by ``rich.live.Live``.  A reset (the first call, or
lines dropped from the transcript's head) means "drop what you showed":
what went to the scrollback cannot be taken back, so the view prints a rule
there and starts again.  The transcript keeps every line (``max_lines=None``)
so that the view never resets in the middle of a recording.  The window has
the recording's size (its ``.json`` file) unless ``--rows`` / ``--columns``
say otherwise: with fewer rows, more lines become final sooner.

``--headless`` draws on a ``Console(record=True)`` that is not a terminal and
prints what it recorded: the committed lines and the last window, which is
what a terminal shows at the end, the transcript's text line for line (Live
leaves the window's last line, the cursor's, without a line end).  The
tests run it so.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.rule import Rule

from termscribe import Transcript
from termscribe.rich import LinesView

RECORDINGS = Path(__file__).resolve().parent.parent / "corpus" / "recordings"


def show(
    chunks: Iterable[bytes],
    console: Console,
    *,
    columns: int | None = None,
    rows: int = 24,
    delay: float = 0.0,
) -> Transcript:
    """Feed `chunks` to a new transcript, showing it live on `console`; returns it."""
    transcript = Transcript(columns=columns, rows=rows, max_lines=None)
    position = None
    shown = 0  # committed lines printed since the last reset
    with Live(LinesView([]), console=console, auto_refresh=False) as live:

        def update() -> None:
            nonlocal position, shown
            changes = transcript.changes(position)
            if changes.reset and shown:
                live.console.print(Rule("output replaced"))
                shown = 0
            if changes.committed:
                live.console.print(LinesView(changes.committed))
                shown += len(changes.committed)
            live.update(LinesView(changes.window), refresh=True)
            position = changes.position

        for chunk in chunks:
            transcript.feed(chunk)
            update()
            if delay:
                time.sleep(delay)
        transcript.finish()
        update()
    return transcript


def read_chunks(path: Path, size: int) -> Iterator[bytes]:
    with path.open("rb") as stream:
        yield from iter(lambda: stream.read(size), b"")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A live Rich view of a terminal recording.")
    parser.add_argument("recording", nargs="?", type=Path, default=RECORDINGS / "tqdm_progress.raw")
    parser.add_argument("--chunk", type=int, default=64, help="bytes fed at a time")
    parser.add_argument("--delay", type=float, default=0.01, help="seconds between chunks")
    parser.add_argument("--headless", action="store_true", help="record, then print the text")
    parser.add_argument("--width", type=int, default=120, help="the headless console's width")
    parser.add_argument("--columns", type=int, help="the window's width (default: recorded)")
    parser.add_argument("--rows", type=int, help="the window's height (default: recorded)")
    args = parser.parse_args(argv)
    # The window size the recording was made in, when its metadata has one.
    meta_path = args.recording.with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
    columns = args.columns or meta.get("columns")
    rows = args.rows or meta.get("rows", 24)
    chunks = read_chunks(args.recording, args.chunk)
    if not args.headless:
        show(chunks, Console(), columns=columns, rows=rows, delay=args.delay)
        return 0
    console = Console(record=True, file=io.StringIO(), width=args.width)
    show(chunks, console, columns=columns, rows=rows)
    sys.stdout.write(console.export_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
