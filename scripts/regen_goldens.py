"""Regenerate the text goldens of the corpus: corpus/golden/<name>.<mode>.txt.

For every recording and hostile case (corpus/recordings, corpus/hostile), the
`lines`, `strip` and `screen` transcripts at the size in its sidecar (the
`screen` one is the final screen, as `render --mode screen` prints it).
Review the diff before committing: a changed golden is a changed behaviour.

    python scripts/regen_goldens.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from termscribe import render_text

ROOT = Path(__file__).resolve().parent.parent / "corpus"
MODES = ("lines", "strip", "screen")


def cases() -> list[Path]:
    return sorted([*ROOT.glob("recordings/*.json"), *ROOT.glob("hostile/*.json")])


def main() -> int:
    out_dir = ROOT / "golden"
    out_dir.mkdir(exist_ok=True)
    written = 0
    for sidecar in cases():
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        data = sidecar.with_suffix(".raw").read_bytes()
        for mode in MODES:
            text = render_text(data, mode=mode, columns=meta["columns"], rows=meta["rows"])
            target = out_dir / f"{sidecar.stem}.{mode}.txt"
            target.write_bytes(text.encode("utf-8"))
            written += 1
    print(f"wrote {written} goldens to {out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
