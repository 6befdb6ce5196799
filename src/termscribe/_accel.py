"""The optional C extension (``_speedups``, see setup.py), or None where it
was not built (no C compiler at install). Each module that uses it keeps
the pure-Python code it mirrors, with the same results, for that case."""

from __future__ import annotations

try:
    from . import _speedups as speedups
except ImportError:  # built without a C compiler
    speedups = None  # type: ignore[assignment]

__all__ = ["speedups"]
