"""The test profiles (see conftest.py): default, and deep behind ``--deep``
or ``TERMSCRIBE_DEEP=1``. ``pytest --deep`` sets the variable, so that this
process's helpers and the processes the tests start see the same profile."""

from __future__ import annotations

import os

import pytest

#: The environment switch of the deep profile (the same as ``--deep``).
DEEP_ENVIRONMENT = "TERMSCRIBE_DEEP"
#: In the default profile a property runs this fraction of its examples ...
DEFAULT_EXAMPLES_DIVISOR = 10
#: ... and at least this many (or all it asks for, when fewer).
DEFAULT_MIN_EXAMPLES = 20


def is_deep() -> bool:
    return os.environ.get(DEEP_ENVIRONMENT, "") == "1"


def default_examples(asked: int) -> int:
    """The examples a property asking for `asked` runs in the default profile."""
    return min(asked, max(DEFAULT_MIN_EXAMPLES, asked // DEFAULT_EXAMPLES_DIVISOR))


def skip_reason(why: str) -> str:
    return f"deep profile only (--deep or {DEEP_ENVIRONMENT}=1): {why}"


def deep_only(why: str) -> None:
    """Skip the rest of the test in the default profile (what came before
    has run and passed)."""
    if not is_deep():
        pytest.skip(skip_reason(why))
