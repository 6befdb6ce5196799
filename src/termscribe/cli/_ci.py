"""The log syntax of CI systems: sections, their titles, times and collapsed
flag, and annotations, one table row (``CiSyntax``) per system.

Each pattern is matched at the start of a line's text as the transcript
holds it (after _markers surfaced what a terminal would have erased):

* **GitHub Actions**: ``::group::TITLE`` … ``::endgroup::`` as programs
  print them, and ``##[group]TITLE`` … ``##[endgroup]`` as GitHub's log
  download writes them, either after the download's
  ``2026-01-02T03:04:05.0000000Z`` time; annotations ``::error::MESSAGE``
  (``::warning``, ``::notice``, ``::debug``, with ``file=…,line=…,title=…``
  properties) and ``##[error]MESSAGE``.  Groups do not nest: a group's
  header ends the group before it, as on GitHub.
* **GitLab**: ``section_start:UNIX_TIME:NAME[collapsed=true]`` then the
  header, ``section_end:UNIX_TIME:NAME`` (the runner writes an end and the
  next start on one line; both are taken).  Sections nest; an end closes
  the section of its name and those opened inside it.  Both times give the
  section's duration.
* **Buildkite**: ``--- TITLE``, ``+++ TITLE``, ``~~~ TITLE`` after the
  ``[HH:MM:SS]`` that ``--timestamps`` shows; ``^^^ +++`` (open the group
  before, which is open already) is Buildkite's syntax only.  Groups do not
  nest.  ``--- `` also starts a diff's file lines, so these headers are
  taken only when asked for or when the log starts with Buildkite's
  ``ESC _bk;t=`` timestamp (``looks_like_buildkite``).

Every section is open unless the log's own syntax asks for it to be
collapsed (GitLab's ``[collapsed=true]``): Buildkite's ``---`` is its plain
header, not a request to hide anything.  A line's text is never dropped:
only the syntax (``::group::``, ``section_start:…``, ``--- ``) is, and
lines made of syntax alone (``::endgroup::``) are not shown.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

__all__ = [
    "MAX_SECTION_DEPTH",
    "SECTION_CHOICES",
    "SYNTAXES",
    "Annotation",
    "CiSyntax",
    "Header",
    "Parsed",
    "duration",
    "looks_like_buildkite",
    "parse_line",
    "syntaxes_for",
]

#: Most sections open at once (GitLab's nest): a header past it is shown
#: as a line of its own, without its syntax.
MAX_SECTION_DEPTH: Final = 32


class CiSyntax(NamedTuple):
    """How one CI system writes sections and annotations (see the module
    docstring).  Patterns match at a line's start; ``syntax`` is the group
    that is not shown (the rest of the line is), ``time`` a time there.
    A named tuple, not a dataclass: an HTML page's start then does not
    import ``dataclasses`` (and ``inspect``, ``ast``, ``dis`` with it)."""

    name: str
    #: Opens a section: groups ``syntax``, optional ``name``, ``time``
    #: (seconds since 1970), ``options``; the title is the rest of the line.
    opener: re.Pattern[str]
    #: Closes a section: groups ``syntax``, optional ``name``, ``time``;
    #: several may follow one another, then an opener.
    closer: re.Pattern[str] | None
    #: A line of the CI's syntax alone, with nothing to show.
    hidden: re.Pattern[str] | None
    #: An annotation: groups ``syntax``, ``level`` (or ``level2``),
    #: optional ``properties``; the message is the rest of the line.
    annotation: re.Pattern[str] | None
    #: Whether sections nest (else a header ends the section before it).
    nests: bool


_GITHUB_TIME = r"(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z )?"
_BUILDKITE_TIME = r"(?:\[\d\d:\d\d:\d\d\] )?"
_LEVELS = "error|warning|notice|debug"

#: The CI systems, by the name ``--sections`` knows them by.
SYNTAXES: Final = {
    "github": CiSyntax(
        "github",
        opener=re.compile(_GITHUB_TIME + r"(?P<syntax>::group::|##\[group\])"),
        closer=re.compile(_GITHUB_TIME + r"(?P<syntax>(?:::endgroup::|##\[endgroup\]) *)$"),
        hidden=None,
        annotation=re.compile(
            _GITHUB_TIME + r"(?P<syntax>::(?P<level>" + _LEVELS + r")"
            r"(?: (?P<properties>[^:]{0,1000}))?::|##\[(?P<level2>" + _LEVELS + r")\])"
        ),
        nests=False,
    ),
    "gitlab": CiSyntax(
        "gitlab",
        # _markers leaves one space after each marker.
        opener=re.compile(
            r"(?P<syntax>section_start:(?P<time>[0-9]{1,20}):(?P<name>[A-Za-z0-9_.\-]{1,200})"
            r"(?:\[(?P<options>[^\]]{0,200})\])? )"
        ),
        closer=re.compile(
            r"(?P<syntax>section_end:(?P<time>[0-9]{1,20}):(?P<name>[A-Za-z0-9_.\-]{1,200}) )"
        ),
        hidden=None,
        annotation=None,
        nests=True,
    ),
    "buildkite": CiSyntax(
        "buildkite",
        opener=re.compile(_BUILDKITE_TIME + r"(?P<syntax>(?:---|\+\+\+|~~~) )"),
        closer=None,
        hidden=re.compile(_BUILDKITE_TIME + r"\^\^\^ \+\+\+ *$"),
        annotation=None,
        nests=False,
    ),
}

#: ``--sections`` choices and the syntaxes each takes; "auto" adds
#: Buildkite's when the log starts with its timestamp.
SECTION_CHOICES: Final = {
    "auto": ("github", "gitlab"),
    "github": ("github", "gitlab"),
    "gitlab": ("github", "gitlab"),
    "buildkite": ("github", "gitlab", "buildkite"),
    "off": (),
}

_BUILDKITE_MARK: Final = b"\x1b_bk;t="


def looks_like_buildkite(start: bytes) -> bool:
    """Whether a log whose first bytes are ``start`` is Buildkite's: its
    first line carries Buildkite's timestamp (``ESC _bk;t=``)."""
    return _BUILDKITE_MARK in start.split(b"\n", 1)[0]


