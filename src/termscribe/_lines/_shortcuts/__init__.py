"""Shortcuts of the lines and strip models: a run of events the parser hands
over at once (``Performer.run``), done without the calls one by one and with
their result. When a precondition fails, the run is replayed (``replay``:
the calls one by one) or takes the ordinary path.

For each, when it is taken, and how it is checked against the calls one by
one (the tests of ``tests/test_properties.py`` feed a stream whole and byte
by byte, where no run forms; ``_parser._GROUP_AFTER`` = 0 makes runs of
sequences form from their first item):

* ``_overwrites.overwrite_run`` (OVERWRITE_RUN, text redrawn after lone
  CRs; the lines model): an unbounded row (``width`` None), no insert
  mode, no line drawing, and the cells that stay visible single cells
  within MAX_LINE_CELLS; with EL sequences, only the texts after the one
  that holds the last EL (that one is replayed). The strip model has its
  own ``_overwrites_run`` (single cells, no line drawing). Checked by
  ``test_grouped_events_equal_byte_by_byte``.
* ``_overwrites.overwritten_lines`` (OVERWRITTEN_LINES, lines with CRs
  anywhere in them; the lines model): an unbounded row, no insert mode or
  line drawing, the cursor in column 0 or a CR first, every code point a
  single cell, each LF after a CR unless the policy makes LF return
  (``overlaid_lines``, whose C pass is compared with Python in
  ``tests/test_speedups.py``), and what stays visible of each line within
  MAX_LINE_CELLS; then the lines take ``text_lines``. The strip model puts
  each text between two CRs or line ends on a line of its own
  (``_overwritten_lines_run``, from a fresh line). Checked by
  ``test_progress_lines_equal_byte_by_byte`` and
  ``test_grouped_events_equal_byte_by_byte``.
* ``_grouped.text_lines`` (LINES, whole lines; ``LinesModel._lines_run``):
  unless the line feed policy is ``lf`` and an LF follows no CR. Lines
  that scroll off from the bottom row are committed from their text
  (``_bottom_lines``) only on the normal screen with no scroll margins, an
  unbounded row, no insert mode or line drawing, lines of single cells (or
  single and wide characters, marks joined to them) that fit in a row, EL
  only on a fresh cursor row, TAB only on a fresh row in the default style
  under ``tabs_at_once``; otherwise line by line. The strip model commits
  lines of single cells (or wide, with marks) at once (``_whole_lines``,
  no line drawing). Checked by ``test_grouped_events_equal_byte_by_byte``
  and ``test_lines_of_text_equal_byte_by_byte``.
* ``_grouped.sequence_lines`` (LINES_WITH_SEQUENCES, whole lines with REP,
  EL, TAB, BS; ``LinesModel._lines_with_sequences_run``): an unbounded row,
  under ``lf`` only if every LF follows a CR, a BS only under
  ``overstrikes_at_once``, no REP of a character HTML escapes
  (COSTLY_REPEAT); then ``text_lines``. The strip model drops BSs and
  replays a run with a COSTLY_REPEAT, with TABs and EL, or with TABs in
  lines that are not single cells under ``tabs_at_once``. Checked by
  ``test_lines_of_text_equal_byte_by_byte``.
* ``_plain.plain_lines`` (a LINES run, the lines model; tried before
  ``text_lines``): PLAIN_MIN_CHARS code points or more, the default style
  (or unstyled), the normal screen with no scroll margins, an unbounded
  row, no insert mode or line drawing, ASCII with no escape sequence or
  TAB, every line within MAX_LINE_CELLS, nothing that spells a marker
  (``Line.needs_seal``); else it does nothing and returns False. Slices
  are committed only once the first ``rows`` lines leave the cursor at
  column 0 of a fresh bottom row. Checked by ``tests/test_lines_plain.py``:
  with PLAIN_MIN_CHARS lowered to 0, against the shortcut turned off, after
  and before streams of the whole grammar, whole and in pieces.
* ``_sequences.sequence_run`` (SEQUENCE_RUN, sequences and C1 controls each
  followed by text): always; inert C1 controls, ST and aborted strings
  removed first (``remove_inert``; its C scan is compared with the regex in
  ``tests/test_speedups.py``). The lines model's calls are direct: CSI
  with no private marker or intermediates (SGR aside) to HANDLERS, a CUP's
  target once per run outside origin mode, single-cell texts printed as
  such without line drawing. The strip model takes runs of line breaks
  its own way. Checked by ``test_sequence_runs_equal_byte_by_byte``,
  ``test_c1_floods_equal_byte_by_byte`` and
  ``test_strip_runs_of_line_breaks_equal_byte_by_byte``.
* ``_repeat.run_repeated`` (SEQUENCE_RUN and ESCAPE_RUN, both models): the
  run starts with MIN_REPEATS or more repetitions of a unit of whole items
  (``unit_of``), one more repetition leaves ``state_key`` as it found it
  within MAX_TRIES, ``state_key`` knows the type of every attribute (else
  ``UnknownState``), and the lines one repetition commits are still held
  (``max_lines``); else the rest of the run takes the ordinary path.
  Checked by ``tests/test_repeat.py``: generated units of the whole grammar
  and floods of every kind, whole against one code point at a time.

``tests/test_lines.py`` and ``tests/test_strip.py`` hold cases of them, and
``tests/test_differential.py`` compares the window of a model fed whole
streams with the screen mode, pyte and xterm.js.
"""
