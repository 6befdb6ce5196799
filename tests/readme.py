"""Read one ``## `` section of the README, for tests of its examples."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_section(heading: str) -> str:
    """The text from ``heading`` (a whole ``## ...`` line) to the next ``## ``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else len(text)]
