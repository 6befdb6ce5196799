"""Build the API reference (HTML) from the docstrings with pdoc.

    python scripts/api_docs.py [OUT]        # default: build/api (git-ignored)

The reference covers the public modules: ``termscribe`` (its ``__all__``),
``termscribe.acp`` and ``termscribe.rich``. Docstrings are reStructuredText
(````code````). Names that ``termscribe`` imports only when first used are
looked up first, so that pdoc finds them. Any warning pdoc gives (a name in
``__all__`` that does not resolve, a broken cross-reference) fails the
build: tests/test_api_docs.py runs it, so the reference cannot go stale.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pdoc
import pdoc.render

import termscribe

MODULES = ["termscribe", "termscribe.acp", "termscribe.rich"]


def build(out: Path) -> None:
    for name in termscribe.__all__:  # resolve the lazily imported names
        vars(termscribe).setdefault(name, getattr(termscribe, name))
    pdoc.render.configure(
        docformat="restructuredtext",
        footer_text="termscribe: safe transcripts of terminal byte streams",
        search=True,
        show_source=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdoc.pdoc(*MODULES, output_directory=out)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build/api")
    build(target)
    print(f"API reference: {target / 'index.html'}")
