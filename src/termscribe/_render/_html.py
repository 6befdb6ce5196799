"""The HTML renderer: lines of styled runs → a ``<pre class="termscribe">``.

Safety rules (SECURITY.md, "markup injection", "CSS injection", "hyperlink
spoofing", "hiding or faking text"):

* Text is escaped (``& < > " '``) and nothing from the stream is ever put in
  markup unescaped. Tags, attribute names and class names are the renderer's
  own constants.
* Inline CSS holds only ``#rrggbb`` values formatted from validated integers
  (Style colours are already range-checked ints).
* A link is an ``<a>`` only when ``_urls.safe_url`` accepts its target; its
  ``href`` and ``title`` are that rebuilt ASCII URL, so hovering shows the
  real target whatever the link text claims. Other links keep their text.
* Readable (SECURITY.md "hiding by colour", DESIGN.md invariant 7): every
  character keeps ``_contrast.MIN_RATIO`` (3:1) against its actual
  background in both themes. Where the stream's colours fall short in a
  theme, the foreground is moved toward lighter or darker as xterm.js's
  ``minimumContrastRatio`` does, and the span carries the colour of each
  theme (class ``ts-fgx`` with ``--ts-l``/``--ts-d``), or one ``color`` when
  both agree. Backgrounds are kept. Dim text is a computed colour, checked
  the same way, never an opacity.
* Concealed text, and text too close in colour to its background to be read
  in either theme (black on black), is shown in the default colours with a
  dashed outline and a title saying it was hidden.

The visible text of the ``<pre>`` equals the text transcript: lines are
joined with ``\\n`` and every tag opened for a run is closed within it, so any
slice of lines can be rendered on its own (streaming export). A newline right
after ``<pre>`` is dropped by HTML parsers, so one is always written there.

Speed: each distinct Style's open and close tags are built once per call
(styles are values: equal ones share the entry); escaping runs only on text
that needs it. Nothing is cached at module level (DESIGN.md invariant 8).

Real markers (``_rows.MARKERS``) are elements of their own, class
``ts-marker``: input that spells one was escaped when its Line was made, so
only termscribe's own markers get the class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

from .._rows import MARKERS, Line, Run
from .._style import (
    BLINK,
    BOLD,
    CONCEAL,
    DIM,
    INVERSE,
    ITALIC,
    OVERLINE,
    RGB_FLAG,
    STRIKE,
    Style,
)
from ._contrast import blend, contrast, ensure_contrast
from ._theme import DARK, LIGHT, STYLESHEET, Theme, layout_css, palette_rgb
from ._urls import safe_url

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "LINK_REL",
    "html_end",
    "html_lines",
    "html_pairs",
    "html_pieces",
    "html_start",
]

#: No scripts, no fetches of any kind, no forms, no <base>: the page can only
#: show itself. Inline styles are needed for the embedded stylesheet and for
#: the validated #rrggbb colours.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
LINK_REL = "noopener noreferrer nofollow"
_HIDDEN_TITLE = "hidden in the terminal"
_PRE_OPEN = '<pre class="termscribe">\n'
# Real markers, as _rows.MARKERS finds them, kept by split().
_MARKERS = re.compile(f"({MARKERS.pattern})")


def _marker_tag(tag: tuple[str, str]) -> tuple[str, str]:
    """The tag of a marker shown in a run of ``tag``: the same, with the
    class ``ts-marker`` (attribute values are escaped, so the first
    ``class="`` is the attribute)."""
    start, end = tag
    if not start:
        return '<span class="ts-marker">', "</span>"
    if 'class="' in start:
        return start.replace('class="', 'class="ts-marker ', 1), end
    return start[:-1] + ' class="ts-marker">', end


_FLAG_CLASSES = ((BOLD, "ts-bold"), (DIM, "ts-dim"), (ITALIC, "ts-italic"), (BLINK, "ts-blink"))
_UNDERLINE_CLASSES = ("", "ts-ul", "ts-ul2", "ts-ul3", "ts-ul4", "ts-ul5")

# Resolved colour slots: None is the default colour of the slot; _OTHER is
# the other slot's default (inverse video of default colours).
_OTHER = -1
#: Below this WCAG contrast ratio in both themes, the stream's colours hide
#: the text (1 is the same colour): it is shown as concealed text is.
HIDDEN_CONTRAST = 1.25
#: Dim (faint) text is its colour at this opacity over its background.
DIM_ALPHA = 0.65


def html_lines(lines: Iterable[Line]) -> str:
    """The HTML of lines, joined with ``\\n`` (no trailing newline), to go
    between ``html_start()`` and ``html_end()``."""
    return html_pairs([(line.text, line.runs) for line in lines])


def html_pairs(lines: Iterable[tuple[str, Iterable[Run]]]) -> str:
    """html_lines of lines given as their text and runs."""
    return "".join(html_pieces(lines))


def html_pieces(lines: Iterable[tuple[str, Iterable[Run]]]) -> list[str]:
    """html_pairs as pieces to join (a caller adds what goes around them
    before the one join: a long transcript is not copied twice)."""
    # Tags are built once per distinct style and call: the cache lives and
    # dies with this call, so no transcript (or thread) sees another's, and
    # its size is bounded by the runs rendered.
    # Tags are found by the style object's id, a style's own hash being a
    # Python call; each style found is kept alive in ``alive`` for the call,
    # so that no other object can take its id.
    tags: dict[int, tuple[str, str]] = {}
    alive: list[Style] = []
    same: dict[tuple[str, str], tuple[str, str]] = {}

    def new_tag(style: Style) -> tuple[str, str]:
        # Styles that render alike share one tag object, so runs of them
        # merge.
        tag = _build_tag(style)
        tag = tags[id(style)] = same.setdefault(tag, tag)
        alive.append(style)
        return tag

    marker_tags: dict[tuple[str, str], tuple[str, str]] = {}
    out: list[str] = []
    append = out.append
    for line_text, runs in lines:
        # One check per line: most lines need no escaping at all. Five
        # searches for one character (memchr each) take less than one pass
        # of the regex engine testing a character class per character.
        special = (
            "&" in line_text
            or "<" in line_text
            or ">" in line_text
            or '"' in line_text
            or "'" in line_text
        )
        # A marker starts with "<" (then special) or "[".
        marked = (special and "<U+" in line_text) or "[termscribe:" in line_text
        if not marked and type(runs) is tuple and len(runs) == 1:
            # (the usual case) a line of one run: its element, or its text.
            ((run_text, style),) = runs
            tag = tags.get(id(style)) or new_tag(style)
            if run_text:  # (an empty run makes no element)
                if special:
                    run_text = escape(run_text)
                append(tag[0] + run_text + tag[1] if tag[0] else run_text)
            append("\n")
            continue
        current: tuple[str, str] | None = None
        pending = ""
        for run_text, style in runs:
            tag = tags.get(id(style)) or new_tag(style)
            pieces = _MARKERS.split(run_text) if marked else (run_text,)
            for index, text in enumerate(pieces):
                piece_tag = tag
                if index % 2:  # a real marker (see _rows): an element of its own
                    piece_tag = marker_tags.get(tag) or marker_tags.setdefault(
                        tag, _marker_tag(tag)
                    )
                elif not text:
                    continue
                if special:
                    text = escape(text)
                if piece_tag is current:  # a different style that renders the same
                    pending += text
                    continue
                if current is not None:
                    append(current[0] + pending + current[1])
                current = piece_tag
                pending = text
        if current is not None:
            append(current[0] + pending + current[1])
        append("\n")
    if out:
        out.pop()
    return out


def html_start(
    *,
    standalone: bool = False,
    title: str = "Terminal transcript",
    theme: str = "auto",
    wrap: bool = False,
    anchors: bool = False,
    pre: bool = True,
    css: str = "",
) -> str:
    """What comes before the lines: ``<pre>``, or a whole document head
    (``theme``, ``wrap`` and ``anchors``: see ``_theme.layout_css``).

    A page whose caller writes its own blocks (the command line's CI
    sections) asks for no ``<pre>`` and may add its own rules (``css``, the
    caller's constant, never text of a stream)."""
    extra = layout_css(theme=theme, wrap=wrap, anchors=anchors) + css
    if not standalone:
        if extra or not pre:
            raise ValueError("theme, wrap, anchors, css and pre apply to standalone documents only")
        return _PRE_OPEN
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(_printable(title))}</title>\n"
        f"<style>\n{_PAGE_CSS}{STYLESHEET}{extra}</style>\n"
        f"</head>\n<body>\n{_PRE_OPEN if pre else ''}"
    )


