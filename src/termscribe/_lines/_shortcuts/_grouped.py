"""Grouped parser events of the ``lines`` model, done at once.

The parser hands over whole lines of text after a line end (``LINES``,
``LINES_WITH_SEQUENCES``) as one run each (``Performer.run``); by default
a Performer makes the calls one by one. Here the lines model does the
same work without them: the result is identical to the events one by
one, only faster (when each is taken, and its test: see the package
docstring). Text redrawn after CRs is in ``_overwrites``.

* Whole lines with REP and EL sequences, TABs and BSs in them (in an
  unbounded row): each overstrike (``_\\bx``) becomes the character printed
  last, each REP the character before it repeated, and the lines
  are done as whole lines, EL erasing what follows the cursor and TAB
  moving it to the next tab stop. On the fresh rows at the bottom EL erases
  nothing, and TAB (at the default tab stops, in the default style) leaves
  blank cells before the text that follows.
* Runs of control sequences and C1 controls, each followed by text: see
  ``_sequences``.
* Whole lines: each is printed and ended without the parser's dispatch.
  Once the cursor is on the bottom row, lines of single cells (or of
  single and wide characters, with up to two marks joined to each) scroll
  off as they are: the lines committed are made from their text (and
  SGR), and rows are made only for the lines still in the window.
"""

from __future__ import annotations

import re
from operator import mul
from typing import cast

from ..._cursor import arg
from ..._grammar import (
    ERASE,
    OVERSTRUCK,
    REP,
    sgr_split,
    without_sgr,
)
from ..._layouts import line_layout, line_layouts, one_run
from ..._performer import Performer
from ..._rows import BLANK, MAX_LINE_CELLS, Line, Row
from ..._syntax import parse_params
from ..._unicode import is_cell_run, is_simple_run, marker, with_markers
from .._csi import MAX_REPEAT, TAB_WIDTH
from .._host import LinesHost, Parts

__all__ = [
    "Parts",
    "blanks_as_spaces",
    "cells_of",
    "expand_repeats",
    "expand_tabs",
    "has_erasures",
    "overstrikes_at_once",
    "print_text",
    "sequence_lines",
    "single_cells",
    "split_lines",
    "styled_parts",
    "tabs_at_once",
    "text_lines",
    "without_erasures",
]


def single_cells(lines: list[str], run: str) -> bool:
    """Whether every line is single cells that fit in a row (SGR aside;
    BLANK, which expand_tabs puts for the cells a TAB skips, too); ``run``
    holds the code points of the lines (and line ends or CRs): if it is
    ASCII, so are they, without joining them."""
    if not run.isascii():
        text = "".join(lines)
        if "\x1b" in text:
            text = without_sgr(text)
        if BLANK in text:
            text = text.replace(BLANK, "")
        if not is_simple_run(text):
            return False
    return max(map(len, lines)) <= MAX_LINE_CELLS


def _performer(m: LinesHost) -> Performer:
    """The model as the Performer it is, for the default of a grouped
    event (the calls one by one)."""
    return cast(Performer, m)


def print_text(m: LinesHost, text: str) -> None:
    """Text with SGR sequences in it, or without, or none."""
    if "\x1b" in text:
        m.print_with_sgr(text)
    elif text:
        m.print(text)


def cells_of(lines: list[str], run: str) -> tuple[list[str], str] | None:
    """``lines`` and ``run`` (see single_cells) if every line is single
    cells that fit in a row; else the same with the code points
    with_markers replaces replaced, if that makes them so (bidi controls
    often come in every line); else None."""
    if single_cells(lines, run):
        return lines, run
    if run.isascii():
        return None
    text = "\n".join(lines)
    marked = with_markers(text)
    if marked is text:
        return None
    lines = marked.split("\n")
    return (lines, marked) if single_cells(lines, marked) else None


# A REP sequence and the character before it, which it repeats: in the
# lines of a LINES_WITH_SEQUENCES run, every REP comes right after a printable
# ASCII character (never after another sequence, whose final is ASCII too).
_REPEAT = re.compile(r"([\x20-\x7e])\x1b\[([0-9]*)b")
# EL erasing to the end of the line, and TAB, in the lines of
# LINES_WITH_SEQUENCES.
_CONTROLS = re.compile(f"({ERASE.pattern}|\t)")
# TABs at the end of a line: they leave no cell written.
_TRAILING_TABS = re.compile(r"(?<!\t)\t++(?=\n|\Z)")


