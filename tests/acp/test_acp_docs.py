"""The README's "Using termscribe in an ACP client" example runs and prints
what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Using termscribe in an ACP client"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end >= 0 else len(text)]


def test_python_example_runs_as_documented() -> None:
    blocks = re.findall(r"```python\n(.*?)```", _section(), re.DOTALL)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(DOC), "exec"), {})
    assert out.getvalue().splitlines() == [
        "$ cargo test  (in /workspace/project, exit 0)",
        "test result: ok✓ 12 passed",
        "",
        "params.update.cwd term_1 path 'relative/path' is not absolute",
    ]
