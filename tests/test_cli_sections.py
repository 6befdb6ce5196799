"""CI log sections (GitHub Actions groups, Buildkite headers) as <details>
in HTML pages written by ``termscribe render``."""

from __future__ import annotations

import io
from collections.abc import Iterator
from xml.etree.ElementTree import Element

import html5lib
from cilogs import (
    BUILDKITE,
    BUILDKITE_PAGE,
    GITHUB,
    GITHUB_PAGE,
    GITLAB,
    GITLAB_PAGE,
    GITLAB_SECTIONS,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import Transcript, render_text
from termscribe.cli import main
from termscribe.cli._ci import MAX_SECTION_DEPTH

CSI = b"\x1b["
LOG = (
    b"setup\r\n"
    b"::group::Build <release>\r\n"
    + CSI + b"32mcompiled" + CSI + b"0m 12 files\r\n"
    b"::endgroup::\r\n"
    b"between\r\n"
    b"--- :rocket: Deploy\r\n"
    b"shipping\r\n"
    b"+++ " + CSI + b"31mTests" + CSI + b"0m\r\n"
    b"3 failed\r\n"
)  # fmt: skip
PAGE_TAGS = {
    "html", "head", "body", "meta", "title", "style", "details", "summary", "pre", "div",
    "nav", "ul", "li",
}  # fmt: skip
RUN_TAGS = {"span", "a"}


def page(data: bytes, *options: str) -> str:
    out = io.BytesIO()
    status = main(["render", "--format", "html", *options], stdin=io.BytesIO(data), stdout=out)
    assert status == 0
    return out.getvalue().decode("utf-8")


def text_of(data: bytes, *options: str) -> str:
    out = io.BytesIO()
    assert main(["render", *options], stdin=io.BytesIO(data), stdout=out) == 0
    return out.getvalue().decode("utf-8")


def parse(html: str) -> Element:
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree"), strict=True, namespaceHTMLElements=False
    )
    root = parser.parse(html)
    assert parser.errors == []
    return root


def body_of(html: str) -> Element:
    body = parse(html).find("body")
    assert body is not None
    return body


def shown(element: Element) -> list[str]:
    """The page's lines in reading order: each summary a line of its own,
    the durations and the list of annotations left out."""
    lines: list[str] = []
    for child in element:
        if child.tag == "pre":
            parts = "".join(child.itertext()).split("\n")
            lines += parts[:-1] if parts[-1] == "" else parts
        elif child.tag == "summary":
            lines.append("".join(child.itertext()))
        elif child.tag in ("div", "details"):
            lines += shown(child)
        else:
            assert (child.tag, child.get("class")) in (
                ("span", "ts-dur"),
                ("nav", "termscribe ts-annotations"),
            ), child.tag
    return lines


def _pieces(element: Element) -> Iterator[str | int]:
    """The text in ``element``, and the number of each line id in it."""
    yield element.text or ""
    for child in element:
        line_id = child.get("id", "")
        if line_id.startswith("L"):
            assert not (child.text or list(child)), "a line's id is an empty element"
            yield int(line_id[1:])
        else:
            yield from _pieces(child)
        yield child.tail or ""


def numbered(body: Element) -> list[tuple[int, str]]:
    """(number, text) of each line with an id, in reading order: the text
    after the id, to the line's end."""
    lines: list[tuple[int, str]] = []
    for block in body.iter():
        if block.tag not in ("pre", "summary"):
            continue
        current: list[str] | None = None
        for piece in _pieces(block):
            if isinstance(piece, int):
                current = []
                lines.append((piece, ""))
            elif current is not None:
                current.append(piece.split("\n")[0])
                lines[-1] = (lines[-1][0], "".join(current))
                if "\n" in piece:
                    current = None
    return lines


def visible(body: Element) -> str:
    return "".join(line + "\n" for line in shown(body))


def test_sections_become_details_and_show_what_the_ci_shows() -> None:
    html = page(LOG, "--sections", "buildkite")
    root = parse(html)
    for element in root.iter():
        assert element.tag in PAGE_TAGS | RUN_TAGS, element.tag
    body = root.find("body")
    assert body is not None
    summaries = ["".join(s.itertext()) for s in body.iter("summary")]
    assert summaries == ["Build <release>", ":rocket: Deploy", "Tests"]
    assert ">Build &lt;release&gt;</summary>" in html
    # The text output keeps every line as the terminal showed it; the page
    # drops the CI's syntax: the group's end line and the headers' markers.
    assert render_text(LOG).split("\n") == [
        "setup", "::group::Build <release>", "compiled 12 files", "::endgroup::",
        "between", "--- :rocket: Deploy", "shipping", "+++ Tests", "3 failed", "",
    ]  # fmt: skip
    assert shown(body) == [
        "setup", "Build <release>", "compiled 12 files",
        "between", ":rocket: Deploy", "shipping", "Tests", "3 failed",
    ]  # fmt: skip
    sections = list(body.iter("details"))
    assert ["".join(p.itertext()) for d in sections for p in d.iter("pre")] == [
        "compiled 12 files\n",
        "shipping\n",
        "3 failed\n",
    ]
    assert all(d.get("open") == "" for d in sections)


