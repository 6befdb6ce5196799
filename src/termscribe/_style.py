"""Character styles and Select Graphic Rendition (SGR).

A :class:`Style` is an immutable value: equal styles compare and hash equal
whichever object holds them. Nothing is interned process-wide (one
transcript's style churn must not evict another's): each transcript's
``StylePalette`` gives each distinct style one code and one object, and
caches the result of each SGR sequence per style code, so colour-heavy logs
parse each distinct SGR sequence once per style and transcript.

Colours are validated integers only: ``None`` (default), a palette index
0-255, or ``RGB_FLAG | 0xRRGGBB`` for truecolor. Malformed or out-of-range SGR
values are ignored (the rest of the sequence still applies), never passed on.

Decisions (xterm where it defines the behaviour):

* ``21`` is double underline (xterm, ECMA-48), not "bold off".
* ``22`` clears bold and dim; ``24`` clears every underline style.
* ``4:0``..``4:5`` select none/single/double/curly/dotted/dashed underline.
* ``38;2;r;g;b``, ``38:2:r:g:b`` and ``38:2:cs:r:g:b`` (colour-space id
  ignored) are truecolor; ``38;5;n`` and ``38:5:n`` are palette colours; the
  same for 48 (background) and 58 (underline colour).
* ``CSI > ... m`` and other private-marker SGR forms are not SGR (xterm's
  modifyOtherKeys); the interpreter does not call ``apply_sgr`` for them.
"""

from __future__ import annotations

from ._syntax import parse_params

__all__ = [
    "BLINK",
    "BOLD",
    "CONCEAL",
    "DEFAULT",
    "DIM",
    "INVERSE",
    "ITALIC",
    "MAX_LINK_CHARS",
    "OVERLINE",
    "RGB_FLAG",
    "STRIKE",
    "Link",
    "Style",
]

BOLD = 1
DIM = 2
ITALIC = 4
BLINK = 8
INVERSE = 16
CONCEAL = 32
STRIKE = 64
OVERLINE = 128

#: Marks a truecolor value: ``RGB_FLAG | (r << 16 | g << 8 | b)``.
RGB_FLAG = 1 << 24

#: Underline styles (SGR 4:n).
UNDERLINE_NONE = 0
UNDERLINE_SINGLE = 1
UNDERLINE_DOUBLE = 2
UNDERLINE_CURLY = 3
UNDERLINE_DOTTED = 4
UNDERLINE_DASHED = 5


class Link:
    """An OSC 8 hyperlink as the program sent it (not yet validated): a
    value, equal to any other of the same target and id. Whether and how it
    may be shown is the renderers' decision."""

    __slots__ = ("_hash", "id", "key", "uri")

    def __init__(self, uri: str, id: str) -> None:
        self.uri = uri
        self.id = id
        self.key = (uri, id)
        self._hash = hash(self.key)

    @property
    def size(self) -> int:
        """Characters held (target and id), for the palette's budget."""
        return len(self.uri) + len(self.id)

    @classmethod
    def make(cls, uri: str, id: str = "") -> Link:
        return cls(uri, id)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Link) and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Link({self.uri!r}, id={self.id!r})"


#: Characters of link targets (and ids) that each transcript's palette may
#: hold: a target may be 8192 characters long, and 65 536 of them would keep
#: half a gigabyte.
MAX_LINK_CHARS = 4_000_000


_DEFAULT_KEY: tuple[object, ...] = (None, None, None, 0, 0, None)


class Style:
    """An immutable set of character attributes: a value."""

    __slots__ = (
        "_erase",
        "_hash",
        "bg",
        "fg",
        "flags",
        "is_default",
        "key",
        "link",
        "ul_color",
        "underline",
    )

    fg: int | None
    bg: int | None
    ul_color: int | None
    flags: int
    underline: int
    link: Link | None
    #: The attributes as one hashable value (the link as its target and id).
    key: tuple[object, ...]
    is_default: bool

    def __init__(
        self,
        fg: int | None,
        bg: int | None,
        ul_color: int | None,
        flags: int,
        underline: int,
        link: Link | None,
    ) -> None:
        self.fg = fg
        self.bg = bg
        self.ul_color = ul_color
        self.flags = flags
        self.underline = underline
        self.link = link
        self.key = (fg, bg, ul_color, flags, underline, None if link is None else link.key)
        self._hash = hash(self.key)
        self.is_default = self.key == _DEFAULT_KEY
        # The erase style, made when first asked for: the same value
        # whichever thread makes it.
        self._erase: Style | None = None

    @classmethod
    def make(
        cls,
        fg: int | None = None,
        bg: int | None = None,
        ul_color: int | None = None,
        flags: int = 0,
        underline: int = 0,
        link: Link | None = None,
    ) -> Style:
        return cls(fg, bg, ul_color, flags, underline, link)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Style) and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    def replace(self, **changes: object) -> Style:
        """A style with some attributes changed."""
        values: dict[str, object] = {
            "fg": self.fg,
            "bg": self.bg,
            "ul_color": self.ul_color,
            "flags": self.flags,
            "underline": self.underline,
            "link": self.link,
        }
        values.update(changes)
        return Style.make(**values)  # type: ignore[arg-type]

    def apply_sgr(self, raw: str) -> Style:
        """The style after ``CSI raw m`` (a transcript caches it: see
        StylePalette.after_sgr)."""
        return _apply(self, raw)

    def with_link(self, link: Link | None) -> Style:
        return self if link is self.link else self.replace(link=link)

    @property
    def erase_style(self) -> Style:
        """Style of cells erased while this style is current (xterm's BCE:
        the background colour only)."""
        erase = self._erase
        if erase is None:
            erase = self._erase = Style.make(bg=self.bg)
        return erase

    def __repr__(self) -> str:
        parts = [
            f"{name}={getattr(self, name)!r}"
            for name in ("fg", "bg", "ul_color", "flags", "underline", "link")
            if getattr(self, name)
        ]
        return "Style(" + ", ".join(parts) + ")"


