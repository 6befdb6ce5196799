"""Read the README and the documents in docs/, for tests of their examples."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
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


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def no_logged_warnings() -> Iterator[None]:
    """Fail when anything logs a warning or an error inside: a library that
    catches an exception in a callback (the ACP SDK does, in a client's
    handlers) only logs it, and an example must not pass that way."""
    handler = _Records()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    logged = [
        f"{r.name}: {r.getMessage()}" + (f" ({r.exc_info[1]!r})" if r.exc_info else "")
        for r in handler.records
    ]
    assert not logged, logged


def run_example(block: str, path: Path, out: io.StringIO | None = None) -> str:
    """Run a Python example as a reader would; what it printed.  Fails on a
    logged warning or error (see `no_logged_warnings`)."""
    out = out if out is not None else io.StringIO()
    with no_logged_warnings(), contextlib.redirect_stdout(out):
        exec(compile(block, str(path), "exec"), {})
    return out.getvalue()
