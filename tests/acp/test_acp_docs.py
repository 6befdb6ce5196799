"""The ACP client guide's example (docs/acp.md) runs and prints what it says."""

from __future__ import annotations

import re

from readme import DOCS, doc_section, run_example

GUIDE = DOCS / "acp.md"
SECTION = "# Using termscribe in an ACP client"


def test_python_example_runs_as_documented() -> None:
    blocks = re.findall(r"```python\n(.*?)```", doc_section(GUIDE, SECTION), re.DOTALL)
    assert len(blocks) == 1
    assert run_example(blocks[0], GUIDE).splitlines() == [
        "$ cargo test  (in /workspace/project, exit 0)",
        "test result: ok✓ 12 passed",
        "",
        "params.update.data term_1 not base64: length 3 is not a multiple of 4 (padding missing?)",
        "ignored invalid optional field 'params.update.cwd' (read as omitted): "
        "path 'relative/path' is not absolute",
    ]
