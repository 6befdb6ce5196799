"""The optional C extension (``_speedups``, see setup.py), or None where it
was not built (no C compiler at install) or is turned off.

Setting the environment variable ``TERMSCRIBE_PURE_PYTHON`` to ``1`` before
termscribe is imported never loads the extension, so that the pure-Python
code runs end to end (the test suite runs its core tests that way too).
Each module that uses the extension keeps the pure-Python code it mirrors,
with the same results, for both cases; which one a module uses is decided
once, at import.
"""

from __future__ import annotations

import os

__all__ = ["PURE_PYTHON", "speedups"]

#: Whether the extension was turned off by ``TERMSCRIBE_PURE_PYTHON=1``.
PURE_PYTHON = os.environ.get("TERMSCRIBE_PURE_PYTHON", "") == "1"


try:
    if PURE_PYTHON:
        raise ImportError("turned off by TERMSCRIBE_PURE_PYTHON=1")
    from . import _speedups as speedups
except ImportError:  # turned off, or built without a C compiler
    speedups = None  # type: ignore[assignment]
