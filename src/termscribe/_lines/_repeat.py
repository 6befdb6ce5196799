"""Batches that repeat one unit, done at once when the unit stops changing anything.

A flood repeats a few bytes thousands of times: ``ESC c`` (RIS), ``ESC 7
ESC 8``, ``ESC M x``, ``CSI 99 L CSI 99 M``. Each repetition costs the
lines and strip models a few method calls and a look at every row of the
window; this is where a flood's cost per byte is brought back near a log's
(SECURITY.md: per-byte blow-ups). It changes no meaning: every repetition
it does not apply commits exactly the lines the applied one committed.

The shortcut rests on one fact: a model's effect is a function of its
state. Take ``state_key``: everything a model holds but its caches and its
committed output. If applying the unit once more leaves the key as it found
it, every further application does the same again: it leaves the key as it
is and commits the same lines. So ``run_repeated`` applies the unit one
repetition at a time, through the ordinary path, until that happens (at
most MAX_TRIES times), then commits those lines once for each repetition
left. It looks at the state around the 1st, 2nd, 4th... repetition only,
so a unit that never settles costs a few looks more than the ordinary
path, no more.

``state_key`` refuses an attribute of a type it does not know (a field
added to the models later): it raises ``UnknownState``, and the run takes
the ordinary path. The precondition and its test: see the package
docstring.

Units are looked for in a batch's parts (see ``_grammar``): a unit is
whole items, each with the text after it, so a batch of
``[text, item, text, item, ...]`` repeats a unit of ``2 * k`` parts from
its first item on.

It is checked by ``tests/test_repeat.py``: generated units of the whole
grammar and floods of every kind, whole against one code point at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from .._controls import SavedCursor
from .._rows import Row
from .._style import Style
from ._host import LinesHost, Screen

__all__ = [
    "CACHES",
    "MAX_TRIES",
    "MIN_REPEATS",
    "UnknownState",
    "run_repeated",
    "state_key",
    "state_value",
    "unit_of",
]

#: Repetitions applied one by one, at most, waiting for the state to settle:
#: enough for a staircase to cross the columns a movement may use and for a
#: window of a few dozen rows to fill.
MAX_TRIES = 256
#: Repetitions a batch needs before a unit is looked for: floods repeat
#: thousands of times; a log's redraws, a few (the look costs more there
#: than it saves).
MIN_REPEATS = 32
#: Items a unit may have, at most.
_MAX_UNIT_ITEMS = 8

#: Attributes of the models that are caches: their content is a function
#: of what they are asked.
CACHES = frozenset(("cell_table", "params", "csi_bodies", "_sgr_runs"))
# Attributes of the models that are not state: caches, the committed
# output, and the rows of the active screen (the screen is in the key).
_NOT_STATE = CACHES | {"committed", "_rows"}


class UnknownState(Exception):
    """A model attribute that state_key cannot tell equal states by."""


def unit_of(parts: list[str]) -> tuple[int, int] | None:
    """``(size, count)`` when the batch ``parts`` repeats, from its first
    item on (``parts[1:]``), a unit of ``size`` parts (whole items, each
    with the text after it) ``count`` times, at least MIN_REPEATS; None
    otherwise. The shortest such unit is taken."""
    n = len(parts) - 1
    for items in range(1, _MAX_UNIT_ITEMS + 1):
        size = 2 * items
        if size * MIN_REPEATS > n:
            return None
        # parts[k] == parts[k - size] for every k of the first MIN_REPEATS
        # repetitions but the first: the unit repeats that far.
        if parts[1 + size : 1 + size * MIN_REPEATS] != parts[1 : 1 + size * (MIN_REPEATS - 1)]:
            continue
        return size, _repeats(parts, size, MIN_REPEATS, n // size)
    return None


def _repeats(parts: list[str], size: int, low: int, high: int) -> int:
    """How many times the batch repeats its unit of ``size`` parts from its
    first item on, known to be from ``low`` to ``high``: the whole, or by
    doubling the prefix compared with itself shifted by one unit, then
    halving."""

    def repeats(count: int) -> bool:
        end = 1 + size * count
        return parts[1 + size : end] == parts[1 : end - size]

    if repeats(high):
        return high
    step = low
    while low + step < high and repeats(low + step):
        low += step
        step *= 2
    high = min(high - 1, low + step - 1)
    while low < high:
        middle = (low + high + 1) // 2
        if repeats(middle):
            low = middle
        else:
            high = middle - 1
    return low


def state_key(model: object) -> Hashable:
    """Everything ``model`` holds that its effect depends on, as a value
    equal for equal states (see the module docstring)."""
    items = []
    fields = vars(model)
    for name, value in sorted(fields.items()):
        if name in _NOT_STATE:
            continue
        if name == "_screen":
            value = value is fields["_normal"]  # which one is showing
        elif name == "_pending":
            value = tuple(value)  # committed rows: never changed again
        elif name == "_palette":
            value = len(value.styles)  # styles are only ever added
        items.append((name, state_value(value)))
    return tuple(items)


def state_value(value: object) -> Hashable:
    """One attribute's part of state_key: equal for equal values."""
    if value is None or isinstance(value, (bool, int, str, Style)):
        return value
    if isinstance(value, Row):
        marks = value.marks
        return (
            value.text,
            value.styles,
            value.continued,
            value.omitted,
            tuple(sorted(marks.items())) if marks else None,
        )
    if isinstance(value, Screen):
        tabs = value.tabs
        return (
            tuple(map(state_value, value.rows)),
            value.top,
            value.bottom,
            state_value(value.saved),
            None if tabs is None else frozenset(tabs),
        )
    if isinstance(value, SavedCursor):
        return (value.x, value.y, value.style, tuple(value.charsets), value.gl, value.origin)
    if isinstance(value, list):
        return tuple(map(state_value, value))
    if isinstance(value, tuple):
        return value
    raise UnknownState(type(value).__name__)


def run_repeated(model: LinesHost, parts: list[str], apply: Callable[[list[str]], None]) -> None:
    """``apply(parts)``, with the shortcut of the module docstring when the
    batch repeats a unit (see unit_of).

    The state is looked at around the 1st, 2nd, 4th, 8th... repetition
    only: once the unit changes nothing it never will again, so a later
    look finds it too, and a batch that never settles pays a few looks,
    not one a repetition."""
    found = unit_of(parts)
    if found is None:
        apply(parts)
        return
    size, count = found
    if parts[0]:
        apply([parts[0]])
    unit = ["", *parts[1 : 1 + size]]
    committed = model.committed
    done = 0
    look = 0  # the repetition (from 0) the state is looked at around next
    while done < count and done < MAX_TRIES:
        if done < look:
            apply(unit)
            done += 1
            continue
        try:
            before = state_key(model)
        except UnknownState:
            break
        total = committed.total
        apply(unit)
        done += 1
        if state_key(model) == before:
            added = committed.total - total
            if added > len(committed):
                break  # max_lines keeps fewer than one repetition commits
            committed.extend_repeated(committed.last(added), count - done)
            done = count
            break
        look = 2 * done
    rest = parts[1 + done * size :]
    if rest:
        apply(["", *rest])
