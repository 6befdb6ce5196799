"""What the parser calls: the events of a ``Performer``.

The vte-like events (``print``, ``execute``, ``csi_dispatch``,
``esc_dispatch``, ``osc_dispatch``, ``dcs_dispatch``) and the grouped ones
the parser hands over at once (see ``_grammar``), whose defaults make the
same calls one by one: an interpreter that takes none of them at once gets
exactly what the state machine would give it.
"""

from __future__ import annotations

from ._grammar import (
    ESCAPE_ITEM,
    LINE_SEQUENCES,
    OVERWRITE_ERASES,
    OVERWRITE_STARTS,
    SEQUENCE_ITEMS,
    sgr_split,
)

__all__ = ["Performer"]


class Performer:
    """Receives what the parser recognises. Every method is a no-op here."""

    def print(self, text: str) -> None:
        """A run of printable characters (no C0, DEL or C1 inside)."""

    def print_with_sgr(self, run: str) -> None:
        """Printable text with complete SGR sequences (``ESC [ params m``)
        inside. By default, the same calls as if they had come one by one."""
        parts = sgr_split(run)
        if parts[0]:
            self.print(parts[0])
        for index in range(1, len(parts), 2):
            self.csi_dispatch("", parts[index], "", "m")
            if parts[index + 1]:
                self.print(parts[index + 1])

    def execute(self, control: str) -> None:
        """A C0 control, or a C1 control that does not start a sequence."""

    def execute_run(self, run: str) -> None:
        """Two or more CR and LF controls in a row. By default, the same
        calls as if they had come one by one."""
        for control in run:
            self.execute(control)

    def text_lines(self, run: str) -> None:
        """Lines of printable text, each ended by LF after any number of
        CRs, with complete SGR sequences inside (as ``print_with_sgr``):
        ``"a\\x1b[1mb\\x1b[0m\\n\\nc\\r\\n"``. By default, the same calls
        as if they had come one by one."""
        for line in run.split("\n")[:-1]:
            text = line.rstrip("\r")
            self._print_text(text)
            self._line_end(line[len(text) :] + "\n")

    def lines_with_sequences(self, run: str) -> None:
        """Lines as ``text_lines``, with more inside: REP (``ESC [ count
        b``) right after a printable ASCII character, BS between two
        printable ASCII characters, EL erasing to the end of the line
        (``ESC [ K``, ``ESC [ 0 K``) and TAB:
        ``"a\\x1b[79b\\x1b[31m\\x1b[Kb\\tc_\\x08d\\r\\n"``. By default, the
        same calls as if they had come one by one."""
        for line in run.split("\n")[:-1]:
            text = line.rstrip("\r")
            parts = LINE_SEQUENCES.split(text)
            self._print_text(parts[0])
            for index in range(1, len(parts), 4):
                control = parts[index + 2]
                if control is None:
                    self.csi_dispatch("", parts[index], "", parts[index + 1])
                else:
                    self.execute(control)
                self._print_text(parts[index + 3])
            self._line_end(line[len(text) :] + "\n")

    def _print_text(self, text: str) -> None:
        if "\x1b" in text:
            self.print_with_sgr(text)
        elif text:
            self.print(text)

    def _line_end(self, ends: str) -> None:
        if len(ends) > 1:
            self.execute_run(ends)
        else:
            self.execute("\n")

    def overwrite_run(self, run: str) -> None:
        """CRs (or CHA to the first column: ``ESC [ G``, ``ESC [ 1 G``),
        each followed by text: printable characters (at least one) with
        complete SGR sequences among them, as ``print_with_sgr``, and maybe
        an EL sequence erasing to the end of the line or the whole line
        (``ESC [ K``, ``ESC [ 0 K``, ``ESC [ 2 K``) right after the CR and
        right after the text: ``"\\r10%\\r\\x1b[2K\\x1b[1m20%\\x1b[0m\\x1b[K"``.
        By default, the same calls as if they had come one by one."""
        units = OVERWRITE_STARTS.split(run)
        for start, unit in zip(units[1::2], units[2::2], strict=True):
            if start == "\r":
                self.execute("\r")
            else:
                self.csi_dispatch("", start[2:-1], "", "G")
            if "\x1b" not in unit:
                self.print(unit)
                continue
            parts = OVERWRITE_ERASES.split(unit)
            self._print_text(parts[0])
            for index in range(1, len(parts), 2):
                self.csi_dispatch("", parts[index], "", "K")
                self._print_text(parts[index + 1])

    def sequence_run(self, run: str) -> None:
        """Control sequences and C1 controls, each followed by printable
        text (no C0, DEL, C1 or escape sequence): ``"\\x1b[5;1Hx\\x1b[6;1Hy"``,
        ``"\\x84a\\x85b"``. ST and strings started by a C1 control and
        aborted by another before any C0 control may be in it; they
        dispatch nothing. By default, the same calls as if they had come
        one by one (see SEQUENCE_ITEMS)."""
        for private, params, intermediates, final, control, text in SEQUENCE_ITEMS.findall(run):
            if final:
                self.csi_dispatch(private, params, intermediates, final)
            elif control:
                self.execute(control)
            if text:
                self.print(text)

    def escape_run(self, run: str) -> None:
        """Escape sequences in a row (not CSI, strings or ST), as
        ``esc_dispatch`` takes them: ``"\\x1b7\\x1b8\\x1b(0"``. By
        default, the same calls as if they had come one by one."""
        esc_dispatch = self.esc_dispatch
        for intermediates, final in ESCAPE_ITEM.findall(run):
            esc_dispatch(intermediates, final)

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        """A complete control sequence; ``params`` is raw (see parse_params)."""

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        """A complete escape sequence (not CSI, OSC, DCS or a string)."""

    def osc_dispatch(self, payload: str) -> None:
        """An operating system command ended by ST or BEL."""

    def dcs_dispatch(
        self, private: str, params: str, intermediates: str, final: str, payload: str
    ) -> None:
        """A device control string ended by ST."""