def test_the_same_page_whatever_the_window() -> None:
    # Lines reach the writer in different batches; the page is the same.
    for data, options in (
        (LOG, ("--sections", "buildkite", "--line-anchors")),
        (GITHUB, ("--line-anchors",)),
        (GITLAB, ("--line-anchors",)),
        (BUILDKITE, ("--timestamps",)),
    ):
        assert page(data, "--rows", "1", *options) == page(data, "--rows", "200", *options)


def test_buildkite_headers_when_asked_or_when_the_log_is_buildkites() -> None:
    body = body_of(page(LOG))  # GitHub's groups only, by default
    assert ["".join(s.itertext()) for s in body.iter("summary")] == ["Build <release>"]
    diff = b"--- a/greet.py\r\n+++ b/greet.py\r\n@@ -1 +1 @@\r\n"
    assert "<details" not in page(diff)
    # A log that starts with Buildkite's timestamp is Buildkite's.
    for data in (BUILDKITE, b"\x1b_bk;t=1\x07" + diff):
        assert "<details" in page(data)
        assert "<details" not in page(data, "--sections", "github")
    assert "<details" not in page(b"plain\r\n\x1b_bk;t=1\x07" + diff)  # not on the first line


def test_without_sections() -> None:
    for options in (["--sections", "off"], ["--fragment"]):
        html = page(LOG, *options)
        assert "<details" not in html and html.count("<pre") == 1
    assert page(b"no sections here\r\n").count("<pre") == 1
    assert text_of(LOG) == render_text(LOG)  # text: the marker lines as they are
    body = body_of(page(GITHUB, "--sections", "off"))
    assert shown(body) == render_text(GITHUB).split("\n")[:-1]
    assert body.find("nav") is None


def test_no_empty_box() -> None:
    for data in (b"::group::only\r\nx\r\n", LOG, GITHUB, GITLAB, BUILDKITE):
        body = body_of(page(data, "--sections", "buildkite"))
        for pre in body.iter("pre"):
            assert "".join(pre.itertext()).strip("\n"), pre
    body = body_of(page(b"::group::only\r\nx\r\n"))
    assert [e.tag for e in body] == ["div"]
    assert shown(body) == ["only", "x"]
    body = body_of(page(b""))  # an empty log: one empty box says so
    assert [e.tag for e in body] == ["pre"] and shown(body) == []


def test_line_numbers_are_the_text_outputs_lines() -> None:
    # The empty line where the cursor waits at the end is no line.
    for data, count in ((b"abc\n", 1), (b"abc", 1), (b"abc\n\n", 2), (b"", 0)):
        assert len(text_of(data).split("\n")) - 1 == count
        body = body_of(page(data, "--line-anchors"))
        assert [n for n, _ in numbered(body)] == list(range(1, count + 1))
    html = page(LOG, "--line-anchors", "--sections", "buildkite")
    body = body_of(html)
    lines = render_text(LOG).split("\n")
    # Every line shown has its number, summaries too; the group's end is
    # not shown and keeps its number (L4).
    assert [n for n, _ in numbered(body)] == [1, 2, 3, 5, 6, 7, 8, 9]
    for n, text in numbered(body):
        assert text in lines[n - 1]
    for anchor in (e for e in body.iter() if e.get("id", "").startswith("L")):
        n = anchor.get("id", "")[1:]
        assert anchor.tag == "a" and dict(anchor.attrib) == {
            "class": "ts-ln",
            "id": f"L{n}",
            "href": f"#L{n}",
            "data-n": n,
        }
        assert not anchor.text
    assert page(LOG, "--line-anchors", "--rows", "1") == page(LOG, "--line-anchors")
    for flag in ("--line-anchors", "--sections"):
        for argv in (["--format", "html", "--fragment"], ["--format", "text"]):
            err = io.StringIO()
            value = ["buildkite"] if flag == "--sections" else []
            assert main(["render", *argv, flag, *value], stdin=io.BytesIO(b"x"), stderr=err) == 2
            assert f"{flag} applies to --format html pages" in err.getvalue()


