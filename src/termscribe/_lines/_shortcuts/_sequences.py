"""Runs of control sequences and C1 controls, each followed by text, in the
``lines`` and strip models.

The parser hands such a run over at once (a ``SEQUENCE_RUN``: floods of
cursor moves or of C1 controls). The C1 controls that do nothing here are
skipped (but for forgetting the last character printed), so that the text
around them is printed at once, with the SGR sequences in it (dropped first
in an unstyled model; ``remove_inert`` does the skipping, in C when the
optional extension is built); the lines model sends each control sequence
straight to its handler and each C1 control to its action (``_controls``'
table), works out where a CUP puts the cursor once per run and parameters,
and tests whether the texts are single cells once per run. The result is
the calls one by one (its test: see the package docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..._accel import speedups
from ..._controls import C1_ACTIONS, INERT_C1, INERT_C1_MASK
from ..._cursor import cup
from ..._grammar import RUN_ITEMS, without_sgr
from ..._unicode import is_simple_run
from .._csi import HANDLERS
from .._host import LinesHost
from ._grouped import print_text

__all__ = [
    "merged_ups",
    "remove_inert",
    "remove_inert_by_regex",
    "sequence_parts",
    "sequence_run",
]

# In a sequence run, what is removed first: what does nothing at all (ST,
# and strings aborted by a C1 control), and inert controls before text
# (which prints a character to remember).
_REMOVED = re.compile(
    rf"\x9c|[\x90\x98\x9d-\x9f][^\x00-\x1f\x7f-\x9f]*|[{INERT_C1}]+(?=[^\x00-\x1f\x7f-\x9f])"
)
_C1 = re.compile("[\x80-\x9f]")


def remove_inert_by_regex(run: str) -> str:
    """What _REMOVED takes, removed from ``run``."""
    return _REMOVED.sub("", run) if _C1.search(run) is not None else run


def _remove_inert_in_c(run: str) -> str:
    """The same, by the C scan of _speedups."""
    assert speedups is not None
    return speedups.remove_inert(run, INERT_C1_MASK)


#: remove_inert_by_regex, or the C scan when the extension is built: a flood
#: of C1 controls has something to remove every few characters, which the
#: regex engine takes one match at a time.
remove_inert: Callable[[str], str] = (
    remove_inert_by_regex if speedups is None else _remove_inert_in_c
)


# Two or more cursor-ups by one row in a row, with nothing between them
# (docker compose redraws a frame of N lines with N of them).
_UPS = re.compile(r"(?:\x1b\[1?A){2,}")


def merged_ups(run: str, height: int) -> str:
    """A SEQUENCE_RUN with each run of CUUs by one row as one CUU by as
    many rows (at most ``height``): CUU stops at the top margin, or at row
    0 from above it, whether it moves there at once or a row at a time, and
    its other effects (a pending wrap ended, the last character forgotten)
    are the same done once or again."""
    if "A\x1b[" not in run:
        return run
    return _UPS.sub(lambda m: f"\x1b[{min(m.group().count('A'), height)}A", run)


def sequence_parts(run: str, styled: bool) -> list[str]:
    """The items of a SEQUENCE_RUN, as RUN_ITEMS.split() gives them (the
    text before the first item, then for each item its C1 control or CSI
    introducer, the body of its CSI sequence or None, and the text after
    it), without what does nothing in the lines and strip models. Those
    items are removed first (an inert control with no text after it stays,
    to forget the last character), so that the texts around them come as
    one. An SGR sequence is in the text it comes in; in an unstyled model
    (not ``styled``) SGR sequences are removed."""
    run = remove_inert(run)
    parts = RUN_ITEMS.split(run)
    if not styled:
        texts = "\r".join(parts[::3])  # no CR in them
        if "\x1b" in texts:
            parts[::3] = without_sgr(texts).split("\r")
    return parts


def sequence_run(m: LinesHost, parts: list[str], direct: bool = False) -> None:
    """The calls of a SEQUENCE_RUN's items (see sequence_parts), one by one,
    each text with the SGR sequences in it printed at once. When ``direct``
    (the model's methods are LinesHost's), control sequences with no
    private marker or intermediates (SGR aside) go straight to HANDLERS, as
    csi_dispatch would send them, and C1 controls to what execute calls;
    the cursor position a CUP's parameters give outside origin mode is
    computed once per run (it depends on nothing else); and when the texts
    are single cells, each without SGR is printed as such, without
    LinesHost.print's tests of each."""
    print_, print_with_sgr, csi_dispatch = m.print, m.print_with_sgr, m.csi_dispatch
    targets: dict[str, tuple[int, int]] = {}  # CUP's parameters: row, column
    actions = {}
    cells = False  # the texts are single cells
    if direct:
        actions = {control: getattr(m, name) for control, name in C1_ACTIONS.items()}
        texts = "".join(parts[3::3])
        if "\x1b" in texts:
            texts = without_sgr(texts)
        cells = texts.isascii() or is_simple_run(texts)
    print_single_cells = m.print_single_cells
    print_text(m, parts[0])
    for control, body, text in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        if body is not None:
            private, params, intermediates, final = m.csi_bodies[body]
            if not direct or private or intermediates or final == "m":
                csi_dispatch(private, params, intermediates, final)
            elif (final == "H" or final == "f") and not m.origin:
                m._last = ""
                target = targets.get(params)
                if target is None:
                    cup(m, m.params[params], "")
                    targets[params] = m.y, m.x
                else:
                    m.y, m.x = target
            else:
                last = m._last
                m._last = ""
                if (handler := HANDLERS.get(final)) is not None:
                    handler(m, m.params[params], last)
        elif control in INERT_C1:
            m._last = ""
        elif (action := actions.get(control)) is not None:
            m._last = ""
            action()
        else:
            m.execute(control)
        if text:
            if "\x1b" in text:
                print_with_sgr(text)
            elif cells and not m._translate:
                print_single_cells(text)
            else:
                print_(text)
