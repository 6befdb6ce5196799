"""The ``strip`` interpreter: the audit view.

Nothing is ever overwritten: every character a program printed appears, in
the order it was printed, with every sequence removed. It shows what a
progress bar or a ``\\r`` overwrite hid.

Rules (each pinned by a test):

* LF, VT, FF, IND and NEL end the line.
* CR, cursor movements, erasures, insertions, deletions, scrolling and cursor
  restores *break* the line: the next printed character starts a new line
  (so ``\\r\\n`` is one line end, and ``50%\\r100%`` gives two lines).
* BS is dropped and the characters around it stay in order (``a\\bb`` gives
  ``ab``; man's ``_\\bx`` gives ``_x``): the audit view shows both.
* HT and CUF (cursor forward) become blank cells (spaces inside a line,
  nothing at its end), as they look on a fresh line: at most MAX_REACH of
  them each, the columns a movement may use in the ``lines`` model.
* The alternate screen is not special: what was printed there appears too.
* Styles and OSC 8 links are kept, so the styled renderers work on it.
* Sanitisation, wide and combining characters and line caps are those of the
  ``lines`` model, whose printing code this model reuses with an unbounded
  one-row window that always prints at the end of the row.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import add

from .._controls import INERT_C1
from .._cursor import arg
from .._grammar import ERASE, OVERWRITE_ELS, OVERWRITE_ERASES, without_sgr
from .._performer import LINES_WITH_SEQUENCES, OVERWRITE_RUN, OVERWRITTEN_LINES, replay
from .._rows import BLANK, MAX_LINE_CELLS, Row
from .._unicode import is_cell_run
from ._csi import COSTLY_REPEAT, TAB_WIDTH
from ._model import LinesModel
from ._shortcuts._grouped import (
    blanks_as_spaces,
    cells_of,
    expand_tabs,
    has_erasures,
    print_text,
    sequence_lines,
    single_cells,
    split_lines,
    styled_parts,
    tabs_at_once,
)
from ._shortcuts._overwrites import crs_for_chas
from ._shortcuts._sequences import sequence_parts, sequence_run

__all__ = ["StripModel"]

#: What each control does here: end the line ("\n"), break it ("\r") or
#: nothing (""): the one table of their meanings in this model (TAB, SO and
#: SI, which do more, are in ``execute``).
_CONTROL_EFFECTS = {
    **dict.fromkeys("\n\x0b\x0c\x84\x85", "\n"),  # LF, VT, FF, IND, NEL
    **dict.fromkeys("\r\x8d", "\r"),  # CR, RI
    "\x88": "",  # HTS
    **dict.fromkeys(INERT_C1, ""),
}
_BREAKING_CSI = frozenset("ABDEFGHJKLMPSTXZ`adefr@")


# Bodies of CSI sequences (see csi_fields) that break the line, one a line.
_BREAKING_BODY = rf"[0-9:;]*[{re.escape(''.join(sorted(_BREAKING_CSI)))}]"
_BREAKING_BODIES = re.compile(rf"(?:{_BREAKING_BODY}\n)*+{_BREAKING_BODY}")


# What an item of a sequence run does here (see _line_ends_at_once), by its
# C1 control (as _CONTROL_EFFECTS); _CSI for a control sequence, which
# _csi_effect tells.
_CSI = "csi"
_EFFECTS = {
    **{control: effect for control, effect in _CONTROL_EFFECTS.items() if control >= "\x80"},
    "\x1b": _CSI,
    "\x9b": _CSI,
}


def _csi_effect(fields: tuple[str, str, str, str]) -> str | None:
    """What a control sequence (its csi_fields) does here, as _EFFECTS, or
    None for more (SGR, REP, blank cells, modes...)."""
    private, _, intermediates, final = fields
    if private or intermediates or final in "CIbm":
        return None
    return "\r" if final in _BREAKING_CSI else ""


# Nothing but SGR sequences: what prints no character.
_SGR_ONLY = re.compile(r"(?:\x1b\[[0-9;:]*m)*")


def _broken_at_erasures(lines: list[str]) -> list[str]:
    """Lines (each on a fresh row) with EL sequences in them, each cut where
    an EL breaks it: before the next text printed after it, if the row
    has text by then (SGR sequences go where they come)."""
    out = []
    for line in lines:
        parts = ERASE.split(line)
        current = parts[0]
        row_has_text = _SGR_ONLY.fullmatch(current) is None
        for part in parts[1:]:  # each after an EL
            if _SGR_ONLY.fullmatch(part) is not None:
                current += part  # no text: the break waits
            elif row_has_text:
                out.append(current)
                current = part
            else:
                current += part
                row_has_text = True
        out.append(current)
    return out


class StripModel(LinesModel):
    """Interprets parser events as an append-only audit transcript."""

    def __init__(self, max_lines: int | None, *, styled: bool = True) -> None:
        super().__init__(None, 1, max_lines, styled=styled)
        self._break = False

    def print(self, text: str) -> None:
        if self._break:
            self._break = False
            if self._rows[0].text:
                self._newline()
        super().print(text)

    def _append_styled(self, parts: list[str]) -> bool:
        if self._break and any(parts[::2]):
            self._break = False
            if self._rows[0].text:
                self._newline()
        return super()._append_styled(parts)

    def _newline(self) -> None:
        """End the row: it is committed as a line, and a blank row takes its
        place, as _index does. The window here is one row of the normal
        screen, unbounded: a row never wraps, so no logical line is ever
        pending, and a LINES run makes no rows (see LinesModel._commit)."""
        self.x = 0
        rows = self._rows
        row = rows[0]
        rows[0] = Row()
        self._commit_row(row)

    def _spaces(self, count: int) -> None:
        if self._break:
            self._break = False
            if self._rows[0].text:
                self._newline()
        # At most the reach of a cursor movement in the lines model (see
        # _csi.MAX_REACH): CUF 65535 makes no row of 65 535 blanks.
        count = min(count, self.reach, max(0, MAX_LINE_CELLS - self.x))
        if count:
            self._print_cells(BLANK * count)

    # -- runs of events (Performer.run) --------------------------------------

    def run(self, kind: int, text: str) -> None:
        _RUNS[kind](self, text)

    def _line_ends_run(self, run: str) -> None:
        self._last = ""
        lines = run.count("\n")
        if lines:
            self._break = False
            self.x = 0
            self._index_many(lines)
        if run[-1] == "\r":
            self._break = True

    def _lines_run(self, run: str) -> None:
        self._whole_lines(*split_lines(self, run))

    def _lines_with_sequences_run(self, run: str) -> None:
        if "\x08" in run:  # BS does nothing here but forget the last character
            run = run.replace("\x08", "")  # and a character follows each
        if COSTLY_REPEAT.search(run) is not None:  # see repeat_cost
            replay(self, LINES_WITH_SEQUENCES, run)
            return
        lines, text = sequence_lines(self, run)
        if has_erasures(text):
            if "\t" in text:
                replay(self, LINES_WITH_SEQUENCES, run)
                return
            lines = _broken_at_erasures(lines)
            text = "\n".join(lines)  # a mark after a break joins nothing
        if "\t" in text:
            # A TAB prints blank cells in the current style here: at once
            # for lines of single cells that fit in a row, without line
            # drawing.
            expanded = None
            if tabs_at_once(self, text):
                expanded = expand_tabs(lines)
            if expanded is None or cells_of(*expanded) is None:
                replay(self, LINES_WITH_SEQUENCES, run)
                return
            lines, text = expanded
        self._whole_lines(lines, text)

    def _whole_lines(self, lines: list[str], run: str) -> None:
        """Each line ends the current one; lines of single cells, or of
        single and wide characters (with marks joined to them) that would
        fit in a row, are committed at once (``run``: see split_lines)."""
        cells = None if self._translate else cells_of(lines, run)
        if cells is not None:
            lines, run = cells
        elif (
            self._translate
            or run.isascii()
            or not (is_cell_run(run) or is_cell_run(run, marks=True))
            or max(map(len, lines)) * 2 > MAX_LINE_CELLS
        ):
            for line in lines:
                print_text(self, line)
                self.execute("\n")
            return
        sgr = "\x1b" in run
        first = lines[0]
        if sgr:
            self.print_with_sgr(first)
        elif first:
            self.print(first)
        self._last = ""
        self._break = False
        self._newline()
        if sgr:
            self.committed.extend_parts(self._kept(styled_parts(self, lines[1:])))
        else:
            self._commit_texts(blanks_as_spaces(lines[1:]) if BLANK in run else lines[1:])

    def _overwritten_lines_run(self, run: str) -> None:
        """Lines of text redrawn after CRs, from a fresh line: each text
        between two CRs or line ends is a line of its own, and a line with
        none an empty one, done as whole lines."""
        if self._rows[0].text or self._rows[0].omitted:
            replay(self, OVERWRITTEN_LINES, run)
            return
        lines = []
        for line in run.split("\n")[:-1]:
            texts = [text for text in line.split("\r") if text]
            lines.extend(texts or [""])
        self._whole_lines(lines, "\n".join(lines))

    def _overwrites_run(self, run: str) -> None:
        """Each text after a CR on a line of its own, the lines in between
        made at once when they are single cells. EL sequences break the line
        as CR does, so they change nothing here, but for one at the end."""
        erased = False
        if "\x1b" in run:
            run = crs_for_chas(run)
            erased = run.endswith(OVERWRITE_ELS)
            run = OVERWRITE_ERASES.sub("", run)
            if self._code is None:
                run = without_sgr(run)  # they change nothing unstyled
            if "\x1b" in run:  # SGR sequences, styled
                self._texts_after_breaks(run.split("\r")[1:])
                run = ""
        if run:
            self._overwrites(run)
        if erased:
            self._last = ""
            self._break = True

    def _texts_after_breaks(self, texts: list[str]) -> None:
        """Each text (with SGR sequences in it) after a break of the line."""
        print_with_sgr = self.print_with_sgr
        for text in texts:
            self._last = ""
            self._break = True
            print_with_sgr(text)

    def _overwrites(self, run: str) -> None:
        """CRs each followed by printable text (see _overwrites_run)."""
        texts = run.split("\r")[1:]
        if self._translate or not single_cells(texts, run):
            replay(self, OVERWRITE_RUN, run)
            return
        self._break = False
        if self._rows[0].text:
            self._newline()
        last = texts.pop()
        if texts:
            first = texts[0]
            LinesModel.print(self, first)
            self._newline()
            self._commit_texts(texts[1:])
        LinesModel.print(self, last)

    def _sequence_run(self, run: str) -> None:
        """When every item is a sequence that breaks the line, each text
        after one is on a line of its own: as after CRs, or (with SGR
        sequences in them) one by one. Runs of C1 line ends and breaks take
        _line_ends_at_once; the others go item by item."""
        parts = sequence_parts(run, self.styled)
        bodies = parts[2::3]
        if (
            len(parts) == 1  # nothing left but text, if any
            or parts[0]
            or None in bodies  # a C1 control
            or not _BREAKING_BODIES.fullmatch("\n".join(bodies))
        ):
            if not self._line_ends_at_once(parts):
                sequence_run(self, parts)
            return
        texts = [text for text in parts[3::3] if text]
        joined = "\r".join(texts)
        if "\x1b" in joined:  # SGR sequences in the texts
            self._texts_after_breaks(texts)
        elif texts:
            self._overwrites_run("\r" + joined)
        if not parts[-1]:  # the text of the last item
            self._last = ""
            self._break = True

    def _line_ends_at_once(self, parts: list[str]) -> bool:
        """A sequence run whose items only end the line, break it or do
        nothing here, with no SGR sequence in its texts (floods of C1
        controls): the lines between its first line end and its last,
        made at once. Returns False (having done nothing) otherwise."""
        effects = list(map(_EFFECTS.get, parts[1::3]))
        if _CSI in effects:
            effects = [
                _csi_effect(self.csi_bodies[body]) if effect is _CSI else effect
                for effect, body in zip(effects, parts[2::3], strict=True)
            ]
        if None in effects:
            return False
        texts = parts[3::3]
        stream = parts[0] + "".join(map(add, effects, texts))
        first = stream.find("\n")
        if first < 0 or "\x1b" in stream:
            return False
        last = stream.rfind("\n")
        self._texts_with_breaks(stream[:first])
        self.execute("\n")
        if last > first:
            lines = []
            for between in stream[first + 1 : last].split("\n"):
                lines.extend([text for text in between.split("\r") if text] or [""])
            self._whole_lines(lines, "\n".join(lines))
        self._texts_with_breaks(stream[last + 1 :])
        if not texts[-1]:  # the run ends with an item that acts
            self._last = ""
        return True

    def _texts_with_breaks(self, stream: str) -> None:
        """Texts, each after a break of the line (CR) but the first (what
        the last character printed was matters only at the end of the run:
        the caller sees to it)."""
        texts = stream.split("\r")
        if texts[0]:
            self.print(texts[0])
        for text in texts[1:]:
            self._break = True
            if text:
                self.print(text)

    def execute(self, control: str) -> None:
        self._last = ""
        effect = _CONTROL_EFFECTS.get(control)
        if effect == "\n":
            self._break = False
            self._newline()
        elif effect == "\r":
            self._break = True
        elif control == "\t":
            self._spaces(TAB_WIDTH - self.x % TAB_WIDTH)
        elif control in "\x0e\x0f":
            super().execute(control)

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        if private or intermediates:
            if final in "hl" and private == "?":
                return  # modes change nothing in an append-only view
            super().csi_dispatch(private, params, intermediates, final)
            return
        if final == "m" or final == "b":
            super().csi_dispatch(private, params, intermediates, final)
        elif final == "C" or final == "I":
            self._last = ""
            count = self._arg_of(params)
            if final == "I":
                count = TAB_WIDTH - self.x % TAB_WIDTH + TAB_WIDTH * (count - 1)
            self._spaces(count)
        elif final in _BREAKING_CSI:
            self._last = ""
            self._break = True
        else:
            self._last = ""

    def _arg_of(self, params: str) -> int:
        return arg(self.params[params], 0, 1)

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        self._last = ""
        if intermediates:
            if intermediates in ("(", ")", "*", "+"):
                super().esc_dispatch(intermediates, final)
        elif final in "8c":
            self._break = True
        elif final in "no":
            super().esc_dispatch(intermediates, final)


# What the model does with each kind of run (see Performer.run), by kind.
_RUNS: tuple[Callable[[StripModel, str], None], ...] = (
    StripModel.print_with_sgr,  # TEXT_WITH_SGR
    StripModel._line_ends_run,  # LINE_ENDS
    StripModel._overwrites_run,  # OVERWRITE_RUN
    StripModel._lines_run,  # LINES
    StripModel._lines_with_sequences_run,  # LINES_WITH_SEQUENCES
    StripModel._sequences_run,  # SEQUENCE_RUN
    StripModel._escape_run,  # ESCAPE_RUN
    StripModel._overwritten_lines_run,  # OVERWRITTEN_LINES
)