def _copies(count: str) -> int:
    """How many times a REP with parameter ``count`` and the character
    before it print that character in an unbounded row."""
    return 1 + min(arg(parse_params(count), 0, 1), MAX_REPEAT)


def expand_repeats(run: str) -> str:
    """The lines of a LINES_WITH_SEQUENCES run with each REP replaced by what it
    prints in an unbounded row: the character before it, repeated (REP
    keeps the current style, as that character has it)."""
    parts = _REPEAT.split(run)
    counts = parts[2::3]
    parts[1::3] = map(mul, parts[1::3], map(_copies, counts))
    parts[2::3] = [""] * len(counts)
    return "".join(parts)


def split_lines(m: LinesHost, run: str) -> tuple[list[str], str]:
    """The lines of a LINES run (without line ends) as the model
    prints them, and the run they come from, which holds the same code
    points (for single_cells). Unstyled, SGR sequences are gone (they change
    nothing); CRs before LF are gone (they do nothing here that LF does
    not do too)."""
    if m._code is None and "\x1b" in run:
        run = without_sgr(run)
    if "\r" in run:
        run = run.replace("\r", "")
    lines = run.split("\n")
    lines.pop()
    return lines, run


def has_erasures(text: str) -> bool:
    """Whether EL sequences are in (lines of) a LINES_WITH_SEQUENCES run."""
    return "K" in text and ERASE.search(text) is not None


def without_erasures(text: str) -> str:
    """``text`` without its EL sequences (see has_erasures)."""
    return text.replace("\x1b[K", "").replace("\x1b[0K", "")


def expand_tabs(lines: list[str]) -> tuple[list[str], str]:
    """Lines of single cells with each TAB replaced by the blank cells up
    to the next default tab stop (every TAB_WIDTH columns), none at the end
    of a line (a TAB there moves the cursor only), and the run they make."""
    run = "\n".join(lines)
    if "\t\n" in run or run[-1:] == "\t":
        run = _TRAILING_TABS.sub("", run)
    if " " in run:  # kept apart from the spaces expandtabs() puts in
        run = run.replace(" ", "\x02")
    run = run.expandtabs(TAB_WIDTH).replace(" ", BLANK)
    if "\x02" in run:
        run = run.replace("\x02", " ")
    return run.split("\n"), run


def blanks_as_spaces(texts: list[str]) -> list[str]:
    """Texts of cells (blank cells as BLANK, none at the end) as their
    lines show them (blank cells as spaces), as Line.from_row makes them."""
    text = "\n".join(texts)
    return text.replace(BLANK, " ").split("\n") if BLANK in text else texts


def tabs_at_once(m: LinesHost, run: str) -> bool:
    """Whether the TABs of lines (``run``: see split_lines) printed on
    fresh rows are the blank cells expand_tabs makes: code points that are
    one cell each, stored as they are (expandtabs() counts code points as
    columns), no escape sequence, the default tab stops, no line drawing."""
    return (
        "\x1b" not in run
        and m._screen.tabs is None
        and not m._translate
        and (run.isascii() or is_simple_run(run.replace("\t", "").replace("\n", "")))
    )


def overstrikes_at_once(m: LinesHost, run: str) -> bool:
    """Whether the overstrikes in lines of a LINES_WITH_SEQUENCES run (in an
    unbounded row) can be replaced by the character printed last: each BS
    goes back one cell, unless the character before it took the last one
    (BS then goes back from there, as xterm does); and not in insert mode,
    where the character after the BS goes before the one it was over. A
    TAB or REP may reach that cell; otherwise lines short enough cannot,
    even if each of their code points took the most cells one can (a
    marker such as ``<U+10FFFF>``)."""
    return (
        not m.insert
        and "\t" not in run
        and REP.search(run) is None
        and max(map(len, run.split("\n"))) * len(marker("\U0010ffff")) < MAX_LINE_CELLS
    )


