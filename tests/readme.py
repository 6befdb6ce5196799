"""Read the README and the documents in docs/, for tests of their examples."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: Every document whose examples must run as written.
DOCUMENTS = [README, ROOT / "CONTRIBUTING.md", *sorted(DOCS.glob("*.md"))]


def doc_section(path: Path, heading: str) -> str:
    """The text of ``path`` from ``heading`` (a whole ``#...`` line) to the
    next heading of the same or a higher level; lines in code blocks (a
    ``# comment`` in a shell example) are not headings."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    taken: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("#"):
            depth = len(line) - len(line.lstrip("#"))
            if taken and depth <= level:
                break
            if not taken and line.rstrip("\n") == heading:
                taken.append(line)
                continue
        if taken:
            taken.append(line)
    if not taken:
        raise ValueError(f"no heading {heading!r} in {path.name}")
    return "".join(taken)


def readme_section(heading: str) -> str:
    """A ``## `` section of the README."""
    return doc_section(README, heading)
