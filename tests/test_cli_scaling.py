"""The recipes of docs/cli.md, "Beyond one machine", run as the scripts
they are (their work is guarded by ``if __name__ == "__main__":``, which
running a block in this process would skip)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

from readme import ROOT, doc_section

from termscribe import render_text

SECTION = doc_section(ROOT / "docs" / "cli.md", "### Beyond one machine")
DASK, POOL = re.findall(r"^```python\n(.*?)^```$", SECTION, re.S | re.M)


def _script(tmp_path: Path, code: str, *args: str) -> list[str]:
    script = tmp_path / "recipe.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    result = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.splitlines()


def _lines(data: bytes) -> int:
    return len(render_text(data).splitlines())


def test_the_dask_recipe_renders_each_log(tmp_path: Path) -> None:
    assert 'compute(scheduler="processes")' in DASK
    paths = ["corpus/recordings/git_diff.raw", "corpus/recordings/ls_color.raw"]
    expected = [f"{p} {_lines((ROOT / p).read_bytes())} lines" for p in paths]
    assert _script(tmp_path, DASK) == expected


def test_the_process_pool_recipe_renders_each_member_of_an_archive(tmp_path: Path) -> None:
    logs = sorted((ROOT / "corpus" / "recordings").glob("*.raw"))
    archive = tmp_path / "logs.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for log in logs:
            tar.add(log, arcname=f"logs/{log.name}")
    expected = [f"logs/{log.name} {_lines(log.read_bytes())} lines" for log in logs]
    assert _script(tmp_path, POOL, str(archive)) == expected