def test_github_groups_and_annotations() -> None:
    html = page(GITHUB, "--line-anchors")
    body = body_of(html)
    assert numbered(body) == GITHUB_PAGE
    assert shown(body) == [text for _, text in GITHUB_PAGE]
    assert ["".join(s.itertext()) for s in body.iter("summary")] == [
        "2026-01-02T03:04:05.1234567Z Run actions/checkout@v4",
        "Install <deps>",
    ]
    # The annotations, listed with links to their lines (drawn first).
    nav = body.find("nav")
    assert nav is not None and nav.text == "1 warning, 2 errors, 1 notice"
    items = ["".join(li.itertext()) for li in nav.iter("li")]
    assert items == [
        "Warning line 9: src/app.py:3 Deprecated call: datetime.utcnow() is deprecated",
        "Error line 10: tests/test_app.py:12: AssertionError: assert 1 == 2 after 3 tries",
        "Notice line 11: Coverage 91%",
        "Error line 13: Process completed with exit code 1.",
    ]
    ids = {e.get("id") for e in body.iter()}
    hrefs = [a.get("href") for a in nav.iter("a")]
    assert hrefs == ["#L9", "#L10", "#L11", "#L13"]
    assert all(str(href)[1:] in ids for href in hrefs)
    # Without --line-anchors the annotated lines keep their ids (and only they).
    body = body_of(page(GITHUB))
    assert [n for n, _ in numbered(body)] == [9, 10, 11, 13]
    assert body.find(".//a[@class='ts-ln']") is None


def test_gitlab_sections_nest_collapse_and_show_their_durations() -> None:
    body = body_of(page(GITLAB, "--line-anchors"))
    assert numbered(body) == GITLAB_PAGE
    assert shown(body) == [text for _, text in GITLAB_PAGE]
    sections = []
    for element in (d for d in body.iter("div") if d.get("class") == "termscribe ts-sec"):
        details, *rest = list(element)
        summary = details.find("summary")
        assert summary is not None
        duration = rest[0].text if rest else None
        sections.append(("".join(summary.itertext()), details.get("open") == "", duration))
    assert sections == GITLAB_SECTIONS
    # pip_install is inside step_script.
    step = body.findall("div/div")[1]
    assert "Installing <dependencies>" in ["".join(s.itertext()) for s in step.iter("summary")]
    # The text output shows what a terminal does: the markers erased.
    text = text_of(GITLAB)
    assert text == render_text(GITLAB)
    assert text.split("\n")[2:5] == [
        'Preparing the "docker" executor',
        "Using Docker executor with image python:3.12 ...",
        'Executing "step_script" stage of the job script',
    ]
    off = body_of(page(GITLAB, "--sections", "off"))
    assert off.find("details") is None
    assert shown(off) == text.split("\n")[:-1]


def test_buildkite_groups_with_their_times() -> None:
    body = body_of(page(BUILDKITE, "--timestamps", "--line-anchors"))
    assert numbered(body) == BUILDKITE_PAGE
    assert ["".join(s.itertext()) for s in body.iter("summary")] == [
        "[22:13:20] Preparing working directory",
        "[22:13:20] :docker: Pull images",
        "[22:13:25] :pytest: Run tests",
    ]
    text = text_of(BUILDKITE, "--timestamps").split("\n")
    assert text[2] == "[22:13:20] --- :docker: Pull images" and text[7] == "[22:13:26] ^^^ +++"
    # Without --timestamps, the same groups without the times.
    body = body_of(page(BUILDKITE, "--line-anchors"))
    assert numbered(body) == [(n, text[11:]) for n, text in BUILDKITE_PAGE]


def test_anchors_and_sections_stay_within_the_output_limit() -> None:
    # An anchor costs about 80 characters a line and a line can cost one
    # byte: past the limit (64 characters a byte), lines go on unanchored.
    for data in (
        b"\n" * 20000,
        b"::group::x\r\n" * 3000,
        b"--- a\n" * 5000,
        b"::error::x\n" * 3000,
        b"section_start:1:a\r\x1b[0K\n" * 40 + b"section_end:2:a\r\x1b[0K\n" * 2000,
    ):
        html = page(data, "--line-anchors", "--sections", "buildkite", "--rows", "1")
        transcript = Transcript(rows=1, max_lines=None)
        transcript.feed(data)
        transcript.finish()
        assert len(html) <= transcript.output_limit()
        assert 'id="L1"' in html
        parse(html)


