"""Runs that repeat one unit, done at once when the unit stops changing anything.

A flood repeats a few bytes thousands of times: ``ESC c`` (RIS), ``ESC 7
ESC 8``, ``ESC M x``, ``CSI 99 L CSI 99 M``. Each repetition costs the
lines and strip models a few method calls and a look at every row of the
window, where an ordinary log's text is taken in whole lines; this is where
a flood's cost per byte is brought back near a log's (SECURITY.md: per-byte
blow-ups).

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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable

from ..._controls import SavedCursor
from ..._rows import Row
from ..._style import Style
from .._host import LinesHost, Screen

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
#: Repetitions a run needs before a unit is looked for: floods repeat
#: thousands of times; a log's redraws, a few (the look costs more there
#: than it saves).
MIN_REPEATS = 32
#: Items of a run (from its first) that may end the unit.
_MAX_UNIT_ITEMS = 8

# Where an item of a run (a control sequence, escape sequence or C1
# control) may start.
_ITEM_START = re.compile("[\x1b\x80-\x9f]")

#: Attributes of the models that are caches: their content is a function
#: of what they are asked.
CACHES = frozenset(("cell_table", "params", "csi_bodies", "_sgr_runs"))
# Attributes of the models that are not state: caches, the committed
# output, and the rows of the active screen (the screen is in the key).
_NOT_STATE = CACHES | {"committed", "_rows"}


class UnknownState(Exception):
    """A model attribute that state_key cannot tell equal states by."""


def unit_of(run: str) -> tuple[str, int] | None:
    """``(unit, count)`` when ``run`` starts with ``count`` (at least
    MIN_REPEATS) repetitions of ``unit``, which ends where one of the run's
    first items starts (so the unit is whole items, and each repetition is
    too); None otherwise. The shortest such unit is taken."""
    n = len(run)
    for tries, m in enumerate(_ITEM_START.finditer(run, 1)):
        p = m.start()
        if p * MIN_REPEATS > n or tries == _MAX_UNIT_ITEMS:
            return None
        unit = run[:p]
        if not run.startswith(unit * MIN_REPEATS):
            continue
        if run[p:] == run[:-p]:  # the whole run repeats it (but maybe for a part at the end)
            return unit, n // p
        # The most repetitions it starts with (startswith is monotone in them).
        low, high = MIN_REPEATS, n // p
        while low < high:
            middle = (low + high + 1) // 2
            if run.startswith(unit * middle):
                low = middle
            else:
                high = middle - 1
        return unit, low
    return None


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


def run_repeated(model: LinesHost, run: str, apply: Callable[[str], None]) -> None:
    """``apply(run)``, with the shortcut of the module docstring when the
    run repeats a unit (see unit_of).

    The state is looked at around the 1st, 2nd, 4th, 8th... repetition
    only: once the unit changes nothing it never will again, so a later
    look finds it too, and a run that never settles pays a few looks, not
    one a repetition."""
    found = unit_of(run)
    if found is None:
        apply(run)
        return
    unit, count = found
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
    rest = run[done * len(unit) :]
    if rest:
        apply(rest)
