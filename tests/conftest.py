"""Suite-wide test settings: the default profile and the deep one.

The default profile is the run for working on termscribe (``pytest``,
``bash scripts/test.sh``): every test runs, each Hypothesis property with a
tenth of the examples its test asks for (at least 20: see profiles.py), and
the fuzz harnesses briefly. The deep profile (``pytest --deep``, or
``TERMSCRIBE_DEEP=1`` in the environment; ``.ci/run`` runs it) runs every
property with the examples its test asks for, the fuzz harnesses for longer,
and the tests marked ``@pytest.mark.deep(reason=...)``, which the default
profile skips with that reason: scaling checks that time 4 times the work
against the work in this process (invariant 4; see tests/scaling.py), and
any other test whose cost is its point.

Hypothesis: no per-example deadline. The properties check behaviour, not
speed, and a loaded CI machine must not turn a slow example into a failure.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings
from profiles import (
    DEEP_ENVIRONMENT,
    DEFAULT_MIN_EXAMPLES,
    default_examples,
    is_deep,
    skip_reason,
)

settings.register_profile("default", deadline=None, max_examples=DEFAULT_MIN_EXAMPLES)
settings.register_profile("deep", deadline=None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        default=False,
        help=f"the deep profile (as {DEEP_ENVIRONMENT}=1): every Hypothesis example, "
        "long fuzz runs, the tests marked deep",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--deep"):
        os.environ[DEEP_ENVIRONMENT] = "1"
    config.addinivalue_line(
        "markers",
        "deep(reason): runs in the deep profile only (--deep or TERMSCRIBE_DEEP=1); "
        "the reason says why it is slow",
    )
    settings.load_profile("deep" if is_deep() else "default")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if is_deep():
        return
    capped: set[int] = set()
    for item in items:
        marker = item.get_closest_marker("deep")
        if marker is not None:
            why = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "slow")
            item.add_marker(pytest.mark.skip(reason=skip_reason(why)))
            continue
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        # The settings @settings gave the test; Hypothesis reads them when
        # the test runs (a parametrized test is one function: once only).
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or id(test) in capped:
            continue
        capped.add(id(test))
        test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
            own, max_examples=default_examples(own.max_examples)
        )