def sequence_lines(m: LinesHost, run: str) -> tuple[list[str], str]:
    """As split_lines, for a LINES_WITH_SEQUENCES run in an unbounded row (with
    overstrikes only if overstrikes_at_once): each overstrike becomes the
    character printed last; in each line, every REP becomes what it prints
    (see expand_repeats; equal lines are expanded once and shared), and the
    run comes without its REP sequences (the same code points as the
    lines). EL sequences stay."""
    if "\x08" in run:
        run = OVERSTRUCK.sub("", run)
    lines, run = split_lines(m, run)
    # Each REP after a character is a REP: look from the first one on (a
    # search for _REPEAT, which starts with a character, tries every one).
    first = REP.search(run)
    if first is None or _REPEAT.search(run, max(first.start() - 1, 0)) is None:
        return lines, run
    done: dict[str, str] = {}
    expanded = []
    for line in lines:
        text = done.get(line)
        if text is None:
            text = done[line] = expand_repeats(line) if "\x1b" in line else line
        expanded.append(text)
    return expanded, REP.sub("", run)


def text_lines(m: LinesHost, lines: list[str], run: str) -> None:
    """Whole lines of text (see split_lines). Each is printed and ended
    here without the parser's dispatch; once the cursor is on the bottom
    row of the window, lines of single cells are done all at once (see
    _bottom_lines)."""
    screen = m._screen
    if (
        screen is m._normal
        and not screen.top
        and screen.bottom == m.height - 1
        and m.width is None
        and not m.insert
        and not m._translate
    ):
        start = 0
        while start < len(lines) and m.y != screen.bottom:
            _text_line(m, lines[start])
            start += 1
        if start < len(lines) and not _bottom_lines(m, lines[start:], run):
            for line in lines[start:]:
                _text_line(m, line)
        return
    for line in lines:
        _text_line(m, line)


def _text_line(m: LinesHost, line: str) -> None:
    """One line of a LINES run, without its LF."""
    if "\t" in line or has_erasures(line):
        _line_with_controls(m, line)
    elif "\x1b" in line:
        m.print_with_sgr(line)
    elif line:
        m.print(line)
    m._last = ""
    m.x = 0
    m._index()


def _line_with_controls(m: LinesHost, line: str) -> None:
    """The text of a line with EL sequences or TABs in it, and each."""
    parts = _CONTROLS.split(line)
    print_text(m, parts[0])
    for index in range(1, len(parts), 2):
        if parts[index] == "\t":
            m.execute("\t")
        else:
            m.csi_dispatch("", "", "", "K")
        print_text(m, parts[index + 1])


def _bottom_lines(m: LinesHost, lines: list[str], run: str) -> bool:
    """Lines (each ended by LF) printed from the bottom row of the
    window: the first ends the cursor row, the others scroll the window
    up, and only the rows still in the window are made; the lines
    scrolled off are committed as they are. False (having done nothing)
    unless every line is single cells, or single and wide characters
    (with marks joined to them), that fit in a row."""
    fresh = not (m._rows[m.y].text or m._rows[m.y].omitted)
    if has_erasures(run):
        # EL at the end of what was printed on a fresh row erases nothing.
        if not fresh:
            return False
        run = without_erasures("\n".join(lines))
        lines = run.split("\n")
    tabs = "\t" in run
    if tabs:
        # The cells a TAB skips get the default style.
        if not fresh or m._code not in (None, "\x00") or not tabs_at_once(m, run):
            return False
        lines, run = expand_tabs(lines)
    cells = cells_of(lines, run)
    wide = marked = False
    if cells is not None:
        lines, run = cells
    # Else wide characters, and maybe marks joined to them: lines are
    # committed as printed (they fit in a row if twice as long would); rows
    # hold each wide character with WIDE_TAIL after it, and marks are
    # printed onto the rows left in the window.
    elif run.isascii() or max(map(len, lines)) * 2 > MAX_LINE_CELLS:
        return False
    elif is_cell_run(run):
        wide = True
    elif is_cell_run(run, marks=True):
        marked = True
    else:
        return False
    first = lines[0]
    if m.x + len(first) * (1 if cells else 2) > MAX_LINE_CELLS:
        return False
    rows = m._screen.rows
    if fresh and not m.x and not rows[-1].continued:
        # The first line is printed onto the cursor row, which is blank,
        # and scrolls off as the others do: the row is made like theirs.
        rest = lines
        m._last = ""
    else:
        _text_line(m, first)
        rest = lines[1:]
        if not rest:
            return True
    old = rows[:-1]  # above the cursor row, which is blank
    count = len(rest)
    scrolled = min(count, len(old))
    m._commit_rows(old[:scrolled], old[scrolled] if scrolled < len(old) else None)
    done = rest[: count - scrolled]
    kept = rest[count - scrolled :]
    sgr = "\x1b" in run and "\x1b" in "".join(rest)  # (none left unstyled)
    if done and sgr:
        commit_styled(m, done)
    elif done:
        m._commit_texts(blanks_as_spaces(done) if tabs else done)
    if marked:
        # The lines left in the window printed one by one onto fresh rows,
        # from where the first of them goes, down to the cursor row.
        stay = old[scrolled:]
        rows[:] = [*stay, *(Row() for _ in range(scrolled + 1))]
        m.y = len(stay)
        for line in kept:
            _text_line(m, line)
        return True
    if wide:
        kept = [m.cell_table.wide_cells(text) for text in kept]
    if sgr:
        made = [
            Row("".join(texts), "".join(map(mul, codes or (), map(len, texts))))
            for texts, codes in styled_parts(m, kept)
        ]
    elif m._code is None:
        made = list(map(Row, kept))
    else:
        code = m._code
        made = [Row(text, code * len(text)) for text in kept]
    rows[:] = [*old[scrolled:], *made, Row()]
    return True


