"""What changed in a transcript since a reader last looked.

A client that shows a terminal live calls ``Transcript.changes(position)``
after each update instead of rendering the whole transcript again::

    shown: list[Line] = []         # committed lines on display
    position = None
    while ...:                     # after each feed
        changes = transcript.changes(position)
        if changes.reset:          # the first call, a new snapshot, lines dropped
            shown.clear()
        shown.extend(changes.committed)
        display(shown, changes.window)   # the window replaces the last one
        position = changes.position

``shown + changes.window`` always equals ``transcript.lines()``. A call
costs what changed (the lines committed since ``position``, and the live
window), not the transcript's length, except when ``reset`` is true: then
``committed`` holds every committed line held. ``reset`` is true on the
first call, when ``position`` is another transcript's (a terminal's output
was replaced by a snapshot), and when lines were removed from the head of
the transcript since ``position`` (``max_lines`` dropped some, so the
marker line that counts them changed, or ``take_lines`` took some). A live
view that runs long past ``max_lines`` resets on every update; give such
a transcript ``max_lines=None`` or a limit the view can afford.

Render the pieces with ``render_lines_text``, ``render_lines_html`` or
``render_lines_ansi``; the pieces joined with ``\\n`` are the whole.
"""

from typing import NamedTuple

from ._committed import CommittedLines
from ._rows import Line

__all__ = ["ChangePosition", "Changes", "changes_since"]


# Named tuples rather than frozen dataclasses: as immutable and comparable,
# and they spare every start of ``termscribe render`` the import of
# ``dataclasses`` (and of ``inspect``, ``ast`` and ``dis`` with it). Their
# annotations are evaluated (no ``from __future__ import annotations``):
# ``NamedTuple`` would compile each string annotation, a millisecond in all.


class ChangePosition(NamedTuple):
    """Where a reader of ``changes`` got to. Opaque: pass it back."""

    owner: object  # the transcript's token: positions of another mean reset
    line: int  # lines ever committed when it was made
    cut: int  # lines no longer held at the head then (dropped or taken)


class Changes(NamedTuple):
    """What changed since a position (see the module docstring)."""

    #: Pass this back to the next call.
    position: ChangePosition
    #: The caller must drop what it showed: ``committed`` starts from the
    #: transcript's first line.
    reset: bool
    #: Lines that became final since the position, oldest first.
    committed: list[Line]
    #: The live lines after them (they may still change): they replace the
    #: window the caller showed before.
    window: list[Line]


def changes_since(
    owner: object, committed: CommittedLines, window: list[Line], since: ChangePosition | None
) -> Changes:
    """The changes of a transcript whose committed lines are ``committed``
    and whose live lines are ``window``, since ``since``."""
    cut = committed.cut
    position = ChangePosition(owner, committed.total, cut)
    if since is not None and not isinstance(since, ChangePosition):
        raise TypeError(f"since must be a position from changes() or None, not {since!r}")
    if since is None or since.owner is not owner or since.cut != cut:
        marker = committed.marker()
        lines = [marker] if marker is not None else []
        lines.extend(committed.lines())
        return Changes(position, True, lines, window)
    if since.line > committed.total:
        raise ValueError("since is a position this transcript never reached")
    return Changes(position, False, committed.since(since.line), window)
