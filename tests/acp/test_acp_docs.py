"""The README's "Using termscribe in an ACP client" example runs and prints
what it says."""

from __future__ import annotations

import contextlib
import io
import re

from readme import README, readme_section

SECTION = "## Using termscribe in an ACP client"


def test_python_example_runs_as_documented() -> None:
    blocks = re.findall(r"```python\n(.*?)```", readme_section(SECTION), re.DOTALL)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), {})
    assert out.getvalue().splitlines() == [
        "$ cargo test  (in /workspace/project, exit 0)",
        "test result: ok✓ 12 passed",
        "",
        "params.update.cwd term_1 path 'relative/path' is not absolute",
    ]
