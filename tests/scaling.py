"""Timing checks that an operation is linear: 4x the work within 6x the time.

Each size is timed three times (time.perf_counter), interleaved with the
other size so that a change in machine load hits both, and the best time of
each is kept.  The
garbage collector is paused while timing: its full collections cost time in
proportion to every object alive, which is not the code under test.

The timing is the deep profile's (see conftest.py): in the default one,
``assert_linear`` skips the rest of its test, once what the test checked
before it has passed.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from profiles import deep_only

Setup = Callable[[int], Callable[[], object]]


def timed(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def best_times(
    setup: Setup, n: int, *, fresh: bool = True, factor: int = 4, repeat: int = 3
) -> tuple[float, float]:
    """Best of `repeat` times of ``setup(n)()`` and of ``setup(factor * n)()``
    (`setup` prepares outside the timing and returns what to time; with
    `fresh` False, what it returns is timed again without preparing again)."""
    small, large = [], []
    runs = (setup(n), setup(factor * n)) if not fresh else None
    for _ in range(repeat):
        small.append(timed(runs[0] if runs else setup(n)))
        large.append(timed(runs[1] if runs else setup(factor * n)))
    return min(small), min(large)


def assert_linear(setup: Setup, n: int, *, fresh: bool = True) -> tuple[float, float]:
    """4x the work within 6x the time.  A busy machine (other processes taking
    the CPU during one size's runs) can push one measurement past that, so a
    failing one is measured once more; a quadratic cost fails both (at these
    sizes it shows as 10x or more)."""
    deep_only("times 4x the work against the work (invariant 4)")
    for attempt in (1, 2):
        small, large = best_times(setup, n, fresh=fresh)
        ratio = large / small
        print(f"N={n}: {small * 1000:.1f} ms, 4N: {large * 1000:.1f} ms ({ratio:.1f}x)")
        if large <= 6 * small or attempt == 2:
            break
    assert large <= 6 * small, f"4x the work took {ratio:.1f}x the time"
    return small, large
