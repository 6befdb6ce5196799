"""The lines of an HTML page written by ``render``: CI sections as
``<details>``, line numbers, and a summary of the log's annotations.

What each CI system writes is in _ci (one row per system); this module
turns it into the page:

* A section is ``<div class="ts-sec"><details class="ts-section" open>``
  with the header's title (its line without the CI's syntax) as the
  ``<summary>``, its lines in a ``<pre>``, and nested sections in it.  A
  GitLab section's duration follows the ``</details>`` when its end is read
  (a page is written as the log is read; the stylesheet draws the duration
  at the right of the summary, which stays visible when the section is
  collapsed).  Only a section whose syntax asks for it starts collapsed.
* A ``<pre>`` is opened only for a line to go in it: no empty box, but for
  an empty log.
* Lines are numbered as the text output's lines (``L1``…``Ln``; the empty
  line where the cursor waits at the end is no line of the text output):
  a summary's line is numbered, a line of the CI's syntax alone
  (``::endgroup::``) keeps its number and is not shown.  With
  ``--line-anchors`` each line shown starts with an empty
  ``<a class="ts-ln" id="LN" href="#LN">`` whose number the stylesheet
  draws (no text of the page, no script).
* An annotation (GitHub's ``::error::``) shows its level, as GitHub's log
  does, in place of its syntax; its line always has an id (an empty
  ``<span class="ts-line" id="LN">`` without anchors), and the
  annotations are listed, with links to their lines, in a ``<nav>`` written
  at the end of the page (a page is written as it is read) and drawn at its
  top by the stylesheet.

The page's visible text, read in order (each summary a line of its own,
the durations and the list of annotations aside), is the text transcript's
lines less the CI's own syntax.

Long runs of lines are written in blocks of BLOCK_LINES, each a ``<pre>``
that the stylesheet marks ``content-visibility: auto``: the browser lays
out and paints a block only near the screen, so that the page of a log of
millions of lines opens fast without a script.  Lines wait to be written
until a block is full, a section or annotation comes, or the log ends (at
most BLOCK_LINES lines or MAX_BLOCK_CHARS characters; not at all with
``hold=False``, as ``--follow`` needs).

Markup counts against the output limit: a section's and an annotation's
are paid for by the bytes of the line that asks for them (``::group::``
alone is 64 x 9 characters); the end of every element open is kept out of
the room until it is written; line anchors and new blocks are added only
while there is room left beside the text still to write (past it, lines
go on unanchored, keeping their numbers, in the ``<pre>`` open); and the
list of annotations lists as many as fit (at most MAX_ANNOTATIONS).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Final

from .._budget import styled_within
from .._rows import Line, Run
from .._style import DEFAULT
from ._ci import MAX_SECTION_DEPTH, CiSyntax, Parsed, parse_line, prefilter, unescape
from ._ci import duration as section_duration

__all__ = [
    "BLOCK_LINES",
    "MAX_ANNOTATIONS",
    "MAX_ANNOTATION_TEXT",
    "MAX_BLOCK_CHARS",
    "SECTIONS_CSS",
    "PageWriter",
]

#: Most annotations listed at the top of a page (the rest are counted).
MAX_ANNOTATIONS: Final = 1000
#: Most characters of an annotation's title and message in the list.
MAX_ANNOTATION_TEXT: Final = 200

_PRE_OPEN: Final = '<pre class="termscribe">\n'
_PRE_CLOSE: Final = "</pre>\n"
_BLOCK_OPEN: Final = '<pre class="termscribe ts-block">\n'
#: Lines of a block: a ``<pre>`` that the browser lays out and paints only
#: when it comes near the screen (``content-visibility: auto``), so that
#: the page of a long log opens fast without any script.
BLOCK_LINES: Final = 500
#: Characters of lines held for a block, at most (past it they are written).
MAX_BLOCK_CHARS: Final = 1_000_000
# What ending a <pre> and starting another costs, and some.
_SPLIT_COST: Final = 2 * len(_BLOCK_OPEN + _PRE_CLOSE)
# The most a line's anchor costs, and some.
_ANCHOR_COST: Final = 80
# The most a section's end costs: '</details><span class="ts-dur"
# title="duration">99:59:59</span></div>\n'.
_SECTION_CLOSE: Final = 80
# The most the list of annotations costs besides its items.
_NAV_COST: Final = 200
_LABELS: Final = {"error": "Error", "warning": "Warning", "notice": "Notice", "debug": "Debug"}

#: The stylesheet of a page with sections: a continuous log, the summaries
#: in the log's font, durations at the right of their summary, the list of
#: annotations first.
SECTIONS_CSS: Final = (
    "body{display:flex;flex-direction:column}\n"
    "body>*{min-width:0}\n"
    "div.ts-log{padding:12px 0;white-space:normal}\n"
    "div.ts-log .termscribe{padding:0 16px;border-radius:0}\n"
    "div.ts-log div.ts-sec{position:relative;padding:0;white-space:normal;overflow:visible}\n"
    "div.ts-sec div.ts-sec>details>*{box-shadow:inset 2px 0 var(--ts-c8)}\n"
    # The disclosure triangle in the summary's left padding: line numbers
    # stay in one column.
    "div.ts-log summary.termscribe{display:block;position:relative;cursor:pointer}\n"
    "div.ts-log summary.termscribe::before{content:'▸';position:absolute;left:3px}\n"
    "div.ts-log details[open]>summary.termscribe::before{content:'▾'}\n"
    ".ts-dur{position:absolute;top:0;right:16px;font-weight:bold}\n"
    # A block is drawn when near the screen; until then it takes the height
    # of its lines (13px at line-height 1.35), and then the height it had.
    "div.ts-log pre.ts-block{content-visibility:auto;"
    f"contain-intrinsic-size:auto {BLOCK_LINES * 1.35 * 13:.0f}px}}\n"
    ".termscribe .ts-annot{font-weight:bold}\n"
    ".termscribe .ts-annot-error{color:var(--ts-c1)}\n"
    ".termscribe .ts-annot-warning{color:var(--ts-c3)}\n"
    ".termscribe .ts-annot-notice{color:var(--ts-c6)}\n"
    ".termscribe .ts-annot-debug{color:var(--ts-c5)}\n"
    "nav.ts-annotations{order:-1;white-space:normal;margin-bottom:12px}\n"
    "nav.ts-annotations ul{margin:4px 0 0;padding:0;list-style:none}\n"
)
_LOG_OPEN: Final = '<div class="termscribe ts-log">\n'
_LOG_CLOSE: Final = "</div>\n"


class PageWriter:
    """Writes the lines of a page (between ``html_start(pre=False)`` and
    ``html_end(pre=False)``): ``lines`` for lines that are final, in order,
    then ``last`` once for the lines left at the end.  Each call returns
    HTML within ``limit`` characters (see _budget) for what its lines paid."""

    def __init__(
        self,
        render_lines: Callable[[list[Line]], str],
        syntaxes: tuple[CiSyntax, ...],
        anchors: bool,
        framed: bool = False,
        hold: bool = True,
    ) -> None:
        self._render = render_lines
        self._anchors = anchors
        # Whether the log goes in one <div class="ts-log"> (a page with
        # SECTIONS_CSS): its blocks then make one box.
        self._framed = framed
        # Plain lines not written yet (at most a block's), and whether they
        # may wait for more (not when each call's lines must be shown).
        self._pending: list[Line] = []
        self._pending_chars = 0
        self._hold = hold
        self._pre_lines = 0  # lines in the open <pre>
        self.syntaxes = syntaxes
        self._number = 0  # lines of the text output so far
        self._in_pre = False
        self._wrote = False
        # Open sections, outermost first: (syntax, name, start time).
        self._open: list[tuple[CiSyntax, str | None, int | None]] = []
        # (line number, level, title, place, message) of each annotation listed.
        self._annotations: list[tuple[int, str, str, str, str]] = []
        self._counts: dict[str, int] = {}
        # What closing the open elements (and listing the annotations) will
        # cost: kept out of the room of each call until it is written.
        self._owed = 0

    @property
    def syntaxes(self) -> tuple[CiSyntax, ...]:
        return self._syntaxes

    @syntaxes.setter
    def syntaxes(self, syntaxes: tuple[CiSyntax, ...]) -> None:
        """The CI syntaxes to find (set before the first line is written)."""
        self._syntaxes = syntaxes
        self._prefilter = prefilter(syntaxes)

    def lines(self, lines: list[Line], limit: int) -> str:
        out = _Out(limit - self._owed)
        # The text of the lines still to write: anchors leave room for it.
        out.later = self._pending_chars + sum(len(line.text) + 1 for line in lines)
        pending = self._pending
        match = self._prefilter.match if self._prefilter is not None else None
        for line in lines:
            parsed = None
            if match is not None and match(line.text):
                parsed = parse_line(line.text, self._syntaxes)
            if parsed is None:
                pending.append(line)
                self._pending_chars += len(line.text) + 1
                if len(pending) >= BLOCK_LINES or self._pending_chars >= MAX_BLOCK_CHARS:
                    self._flush(out, block=True)
                continue
            self._flush(out)
            out.later -= len(line.text) + 1
            self._syntax(line, parsed, out)
        if not self._hold:
            self._flush(out)
        return "".join(out.pieces)

    def _flush(self, out: _Out, block: bool = False) -> None:
        """Write the lines held: as a block of their own (``block``, a
        ``<pre>`` the stylesheet lets the browser skip while it is off
        screen), else into the open ``<pre>``."""
        lines = self._pending[:]
        if not lines:
            return
        self._pending.clear()
        self._pending_chars = 0
        if not self._framed:  # a page of one <pre>
            self._plain(lines, out)
            return
        # A new <pre> is markup to pay for: past the output limit, lines
        # go on in the one open.
        room = out.free
        block = block and room > _SPLIT_COST
        if block or (self._pre_lines + len(lines) > BLOCK_LINES and room > _SPLIT_COST):
            self._close_pre(out)
        if block:
            self._start(out)
            out.add(_BLOCK_OPEN)
            self._reserve(out, len(_PRE_CLOSE))
            self._in_pre = True
        self._plain(lines, out)
        if block:
            self._close_pre(out)

    def last(self, lines: list[Line], limit: int, frame: int = 0) -> str:
        """The lines left at the end, every element closed, and the list of
        annotations.  As in the text transcript, the last line has no
        newline after it, and an empty last line (where the cursor waits
        after the log's last newline) is that newline, not a line of the
        text output."""
        ends_in_newline = bool(lines) and not lines[-1].text
        if ends_in_newline:
            lines = lines[:-1]
        self._hold = False
        final = [] if ends_in_newline else lines[-1:]
        html = self.lines(lines[: len(lines) - len(final)], limit - frame)
        if final:  # written alone: a line in a <pre> loses its newline
            rest = self.lines(final, limit - frame - len(html))
            if self._in_pre and rest.endswith("\n"):
                rest = rest[:-1]
            html += rest
        out = _Out(limit - frame - len(html))
        out.add(html)
        self._close_pre(out)
        while self._open:
            self._close_section(len(self._open) - 1, None, out)
        if self._wrote and self._framed:
            self._reserve(out, -len(_LOG_CLOSE))
            out.add(_LOG_CLOSE)
        if not self._wrote:
            out.add(_PRE_OPEN + "</pre>\n")  # an empty log: an empty box says so
        if self._counts:
            self._reserve(out, -_NAV_COST)
            self._list_annotations(out)
        return "".join(out.pieces)

    # -- lines

    def _plain(self, lines: list[Line], out: _Out) -> None:
        """Lines of the log's own text, each numbered."""
        self._open_pre(out)
        self._pre_lines += len(lines)
        out.later -= sum(len(line.text) + 1 for line in lines)
        html = styled_within(lines, out.room, self._render, len(lines))
        if self._anchors:
            room = out.free - len(html)
            pieces = html.split("\n")
            for index, piece in enumerate(pieces):
                pieces[index] = self._anchored(piece, room)
                room -= len(pieces[index]) - len(piece)
            html = "\n".join(pieces)
        else:
            self._number += len(lines)
        out.add(html + "\n")

    def _anchored(self, html: str, room: int, always: bool = False) -> str:
        """One line's HTML numbered (the next number), after its anchor if
        wanted and there is room (else after an empty element with its id,
        if ``always``).  One element a line: a page of a million lines
        loads in half the time it takes with two."""
        self._number += 1
        n = self._number
        if self._anchors and room >= _ANCHOR_COST:
            return f'<a class="ts-ln" id="L{n}" href="#L{n}" data-n="{n}"></a>{html}'
        if always:
            return f'<span class="ts-line" id="L{n}"></span>{html}'
        return html

    def _syntax(self, line: Line, parsed: Parsed, out: _Out) -> None:
        for close in parsed.closes:
            for index in range(len(self._open) - 1, -1, -1):
                syntax, name, _ = self._open[index]
                if syntax is close.syntax and (close.name is None or close.name == name):
                    self._close_section(index, close.time, out)
                    break
        header, annotation = parsed.header, parsed.annotation
        if parsed.hidden:
            self._number += 1
            return
        if header is None and annotation is None:  # closes, then text
            out.later += len(line.text) + 1  # (_plain counts it again)
            self._plain([_cut(line, parsed.rest, len(line.text))], out)
            return
        if header is not None:
            if not header.syntax.nests:
                for index, (syntax, _, _) in enumerate(self._open):
                    if syntax is header.syntax:
                        self._close_section(index, None, out)
                        break
            title = _cut(line, parsed.rest, header.start, header.end)
            if len(self._open) >= MAX_SECTION_DEPTH:
                out.later += len(line.text) + 1  # (_plain counts it again)
                self._plain([title], out)
                return
            self._close_pre(out)
            self._start(out)
            attributes = "" if header.collapsed else " open"
            html = styled_within([title], out.room, self._render, 0)
            out.add(
                f'<div class="termscribe ts-sec"><details class="ts-section"{attributes}>'
                f'<summary class="termscribe">{self._anchored(html, out.free)}</summary>\n'
            )
            self._open.append((header.syntax, header.name, header.time))
            self._reserve(out, _SECTION_CLOSE)
            return
        assert annotation is not None
        text = line.text
        prefix = _cut(line, parsed.rest, annotation.start)
        message = _cut(line, annotation.end, len(text))
        level = annotation.level
        label = f'<span class="ts-annot ts-annot-{level}">{_LABELS[level]}: </span>'
        html = styled_within([prefix], out.room, self._render, 0) + label
        html += styled_within([message], out.room - len(html), self._render, 0)
        self._open_pre(out)
        self._pre_lines += 1
        out.add(self._anchored(html, out.free, always=True) + "\n")
        if level != "debug":
            if not self._counts:
                self._reserve(out, _NAV_COST)
            self._counts[level] = self._counts.get(level, 0) + 1
            if len(self._annotations) < MAX_ANNOTATIONS:
                self._annotations.append(
                    (
                        self._number,
                        level,
                        _short(unescape(annotation.title)),
                        annotation.place[:MAX_ANNOTATION_TEXT],
                        _short(unescape(message.text)),
                    )
                )

    # -- elements

    def _reserve(self, out: _Out, cost: int) -> None:
        """Keep ``cost`` characters for an element's end (negative: release
        them, to write it)."""
        self._owed += cost
        out.room -= cost

    def _start(self, out: _Out) -> None:
        if not self._wrote:
            if self._framed:
                out.add(_LOG_OPEN)
                self._reserve(out, len(_LOG_CLOSE))
            self._wrote = True

    def _open_pre(self, out: _Out) -> None:
        if not self._in_pre:
            self._start(out)
            out.add(_PRE_OPEN)
            self._reserve(out, len(_PRE_CLOSE))
            self._in_pre = True

    def _close_pre(self, out: _Out) -> None:
        if self._in_pre:
            self._reserve(out, -len(_PRE_CLOSE))
            out.add(_PRE_CLOSE)
            self._in_pre = False
            self._pre_lines = 0

    def _close_section(self, index: int, end: int | None, out: _Out) -> None:
        """Close the open section at ``index`` and those inside it (``end``:
        the time the section at ``index`` ended)."""
        self._close_pre(out)
        while len(self._open) > index:
            _, _, start = self._open.pop()
            self._reserve(out, -_SECTION_CLOSE)
            shown = section_duration(start, end) if len(self._open) == index else None
            out.add("</details>")
            if shown is not None:
                out.add(f'<span class="ts-dur" title="duration">{shown}</span>')
            out.add("</div>\n")

    def _list_annotations(self, out: _Out) -> None:
        counts = ", ".join(
            f"{count} {_LABELS[level].lower()}{'s' if count > 1 else ''}"
            for level, count in self._counts.items()
        )
        out.add(f'<nav class="termscribe ts-annotations" aria-label="Annotations">{counts}<ul>\n')
        listed = 0
        for n, level, title, place, message in self._annotations:
            words = " ".join(escape(part) for part in (place, title) if part)
            item = (
                f'<li><a href="#L{n}"><span class="ts-annot ts-annot-{level}">{_LABELS[level]}'
                f"</span> line {n}</a>{': ' + words if words else ''}: {escape(message)}</li>\n"
            )
            if len(item) + _NAV_COST > out.room:
                break
            out.add(item)
            listed += 1
        left = sum(self._counts.values()) - listed
        if left:
            out.add(f"<li>and {left} more</li>\n")
        out.add("</ul></nav>\n")


class _Out:
    """Pieces of HTML and the room left for more within a limit."""

    __slots__ = ("later", "pieces", "room")

    def __init__(self, limit: int) -> None:
        self.pieces: list[str] = []
        self.room = limit
        self.later = 0  # characters of text to come, which markup must leave

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.room -= len(piece)

    @property
    def free(self) -> int:
        """The room markup may take: what the text to come leaves."""
        return self.room - max(self.later, 0)


def _short(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_ANNOTATION_TEXT:
        text = text[: MAX_ANNOTATION_TEXT - 1] + "…"
    return text


def _cut(line: Line, start: int, end: int, resume: int | None = None) -> Line:
    """``line`` from ``start`` to ``end``, and on from ``resume`` (to its
    end) when given: the text around a CI syntax, with its styles."""
    spans = [(start, end)]
    if resume is not None:
        spans.append((resume, len(line.text)))
    runs: list[Run] = []
    text = "".join(line.text[a:b] for a, b in spans)
    position = 0
    for run_text, style in line.runs:
        run_end = position + len(run_text)
        for a, b in spans:
            lo, hi = max(a, position), min(b, run_end)
            if lo < hi:
                runs.append((run_text[lo - position : hi - position], style))
        position = run_end
    if position != len(line.text) or "".join(run for run, _ in runs) != text:
        return Line.unchecked(((text, DEFAULT),), text)
    return Line.unchecked(tuple(runs), text)
