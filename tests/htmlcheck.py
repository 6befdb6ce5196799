"""The HTML checker of SECURITY.md ("What a checker asserts", HTML part).

``check_html(html, text)`` parses the output with html5lib in strict mode and
walks the tree: only the renderer's own tags, attributes, classes and style
values; ``href`` only http/https/mailto with a host; no C1 character
references; the visible text of the ``<pre>`` equal to the text
transcript; and every character at 3:1 or more against its background in
both themes (``contrastcheck``). It knows nothing of how the renderer works, only what it may emit.

Also here: the corpus cases (every ``corpus/*/*.raw`` with its ``.json``
sidecar), shared by the tests and ``scripts/regen_html_goldens.py``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import html5lib
from contrastcheck import html_contrast

from termscribe._rows import MARKERS

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
GOLDEN = ROOT / "tests" / "golden" / "html"
#: Corpus inputs up to this size get a golden file; larger ones (the
#: hostile growth and buffer cases) are checked but not stored.
GOLDEN_MAX_INPUT = 64 * 1024

_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
_REL = "noopener noreferrer nofollow"
_HIDDEN_TITLE = "hidden in the terminal"

_CLASSES = frozenset(
    [f"ts-fg{i}" for i in range(16)]
    + [f"ts-bg{i}" for i in range(16)]
    + ["ts-fgbg", "ts-bgfg", "ts-bold", "ts-dim", "ts-italic", "ts-blink"]
    + ["ts-ul", "ts-ul2", "ts-ul3", "ts-ul4", "ts-ul5", "ts-strike", "ts-overline"]
    + ["ts-conceal", "ts-fgx", "ts-marker"]
)
_HEX = r"#[0-9a-f]{6}"
_DECLARATION = re.compile(
    rf"(?:color|background-color|--ts-[ld]):{_HEX}"
    rf"|text-decoration-color:(?:{_HEX}|var\(--ts-c(?:1[0-5]|[0-9])\))"
)
_C1_REFERENCE = re.compile(r"&#(?:x0*[89][0-9a-f]|0*(?:12[89]|1[3-5][0-9]));", re.IGNORECASE)
_C1_RAW = re.compile("[\x80-\x9f]")
_RUN_ATTRIBUTES = {
    "span": {"class", "style", "title"},
    "a": {"href", "title", "rel", "class", "style"},
}
_HEAD_TAGS = {"meta", "title", "style"}


def check_html(html: str, text: str, *, standalone: bool | None = None) -> None:
    """Assert that ``html`` is a safe rendering of the text transcript ``text``.

    ``standalone`` None: decided by whether ``html`` is a whole document.
    """
    if standalone is None:
        standalone = html.startswith("<!DOCTYPE")
    html.encode("utf-8")
    match = _C1_REFERENCE.search(html) or _C1_RAW.search(html)
    assert match is None, f"C1 character (reference) {match.group()!r}"
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree"), strict=True, namespaceHTMLElements=False
    )
    try:
        tree = parser.parse(html) if standalone else parser.parseFragment(html, container="div")
    except html5lib.html5parser.ParseError as exc:
        raise AssertionError(f"html5lib: {exc}") from exc
    if standalone:
        pre = _check_document(tree)
    else:
        fragment = tree
        assert not (fragment.text or "").strip(), "text outside <pre>"
        children = list(fragment)
        assert len(children) == 1 and children[0].tag == "pre", "a fragment is one <pre>"
        assert not (children[0].tail or "").strip(), "text after </pre>"
        pre = children[0]
    assert parser.errors == [], f"html5lib errors: {parser.errors[:3]}"
    assert dict(pre.attrib) == {"class": "termscribe"}, f"<pre> attributes {pre.attrib}"
    for element in pre:
        _check_run(element)
    visible = "".join(pre.itertext())
    if visible != text:
        raise AssertionError(_first_difference(visible, text))
    html_contrast(pre)


def _check_document(root: Element) -> Element:
    assert root.tag == "html" and dict(root.attrib) == {"lang": "en"}
    head, body = list(root)
    assert head.tag == "head" and body.tag == "body"
    metas = []
    for element in head:
        assert element.tag in _HEAD_TAGS, f"<{element.tag}> in <head>"
        if element.tag == "meta":
            metas.append(dict(element.attrib))
        elif element.tag == "style":
            css = element.text or ""
            for forbidden in ("url(", "@import", "expression(", "\\"):
                assert forbidden not in css, f"{forbidden} in the stylesheet"
            assert "prefers-color-scheme:dark" in css
        else:
            assert not list(element)
    assert metas[0] == {"charset": "utf-8"}, "charset first"
    assert metas[1] == {"http-equiv": "Content-Security-Policy", "content": _CSP}, metas[1]
    children = list(body)
    if len(children) == 1 and children[0].get("class") == "termscribe ts-log":
        # termscribe render's page of a log (with CI sections, none here)
        assert not (children[0].text or "").strip()
        body, children = children[0], list(children[0])
    assert len(children) == 1 and children[0].tag == "pre", "the body is one <pre>"
    assert not (body.text or "").strip() and not (children[0].tail or "").strip()
    return children[0]


def _check_run(element: Element) -> None:
    tag = element.tag
    assert tag in _RUN_ATTRIBUTES, f"<{tag}> inside <pre>"
    assert not list(element), f"<{tag}> has child elements"
    attributes = dict(element.attrib)
    unknown = set(attributes) - _RUN_ATTRIBUTES[str(tag)]
    assert not unknown, f"<{tag}> attributes {unknown}"
    classes = attributes.get("class", "").split()
    assert set(classes) <= _CLASSES, f"classes {set(classes) - _CLASSES}"
    if "ts-marker" in classes:
        markers = f"(?:{MARKERS.pattern})+"  # adjacent ones share an element
        assert re.fullmatch(markers, element.text or ""), f"marker element {element.text!r}"
    style = attributes.get("style")
    if style is not None:
        for declaration in style.split(";"):
            assert _DECLARATION.fullmatch(declaration), f"style {declaration!r}"
    if tag == "a":
        href = attributes.get("href", "")
        _check_href(href)
        assert attributes.get("title") == href, "a link's title shows its target"
        assert attributes.get("rel") == _REL
    elif "title" in attributes:
        assert attributes["title"] == _HIDDEN_TITLE and "ts-conceal" in classes
    else:
        assert classes or style, "a <span> with nothing to say"


def _check_href(href: str) -> None:
    assert href.isascii() and href.isprintable() and not re.search(r"[\s\"'<>\\`]", href), href
    parts = urlsplit(href)
    if parts.scheme == "mailto":
        local, _, domain = parts.path.partition("@")
        assert local and domain and "@" not in domain, href
        return
    assert parts.scheme in ("http", "https"), f"scheme of {href!r}"
    assert parts.hostname, f"no host in {href!r}"
    assert parts.username is None and parts.password is None, f"userinfo in {href!r}"
    assert href.startswith(f"{parts.scheme}://{parts.netloc}"), href


def _first_difference(got: str, want: str) -> str:
    index = next(
        (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
        min(len(got), len(want)),
    )
    return (
        f"visible text differs from the text transcript at {index}: "
        f"{got[index - 20 : index + 20]!r} != {want[index - 20 : index + 20]!r}"
    )


@dataclass(frozen=True)
class Case:
    """One corpus recording or hostile case."""

    path: Path
    columns: int
    rows: int

    @property
    def name(self) -> str:
        return f"{self.path.parent.name}/{self.path.stem}"

    @property
    def golden(self) -> Path:
        return GOLDEN / self.path.parent.name / (self.path.stem + ".html")

    @property
    def has_golden(self) -> bool:
        return self.path.stat().st_size <= GOLDEN_MAX_INPUT

    def options(self) -> dict[str, object]:
        return {"columns": self.columns, "rows": self.rows}

    def data(self) -> bytes:
        return self.path.read_bytes()


def corpus_cases(kind: str | None = None) -> list[Case]:
    """Every ``corpus/<kind>/*.raw`` that has a sidecar, sorted by name."""
    cases = []
    for raw in sorted(CORPUS.glob(f"{kind or '*'}/*.raw")):
        sidecar = raw.with_suffix(".json")
        if not sidecar.exists():
            continue
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        cases.append(Case(raw, int(meta["columns"]), int(meta["rows"])))
    return cases
