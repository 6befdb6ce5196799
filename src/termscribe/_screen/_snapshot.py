"""The last alternate-screen frame, as a marked block after a transcript.

Full-screen programs (vim, less, htop) draw on the alternate screen and leave
it when they quit, so neither a ``lines`` transcript nor the final screen
shows what they displayed. With ``alt_screen="snapshot"`` the frame the
alternate screen showed when it was last left (or shows now, if it is still
active at the end in ``lines`` mode) is appended as a block::

    [termscribe: alternate screen, last frame]
    ...its rows, each right-trimmed; blank rows at the bottom left out...
    [termscribe: end of alternate screen]

:class:`AltScreenSnapshot` adds this to a :class:`LinesModel` from the
outside: it forwards every parser event and, when one makes the model leave
the alternate screen (mode 47/1047/1049 reset, or RIS), keeps the rows the
alternate screen had just before. It relies only on the model's public
``alternate`` and ``screen_rows()``.
"""

from __future__ import annotations

from .._committed import CommittedLines
from .._lines import LinesModel
from .._performer import Performer, replay
from .._rows import EMPTY_LINE, SEAL_BRACKET, Line, Row, cap_markers, omission_marker, shown
from .._style import DEFAULT
from ._cells import trim_rows

__all__ = ["ALT_BEGIN", "ALT_END", "AltScreenSnapshot", "alt_block", "frame_lines"]

ALT_BEGIN = "[termscribe: alternate screen, last frame]"
ALT_END = "[termscribe: end of alternate screen]"


def alt_block(frame: list[Line]) -> list[Line]:
    """A frame between its two marker lines."""
    begin, end = (SEAL_BRACKET + marker[1:] for marker in (ALT_BEGIN, ALT_END))  # sealed
    return [Line(((begin, DEFAULT),)), *frame, Line(((end, DEFAULT),))]


def frame_lines(rows: list[Row]) -> list[Line]:
    """Rows of a lines-model screen as plain lines, one per row (wrapped rows
    are not joined: this is a picture of the screen), right-trimmed of spaces
    like the ``screen`` mode, blank rows at the bottom left out.

    Only the rows' text is used (``Row.cells``): their styles are the lines
    model's internal representation, so the block is unstyled.
    """
    return trim_rows([_row_line(row) for row in rows])


def _row_line(row: Row) -> Line:
    text = shown("".join(row.cells)).rstrip(" ")  # markers written (see _rows)
    if not text:
        return EMPTY_LINE
    runs, dropped = cap_markers([(text, DEFAULT)])
    if dropped:
        runs.append((" " + omission_marker(dropped), DEFAULT))
    return Line(tuple(runs))


class AltScreenSnapshot(Performer):
    """A :class:`LinesModel` whose transcript ends with the last frame of
    its alternate screen (see the module docstring)."""

    def __init__(self, model: LinesModel) -> None:
        self.model = model
        # The alternate screen's rows when it was last left. A shallow copy
        # of the row list: the rows themselves are only changed again if the
        # alternate screen is re-entered, and then this frame is replaced
        # when it is left, or not used when the stream ends there.
        self._frame: list[Row] | None = None

    @property
    def alternate(self) -> bool:
        return self.model.alternate

    def print(self, text: str) -> None:
        self.model.print(text)

    def execute(self, control: str) -> None:
        self.model.execute(control)

    def batch(self, parts: list[str]) -> None:
        """The model executes a batch in which no item can leave the
        alternate screen; one with a DEC private mode reset or RIS is
        replayed here, to see each."""
        items = parts[1::2]
        if any(item[-1] == "l" or item == "\x1bc" for item in items):
            replay(self, parts)
        else:
            self.model.batch(parts)

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        model = self.model
        if final == "l" and private == "?" and model.alternate:
            rows = model.screen_rows()
            model.csi_dispatch(private, params, intermediates, final)
            if not model.alternate:
                self._frame = list(rows)
        else:
            model.csi_dispatch(private, params, intermediates, final)

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        model = self.model
        if final == "c" and not intermediates and model.alternate:
            rows = model.screen_rows()
            model.esc_dispatch(intermediates, final)
            self._frame = list(rows)
        else:
            model.esc_dispatch(intermediates, final)

    def osc_dispatch(self, payload: str) -> None:
        self.model.osc_dispatch(payload)

    def dcs_dispatch(
        self, private: str, params: str, intermediates: str, final: str, payload: str
    ) -> None:
        self.model.dcs_dispatch(private, params, intermediates, final, payload)

    def take_committed(self) -> list[Line]:
        return self.model.take_committed()

    @property
    def committed(self) -> CommittedLines:
        return self.model.committed

    def lines(self) -> list[Line]:
        """The model's transcript, then the alternate-screen block if the
        alternate screen was used."""
        return self.model.lines() + self._block()

    def window_lines(self) -> list[Line]:
        """The model's window, then the alternate-screen block."""
        return self.model.window_lines() + self._block()

    def _block(self) -> list[Line]:
        model = self.model
        rows = model.screen_rows() if model.alternate else self._frame
        return [] if rows is None else alt_block(frame_lines(rows))
