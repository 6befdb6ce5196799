"""Committed lines, held compactly.

A transcript's committed lines are final: nothing changes them again, and a
long log holds millions of them. So they are not kept as :class:`Line`
objects (a Line with a few runs costs several hundred bytes of small,
garbage-collector-tracked objects) but in blocks of ``BLOCK`` lines (the
last block, and one of a store made again, may hold fewer: every reader
takes a block's count from the block):

* ``text``: the block's lines joined with ``\\n`` (a Line's text never holds
  a line feed), so a text transcript is a join of blocks;
* ``layout``: each line's style runs, one after the other, as code points
  (see ``_layouts``).

Blocks are pairs of strings, which the cyclic garbage collector ignores,
and a line costs about its text plus three code points. Lines are made
again as Line objects only when asked for (``lines``, ``since``, ``take``),
equal to those committed.

The store also counts, so that a reader can ask what changed since it last
looked (``Transcript.changes``): ``total`` lines were ever committed;
``dropped`` of them were dropped by ``max_lines`` (the oldest first) and
``taken`` were taken by ``take``; the rest are held.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate, islice
from operator import itemgetter
from typing import cast

from ._layouts import PLAIN, one_run, style_layout
from ._rows import (
    BLANK,
    WIDE_TAIL,
    Line,
    Run,
    StylePalette,
    omission_marker,
)
from ._style import DEFAULT, Style

__all__ = ["BLOCK", "CommittedLines"]

#: Lines per block, when lines are committed one by one.
BLOCK = 64

# Cuts a line's text into its runs (an itemgetter of slices).
_Cut = Callable[[str], tuple[str, ...]]

# Layouts a store remembers the runs of, if they have at most so many runs
# (a transcript's cache must stay small under style churn).
_MAX_CACHED_LAYOUTS = 512
# The layouts of plain lines in a row (see CommittedLines._pairs).
_PLAINS = re.compile(f"{PLAIN}+")
_MAX_CACHED_RUNS = 32

# Rows up to this many cells have their layout remembered (see _row_layout).
_MAX_CACHED_ROW_CELLS = 1024

# Style objects a store remembers the palette code of (see _number).
_MAX_INDEXED = 4096


def _without_tails(text: str, styles: str) -> tuple[str, str] | None:
    """A row's cells and their codes without the right halves of its wide
    characters, as its line holds them, when each right half follows a
    cell of its code (they are written together); None otherwise."""
    cells = text.replace(WIDE_TAIL, "")
    if not cells or text[0] == WIDE_TAIL:
        return None
    if not styles or styles.count(styles[0]) == len(styles):
        return cells, styles[: len(cells)]
    kept = []
    previous = ""
    for cell, code in zip(text, styles, strict=True):
        if cell != WIDE_TAIL:
            kept.append(code)
        elif code != previous:
            return None
        previous = code
    return cells, "".join(kept)


class CommittedLines:
    """The committed lines of one transcript (see the module docstring).

    ``max_lines`` (None: no limit) is how many are held; committing more
    drops the oldest."""

    __slots__ = (
        "_alive",
        "_blocks",
        "_head_skip",
        "_index",
        "_layout_cache",
        "_layouts",
        "_palette",
        "_row_layouts",
        "_styles",
        "_texts",
        "dropped",
        "max_lines",
        "taken",
        "total",
    )

    def __init__(self, max_lines: int | None, palette: StylePalette | None = None) -> None:
        """``palette``: the model's, whose codes the stored layouts use (a
        store of its own if None)."""
        self.max_lines = max_lines
        self._palette = StylePalette() if palette is None else palette
        self._styles = self._palette.styles
        #: Lines ever committed, dropped and taken ones included.
        self.total = 0
        #: Lines dropped by max_lines.
        self.dropped = 0
        #: Lines removed by take.
        self.taken = 0
        # Sealed blocks: (text, layout, line count), oldest first; the
        # first _head_skip lines of the first block are no longer held.
        self._blocks: list[tuple[str, str, int]] = []
        self._head_skip = 0
        # The open block, newest last.
        self._texts: list[str] = []
        self._layouts: list[str] = []
        # Palette code of style objects seen in committed Lines, by id; the
        # objects are kept alive in _alive, so an id is never another's.
        self._index: dict[int, int] = {id(DEFAULT): 0}
        self._alive: list[Style] = []
        # Layouts recently made into runs (see _decoded): logs repeat them.
        self._layout_cache: dict[str, tuple[_Cut, tuple[Style, ...]]] = {}
        # The layouts of recent rows' styles strings (see _row_layout).
        self._row_layouts: dict[str, str] = {}

    def __len__(self) -> int:
        """The number of lines held."""
        return self.total - self.dropped - self.taken

    @property
    def cut(self) -> int:
        """Lines no longer held at the head (dropped or taken)."""
        return self.dropped + self.taken

    # -- committing --------------------------------------------------------

    def append(self, line: Line) -> None:
        self._add(line.text, self._layout(line.runs))
        self._trim()

    def append_row(self, text: str, styles: str) -> bool:
        """Commit a row of the window as its line, straight from the row's
        cell text and palette codes (``styles``: one code a cell, or empty
        for all in the default style), if the row is one the layout can
        take as it is: its cells single or wide, none blank, and nothing in
        its text to seal. The caller has checked the rest (no marks, nothing
        omitted, not joined to another row). False, having done nothing,
        otherwise: then a Line of the row is committed (Line.from_row),
        whose layout would be the same."""
        if not text:
            self._add("", PLAIN)
        elif BLANK in text or Line.needs_seal(text):
            return False
        else:
            if WIDE_TAIL in text:
                cells = _without_tails(text, styles)
                if cells is None:
                    return False
                text, styles = cells
            self._add(text, self._row_layout(styles))
        limit = self.max_lines
        if limit is not None and self.total - self.dropped - self.taken > limit:
            self._trim()
        return True

    def append_rows(self, texts: list[str], styles: list[str]) -> bool:
        """append_row for each row (its cells ``texts[i]``, its codes
        ``styles[i]``, or one code for all its cells) in turn, at once;
        False, having done nothing, unless the store can take every one as
        it is."""
        joined = "\n".join(texts)
        if BLANK in joined or Line.needs_seal(joined):
            return False
        if WIDE_TAIL in joined:
            texts = list(texts)
            styles = list(styles)
            for index, text in enumerate(texts):
                if WIDE_TAIL in text:
                    cells = _without_tails(text, styles[index])
                    if cells is None:
                        return False
                    texts[index], styles[index] = cells
        first = styles[0] if styles else ""
        if len(first) == 1 and styles.count(first) == len(styles):  # one code for all
            head = one_run(first)
            layouts = [head] * len(texts) if all(texts) else [head if t else PLAIN for t in texts]
        elif any(styles):
            row_layout = self._row_layout
            layouts = [
                row_layout(codes) if text else PLAIN
                for text, codes in zip(texts, styles, strict=True)
            ]
        else:
            layouts = [PLAIN] * len(texts)
        self.extend_layouts(texts, layouts)
        return True

    def extend_layouts(self, texts: list[str], layouts: list[str]) -> None:
        """Commit one line per text, in the layout beside it (see _layouts).
        The texts hold no markers or seals (Line.needs_seal is false for
        each).

        The lines that fill the open block are added to it; then every
        whole block of them is sealed at once, and the rest opens the next
        block: the blocks are those that adding the lines one by one would
        seal."""
        count = len(texts)
        fill = min(BLOCK - len(self._texts), count)
        self._texts.extend(texts[:fill])
        self._layouts.extend(layouts[:fill])
        self.total += count
        if len(self._texts) == BLOCK:
            blocks = self._blocks
            blocks.append(("\n".join(self._texts), "".join(self._layouts), BLOCK))
            rest = fill + (count - fill) // BLOCK * BLOCK
            for start in range(fill, rest, BLOCK):
                end = start + BLOCK
                blocks.append(("\n".join(texts[start:end]), "".join(layouts[start:end]), BLOCK))
            self._texts = texts[rest:]
            self._layouts = layouts[rest:]
        self._trim()

    def extend(self, lines: Iterable[Line]) -> None:
        layout = self._layout
        add = self._add
        for line in lines:
            add(line.text, layout(line.runs))
        self._trim()

    def extend_repeated(self, lines: Sequence[Line], times: int) -> None:
        """Commit ``lines`` ``times`` times over; only what max_lines holds
        is stored, the rest counts as dropped at once."""
        if not lines or times <= 0:
            return
        count = len(lines) * times
        limit = self.max_lines
        skip = 0
        if limit is not None and count > limit:
            skip = count - limit
        encoded = [(line.text, self._layout(line.runs)) for line in lines]
        if skip:
            self._drop_all()
            self.total += skip
            self.dropped += skip
        add = self._add
        start = skip % len(encoded)
        for index in range(count - skip):
            text, layout = encoded[(start + index) % len(encoded)]
            add(text, layout)
        self._trim()

    def skip(self, count: int) -> None:
        """Count ``count`` lines as committed and dropped at once: the
        caller commits at least max_lines more right after, so that they
        would be dropped anyway."""
        self.total += count
        self.dropped += count

    def _add(self, text: str, layout: str) -> None:
        texts = self._texts
        texts.append(text)
        self._layouts.append(layout)
        self.total += 1
        if len(texts) == BLOCK:
            self._blocks.append(("\n".join(texts), "".join(self._layouts), BLOCK))
            self._texts = []
            self._layouts = []

    def _trim(self) -> None:
        limit = self.max_lines
        if limit is None:
            return
        excess = len(self) - limit
        if excess <= 0:
            return
        self.dropped += excess
        blocks = self._blocks
        while excess and blocks:
            count = blocks[0][2] - self._head_skip
            if excess < count:
                self._head_skip += excess
                return
            del blocks[0]  # blocks are few: max_lines / BLOCK
            self._head_skip = 0
            excess -= count
        if excess:
            del self._texts[:excess]
            del self._layouts[:excess]

    def _drop_all(self) -> None:
        """Drop every line held, counting them."""
        self.dropped += len(self)
        self._clear()

    def _clear(self) -> None:
        self._blocks.clear()
        self._head_skip = 0
        self._texts = []
        self._layouts = []

    def _number(self, style: Style) -> int:
        """The palette code of ``style``. The models' lines hold styles their
        palette made, so it has them all (were it full, a style it never saw
        would show as the default)."""
        number = self._index.get(id(style))
        if number is None:
            number = ord(self._palette.code(style))
            if len(self._alive) >= _MAX_INDEXED:
                self._index = {id(DEFAULT): 0}
                self._alive = []
            self._index[id(style)] = number
            self._alive.append(style)
        return number

    def _row_layout(self, styles: str) -> str:
        """The layout of a row of single cells in the palette codes
        ``styles``: runs of equal codes (remembered, as rows repeat)."""
        if not styles:
            return PLAIN
        first = styles[0]
        if styles.count(first) == len(styles):
            return one_run(first)
        cache = self._row_layouts
        layout = cache.get(styles)
        if layout is None:
            layout = style_layout(styles)
            if len(styles) <= _MAX_CACHED_ROW_CELLS:
                if len(cache) >= _MAX_CACHED_LAYOUTS:
                    cache.clear()
                cache[styles] = layout
        return layout

    def _layout(self, runs: tuple[Run, ...]) -> str:
        index = self._index
        if len(runs) == 1:
            number = index.get(id(runs[0][1]))
            if number is not None:
                return one_run(chr(number))
        numbers = [index.get(id(style)) for _, style in runs]
        if None in numbers:
            numbers = [self._number(style) for _, style in runs]
        return (
            chr(len(runs))
            + "".join(map(chr, numbers))  # type: ignore[arg-type]
            + "".join([chr(len(text)) for text, _ in runs[:-1]])
        )

    # -- reading -----------------------------------------------------------

    def marker(self) -> Line | None:
        """The line that stands for dropped lines, if any were."""
        if not self.dropped:
            return None
        return Line(((omission_marker(self.dropped, "earlier lines"), DEFAULT),))

    def lines(self) -> list[Line]:
        """Every line held, oldest first."""
        return self._last(len(self))

    def since(self, index: int) -> list[Line]:
        """The lines held from the ``index``-th ever committed (counting
        from 0) on; ``index`` must be at least ``cut``."""
        if not self.cut <= index <= self.total:
            raise ValueError(f"line {index} is not held (held: {self.cut} to {self.total})")
        return self._last(self.total - index)

    def last(self, count: int) -> list[Line]:
        """The ``count`` newest lines (at most as many as are held)."""
        return self._last(min(count, len(self)))

    def take(self) -> list[Line]:
        """Remove and return every line held."""
        lines = self.lines()
        self.taken += len(lines)
        self._clear()
        return lines

    def texts(self) -> Iterator[str]:
        """The text of the lines held, as pieces to join with ``\\n``: each
        is one line or several lines already joined with ``\\n``."""
        blocks = self._blocks
        if blocks:
            text, _, _ = blocks[0]
            if self._head_skip:
                text = text.split("\n", self._head_skip)[-1]
            yield text
            for index in range(1, len(blocks)):
                yield blocks[index][0]
        yield from self._texts

    def pairs(self) -> Iterator[tuple[str, Iterable[Run]]]:
        """The lines held as their text and runs, without making Line
        objects (for renderers: the runs may be an iterator, and a block of
        lines that are each one run in the default style comes as one item,
        its lines joined with ``\\n``)."""
        blocks = self._blocks
        for index in range(len(blocks)):
            text, layout, count = blocks[index]
            if index == 0 and self._head_skip:
                yield from islice(self._pairs(text.split("\n"), layout), self._head_skip, None)
            elif layout.count(PLAIN) == count == len(layout):
                # A block of plain lines as one: lines in the default style
                # render as their text, and renderers join lines with "\n".
                yield text, ((text, DEFAULT),)
            else:
                yield from self._pairs(text.split("\n"), layout, join_plain=True)
        yield from self._pairs(self._texts, "".join(self._layouts), join_plain=True)

    def _last(self, count: int) -> list[Line]:
        """The ``count`` newest lines (``count`` at most those held)."""
        if count <= 0:
            return []
        # Blocks from the newest back until they cover count lines.
        pieces: list[tuple[list[str], str]] = [(self._texts, "".join(self._layouts))]
        need = count - len(self._texts)
        blocks = self._blocks
        index = len(blocks) - 1
        while need > 0:
            text, layout, _ = blocks[index]
            pieces.append((text.split("\n"), layout))
            need -= len(pieces[-1][0]) - (self._head_skip if index == 0 else 0)
            index -= 1
        unchecked = Line.unchecked
        out = [
            unchecked(runs if type(runs) is tuple else tuple(runs), text)
            for texts, layout in reversed(pieces)
            for text, runs in self._pairs(texts, layout)
        ]
        # The oldest block may hold more than was asked for (the first
        # block's skipped lines are at its front).
        del out[: len(out) - count]
        return out

    def _pairs(
        self, texts: list[str], layout: str, *, join_plain: bool = False
    ) -> Iterator[tuple[str, Iterable[Run]]]:
        """Each of ``texts`` with its runs, as ``layout`` (theirs, one after
        the other) gives them; with ``join_plain`` (for renderers, see
        pairs), lines in a row that are each one run in the default style
        come as one item, joined with ``\n``."""
        at = 0
        decoded = self._decoded
        index = 0
        count = len(texts)
        while index < count:
            text = texts[index]
            index += 1
            runs_count = ord(layout[at])
            if runs_count == 0:
                at += 1
                if join_plain and (plains := _PLAINS.match(layout, at)) is not None:
                    more = plains.end() - at
                    at += more
                    text = "\n".join(texts[index - 1 : index + more])
                    index += more
                yield text, ((text, DEFAULT),)
                continue
            end = at + 2 * runs_count
            pieces, styles = decoded(layout[at:end])
            at = end
            if runs_count == 1:
                yield text, ((text, styles[0]),)
            else:
                yield text, zip(pieces(text), styles, strict=True)

    def _decoded(self, layout: str) -> tuple[_Cut, tuple[Style, ...]]:
        """How to cut the runs of a line of this layout, and their styles."""
        cache = self._layout_cache
        found = cache.get(layout)
        if found is not None:
            return found
        count = ord(layout[0])
        styles = self._styles
        ends = list(accumulate(map(ord, layout[1 + count :])))
        made = (
            cast(_Cut, itemgetter(*map(slice, [0, *ends], [*ends, None]))),
            tuple([styles[ord(code)] for code in layout[1 : 1 + count]]),
        )
        if count <= _MAX_CACHED_RUNS:
            if len(cache) >= _MAX_CACHED_LAYOUTS:
                cache.clear()
            cache[layout] = made
        return made
