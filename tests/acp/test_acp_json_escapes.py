"""JSON export escapes exactly what the text export would not show as itself.

Both decisions come from one place: the controls `display_text` marks and the
class table of `termscribe._unicode` (see `json_escapes`), so the tests here
check the outputs, not the table: the listed examples through the CLI, and
every code point through `display_text` (the text export's view of a string
from the log) against `dumps_json`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from acp_wire import terminal_update

from termscribe.acp import SessionLog, display_text, dumps_json, export_text, iter_json
from termscribe.acp._export import json_escapes

INVISIBLE = [
    "\u3164",  # Hangul filler
    "\u00ad",  # soft hyphen
    "\u115f",  # Hangul choseong filler
    "\U0001d173",  # musical symbol begin beam
    "\U000e0080",  # in the tag block's unassigned tail
    "\ufe0f",  # variation selector 16 (after "x": no emoji to join)
    "\U000e0100",  # variation selector 17
    "\u202e",  # right-to-left override
    "\u200b",  # zero width space
]


def shown_raw(chars: list[str]) -> list[bool]:
    """For each code point: does the text export show it as itself?"""
    sep = "~#~"  # not a join base: a joiner after it is treated as at the start
    out = display_text(sep + sep.join(chars) + sep).split(sep)[1:-1]
    assert len(out) == len(chars)
    return [char in shown for char, shown in zip(chars, out, strict=True)]


def written_raw(chars: list[str]) -> list[bool]:
    """For each code point: does JSON output write it as itself?"""
    text = dumps_json(chars).strip()
    assert text.startswith('["') and text.endswith('"]')
    tokens = text[2:-2].split('", "')
    assert len(tokens) == len(chars)
    return [token == char for char, token in zip(chars, tokens, strict=True)]


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_listed_examples_are_escaped_in_json_and_marked_in_text(char: str) -> None:
    command = f"echo x{char}y"
    log = SessionLog()
    log.feed_message(terminal_update(f"t{char}", command=command, cwd=f"/w{char}"), 1)
    log.finish()
    report = "".join(iter_json(log))
    assert char not in report
    (terminal,) = json.loads(report)["terminals"]
    assert (terminal["command"], terminal["cwd"], terminal["terminalId"]) == (
        command,
        f"/w{char}",
        f"t{char}",
    )
    assert char not in export_text(log)
    assert json_escapes(char)


def test_the_cli_json_output_has_no_invisible_character(tmp_path: Path) -> None:
    lines = [
        json.dumps(terminal_update("t", command=f"run{char}", meta={f"k{char}": char}))
        for char in INVISIBLE
    ]
    log = tmp_path / "log.ndjson"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "termscribe.cli", "acp", "--format", "json", str(log)],
        capture_output=True,
        check=True,
    )
    out = result.stdout.decode("utf-8")
    assert not any(char in out for char in INVISIBLE)
    (terminal,) = json.loads(out)["terminals"]
    assert terminal["command"] == f"run{INVISIBLE[-1]}"
    assert terminal["meta"] == {f"k{INVISIBLE[-1]}": INVISIBLE[-1]}


def test_every_code_point_is_escaped_in_json_iff_text_would_not_show_it() -> None:
    block = 2048
    for start in range(0, 0x110000, block):
        chars = [chr(c) for c in range(start, min(start + block, 0x110000))]
        shown = shown_raw(chars)
        written = written_raw(chars)
        for char, in_text, in_json in zip(chars, shown, written, strict=True):
            if char in '"\\':  # JSON syntax, not a sanitising escape
                assert in_text and not in_json
                continue
            assert in_json == in_text, f"U+{ord(char):04X}"
            assert json_escapes(char) == (not in_json), f"U+{ord(char):04X}"


def test_context_dependent_code_points_are_escaped_even_where_text_keeps_them() -> None:
    """Escaping is lossless, so JSON escapes joiners and variation selectors
    everywhere; the text export keeps them after a character they can join."""
    for sequence in ("\u2764\ufe0f", "\U0001f468\u200d\U0001f469", "\u8fba\U000e0100"):
        assert display_text(sequence) == sequence
        escaped = dumps_json(sequence)
        assert all(c in escaped for c in sequence if not json_escapes(c))
        assert json.loads(escaped) == sequence
        assert any(json_escapes(c) for c in sequence)
