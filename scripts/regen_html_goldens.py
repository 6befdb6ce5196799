"""Regenerate the golden HTML fragments under tests/golden/html/.

    python scripts/regen_html_goldens.py          # write, and delete orphans
    python scripts/regen_html_goldens.py --check  # exit 1 if any is stale

Every corpus case small enough to keep (see tests/htmlcheck.py) is rendered
with its sidecar's columns and rows, checked with the HTML checker, and
written. Review the diff before committing: a golden is a claim that the
output is right.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from htmlcheck import GOLDEN, check_html, corpus_cases  # noqa: E402

from termscribe import Transcript  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale goldens")
    args = parser.parse_args()
    wanted: set[Path] = set()
    stale = 0
    for case in corpus_cases():
        if not case.has_golden:
            continue
        transcript = Transcript(**case.options())  # type: ignore[arg-type]
        transcript.feed(case.data())
        transcript.finish()
        html = transcript.html()
        check_html(html, transcript.text())
        wanted.add(case.golden)
        old = case.golden.read_text(encoding="utf-8") if case.golden.exists() else None
        if old == html:
            continue
        stale += 1
        print(("stale " if args.check else "wrote ") + str(case.golden.relative_to(ROOT)))
        if not args.check:
            case.golden.parent.mkdir(parents=True, exist_ok=True)
            case.golden.write_text(html, encoding="utf-8", newline="")
    for orphan in sorted(set(GOLDEN.glob("*/*.html")) - wanted):
        stale += 1
        print(("orphan " if args.check else "deleted ") + str(orphan.relative_to(ROOT)))
        if not args.check:
            orphan.unlink()
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