def html_end(*, standalone: bool = False, pre: bool = True) -> str:
    """What comes after the lines (``pre``: as html_start was asked)."""
    if not standalone:
        return "</pre>"
    return ("</pre>\n" if pre else "") + "</body>\n</html>\n"


# The page around the transcript: the terminal's colours fill the window.
_PAGE_CSS = (
    ":root{color-scheme:light dark}\n"
    "body{margin:0;padding:16px;background:#f6f8fa}\n"
    "@media (prefers-color-scheme:dark){body{background:#111}}\n"
)


def _printable(text: str) -> str:
    """A caller's title (say, a file name) without controls, bidi or
    surrogates: U+FFFD stands in for each."""
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in text)


def _build_tag(style: Style) -> tuple[str, str]:
    """(open tag, close tag) for a style; ("", "") for plain text."""
    classes: list[str] = []
    declarations: list[str] = []
    flags = style.flags
    fg: int | None = style.fg
    bg: int | None = style.bg
    if flags & INVERSE:
        fg, bg = (_OTHER if bg is None else bg), (_OTHER if fg is None else fg)
    # The stream's colours as each theme draws them.
    light = _theme_fg(fg, LIGHT), _theme_bg(bg, LIGHT)
    dark = _theme_fg(fg, DARK), _theme_bg(bg, DARK)
    hidden = bool(flags & CONCEAL) or _invisible(light, dark)
    if not hidden:
        _foreground(fg, light, dark, bool(flags & DIM), classes, declarations)
        _colour(bg, "bg", "background-color", classes, declarations)
    classes.extend(name for flag, name in _FLAG_CLASSES if flags & flag)
    if style.underline:
        classes.append(_UNDERLINE_CLASSES[style.underline])
        if style.ul_color is not None:
            declarations.append("text-decoration-color:" + _css_colour(style.ul_color))
    if flags & STRIKE:
        classes.append("ts-strike")
    if flags & OVERLINE:
        classes.append("ts-overline")
    if hidden:
        classes.append("ts-conceal")
    attributes = ""
    if classes:
        attributes += f' class="{" ".join(classes)}"'
    if declarations:
        attributes += f' style="{";".join(declarations)}"'
    url = safe_url(style.link.uri) if style.link is not None else None
    if url is not None:
        quoted = escape(url)
        return f'<a href="{quoted}" title="{quoted}" rel="{LINK_REL}"{attributes}>', "</a>"
    if hidden:
        return f'<span title="{_HIDDEN_TITLE}"{attributes}>', "</span>"
    if attributes:
        return f"<span{attributes}>", "</span>"
    return "", ""