def commit_styled(m: LinesHost, lines: list[str]) -> None:
    """Commit lines of single cells with SGR sequences inside as
    print_with_sgr prints them on blank rows (styled_parts), at once, and
    leave the model in the style they end with. The lines are cut at their
    SGR sequences together, and each text between two is cut into lines:
    a line with no SGR sequence in it costs a slice. The codes of a line's
    parts come from its SGR sequences all at once (_part_codes, which
    remembers them: logs repeat a line's colours line after line)."""
    parts = sgr_split("\n".join(lines))
    code = m._code or "\x00"  # where the line being cut starts
    part_codes = m._part_codes
    texts: list[str] = []
    layouts: list[str] = []
    line_texts: list[str] = []  # the line being cut: its texts and SGRs
    line_sgrs: list[str] = []
    last = len(parts) - 1
    for index in range(0, len(parts), 2):
        text = parts[index]
        if "\n" in text:
            pieces = text.split("\n")
            line_texts.append(pieces[0])
            codes = part_codes(code, line_sgrs)
            code = codes[-1]
            done = "".join(line_texts)
            texts.append(done)
            layouts.append(line_layout(done, line_texts, codes))
            whole = pieces[1:-1]  # lines with no SGR sequence in them
            if whole:
                texts += whole
                layouts += line_layouts(whole, one_run(code))
            line_texts = [pieces[-1]]
            line_sgrs = []
        else:
            line_texts.append(text)
        if index < last:
            line_sgrs.append(parts[index + 1])
    codes = part_codes(code, line_sgrs)
    code = codes[-1]
    done = "".join(line_texts)
    texts.append(done)
    layouts.append(line_layout(done, line_texts, codes))
    if Line.needs_seal("\n".join(texts)):
        # Sealing changes the text: the lines go through Line objects.
        m.committed.extend_parts(m._kept(styled_parts(m, lines)))
        return
    kept = m._kept(texts)
    m.committed.extend_layouts(kept, layouts[len(layouts) - len(kept) :])
    m._set_code(code)


def styled_parts(m: LinesHost, lines: list[str]) -> list[Parts]:
    """Lines of single cells with SGR inside, as the parts (texts between
    SGR sequences, and the palette code of each) of the rows print_with_sgr
    makes of them on blank rows; the model is left in the style the lines
    end with."""
    code = m._code or "\x00"
    part_codes = m._part_codes
    out: list[Parts] = []
    for line in lines:
        parts = sgr_split(line)
        if len(parts) == 1:
            out.append((parts, (code,)))
            continue
        codes = part_codes(code, parts[1::2])
        out.append((parts[::2], codes))
        code = codes[-1]
    m._set_code(code)
    return out
