"""Text redrawn after CRs, done at once by the ``lines`` model: on an
unbounded row only what stays visible is stored, for each column the last
text that reached it (OVERWRITE_RUN, ``overwrite_run``), and lines of such
text are made of what stays visible of each, then done as whole lines
(OVERWRITTEN_LINES, ``overwritten_lines``). When each is taken, and its
test: see the package docstring."""

from __future__ import annotations

from operator import mul

from ..._accel import speedups
from ..._grammar import OVERWRITE_CHAS, OVERWRITE_ELS, SGR_SPLIT, sgr_split, without_sgr
from ..._performer import OVERWRITE_RUN, OVERWRITTEN_LINES, overwrite_unit, replay
from ..._rows import MAX_LINE_CELLS
from ..._unicode import is_simple_run, is_single_run
from .._host import LinesHost
from ._grouped import _performer, print_text, text_lines

__all__ = [
    "crs_for_chas",
    "overlaid_lines",
    "overlaid_lines_by_python",
    "overlay",
    "overwrite_run",
    "overwritten_lines",
]


def overwrite_run(m: LinesHost, run: str) -> None:
    """CRs each followed by text (an OVERWRITE_RUN, see _performer): in an
    unbounded row, single cells with no insert mode or line drawing, only
    what stays visible is written, at once: for each column, the last text
    that reached it, in its style. An EL sequence erases what came before
    it: only the SGR sequences before the CR before the last one count, the
    text after that CR is printed one by one, then the rest at once."""
    if m.width is not None or m.insert or m._translate:
        replay(_performer(m), OVERWRITE_RUN, run)
        return
    if "\x1b" in run:
        run = crs_for_chas(run)
        erased = max(map(run.rfind, OVERWRITE_ELS))
        if erased >= 0:
            start = run.rfind("\r", 0, erased)
            end = run.find("\r", erased)
            end = len(run) if end < 0 else end
            # What the texts before print is erased, but not the style
            # their SGR sequences leave.
            current = m._code
            if current is not None and (sgrs := SGR_SPLIT.findall(run, 0, start)):
                m._set_code(m._part_codes(current, sgrs)[-1])
            m.execute("\r")  # (the CHAs are CRs now)
            if erased == start + 1:  # (the usual case) EL right after the CR
                after = erased + (3 if run[erased + 2] == "K" else 4)
                m.csi_dispatch("", run[erased + 2 : after - 1], "", "K")
                print_text(m, run[after:end])
            else:
                overwrite_unit(_performer(m), run[start + 1 : end])
            run = run[end:]
            if not run:
                return
        if m._code is None and "\x1b" in run:
            run = without_sgr(run)  # they change nothing unstyled
    texts = run.split("\r")
    styled = "\x1b" in run
    if styled:
        texts, codes, code = _styled_texts(m, texts)
        cells = "".join(texts)
        simple = cells.isascii() or is_simple_run(cells)
    else:
        simple = run.isascii() or is_single_run(run)  # (texts are printable)
    if not simple:
        replay(_performer(m), OVERWRITE_RUN, run)
        return
    last = texts[-1]
    # What stays visible (for each column the last text that reached it),
    # and, styled, its codes likewise (each text has a code a cell).
    shown = overlay(texts)
    if len(shown) > MAX_LINE_CELLS:  # found here, not by single_cells: one pass
        replay(_performer(m), OVERWRITE_RUN, run)
        return
    if styled:
        m._put(0, shown, overlay(codes))
        m._set_code(code)
    else:
        current = m._code
        m._put(0, shown, None if current is None else current * len(shown))
    m.x = len(last)
    m._last = last[-1]


def overlay(texts: list[str]) -> str:
    """What stays visible of ``texts`` (single cells each) printed in turn
    from the same column of an unbounded row: the last, then the part of
    each earlier one that reaches past all printed after it."""
    last = texts[-1]
    covered = len(last)
    if covered >= max(map(len, texts)):  # (the usual case: bars keep their width)
        return last
    visible = [last]
    for text in reversed(texts):
        if len(text) > covered:
            visible.append(text[covered:])
            covered = len(text)
    return "".join(visible)


def overlaid_lines_by_python(run: str, lf_returns: bool) -> list[str] | None:
    """The lines of ``run`` (each ended by LF; what follows the last LF is
    not one), each as what stays visible of its texts separated by CRs
    (overlay); None if an LF comes with no CR right before it and
    ``lf_returns`` is false (it would not return to the first column)."""
    if not lf_returns and run.count("\n") != run.count("\r\n"):
        return None
    lines = run.split("\n")
    lines.pop()
    return [overlay(line.rstrip("\r").split("\r")) if "\r" in line else line for line in lines]


#: overlaid_lines_by_python, by one C pass over each line when the extension
#: is built (a test holds the two equal on generated input).
overlaid_lines = overlaid_lines_by_python if speedups is None else speedups.overlaid_lines


def overwritten_lines(m: LinesHost, run: str) -> None:
    """Lines of text redrawn after CRs (an OVERWRITTEN_LINES run): in an
    unbounded row, single cells with no insert mode or line drawing, and
    LFs that return to the first column (after a CR or by the policy),
    each line is what stays visible of its texts (overlay), drawn from the
    first column; the lines are then done as a LINES run's (text_lines)."""
    if (
        m.width is None
        and not m.insert
        and not m._translate
        and (m.x == 0 or run[0] == "\r")
        and (run.isascii() or is_single_run(run))
        and (lines := overlaid_lines(run, m.lf_returns)) is not None
        and max(map(len, lines)) <= MAX_LINE_CELLS
    ):
        text_lines(m, lines, "\n".join(lines))
        return
    replay(_performer(m), OVERWRITTEN_LINES, run)


def crs_for_chas(run: str) -> str:
    """An OVERWRITE_RUN with CRs for its CHA sequences to the first column:
    in the lines and strip models they do the same."""
    if "G" in run:
        for cha in OVERWRITE_CHAS:
            run = run.replace(cha, "\r")
    return run


def _styled_texts(m: LinesHost, texts: list[str]) -> tuple[list[str], list[str], str]:
    """Texts with SGR sequences in them (in a styled model): the cells each
    prints, their codes, and the code after the last, as print_with_sgr
    would print them in turn."""
    code = m._code or "\x00"
    cells = []
    codes = []
    for text in texts:
        if "\x1b" in text:
            parts = sgr_split(text)
            segments = parts[::2]
            part_codes = m._part_codes(code, parts[1::2])
            cells.append("".join(segments))
            codes.append("".join(map(mul, part_codes, map(len, segments))))
            code = part_codes[-1]
        else:
            cells.append(text)
            codes.append(code * len(text))
    return cells, codes, code
