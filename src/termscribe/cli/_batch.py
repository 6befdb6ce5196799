"""``termscribe render --out-dir DIR [-j N] FILE...``: many inputs at once.

Each input is rendered to ``DIR/NAME.EXT`` (NAME: its file name without the
extension) in a pool of worker processes from the standard library, since
rendering is CPU-bound Python.  A file that fails is reported on one line
and the others go on, whatever the failure: unreadable, not writable, out
of memory, an error of termscribe's own (named by its exception's type,
never with a traceback), or a worker process that died (killed, say): the
files it left are then rendered each in a process of its own, so that the
one that kills it is the one reported.  A summary line ends the run.  Exit
status: 0, 1 when some file failed, 2 for bad usage.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Final, TextIO

from ._args import UsageError
from ._output import WriteError

__all__ = ["POOL_THRESHOLD", "output_paths", "run_batch"]

#: Without -j, inputs totalling fewer bytes than this are rendered in this
#: process, one after the other.
POOL_THRESHOLD: Final = 4 * 1024 * 1024


def output_paths(inputs: list[str], out_dir: str, extension: str) -> list[str]:
    """Where each input goes; two inputs bound for one file are a usage error."""
    if "-" in inputs:
        raise UsageError("- (stdin) cannot be one of several inputs")
    outputs: dict[str, str] = {}
    for path in inputs:
        stem = os.path.splitext(os.path.basename(path.rstrip(os.sep)))[0] or "transcript"
        target = os.path.join(out_dir, f"{stem}.{extension}")
        if target in outputs:
            raise UsageError(f"{outputs[target]} and {path} would both be written to {target}")
        outputs[target] = path
    return list(outputs)


#: Renders one input file to one output file: (input, output) to (bytes
#: read, notes). A module-level function or a partial of one, so that a
#: process pool can send it to its workers.
RenderOne = Callable[[str, str], tuple[int, list[str]]]


def run_batch(
    render: RenderOne,
    extension: str,
    inputs: list[str],
    out_dir: str,
    jobs: int | None,
    stderr: TextIO,
) -> int:
    """Render each input to ``out_dir`` (its name, the extension
    ``extension``), in ``jobs`` processes; a summary line, and each
    failure, on ``stderr``."""
    targets = output_paths(inputs, out_dir, extension)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"--out-dir {out_dir} is not a directory")
    if not os.path.isdir(out_dir):
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot make --out-dir {out_dir}: {exc.strerror or exc}") from exc
    if jobs is None:
        # Starting workers costs about what rendering a few MB does: small
        # batches are done sooner in this process.
        jobs = (os.cpu_count() or 1) if _total_size(inputs) > POOL_THRESHOLD else 1
    workers = min(jobs, len(inputs))
    started = time.monotonic()
    total = failed = 0
    for size, notes, error in _results(render, inputs, targets, workers):
        total += size
        for note in notes:
            print(f"termscribe: {note}", file=stderr)
        if error is not None:
            failed += 1
            print(f"termscribe: {error}", file=stderr)
    seconds = time.monotonic() - started
    done = len(inputs) - failed
    summary = (
        f"termscribe render: {done} of {len(inputs)} files to {out_dir}, "
        f"{total / 1e6:.2f} MB in {seconds:.2f} s ({total / 1e6 / max(seconds, 1e-3):.1f} MB/s)"
    )
    print(summary + (f"; {failed} failed" if failed else ""), file=stderr)
    return 1 if failed else 0


def _total_size(paths: list[str]) -> int:
    total = 0
    for path in paths:
        with suppress(OSError):  # reported when it is rendered
            total += os.stat(path).st_size
    return total


def _results(
    render: RenderOne, inputs: list[str], targets: list[str], workers: int
) -> Iterator[_Result]:
    """(bytes read, notes, error message or None) of each input, in input order."""
    if workers <= 1:
        for path, target in zip(inputs, targets, strict=True):
            yield _render_one(render, path, target)
        return
    jobs = list(zip(inputs, targets, strict=True))
    done = 0
    with ProcessPoolExecutor(max_workers=workers) as executor:
        # One at a time: files differ in size.
        futures = [executor.submit(_render_one, render, path, target) for path, target in jobs]
        try:
            for future in futures:
                yield future.result()
                done += 1
        except BrokenProcessPool:
            pass  # every file not done yet fails with it: they go one by one below
    for path, target in jobs[done:]:
        yield _render_alone(render, path, target)


def _render_alone(render: RenderOne, path: str, target: str) -> _Result:
    """Render one file in a worker process of its own (after a worker died)."""
    try:
        with ProcessPoolExecutor(max_workers=1) as executor:
            return executor.submit(_render_one, render, path, target).result()
    except BrokenProcessPool:
        return 0, [], f"{path}: the process rendering it ended abruptly"


_Result = tuple[int, list[str], "str | None"]


def _render_one(render: RenderOne, path: str, target: str) -> _Result:
    """Render one file in this process: (bytes, notes, error message or None)."""
    try:
        size, notes = render(path, target)
        return size, notes, None
    except (UsageError, WriteError) as exc:
        return 0, [], str(exc)
    except OSError as exc:
        return 0, [], f"{path}: {exc.strerror or exc}"
    except MemoryError:
        return 0, [], f"{path}: out of memory"
    except Exception as exc:  # a fault on one input must not stop the rest
        return 0, [], f"{path}: failed with {type(exc).__name__} (an error of termscribe)"
