"""The corpus: real recordings and hostile cases, against goldens and xterm.

Every case is fed whole, in random splits and (when small enough) byte by
byte, and must give its golden transcript for `lines` and `strip`, pass the
text checker, and for real recordings equal what xterm shows
(corpus/xterm/*.lines.txt, made by scripts/xterm/reference.mjs with
@xterm/headless).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chunking import assert_chunking_invariant
from textcheck import assert_safe_text

from termscribe import render_text

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
RECORDINGS = sorted(CORPUS.glob("recordings/*.json"))
HOSTILE = sorted(CORPUS.glob("hostile/*.json"))
BYTEWISE_LIMIT = 64 * 1024


def _load(sidecar: Path) -> tuple[dict[str, object], bytes]:
    return json.loads(sidecar.read_text(encoding="utf-8")), sidecar.with_suffix(".raw").read_bytes()


def test_corpus_is_complete() -> None:
    assert len(RECORDINGS) >= 12
    kinds = {json.loads(p.read_text())["kind"] for p in RECORDINGS}
    assert kinds == {"line", "fullscreen"}
    threats = {json.loads(p.read_text())["threat"] for p in HOSTILE}
    assert len(threats) >= 18, sorted(threats)


@pytest.mark.parametrize("mode", ["lines", "strip"])
@pytest.mark.parametrize("sidecar", RECORDINGS + HOSTILE, ids=lambda p: p.stem)
def test_golden_and_chunking(sidecar: Path, mode: str) -> None:
    meta, data = _load(sidecar)
    text = assert_chunking_invariant(
        data,
        bytewise=len(data) <= BYTEWISE_LIMIT,
        seeds=(1, 2) if len(data) <= BYTEWISE_LIMIT else (1,),
        mode=mode,
        columns=meta["columns"],
        rows=meta["rows"],
    )
    assert_safe_text(text)
    golden = CORPUS / "golden" / f"{sidecar.stem}.{mode}.txt"
    assert text == golden.read_bytes().decode("utf-8")


@pytest.mark.parametrize("sidecar", RECORDINGS, ids=lambda p: p.stem)
def test_lines_equal_xterm(sidecar: Path) -> None:
    meta, data = _load(sidecar)
    reference = (CORPUS / "xterm" / f"{sidecar.stem}.lines.txt").read_text(encoding="utf-8")
    assert render_text(data, columns=meta["columns"], rows=meta["rows"]) == reference
