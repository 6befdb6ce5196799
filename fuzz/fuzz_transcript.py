"""Fuzz the whole pipeline: bytes → decoder → parser → model → text/HTML/ANSI.

Input layout: four option bytes, then the terminal bytes.

* byte 0: mode (lines, strip, screen), styles on or off, ``max_lines``
  (default, None or small) and the alternate-screen option;
* byte 1: ``columns`` (None, 1–253, 1000 or the maximum);
* byte 2: ``rows`` (1–48, or 1000);
  (both within the screen mode's own limits in that mode);
* byte 3: how the bytes are cut for the chunked feed (byte by byte, fixed
  steps, pseudo-random steps); bit 0 also asks the ANSI for hyperlinks, and
  bits 1 and 2 set also check the standalone HTML document.

Checks, on one feed of the whole input: the text passes the text checker
(and the invisible-smuggling rules of SECURITY.md, see ``common.py``),
the HTML the HTML checker (against that text) and the ANSI the ANSI checker;
each is at most 64 characters per input byte plus 4096; ``text()`` and
``ansi()`` are those of ``lines()``.  Then the same bytes fed in pieces,
taking committed lines out after each piece as a streaming reader does,
must render exactly the same.

    python fuzz/fuzz_transcript.py [libFuzzer options] [CORPUS_DIR | CRASH_FILE]
"""

from __future__ import annotations

from common import (
    assert_bounded,
    assert_no_smuggling,
    assert_safe_text,
    check_ansi,
    check_html,
    run,
    split_points,
)

from termscribe import Line, Transcript, ansi_lines, html_end, html_lines, html_start
from termscribe._rows import MAX_LINE_CELLS
from termscribe._screen._model import MAX_SCREEN_COLUMNS, MAX_SCREEN_ROWS
from termscribe._transcript import DEFAULT_MAX_LINES, MODES

HEADER = 4


def options(header: bytes) -> dict[str, object]:
    """Transcript options from the four header bytes."""
    flags, columns_byte, rows_byte, _ = header
    mode = MODES[flags % 3]
    limit = (flags >> 3) & 3
    max_lines: int | None = (DEFAULT_MAX_LINES, None, (flags >> 5) % 4, 1)[limit]
    columns: int | None
    if columns_byte == 0:
        columns = None
    elif columns_byte == 255:
        columns = MAX_LINE_CELLS
    elif columns_byte == 254:
        columns = 1000
    else:
        columns = columns_byte
    rows = 1000 if rows_byte == 255 else 1 + rows_byte % 48
    if mode == "screen":  # its own limits (a ValueError otherwise)
        columns = None if columns is None else min(columns, MAX_SCREEN_COLUMNS)
        rows = min(rows, MAX_SCREEN_ROWS)
    alt_screen = "snapshot" if flags >> 7 and mode != "strip" else "off"
    return {
        "mode": mode,
        "columns": columns,
        "rows": rows,
        "max_lines": max_lines,
        "styled": not (flags >> 2) & 1,
        "alt_screen": alt_screen,
    }


def html_of(lines: list[Line]) -> str:
    return html_start() + html_lines(lines) + html_end()


def test_one_input(data: bytes) -> None:
    if len(data) < HEADER:
        return
    opts = options(data[:HEADER])
    payload = data[HEADER:]
    size = len(payload)

    whole = Transcript(**opts)  # type: ignore[arg-type]
    whole.feed(payload)
    whole.finish()
    lines = whole.lines()  # once: in screen mode each call renders the screen
    text = "\n".join(line.text for line in lines)
    assert_safe_text(text)
    assert_no_smuggling(text)
    assert_bounded("text", text, size)
    html = html_of(lines)
    assert_bounded("html", html, size)
    check_html(html, text)
    hyperlinks = bool(data[3] & 1)
    ansi = ansi_lines(lines, hyperlinks=hyperlinks)
    assert_bounded("ansi", ansi, size)
    check_ansi(ansi, text)
    assert whole.text() == text, "text() differs from its lines()"
    assert whole.ansi(hyperlinks=hyperlinks) == ansi, "ansi() differs from its lines()"
    if data[3] & 6 == 6:  # a quarter of the inputs: the whole document too
        check_html(whole.html(standalone=True), text, standalone=True)

    # Chunk invariance, read the way a streaming consumer (the CLIs) reads:
    # committed lines are taken out after every piece.
    pieces = Transcript(**opts)  # type: ignore[arg-type]
    streamed: list[Line] = []
    previous = 0
    for cut in [*split_points(size, data[3]), size]:
        pieces.feed(payload[previous:cut])
        previous = cut
        if opts["max_lines"] in (None, DEFAULT_MAX_LINES):
            streamed.extend(pieces.take_lines())
    pieces.finish()
    streamed.extend(pieces.lines())
    got = "\n".join(line.text for line in streamed)
    assert got == text, f"chunked text differs: {got!r} != {text!r}"
    assert html_of(streamed) == html, "chunked HTML differs"
    assert ansi_lines(streamed, hyperlinks=hyperlinks) == ansi, "chunked ANSI differs"


if __name__ == "__main__":
    run(test_one_input)
