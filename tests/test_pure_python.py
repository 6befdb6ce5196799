"""``TERMSCRIBE_PURE_PYTHON=1`` turns the optional C extension off: the
modules then use the pure-Python code it mirrors, with the same output.

Run in a child process, since which code a module uses is decided once, at
import. ``scripts/test.sh`` runs the core tests a second time that way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termscribe import render_ansi, render_html, render_text

# Every kind of input the extension's scans see: floods of C1 controls and
# of control sequences with text between them, strings aborted by C1, lines
# of text with SGR, a run of plain lines long enough to be committed as
# slices of it, styled lines of single cells, wide
# characters and marks, and progress bars redrawn after CRs.
SAMPLE = (
    "\x1b[31mred\x1b[0m\r\n"
    + "\x84a\x85b\x80c\x9dtitle\x84d\x9c" * 40
    + "\x1b[5;1Hx\x1b[6;1Hy\x1b[2Kz" * 40
    + "done\r\n"
    + "\x1b[1;32mok\x1b[0m \x1b[2mtest_\u4e2d\u6587 \u00e9\u0301\x1b[m\n" * 30
    + "".join(f"\r{i:3d}% |" + "\u2588" * i for i in range(0, 60, 3))
    + "\n\u200b\U0001f600 done\n"
    + "".join(f"\x1b[32m{n}\x1b[m line\r\n" for n in range(40))
    + "".join(f"plain line {n} <&>\r\n" for n in range(3000))
    + "".join(f"\x1b_bk;t={n}\x07\x1b[2mtagged\x1b[m {n}\n" for n in range(20))
).encode()

_CHILD = """
import json, sys
from termscribe import _accel, _grammar, _layouts, _unicode
from termscribe import render_ansi, render_html, render_text
data = sys.stdin.buffer.read()
print(json.dumps({
    "speedups": _accel.speedups is not None,
    "pure": _accel.PURE_PYTHON,
    "regex_paths": _grammar.batch_parts is _grammar.batch_parts_by_regex
        and _grammar.sgr_split == _grammar.SGR_SPLIT.split
        and _grammar.without_sgr is _grammar.without_sgr_by_regex
        and _unicode.single_run_end is _unicode.single_run_end_by_regex
        and _unicode.cell_run_end is _unicode.cell_run_end_by_regex
        and _unicode.marked_cell_run_end is _unicode.marked_cell_run_end_by_regex
        and _layouts.style_layout is _layouts.style_layout_by_python,
    "outputs": [f(data, mode=m) for f in (render_text, render_html, render_ansi)
                for m in ("lines", "strip")],
}))
"""


def _child(pure: str | None) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("TERMSCRIBE_PURE_PYTHON", None)
    if pure is not None:
        env["TERMSCRIBE_PURE_PYTHON"] = pure
    result = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=SAMPLE,
        env=env,
        capture_output=True,
        check=True,
    )
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def test_the_variable_turns_the_extension_off() -> None:
    child = _child("1")
    assert child["pure"] is True
    assert child["speedups"] is False
    assert child["regex_paths"] is True


@pytest.mark.parametrize("value", ["", "0", "yes"])
def test_only_one_turns_it_off(value: str) -> None:
    assert _child(value)["pure"] is False


def test_the_output_is_the_same_either_way() -> None:
    pure = _child("1")["outputs"]
    renderers = (render_text, render_html, render_ansi)
    expected = [f(SAMPLE, mode=m) for f in renderers for m in ("lines", "strip")]
    assert pure == expected
    assert _child(None)["outputs"] == expected
