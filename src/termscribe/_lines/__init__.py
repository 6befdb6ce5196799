"""The ``lines`` terminal model, and the strip model on it.

* ``_model``: ``LinesModel``: the window, scrolling, committing, dispatch
  and the executor of batches (its decisions, each pinned by a test, are
  listed in its docstring).
* ``_print``: printing into the cells of the cursor row (``Printing``, a
  mixin of the model).
* ``_csi``: control sequences (``HANDLERS``), and the limits on what a few
  bytes make (MAX_REACH, MAX_REPEAT, MAX_ALIGNMENT_FILLS, ``repeat_cost``).
* ``_unicode``: runs of text that need more than single cells.
* ``_host``: ``LinesHost``, the part of the model the other modules take
  it as; they import that interface, never the class, so none imports
  ``_model`` back.
* ``_repeat``: a batch that repeats one unit (a flood), done at once once
  the unit stops changing anything.
* ``_rest``: a model with its parser and decoder put to rest (``rest``,
  ``Resting``) and a finished transcript (``Frozen``).
* ``_strip``: ``StripModel``, the audit view, a subclass of ``LinesModel``.

Here are the names the rest of termscribe uses; the package's own modules
import each name from the module that defines it.
"""

from ._csi import MAX_ALIGNMENT_FILLS, MAX_REACH, MAX_REPEAT, repeat_cost
from ._model import LinesModel
from ._print import DEC_SPECIAL_GRAPHICS
from ._rest import Frozen, Resting, rest
from ._strip import StripModel

__all__ = [
    "DEC_SPECIAL_GRAPHICS",
    "MAX_ALIGNMENT_FILLS",
    "MAX_REACH",
    "MAX_REPEAT",
    "Frozen",
    "LinesModel",
    "Resting",
    "StripModel",
    "repeat_cost",
    "rest",
]