def syntaxes_for(choice: str, buildkite: bool = False) -> tuple[CiSyntax, ...]:
    """The syntaxes of a ``--sections`` choice (``buildkite``: the log is
    Buildkite's, see looks_like_buildkite)."""
    names = SECTION_CHOICES[choice]
    if choice == "auto" and buildkite:
        names = (*names, "buildkite")
    return tuple(SYNTAXES[name] for name in names)


class Header(NamedTuple):
    """A section's header: its syntax's span in the line, and what it says."""

    syntax: CiSyntax
    start: int
    end: int
    name: str | None
    time: int | None
    collapsed: bool


class Close(NamedTuple):
    syntax: CiSyntax
    name: str | None
    time: int | None


class Annotation(NamedTuple):
    """An annotation: its syntax's span in the line, level and properties."""

    start: int
    end: int
    level: str
    title: str
    place: str  # "FILE:LINE", or ""


class Parsed(NamedTuple):
    """What the CI syntax of one line says: sections it closes, then the
    header or annotation it holds; ``hidden``: nothing of it is shown."""

    closes: tuple[Close, ...]
    header: Header | None
    annotation: Annotation | None
    hidden: bool
    rest: int  # where the shown text starts after the closes


_GROUP: Final = re.compile(r"\(\?P<\w+>")


def prefilter(syntaxes: tuple[CiSyntax, ...]) -> re.Pattern[str] | None:
    """One pattern that matches the start of every line that any of
    ``syntaxes`` may take (most lines fail it at once)."""
    patterns = []
    for syntax in syntaxes:
        for pattern in (syntax.opener, syntax.closer, syntax.hidden, syntax.annotation):
            if pattern is not None:
                patterns.append("(?:" + _GROUP.sub("(?:", pattern.pattern) + ")")
    return re.compile("|".join(patterns)) if patterns else None


def parse_line(text: str, syntaxes: tuple[CiSyntax, ...]) -> Parsed | None:
    """The CI syntax at the start of ``text``, or None for a plain line."""
    closes: list[Close] = []
    position = 0
    while True:
        for syntax in syntaxes:
            if syntax.closer is None:
                continue
            match = syntax.closer.match(text, position)
            if match:
                closes.append(Close(syntax, match.groupdict().get("name"), _time(match)))
                position = match.end()
                break
        else:
            break
    for syntax in syntaxes:
        match = syntax.opener.match(text, position)
        if match:
            options = (match.groupdict().get("options") or "").split(",")
            header = Header(
                syntax,
                match.start("syntax"),
                match.end("syntax"),
                match.groupdict().get("name"),
                _time(match),
                "collapsed=true" in options,
            )
            return Parsed(tuple(closes), header, None, False, position)
    for syntax in syntaxes:
        if syntax.hidden is not None and syntax.hidden.match(text, position):
            return Parsed(tuple(closes), None, None, True, position)
        if syntax.annotation is None:
            continue
        match = syntax.annotation.match(text, position)
        if match:
            level = match.group("level") or match.group("level2")
            properties = _properties(match.group("properties") or "")
            place = properties.get("file", "")
            if place and properties.get("line", "").isdigit():
                place += ":" + properties["line"]
            title = properties.get("title", "")
            annotation = Annotation(match.start("syntax"), match.end("syntax"), level, title, place)
            return Parsed(tuple(closes), None, annotation, False, position)
    if not closes:
        return None
    return Parsed(tuple(closes), None, None, position == len(text), position)


def _time(match: re.Match[str]) -> int | None:
    value = match.groupdict().get("time")
    return int(value) if value and value.isdigit() else None


# GitHub's escapes in annotation properties and messages.
_ESCAPES: Final = {"%25": "%", "%0D": " ", "%0A": " ", "%3A": ":", "%2C": ","}
_ESCAPE = re.compile("%25|%0D|%0A|%3A|%2C")


def unescape(text: str) -> str:
    """A GitHub annotation's text with its %-escapes undone (line breaks
    become spaces)."""
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group()], text)


def _properties(text: str) -> dict[str, str]:
    properties = {}
    for item in text.split(","):
        key, sep, value = item.strip().partition("=")
        if sep and key in ("file", "line", "title"):
            properties[key] = unescape(value)
    return properties


def duration(start: int | None, end: int | None) -> str | None:
    """A section's duration as GitLab shows it (``MM:SS``, or
    ``H:MM:SS``), or None without both times or when they go backwards."""
    if start is None or end is None or end < start:
        return None
    seconds = min(end - start, 99 * 3600 + 3599)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes:02}:{seconds:02}"
