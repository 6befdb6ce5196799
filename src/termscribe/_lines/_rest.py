"""Transcripts at rest: what reading one needs, without its interpreter.

A store of many terminals holds many transcripts that are idle: created and
never fed, or fed a little and then left. A live ``lines`` model costs
kilobytes whatever it holds (a window of rows, caches, a palette, a parser
and a decoder); at rest a transcript holds its committed lines and little
more (``Transcript.compact``).

``rest`` turns a ``LinesModel`` with its parser and decoder into a
``Resting``, which keeps:

* the committed lines, or only their counts while none is held (all were
  taken, or none committed yet): a new store with those counts reads the
  same;
* the palette, unless it holds only the default style, without what it
  makes again when asked (``StylePalette.compact``);
* the normal screen's rows down to its cursor row and its last non-blank
  row, the others being blank; its margins, saved cursor and tab stops if
  they are not a new screen's;
* as a flat tuple of names and values, each other attribute of the model
  that differs from a new model's, and the parser's state and the bytes the
  decoder holds back if they are not a new one's.

Caches are dropped: their content is a function of what they are asked
(the list is ``_repeat``'s, which compares states the same way). The model
gives what is kept (``LinesModel.window_at_rest`` and ``state_at_rest``)
and takes it back (``wake_from_rest``): the names of its fields stay in
the class.
``Resting.wake`` gives that state to a new model: equal to the one put to
rest by ``state_key``, with the same committed lines, parser state and
bytes held back. Reading a ``Resting`` makes no model.

A finished transcript is never fed again: ``Frozen`` holds its committed
lines and its window as lines, for a model of any mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._committed import CommittedLines
from .._decoder import Utf8Decoder
from .._parser import Parser
from .._rows import Line, Row, StylePalette
from .._style import DEFAULT, Style
from ._host import Screen, window_lines
from ._model import LinesModel
from ._repeat import UnknownState

__all__ = ["Frozen", "Resting", "rest"]

# The counts of a store that never held a line (immutable, so shared).
_NONE = (0, 0, 0)
# The styles of a palette that holds only the default one.
_DEFAULT_STYLES = (DEFAULT,)
_PARSER_SLOTS = tuple(name for name in Parser.__slots__ if name not in ("_perform", "_batch"))


class Frozen:
    """A finished transcript's committed lines and its window, as read."""

    __slots__ = ("_committed", "_window")

    def __init__(self, committed: CommittedLines, window: list[Line]) -> None:
        self._committed = _kept(committed)
        self._window = tuple(window)

    @property
    def committed(self) -> CommittedLines:
        return _store(self._committed, None, None)

    def window_lines(self) -> list[Line]:
        return list(self._window)

    def lines(self) -> list[Line]:
        return _lines(self.committed, self._window)

    def take_committed(self) -> list[Line]:
        return _take(self._committed)


class Resting:
    """A lines model, its parser and its decoder, at rest (see the module
    docstring). Readable as the model; ``wake`` once to feed it again."""

    __slots__ = (
        "_committed",
        "_held",
        "_omitted",
        "_palette",
        "_parsed",
        "_pending",
        "_rows",
        "_screen",
        "_state",
        "_y",
    )

    def __init__(
        self,
        committed: CommittedLines,
        palette: StylePalette,
        screen: Screen | None,
        rows: _Packed,
        y: int,
        pending: tuple[Row, ...],
        omitted: int,
        state: tuple[object, ...],
        parsed: tuple[object, ...],
        held: bytes,
    ) -> None:
        self._committed = kept = _kept(committed)
        # The committed store uses the palette itself; without it, the
        # styles make the palette again.
        self._palette: StylePalette | tuple[Style, ...] | None
        if isinstance(kept, CommittedLines):
            palette.compact()
            self._palette = palette
        else:
            self._palette = tuple(palette.styles) if len(palette.styles) > 1 else None
        self._screen = screen  # None: a new screen's margins
        self._rows = rows
        self._y = y
        self._pending = pending
        self._omitted = omitted
        self._state = state  # names and values, flat
        self._parsed = parsed  # the parser's slots, or () as a new parser's
        self._held = held  # bytes the decoder held back

    @property
    def clean(self) -> bool:
        """Whether the decoder holds nothing back: finishing then changes
        nothing (the parser's finish drops what it holds)."""
        return not self._held

    @property
    def committed(self) -> CommittedLines:
        return _store(self._committed, None, None)

    def window_lines(self) -> list[Line]:
        palette = self._palette
        if isinstance(palette, StylePalette):
            styles: Sequence[Style] = palette.styles
        else:
            styles = _DEFAULT_STYLES if palette is None else palette
        rows = _unpacked(self._rows)
        return window_lines(rows, self._y, self._pending, self._omitted, styles)

    def lines(self) -> list[Line]:
        return _lines(self.committed, self.window_lines())

    def take_committed(self) -> list[Line]:
        return _take(self._committed)

    def wake(self, model: LinesModel, *, one_by_one: bool) -> tuple[Parser, Utf8Decoder]:
        """Give ``model``, a new one with the options of the model put to
        rest, its state; return its parser and decoder (``one_by_one`` as
        Parser takes it). This Resting is not to be used again."""
        palette = self._palette
        if isinstance(palette, tuple):
            palette = StylePalette.of(palette)
        palette = model.wake_from_rest(
            palette,
            self._screen,
            _unpacked(self._rows),
            self._y,
            self._pending,
            self._omitted,
            self._state,
        )
        model.committed = _store(self._committed, model.max_lines, palette)
        parser = Parser(model, one_by_one=one_by_one)
        if self._parsed:
            for name, value in zip(_PARSER_SLOTS, self._parsed, strict=True):
                setattr(parser, name, value)
        decoder = Utf8Decoder()
        if self._held:
            decoder.setstate(self._held)
        return parser, decoder