def _colour(
    value: int | None, slot: str, prop: str, classes: list[str], declarations: list[str]
) -> None:
    if value is None:
        return
    if value == _OTHER:
        classes.append("ts-fgbg" if slot == "fg" else "ts-bgfg")
    elif value < 16:
        classes.append(f"ts-{slot}{value}")
    else:
        declarations.append(f"{prop}:{_css_colour(value)}")


def _css_colour(value: int) -> str:
    """``#rrggbb`` (or a theme variable for 0-15) from a validated colour."""
    if value < 16:
        return f"var(--ts-c{value})"
    return f"#{_rgb(value):06x}"


def _rgb(value: int) -> int:
    return value & 0xFFFFFF if value & RGB_FLAG else palette_rgb(value)


def _foreground(
    fg: int | None,
    light: tuple[int, int],
    dark: tuple[int, int],
    dim: bool,
    classes: list[str],
    declarations: list[str],
) -> None:
    """The text colour: fg as the stream set it where that keeps MIN_RATIO
    against the background in both themes (``light`` and ``dark`` are the
    (fg, bg) pairs each draws); otherwise, and for dim text (fg at
    DIM_ALPHA over the background), the colour computed for each theme:
    one ``color`` if both agree, else ``--ts-l``/``--ts-d``."""
    shown_light = _shown(*light, dim)
    shown_dark = _shown(*dark, dim)
    if not dim and shown_light == light[0] and shown_dark == dark[0]:
        _colour(fg, "fg", "color", classes, declarations)
    elif shown_light == shown_dark:
        declarations.append(f"color:#{shown_light:06x}")
    else:
        classes.append("ts-fgx")
        declarations.append(f"--ts-l:#{shown_light:06x};--ts-d:#{shown_dark:06x}")


def _shown(fg: int, bg: int, dim: bool) -> int:
    """The colour text in fg is drawn in on bg."""
    if dim:
        fg = blend(fg, bg, DIM_ALPHA)
    return ensure_contrast(fg, bg)


def _invisible(light: tuple[int, int], dark: tuple[int, int]) -> bool:
    """Whether text cannot be read in either theme (each (fg, bg) as the
    theme draws it): what a stream does to hide text from a reader (black on
    black, #121212 on #111111). Default colours are the viewer's, so a
    stream cannot rely on them: they count only through the other theme."""
    return contrast(*light) < HIDDEN_CONTRAST and contrast(*dark) < HIDDEN_CONTRAST


def _theme_fg(value: int | None, theme: Theme) -> int:
    return _theme_rgb(value, theme, theme.fg, theme.bg)


def _theme_bg(value: int | None, theme: Theme) -> int:
    return _theme_rgb(value, theme, theme.bg, theme.fg)


def _theme_rgb(value: int | None, theme: Theme, default: int, other: int) -> int:
    if value is None:
        return default
    if value == _OTHER:
        return other
    return theme.palette[value] if value < 16 else _rgb(value)