def test_sections_nest_only_so_deep() -> None:
    data = b"".join(b"section_start:1:s%d\r\x1b[0Kheader %d\n" % (n, n) for n in range(40))
    body = body_of(page(data))
    assert len(list(body.iter("details"))) == MAX_SECTION_DEPTH
    assert shown(body) == [f"header {n}" for n in range(40)]


def test_gitlab_markers_are_found_across_every_chunk_boundary() -> None:
    from termscribe.cli._markers import ci_markers

    expected = b"".join(ci_markers(iter([GITLAB]), gitlab=True, timestamps=False))
    assert b"section_start:1700000000:prepare_executor[collapsed=true] \x1b[0K" in expected
    assert b"section_end:1700000003:prepare_executor \x1b[0Ksection_start:" in expected
    for cut in range(1, len(GITLAB)):
        pieces = iter([GITLAB[:cut], GITLAB[cut:]])
        assert b"".join(ci_markers(pieces, gitlab=True, timestamps=False)) == expected, cut


def test_malformed_gitlab_markers_are_left_to_the_terminal() -> None:
    for line in (
        b"section_start:notatime:x\r\x1b[0KHeader\n",  # no timestamp
        b"section_start:1:bad name\r\x1b[0KHeader\n",  # a space in the name
        b"section_start:1:x\rHeader\n",  # no erase
    ):
        body = body_of(page(line))
        assert body.find("details") is None
        assert shown(body) == render_text(line).split("\n")[:-1]


def test_every_sections_choice_is_a_row_of_the_table() -> None:
    from termscribe.cli._ci import SECTION_CHOICES as TABLE
    from termscribe.cli._render import SECTION_CHOICES

    assert list(TABLE) == SECTION_CHOICES


def test_long_runs_of_lines_come_in_blocks_the_browser_may_skip() -> None:
    from termscribe.cli._sections import BLOCK_LINES

    data = b"".join(b"line %d\n" % n for n in range(2 * BLOCK_LINES + 200))
    body = body_of(page(data, "--line-anchors"))
    pres = list(body.iter("pre"))
    assert [p.get("class") for p in pres] == ["termscribe ts-block"] * 2 + ["termscribe"]
    assert ["".join(p.itertext()).count("\n") for p in pres] == [BLOCK_LINES] * 2 + [200]
    assert shown(body) == render_text(data).split("\n")[:-1]
    assert [n for n, _ in numbered(body)] == list(range(1, 2 * BLOCK_LINES + 201))
    assert "content-visibility:auto" in page(b"x")
    # A page of one <pre> (--sections off) stays one.
    assert page(data, "--sections", "off").count("<pre") == 1


_PIECES = [
    b"plain <&> text",
    b"\x1b[31mred\x1b[0m",
    b"",
    b"::group::g <1>",
    b"::endgroup::",
    b"::error file=a.py,line=2::boom",
    b"::warning::careful",
    b"##[error]failed",
    b"section_start:10:a[collapsed=true]\r\x1b[0Ka",
    b"section_start:11:b\r\x1b[0Kb",
    b"section_end:12:a\r\x1b[0K",
    b"section_end:13:b\r\x1b[0Ksection_start:14:a\r\x1b[0Kagain",
    b"--- bk",
    b"^^^ +++",
    b"progress 1%\rprogress 99%",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=40),
    st.sampled_from(["auto", "buildkite", "off"]),
)
def test_any_mix_of_ci_syntax_makes_a_sound_page(pieces: list[bytes], sections: str) -> None:
    data = b"\n".join(pieces)
    options = ("--line-anchors", "--sections", sections)
    html = page(data, "--rows", "1", *options)
    assert html == page(data, "--rows", "100", *options)
    body = body_of(html)
    for pre in body.iter("pre"):
        # a box has a line, if only an empty one
        assert "".join(pre.itertext()) or len(list(body.iter("pre"))) == 1
    text = render_text(data, rows=100).split("\n")
    numbers = [n for n, _ in numbered(body)]
    assert numbers == sorted(set(numbers)) and all(1 <= n <= len(text) for n in numbers)
    for n, shown_text in numbered(body):
        line = text[n - 1]
        if not line.startswith(("::", "##[", "--- ", "section_")) and "section_" not in line:
            assert shown_text == line, (n, shown_text, line)
    if sections == "off":
        assert shown(body) == text_of(data, "--rows", "100").split("\n")[:-1]