def rest(model: LinesModel, parser: Parser, decoder: Utf8Decoder) -> Resting | None:
    """``model`` (a LinesModel, not a subclass) with its parser and decoder
    at rest; None if it cannot rest (the alternate screen shows, or an
    attribute is of a type the state comparison does not know). The model
    and parser are not to be used again."""
    if type(model) is not LinesModel or model.alternate:
        return None
    fresh = LinesModel(model.width, model.height, model.max_lines, styled=model.styled)
    try:
        state = model.state_at_rest(fresh)
    except UnknownState:
        return None
    parsed = tuple(getattr(parser, name) for name in _PARSER_SLOTS)
    if parsed == tuple(getattr(Parser(fresh), name) for name in _PARSER_SLOTS):
        parsed = ()
    palette, screen, rows, pending, omitted = model.window_at_rest()
    try:
        packed = _packed(rows)
    except ValueError:
        return None
    return Resting(
        model.committed,
        palette,
        screen,
        packed,
        model.y,
        pending,
        omitted,
        tuple(state),
        parsed,
        decoder.getstate(),
    )


# Rows as few objects: their texts joined with LF (no cell holds one), their
# styles strings joined, the length of each styles string unless each is its
# text's, and for each row that has marks, continues or omitted characters,
# its index and those. None for no rows.
_Odd = tuple[int, "dict[int, str] | None", bool, int]
_Packed = tuple[str, str, "tuple[int, ...] | None", tuple[_Odd, ...]] | None


def _packed(rows: list[Row]) -> _Packed:
    """``rows`` packed (see _Packed); ValueError if a text holds an LF."""
    if not rows:
        return None
    texts = "\n".join([row.text for row in rows])
    if texts.count("\n") != len(rows) - 1:
        raise ValueError("a row holds an LF")
    styles = "".join([row.styles for row in rows])
    lengths = None
    if styles and any(len(row.styles) != len(row.text) for row in rows):
        lengths = tuple(len(row.styles) for row in rows)
    odd = tuple(
        (index, row.marks, row.continued, row.omitted)
        for index, row in enumerate(rows)
        if row.marks is not None or row.continued or row.omitted
    )
    return texts, styles, lengths, odd


def _unpacked(packed: _Packed) -> list[Row]:
    """New rows equal to those ``_packed`` packed."""
    if packed is None:
        return []
    texts, styles, lengths, odd = packed
    rows = []
    start = 0
    for index, text in enumerate(texts.split("\n")):
        row = Row()
        row.text = text
        if styles:
            end = start + (len(text) if lengths is None else lengths[index])
            row.styles = styles[start:end]
            start = end
        rows.append(row)
    for index, marks, continued, omitted in odd:
        row = rows[index]
        row.marks, row.continued, row.omitted = marks, continued, omitted
    return rows


def _kept(committed: CommittedLines) -> CommittedLines | tuple[int, int, int]:
    """What a transcript at rest keeps of its committed lines: the store,
    or while it holds none, its counts (total, dropped, taken)."""
    if len(committed):
        return committed
    counts = (committed.total, committed.dropped, committed.taken)
    return _NONE if counts == _NONE else counts


def _store(
    kept: CommittedLines | tuple[int, int, int],
    max_lines: int | None,
    palette: StylePalette | None,
) -> CommittedLines:
    """The store ``_kept`` kept; for counts, a new one that holds no line
    and has those counts (it reads the same; taking from it takes none)."""
    if isinstance(kept, CommittedLines):
        return kept
    committed = CommittedLines(max_lines, palette)
    committed.total, committed.dropped, committed.taken = kept
    return committed


def _take(kept: CommittedLines | tuple[int, int, int]) -> list[Line]:
    return kept.take() if isinstance(kept, CommittedLines) else []


def _lines(committed: CommittedLines, window: tuple[Line, ...] | list[Line]) -> list[Line]:
    marker = committed.marker()
    out = [marker] if marker is not None else []
    out.extend(committed.lines())
    out.extend(window)
    return out
