"""The ``lines`` model with the ``lf`` line feed policy.

With ``Transcript(newline="lf")`` (or ``"auto"`` deciding ``lf``), LF, VT and
FF only move the cursor down, keeping its column, as in a terminal behind a
PTY whose program writes raw line feeds. :class:`LineFeedLines` is a
:class:`LinesModel` that does that when ``lf_returns`` is False, and is
exactly a LinesModel when it is True (the ``crlf`` policy).

The model's grouped paths (``text_lines``, ``lines_with_sequences``,
``execute_run``) return to column 0 at every line end; they are used as they
are for runs where every LF follows a CR (the usual PTY stream, where both
policies agree), and a run with a bare LF is taken control by control.
"""

from __future__ import annotations

from ._lines import LinesModel
from ._parser import Performer

__all__ = ["LineFeedLines"]

_LINE_FEEDS = ("\n", "\x0b", "\x0c")


def _bare_line_feed(run: str) -> bool:
    """Has ``run`` an LF that no CR comes right before?"""
    return run.count("\n") != run.count("\r\n")


class LineFeedLines(LinesModel):
    """A LinesModel whose LF, VT and FF keep the column unless
    ``lf_returns`` (see the module docstring)."""

    lf_returns = True

    def execute(self, control: str) -> None:
        if not self.lf_returns and control in _LINE_FEEDS:
            self._last = ""
            self._end_pending_wrap()
            self._index()
        else:
            super().execute(control)

    def execute_run(self, run: str) -> None:
        if self.lf_returns or not _bare_line_feed(run):
            super().execute_run(run)
        else:
            Performer.execute_run(self, run)

    def text_lines(self, run: str) -> None:
        if self.lf_returns or not _bare_line_feed(run):
            super().text_lines(run)
        else:
            Performer.text_lines(self, run)

    def lines_with_sequences(self, run: str) -> None:
        if self.lf_returns or not _bare_line_feed(run):
            super().lines_with_sequences(run)
        else:
            Performer.lines_with_sequences(self, run)
