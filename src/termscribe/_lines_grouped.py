"""Grouped parser events of the ``lines`` model, done at once.

The parser hands over text redrawn after lone CRs (``overwrite_run``) and
whole lines of text after a line end (``text_lines``) as one event each;
by default a Performer makes the calls one by one. Here the lines model
does the same work without them: the result is identical to the events
one by one (a Hypothesis test feeds every stream whole and byte by byte,
where no grouped event can form), only faster.

* Text after CRs on an unbounded row: only what stays visible is stored,
  for each column the last text that reached it.
* Whole lines: each is printed and ended without the parser's dispatch.
  Once the cursor is on the bottom row, lines of single cells scroll off
  as they are: the lines committed are made from their text (and SGR), and
  rows are made only for the lines still in the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul
from typing import TYPE_CHECKING

from ._line import EMPTY_LINE, MAX_LINE_CELLS, Line, Row
from ._parser import SGR_SPLIT
from ._style import DEFAULT, Style
from ._unicode import is_simple_run, with_markers

if TYPE_CHECKING:
    from ._lines import LinesModel

__all__ = ["Parts", "line_of", "overwrite_run", "single_cells", "styled_lines", "text_lines"]

#: A line's texts between SGR sequences and the style code of each (None:
#: an unstyled model).
Parts = tuple[Sequence[str], Sequence[str] | None]


def single_cells(lines: list[str], run: str) -> bool:
    """Whether every line is single cells that fit in a row (SGR aside);
    ``run`` holds the lines (and line ends or CRs): if it is ASCII, so are
    they, without joining them."""
    if not run.isascii():
        text = "".join(lines)
        if "\x1b" in text:
            text = SGR_SPLIT.sub("", text)
        if not is_simple_run(text):
            return False
    return max(map(len, lines)) <= MAX_LINE_CELLS


def overwrite_run(m: LinesModel, run: str) -> bool:
    """CRs each followed by text: in an unbounded row, single cells with
    no insert mode or line drawing, only what stays visible is written,
    at once: for each column, the last text that reached it. False (having
    done nothing) when the events must come one by one."""
    texts = run.split("\r")
    if (
        m.width is not None
        or m.insert
        or m._translate
        or not (run.isascii() or is_simple_run("".join(texts)))
    ):
        return False
    last = texts[-1]
    covered = len(last)
    visible = [last]
    for text in reversed(texts):
        if len(text) > covered:
            visible.append(text[covered:])
            covered = len(text)
    if covered > MAX_LINE_CELLS:  # found here, not by single_cells: one pass
        return False
    code = m._code
    m._put(0, "".join(visible), None if code is None else code * covered)
    m.x = len(last)
    m._last = last[-1]
    return True


def text_lines(m: LinesModel, run: str) -> None:
    """Whole lines of text. Each is printed and ended here without the
    parser's dispatch; once the cursor is on the bottom row of the
    window, lines of single cells are done all at once (see
    _bottom_lines)."""
    if m._code is None and "\x1b" in run:
        run = SGR_SPLIT.sub("", run)  # SGR changes nothing unstyled
    if not run.isascii():
        run = with_markers(run)  # bidi controls often come in every line
    screen = m._screen
    if (
        screen is m._normal
        and not screen.top
        and screen.bottom == m.height - 1
        and m.width is None
        and not m.insert
        and not m._translate
    ):
        # A CR before LF does nothing here that LF does not do too.
        lines = (run.replace("\r", "") if "\r" in run else run).split("\n")
        lines.pop()
        start = 0
        while start < len(lines) and m.y != screen.bottom:
            _text_line(m, lines[start])
            start += 1
        if start < len(lines) and not _bottom_lines(m, lines[start:], run):
            for line in lines[start:]:
                _text_line(m, line)
        return
    for line in run.split("\n")[:-1]:
        _text_line(m, line)


def _text_line(m: LinesModel, line: str) -> None:
    """One line of text_lines, without its LF."""
    text = line.rstrip("\r")
    if "\x1b" in text:
        m.print_with_sgr(text)
    elif text:
        m.print(text)
    m._last = ""
    m.x = 0
    m._index()


def _bottom_lines(m: LinesModel, lines: list[str], run: str) -> bool:
    """Lines (each ended by LF) printed from the bottom row of the
    window: the first ends the cursor row, the others scroll the window
    up, and only the rows still in the window are made; the lines
    scrolled off are committed as they are. False (having done nothing)
    unless every line is single cells that fit in a row."""
    first = lines[0]
    if m.x + len(first) > MAX_LINE_CELLS or not single_cells(lines, run):
        return False
    _text_line(m, first)
    rest = lines[1:]
    if not rest:
        return True
    rows = m._screen.rows
    old = rows[:-1]  # above the cursor row, which is blank
    count = len(rest)
    scrolled = min(count, len(old))
    for index in range(scrolled):
        below = old[index + 1] if index + 1 < len(old) else None
        m._commit(old[index], below is not None and below.continued)
    kept = rest[count - scrolled :]
    parts: list[Parts]
    if "\x1b" in "".join(rest):  # SGR (an unstyled model has none left)
        m._extend_committed(m._kept(styled_lines(m, rest[: count - scrolled])))
        parts = _parts(m, kept)
    else:
        m._commit_texts(rest[: count - scrolled])
        code = None if m._code is None else (m._code,)
        parts = [((text,), code) for text in kept]
    made = []
    for texts, codes in parts:
        row = Row()
        row.text = "".join(texts)
        row.styles = "".join(map(mul, codes or (), map(len, texts)))
        made.append(row)
    # What each new row is committed as while it stays unchanged (see
    # LinesModel._commit): its parts and their codes, made into a line then.
    m._made = {
        id(row): (row, row.text, row.styles, part) for row, part in zip(made, parts, strict=True)
    }
    rows[:] = [*old[scrolled:], *made, Row()]
    return True


def line_of(texts: Sequence[str], codes: Sequence[str] | None, palette: list[Style]) -> Line:
    """The line of a row of single cells printed as ``texts``, each in the
    style of its code (None: unstyled), as Line.from_row makes it (runs of
    one style merged)."""
    if codes is None:
        text = "".join(texts)
        return Line(((text, DEFAULT),), text) if text else EMPTY_LINE
    runs: list[tuple[str, Style]] = []
    last = ""
    for text, code in zip(texts, codes, strict=True):
        if text:
            if code == last:
                runs[-1] = (runs[-1][0] + text, runs[-1][1])
            else:
                runs.append((text, palette[ord(code)]))
                last = code
    return Line(tuple(runs), "".join(texts)) if runs else EMPTY_LINE


def styled_lines(m: LinesModel, lines: list[str]) -> list[Line]:
    """Lines of single cells with SGR inside, as they are committed from
    the rows print_with_sgr makes of them on blank rows; the model is left
    in the style they end with."""
    palette = m._palette.styles
    return [line_of(texts, codes, palette) for texts, codes in _parts(m, lines)]


def _parts(m: LinesModel, lines: list[str]) -> list[Parts]:
    """Each line's texts between SGR sequences and the code of each, and
    the model left in the style the lines end with."""
    code = m._code or "\x00"
    sgr_runs = m._sgr_runs
    out: list[Parts] = []
    for line in lines:
        parts = SGR_SPLIT.split(line)
        if len(parts) == 1:
            out.append((parts, (code,)))
            continue
        sgrs = parts[1::2]
        codes = sgr_runs.get(code + "\x1b".join(sgrs)) or m._sgr_codes(code, sgrs)
        out.append((parts[::2], codes))
        code = codes[-1]
    m._set_code(code)
    return out
