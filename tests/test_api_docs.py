"""The API reference, built from the docstrings by scripts/api_docs.py
(pdoc) as CI builds it: every public name has its entry and its docstring,
and pdoc has nothing to warn about."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import termscribe
import termscribe.acp

ROOT = Path(__file__).resolve().parent.parent


def test_the_api_reference_builds_and_covers_every_public_name(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "api_docs.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Warn" not in result.stderr, result.stderr[-2000:]
    for module, page in ((termscribe, "termscribe.html"), (termscribe.acp, "termscribe/acp.html")):
        html = (tmp_path / page).read_text(encoding="utf-8")
        for name in module.__all__:
            assert f'id="{name}"' in html, (page, name)
            doc = inspect.getdoc(getattr(module, name))
            if doc and not isinstance(getattr(module, name), (str, int, tuple, frozenset)):
                # The docstring's first words, before any markup.
                first = re.split(r"[`*<>&'\"\n]", doc)[0].strip()[:25]
                assert len(first) < 8 or first in html, (page, name, first)
    assert (tmp_path / "index.html").exists() and (tmp_path / "termscribe" / "rich.html").exists()
