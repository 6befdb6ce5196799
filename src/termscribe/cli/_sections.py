"""CI log sections as collapsible ``<details>`` in HTML pages.

Lines that open a section by a CI system's convention start one:

* GitHub Actions: ``::group::TITLE`` … ``::endgroup::`` (the end line is the
  section's last);
* GitLab: ``section_start:TS:NAME`` … ``section_end:TS:NAME``, as
  _markers keeps them (a terminal erases them; the header text GitLab
  shows follows the start marker on its line);
* Buildkite (``--sections buildkite``, since ``--- `` also starts a diff's
  file lines): a line starting ``--- ``, ``+++ `` or ``~~~ `` (each header
  ends the section before it).

The header line becomes the ``<summary>`` and the lines after it a ``<pre>``
inside the ``<details>``; the page's text, read in order, is still the text
transcript, line for line (the marker lines are kept, as in text output),
but for GitLab's markers, which text output leaves erased as a terminal does.
Every section starts open, whatever the log asks (Buildkite's ``---``):
folding is the reader's to do, so nothing in a transcript is hidden until
someone chooses to hide it.  Sections do not nest: a header inside an open
section ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .._rows import Line
from ._writer import LineWriter

__all__ = ["SECTION_STYLES", "AnchoredLines", "SectionWriter"]

#: --sections choices and the line starts that open a section in each.
#: Buildkite's headers are asked for by name: ``--- `` also starts the
#: file lines of a unified diff.
SECTION_STYLES: Final = {
    "github": ("::group::", "section_start:"),
    "buildkite": ("::group::", "section_start:", "--- ", "+++ ", "~~~ "),
    "off": (),
}
_CLOSERS: Final = ("::endgroup::", "section_end:")
_PRE_OPEN: Final = '<pre class="termscribe">\n'
_OPEN: Final = '<details class="ts-section" open><summary>'
_SUMMARY_END: Final = "</summary>" + _PRE_OPEN


class SectionWriter(LineWriter):
    """Renders the lines of a page (between ``html_start`` and ``html_end``)
    with section markers turned into ``<details>``; every line it writes
    ends with a newline, except the last one of all (``last``)."""

    def __init__(
        self,
        render_lines: Callable[[list[Line]], str],
        style: str,
        anchors: AnchoredLines | None = None,
    ) -> None:
        super().__init__(render_lines, anchors)
        self._openers = SECTION_STYLES[style]
        # Where the next line goes: "pre" (the page's <pre>, or one opened
        # after a section), "section" (a section's <pre>) or "none" (just
        # after a section ended: a <pre> opens when a line comes).
        self._state = "pre"

    def lines(self, lines: list[Line], limit: int) -> str:
        pieces: list[str] = []
        plain: list[Line] = []

        def flush() -> None:
            # Each run of plain lines gets what is left of the limit; the
            # section markup is paid for by its marker line.
            if plain:
                used = sum(map(len, pieces))
                pieces.append(self.group(plain, limit - used, 1) + "\n")
                plain.clear()

        for line in lines:
            text = line.text
            if text.startswith(self._openers):
                flush()
                pieces.append(_ENDS[self._state])
                header = self.group([line], limit - sum(map(len, pieces)), 0)
                pieces.append(_OPEN + header + _SUMMARY_END)
                self._state = "section"
            elif self._state == "section" and text.startswith(_CLOSERS):
                plain.append(line)
                flush()
                pieces.append(_ENDS["section"])
                self._state = "none"
            else:
                if self._state == "none":
                    pieces.append(_PRE_OPEN)
                    self._state = "pre"
                plain.append(line)
        flush()
        return "".join(pieces)

    def last(self, lines: list[Line], limit: int, frame: int = 0) -> str:
        """The lines still to come at the end: the last without its newline,
        and an open section closed (``html_end`` closes a ``<pre>``)."""
        html = self.lines(lines, limit - frame)
        if html.endswith("\n") and not html.endswith(_PRE_OPEN):
            html = html[:-1]
        if self._state != "pre":
            html += _ENDS[self._state] + _PRE_OPEN
            self._state = "pre"
        return html


# What ends the element the lines went to, before a section opens.
_ENDS: Final = {"pre": "</pre>\n", "section": "</pre></details>\n", "none": ""}


class AnchoredLines:
    """Line anchors: each line of rendered HTML in ``<span class="ts-line"
    id="LN">`` after an empty ``<a class="ts-ln" href="#LN">`` (its number is
    drawn by the stylesheet), numbered from 1 across the page, so
    ``page.html#L120`` points at line 120 without any script.

    A rendered line holds no newline and closes every tag it opens, so the
    lines are the pieces of the HTML between newlines.  The anchors' markup
    counts against the output limit like styles do: past it, lines go on
    unanchored (and keep their numbers)."""

    def __init__(self) -> None:
        self._number = 0

    def __call__(self, html: str, count: int, limit: int) -> str:
        if not count:
            return html
        pieces = html.split("\n")
        assert len(pieces) == count
        room = limit - len(html)
        out = []
        for piece in pieces:
            self._number += 1
            n = self._number
            head = (
                f'<span class="ts-line" id="L{n}"><a class="ts-ln" href="#L{n}" data-n="{n}"></a>'
            )
            if len(head) + 7 <= room:
                room -= len(head) + 7
                piece = f"{head}{piece}</span>"
            out.append(piece)
        return "\n".join(out)
