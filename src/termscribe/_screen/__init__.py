"""The ``screen`` model: the final visible screen, on a pyte screen.

``_model`` holds ``ScreenModel``, made of mixins whose methods take it as a
``ScreenHost`` (``_host``): printing (``_print``), editing sequences
(``_edit``), modes, margins and the alternate screen (``_modes``), and the
runs it takes at once (``_runs``). ``_cells`` translates between pyte's cells and termscribe's
styles and lines. ``_snapshot`` holds ``AltScreenSnapshot``, which adds the
last alternate-screen frame to a lines model (and the block both models use).

This file imports nothing, so that callers import the submodule they need
and pyte is loaded only when screen mode or a snapshot is used.
"""
