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

from .._controls import INERT_C1
from .._cursor import arg
from .._rows import BLANK, MAX_LINE_CELLS, Row
from ._csi import TAB_WIDTH
from ._model import LinesModel

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
        pending (see LinesModel._commit)."""
        self.x = 0
        rows = self._rows
        row = rows[0]
        rows[0] = Row()
        self._commit_row(row)

    def _scroll_rows(self, new: list[Row]) -> None:
        """LF's bulk form (see LinesModel._scroll_lines) here: each of the
        ``new`` rows, printed in turn, ends its line as ``_newline`` ends
        it (committed, a blank row in its place), at once."""
        self._commit_rows(new, None)
        self._rows[0] = Row()

    def _carriage_returns(self, parts: list[str], start: int) -> int:
        """No text after a CR is printed over here (CR breaks the line):
        the text after this one is printed as the batch prints it."""
        self._print_text(parts[start])
        return start

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