DEFAULT = Style.make()


def _extended_colour(values: list[int], i: int) -> tuple[int | None, int] | None:
    """Parse ``5;n`` or ``2;r;g;b`` at ``values[i]`` (semicolon form).

    Returns (colour or None if invalid, number of values consumed), or None
    when the form is unknown (the rest of the sequence is then dropped, as
    xterm does)."""
    if i >= len(values):
        return None
    kind = values[i]
    if kind == 5:
        if i + 1 >= len(values):
            return None, len(values) - i
        n = values[i + 1]
        return (n if n <= 255 else None), 2
    if kind == 2:
        if i + 3 >= len(values):
            return None, len(values) - i
        r, g, b = values[i + 1 : i + 4]
        if r > 255 or g > 255 or b > 255:
            return None, 4
        return RGB_FLAG | (r << 16) | (g << 8) | b, 4
    return None


def _sub_colour(sub: tuple[int, ...]) -> int | None:
    """Parse the colon form ``38:5:n`` / ``38:2:[cs:]r:g:b``."""
    if len(sub) < 2:
        return None
    kind = sub[1]
    if kind == 5 and len(sub) == 3:
        return sub[2] if sub[2] <= 255 else None
    if kind == 2 and len(sub) in (5, 6):
        r, g, b = sub[-3:]
        if r > 255 or g > 255 or b > 255:
            return None
        return RGB_FLAG | (r << 16) | (g << 8) | b
    return None


_FLAG_ON = {1: BOLD, 2: DIM, 3: ITALIC, 5: BLINK, 6: BLINK, 7: INVERSE, 8: CONCEAL, 9: STRIKE}
_FLAG_OFF = {
    22: BOLD | DIM,
    23: ITALIC,
    25: BLINK,
    27: INVERSE,
    28: CONCEAL,
    29: STRIKE,
    55: OVERLINE,
}


def _apply(style: Style, raw: str) -> Style:
    params = parse_params(raw)
    if not params:
        return DEFAULT.with_link(style.link)
    fg, bg, ul_color = style.fg, style.bg, style.ul_color
    flags, underline = style.flags, style.underline
    # Semicolon form: sub-parameter tuples are flattened where the form
    # needs following values.
    values = [p if isinstance(p, int) else -1 for p in params]
    i = 0
    n = len(params)
    while i < n:
        p = params[i]
        i += 1
        if isinstance(p, tuple):
            head = p[0]
            if head == 4:
                if len(p) == 2 and p[1] <= 5:
                    underline = p[1]
            elif head in (38, 48, 58):
                colour = _sub_colour(p)
                if colour is not None:
                    if head == 38:
                        fg = colour
                    elif head == 48:
                        bg = colour
                    else:
                        ul_color = colour
            continue
        if p == 0:
            fg = bg = ul_color = None
            flags = underline = 0
        elif p in _FLAG_ON:
            flags |= _FLAG_ON[p]
        elif p in _FLAG_OFF:
            flags &= ~_FLAG_OFF[p]
        elif p == 4:
            underline = UNDERLINE_SINGLE
        elif p == 21:
            underline = UNDERLINE_DOUBLE
        elif p == 24:
            underline = UNDERLINE_NONE
        elif p == 53:
            flags |= OVERLINE
        elif 30 <= p <= 37:
            fg = p - 30
        elif 40 <= p <= 47:
            bg = p - 40
        elif 90 <= p <= 97:
            fg = p - 90 + 8
        elif 100 <= p <= 107:
            bg = p - 100 + 8
        elif p == 39:
            fg = None
        elif p == 49:
            bg = None
        elif p == 59:
            ul_color = None
        elif p in (38, 48, 58):
            parsed = _extended_colour(values, i)
            if parsed is None:
                break
            colour, used = parsed
            i += used
            if colour is not None and -1 not in values[i - used : i]:
                if p == 38:
                    fg = colour
                elif p == 48:
                    bg = colour
                else:
                    ul_color = colour
    return Style.make(fg, bg, ul_color, flags, underline, style.link)
