"""What the fuzz harnesses share: paths, coverage, the checkers of tests/, limits.

Importing it instruments every termscribe module for atheris's coverage.
The safe-output checkers live in tests/ (``textcheck``, ``htmlcheck`` and
``check_ansi`` of ``test_ansi``); they are imported from there, not copied,
so the fuzzers and the test suite assert the same thing.  The source tree's
``src/`` goes first on ``sys.path`` so a checkout is fuzzed as it is, even
where another copy of termscribe is installed.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT / "tests", ROOT / "src"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import atheris  # noqa: E402

# Instrument every termscribe module for coverage before anything (the
# checkers included) imports one uninstrumented.
with atheris.instrument_imports(include=["termscribe"]):
    import termscribe

    for _module in pkgutil.walk_packages(termscribe.__path__, "termscribe."):
        importlib.import_module(_module.name)

from htmlcheck import check_html  # noqa: E402
from messages import JsonBuilder, fuzzed_messages, json_depth  # noqa: E402
from test_ansi import check_ansi  # noqa: E402
from textcheck import assert_safe_text  # noqa: E402

__all__ = [
    "ROOT",
    "JsonBuilder",
    "assert_bounded",
    "assert_no_smuggling",
    "assert_safe_text",
    "check_ansi",
    "check_html",
    "fuzzed_messages",
    "json_depth",
    "run",
    "split_points",
]

#: Output characters allowed per input byte (DESIGN.md, invariant 6) ...
OUTPUT_PER_BYTE = 64
#: ... plus this constant.
OUTPUT_CONSTANT = 4096


def assert_bounded(what: str, output: str, input_size: int) -> None:
    """Invariant 6: at most 64 characters per input byte, plus a constant."""
    limit = OUTPUT_PER_BYTE * input_size + OUTPUT_CONSTANT
    assert len(output) <= limit, f"{what}: {len(output)} characters from {input_size} bytes"


# SECURITY.md, "invisible smuggling": at most one variation selector after a
# base, and every other default-ignorable or unassigned code point visible.
# textcheck covers the format (Cf) characters; these are the others of
# Unicode's Default_Ignorable_Code_Point that must not be left raw.
_IGNORABLE_NOT_CF = re.compile(
    "[\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufff0-\ufff8\U000e0080-\U000e00ff\U000e01f0-\U000e0fff]"
)
_SELECTORS = "\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef"
_SELECTOR_RUN = re.compile(f"[{_SELECTORS}]{{2,}}")


def assert_no_smuggling(text: str) -> None:
    """No raw default-ignorable code point, no run of variation selectors."""
    match = _IGNORABLE_NOT_CF.search(text)
    assert match is None, f"default-ignorable {match.group()!r} at {match.start()}"
    match = _SELECTOR_RUN.search(text)
    assert match is None, f"variation selectors {match.group()!r} at {match.start()}"


#: Cuts per input at most: the first and last half of them are kept, so a
#: long input is still cut finely at both ends without a feed per byte.
MAX_CUTS = 256


def split_points(size: int, scheme: int) -> list[int]:
    """Where to cut `size` bytes: byte by byte, fixed steps or pseudo-random steps."""
    if scheme < 16:
        cuts = list(range(max(scheme, 1), size, max(scheme, 1)))
    else:
        cuts = []
        state = scheme
        position = 0
        while True:
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            position += 1 + (state >> 16) % 23
            if position >= size:
                break
            cuts.append(position)
    if len(cuts) > MAX_CUTS:
        cuts = cuts[: MAX_CUTS // 2] + cuts[-MAX_CUTS // 2 :]
    return cuts


def run(test_one_input: Callable[[bytes], None]) -> None:
    """Hand the harness to libFuzzer with the command-line arguments."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
