"""Generate the differential cases: corpus/differential/cases.jsonl.

Seeded streams from the grammar of tests/vtgrammar.py (families
``XTERM_CASES``), each on a small screen (4-12 columns, 2-6 rows) so that
wrapping, scrolling and margins happen in a few bytes. One JSON object per
line: ``{"name", "columns", "rows", "text"}``; first a few hand-written
cases (``KNOWN``), each pinning a behaviour where termscribe differs, or
once differed, from xterm.js. Then render them with
xterm.js (corpus/differential/xterm.jsonl):

    python scripts/make_differential_cases.py
    cd scripts/xterm && node differential.mjs

The same seed always gives the same cases; review the diff before
committing new ones.

With ``--markers``, it writes corpus/differential/markers.jsonl instead:
cases whose streams also print marked code points and spell markers
(family ``marker``), whose ordinary text tests/test_markers.py compares
with xterm.js's (``node differential.mjs markers`` renders them to
markers.xterm.jsonl).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from vtgrammar import XTERM_CASES, RandomChooser, stream  # noqa: E402

SEED = 20261129
COUNT = 1200
MARKER_SEED = 20261207
MARKER_COUNT = 300

#: Hand-written cases for behaviours where termscribe differs, or once
#: differed, from xterm.js (tests/test_differential.py says what each shows
#: and which now follow xterm.js).
KNOWN = [
    ("pending_wrap_ind", 5, 3, "abcde\x1bDX"),
    ("pending_wrap_ri", 5, 3, "\nabcde\x1bMX"),
    ("pending_wrap_ich", 5, 3, "abcde\x1b[@X"),
    ("pending_wrap_dch", 5, 3, "abcde\x1b[PX"),
    ("pending_wrap_ech", 5, 3, "abcde\x1b[XX"),
    ("pending_wrap_dl_outside_region", 5, 3, "\x1b[2;3rabcde\x1b[MX"),
    ("pending_wrap_decrc", 5, 3, "abcde\x1b7\r\n\x1b8X"),
    ("pending_wrap_ht", 5, 3, "abcde\tX"),
    ("reset_1049_outside_alternate", 5, 3, "ab\x1b7\r\ncd\x1b[?1049lX"),
    ("alternate_47_reentered", 5, 3, "\x1b[?47hA\x1b[?47l\x1b[?47hB"),
    ("combining_after_cursor_move", 10, 2, "e\x1b[3C\u0301X"),
    ("rep_across_margin", 4, 3, "ab\x1b[5b"),
    ("origin_relative_move", 6, 4, "\x1b[2;3r\x1b[?6h\x1b[Cx"),
    ("origin_decrc_nothing_saved", 6, 4, "\x1b[3;4r\x1b[?6h\x1b8x"),
    ("wide_at_margin_no_autowrap", 4, 2, "\x1b[?7labc\u6f22"),
    ("c1_ri", 5, 3, "a\nb\u008dc"),
    ("saved_cursor_after_scroll", 5, 3, "\na\x1b7\n\n\n\x1b8X"),
    ("ed1_last_cell", 5, 3, "\x1b[3;5H\x1b[1J"),
]


def markers() -> int:
    rng = random.Random(MARKER_SEED)
    chooser = RandomChooser(rng)
    out = ROOT / "corpus" / "differential" / "markers.jsonl"
    with out.open("w", encoding="utf-8") as file:
        for index in range(MARKER_COUNT):
            columns = rng.randint(4, 12)
            rows = rng.randint(2, 6)
            # As the other cases: half leave out wide characters (wide
            # markers too), half autowrap changes.
            left_out = "wide" if index % 2 else "autowrap"
            families = [name for name in XTERM_CASES if name != left_out] + ["marker"] * 4
            if left_out == "autowrap":
                families.append("wide_marker")
            text = stream(chooser, columns, rows, families)
            case = {"name": f"marker{index:04d}", "columns": columns, "rows": rows, "text": text}
            file.write(json.dumps(case, ensure_ascii=True) + "\n")
    print(f"wrote {MARKER_COUNT} cases to {out}", file=sys.stderr)
    return 0


def main() -> int:
    if sys.argv[1:] == ["--markers"]:
        return markers()
    rng = random.Random(SEED)
    chooser = RandomChooser(rng)
    out = ROOT / "corpus" / "differential" / "cases.jsonl"
    out.parent.mkdir(exist_ok=True)
    with out.open("w", encoding="utf-8") as file:
        for name, columns, rows, text in KNOWN:
            case = {"name": name, "columns": columns, "rows": rows, "text": text}
            file.write(json.dumps(case, ensure_ascii=True) + "\n")
        for index in range(COUNT):
            columns = rng.randint(4, 12)
            rows = rng.randint(2, 6)
            # Half the cases have wide characters, half change autowrap.
            left_out = "wide" if index % 2 else "autowrap"
            families = [name for name in XTERM_CASES if name != left_out]
            text = stream(chooser, columns, rows, families)
            case = {"name": f"case{index:04d}", "columns": columns, "rows": rows, "text": text}
            file.write(json.dumps(case, ensure_ascii=True) + "\n")
    print(f"wrote {len(KNOWN)} + {COUNT} cases to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
