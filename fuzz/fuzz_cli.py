"""Fuzz the line handling of ``termscribe acp`` and ``termscribe bridge``, in-process.

The CLI is run through `termscribe.cli.main` with the fuzz input as its
standard input, exactly as a pipe would give it.  Input: byte 0 picks the
command and its options (bit 7: the rest drives the JSON builder of
``common.py`` and is written as NDJSON; otherwise the rest is the raw input,
any bytes).

Checks (DESIGN.md, invariant 5: no CLI dies on one line):

* `main` returns 0 or 1 (2 is for bad usage and unreadable input) and
  raises nothing;
* every stderr line is one of the command's own one-line messages
  (``termscribe acp: ...``), and stderr passes the text checker, so input
  cannot forge or hide lines there;
* ``acp --format json`` writes one JSON object; ``--format text`` passes the
  text checker; ``--format html`` parses without html5lib errors;
* ``bridge`` writes one JSON value per line.

    python fuzz/fuzz_cli.py [libFuzzer options] [CORPUS_DIR | CRASH_FILE]
"""

from __future__ import annotations

import io
import json

import atheris
import html5lib
from common import JsonBuilder, assert_safe_text, run

from termscribe.cli import main

FORMATS = ("text", "json", "html")
MODES = ("lines", "strip", "screen")


def ndjson(data: bytes) -> bytes:
    """Messages from the JSON builder as NDJSON (values json cannot write are left out)."""
    lines = []
    for message in JsonBuilder(atheris.FuzzedDataProvider(data)).messages():
        try:
            lines.append(json.dumps(message).encode())
        except (ValueError, RecursionError):
            continue
    return b"\n".join(lines)


def arguments(flags: int) -> list[str]:
    if flags & 1:
        args = ["bridge", "--mode", ("text", "meta")[flags >> 1 & 1]]
        args += ["--flush-ms", ("0", "100")[flags >> 2 & 1]]
        if flags & 8:
            args += ["--max-text-chars", "256"]
        return args
    args = ["acp", "--format", FORMATS[(flags >> 1) % 3], "--mode", MODES[(flags >> 3) % 3]]
    if flags & 32:
        args += ["--terminal", "term_1"]
    return args


def check_stderr(err: str, command: str) -> None:
    assert_safe_text(err)
    for line in err.splitlines():
        assert line.startswith(f"termscribe {command}: "), f"stderr line {line!r}"


def test_one_input(data: bytes) -> None:
    if not data:
        return
    flags = data[0]
    stdin = ndjson(data[1:]) if flags & 128 else data[1:]
    args = arguments(flags)
    stdout = io.BytesIO()
    stderr = io.StringIO()
    status = main(
        [*args, *(["-"] if args[0] == "acp" else [])],
        stdin=io.BytesIO(stdin),
        stdout=stdout,
        stderr=stderr,
    )
    assert status in (0, 1), f"exit status {status}: {stderr.getvalue()[-500:]!r}"
    check_stderr(stderr.getvalue(), args[0])
    out = stdout.getvalue().decode("utf-8")
    if args[0] == "bridge":
        for line in out.splitlines():
            json.loads(line)
    elif args[2] == "json":
        report = json.loads(out)
        assert set(report) == {"terminals", "errors"}, set(report)
        for terminal in report["terminals"]:
            assert_safe_text(terminal["text"])
    elif args[2] == "text":
        assert_safe_text(out)
    else:
        parser = html5lib.HTMLParser(strict=True)
        parser.parse(out)


if __name__ == "__main__":
    run(test_one_input)
