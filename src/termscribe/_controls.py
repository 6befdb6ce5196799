"""C0/C1 controls and escape sequences, shared by the lines and screen models.

``Controls`` is the part of a Performer that means the same in both models;
each model supplies the primitives (index, reverse index, tab stops, saved
cursor, reset, alignment test) over its own screen. Decisions (xterm):

* LF, VT and FF are line feeds; they also return to column 0 (convertEol)
  under the ``crlf`` line feed policy (``lf_returns``).
* BS moves left, never past column 0, never erasing.
* IND (U+0084) and RI (U+008D) end a pending wrap first; NEL (U+0085) is
  CR + LF; HTS (U+0088) sets a tab stop. Their 7-bit forms (ESC D, ESC M,
  ESC E, ESC H) reach ``execute`` as these C1 controls (see ``_parser``).
* SO/SI and LS2/LS3 invoke G1/G0/G2/G3; ``ESC ( 0`` (and ``) * +``) designate
  DEC line drawing, any other final ASCII.
* Every other control does nothing visible.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ._style import DEFAULT, Style
from ._syntax import ParsedParams

if TYPE_CHECKING:
    from ._cursor import Params

__all__ = [
    "C1_ACTIONS",
    "CONTROL_ACTIONS",
    "ESCAPE_ACTIONS",
    "INERT_C1",
    "Controls",
    "SavedCursor",
]

#: What each C0 and C1 control means in the lines and screen models: the
#: Controls method that does it, which a model supplies or overrides (the
#: strip model's meanings are in ``_lines._strip``). The one table of their
#: meanings: ``execute`` dispatches by it, and the C1 controls it does not
#: name are inert (below). Each C1 control's 7-bit form (ESC D...) means
#: the same (see ``_parser``).
CONTROL_ACTIONS = {
    "\x08": "_backspace",  # BS
    "\t": "_horizontal_tab",  # HT
    "\n": "_line_feed",  # LF
    "\x0b": "_line_feed",  # VT: as LF (xterm)
    "\x0c": "_line_feed",  # FF: as LF (xterm)
    "\r": "_carriage_return",  # CR
    "\x0e": "_shift_out",  # SO: G1 into GL
    "\x0f": "_shift_in",  # SI: G0 into GL
    "\x84": "_explicit_index",  # IND
    "\x85": "_next_line",  # NEL
    "\x88": "_set_tab",  # HTS
    "\x8d": "_explicit_reverse_index",  # RI
}
#: The C1 controls of CONTROL_ACTIONS.
C1_ACTIONS = {control: name for control, name in CONTROL_ACTIONS.items() if control >= "\x80"}
#: What each escape sequence without intermediates means in the lines and
#: screen models (as CONTROL_ACTIONS); with intermediates, ``( ) * +``
#: designate G0-G3 (``0`` DEC line drawing, any other final ASCII) and
#: ``# 8`` is DECALN (``esc_dispatch``).
ESCAPE_ACTIONS = {
    "7": "_save_cursor",  # DECSC
    "8": "_restore_cursor",  # DECRC
    "c": "_reset",  # RIS
    "n": "_locking_shift_2",  # LS2: G2 into GL
    "o": "_locking_shift_3",  # LS3: G3 into GL
}
# The C1 controls that start (or end) a sequence or string: syntax, the
# parser's, never executed.
_INTRODUCERS = "\x90\x98\x9b\x9c\x9d\x9e\x9f"
#: Every other C1 control executed in GROUND: it does nothing but end what
#: REP repeats, in every model.
INERT_C1 = "".join(
    chr(c) for c in range(0x80, 0xA0) if chr(c) not in C1_ACTIONS and chr(c) not in _INTRODUCERS
)


class SavedCursor:
    """Cursor state saved by DECSC / mode 1049."""

    __slots__ = ("charsets", "gl", "origin", "style", "x", "y")

    def __init__(
        self, x: int, y: int, style: Style, charsets: list[bool], gl: int, origin: bool
    ) -> None:
        self.x = x
        self.y = y
        self.style = style
        self.charsets = list(charsets)
        self.gl = gl
        self.origin = origin


class Controls:
    x: int
    params: ParsedParams
    style: Style
    autowrap: bool
    origin: bool
    insert: bool
    _last: str
    _charsets: list[bool]
    _gl: int
    _translate: bool
    #: Whether LF, VT and FF also return to column 0: the ``crlf`` line feed
    #: policy (a log from a pipe); False for ``lf`` (a PTY stream), where
    #: they only move down. Set by the Transcript (see its ``newline``).
    lf_returns = True

    def _reset_modes(self) -> None:
        """Style, autowrap, origin and insert modes and character sets as at
        power-on (RIS, DECSTR)."""
        self.style = DEFAULT
        self.autowrap = True
        self.origin = False
        self.insert = False
        self._charsets = [False] * 4  # G0-G3: DEC line drawing?
        self._gl = 0  # which of them is invoked into GL (SO/SI, LS2/LS3)
        self._translate = False

    @property
    def columns(self) -> int:
        raise NotImplementedError

    def _index(self) -> None:
        raise NotImplementedError

    def _end_pending_wrap(self) -> None:
        """A cursor just past the last column back onto it."""
        raise NotImplementedError

    def _explicit_index(self) -> None:
        """IND: an index that first ends a pending wrap."""
        raise NotImplementedError

    def _explicit_reverse_index(self) -> None:
        """RI: a reverse index that first ends a pending wrap."""
        raise NotImplementedError

    def _next_line(self) -> None:
        """NEL: the first column of the next line."""
        self.x = 0
        self._index()

    def _tab(self, count: int) -> None:
        raise NotImplementedError

    def _set_tab(self) -> None:
        raise NotImplementedError

    def _save_cursor(self) -> None:
        raise NotImplementedError

    def _restore_cursor(self) -> None:
        raise NotImplementedError

    def _reset(self) -> None:
        raise NotImplementedError

    def _alignment_test(self) -> None:
        raise NotImplementedError

    def _shift(self, gl: int) -> None:
        """Invoke G``gl`` into GL."""
        self._gl = gl
        self._translate = self._charsets[gl]

    # -- what each control does (CONTROL_ACTIONS, ESCAPE_ACTIONS) -----------

    def _line_feed(self) -> None:
        if self.lf_returns:
            self.x = 0
        else:
            self._end_pending_wrap()
        self._index()

    def _carriage_return(self) -> None:
        self.x = 0

    def _backspace(self) -> None:
        x = min(self.x, self.columns - 1)
        self.x = x - 1 if x > 0 else 0

    def _horizontal_tab(self) -> None:
        self._tab(1)

    def _shift_out(self) -> None:
        self._shift(1)

    def _shift_in(self) -> None:
        self._shift(0)

    def _locking_shift_2(self) -> None:
        self._shift(2)

    def _locking_shift_3(self) -> None:
        self._shift(3)

    # The tables as functions, for each class (so that overrides count).
    _control_functions: ClassVar[Mapping[str, Callable[[Controls], None]]] = {}
    _escape_functions: ClassVar[Mapping[str, Callable[[Controls], None]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._control_functions = {c: getattr(cls, name) for c, name in CONTROL_ACTIONS.items()}
        cls._escape_functions = {f: getattr(cls, name) for f, name in ESCAPE_ACTIONS.items()}

    def execute(self, control: str) -> None:
        self._last = ""
        action = self._control_functions.get(control)
        if action is not None:
            action(self)

    # -- control sequences --------------------------------------------------

    #: What a control sequence does, by final, with no private marker or
    #: intermediates (SGR aside): each model's table (``_lines._csi``,
    #: ``_screen._model``).
    csi_handlers: ClassVar[Mapping[str, Callable[[Any, Params, str], None]]] = {}
    #: By (intermediate, final), with no private marker (DECSTR aside).
    intermediate_handlers: ClassVar[
        Mapping[tuple[str, str], Callable[[Any, Params, str], None]]
    ] = {}
    #: By final, with the private marker ``?`` (DECSET, DECRST...).
    private_handlers: ClassVar[Mapping[str, Callable[[Any, Params], None]]] = {}

    def _select_graphic_rendition(self, params: str) -> None:
        """SGR with these raw parameters."""
        raise NotImplementedError

    def _soft_reset(self) -> None:
        """DECSTR."""
        raise NotImplementedError

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        """A control sequence, by the model's tables. REP repeats what was
        printed last before it; every other sequence ends that."""
        if final == "m":
            if not private and not intermediates:
                self._select_graphic_rendition(params)
            return
        last = self._last
        self._last = ""
        if intermediates:
            if private:
                return
            if intermediates == "!" and final == "p":
                self._soft_reset()
                return
            edit = self.intermediate_handlers.get((intermediates, final))
            if edit is not None:
                edit(self, self.params[params], last)
            return
        if private:
            if private == "?":
                mode = self.private_handlers.get(final)
                if mode is not None:
                    mode(self, self.params[params])
            return
        handler = self.csi_handlers.get(final)
        if handler is not None:
            handler(self, self.params[params], last)

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        self._last = ""
        if not intermediates:
            action = self._escape_functions.get(final)
            if action is not None:
                action(self)
        elif intermediates in ("(", ")", "*", "+"):
            self._charsets["()*+".index(intermediates)] = final == "0"
            self._translate = self._charsets[self._gl]
        elif intermediates == "#" and final == "8":
            self._alignment_test()
