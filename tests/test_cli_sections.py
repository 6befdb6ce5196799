"""CI log sections (GitHub Actions groups, Buildkite headers) as <details>
in HTML pages written by ``termscribe render``."""

from __future__ import annotations

import io
from xml.etree.ElementTree import Element

import html5lib

from termscribe import Transcript, render_text
from termscribe.cli import main

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
PAGE_TAGS = {"html", "head", "body", "meta", "title", "style", "details", "summary", "pre"}
RUN_TAGS = {"span", "a"}


def page(data: bytes, *options: str) -> str:
    out = io.BytesIO()
    status = main(["render", "--format", "html", *options], stdin=io.BytesIO(data), stdout=out)
    assert status == 0
    return out.getvalue().decode("utf-8")


def parse(html: str) -> Element:
    parser = html5lib.HTMLParser(
        tree=html5lib.getTreeBuilder("etree"), strict=True, namespaceHTMLElements=False
    )
    root = parser.parse(html)
    assert parser.errors == []
    return root


def visible(body: Element) -> str:
    """The page's text in reading order: each summary is a line of its own."""
    pieces = []
    for element in body:
        if element.tag == "pre":
            pieces.append("".join(element.itertext()))
        else:
            assert element.tag == "details" and element.get("open") == ""
            summary, pre = list(element)
            assert summary.tag == "summary" and pre.tag == "pre"
            pieces.append("".join(summary.itertext()) + "\n")
            pieces.append("".join(pre.itertext()))
    return "".join(pieces)


def test_sections_become_details_and_keep_every_line() -> None:
    html = page(LOG, "--sections", "buildkite")
    root = parse(html)
    for element in root.iter():
        assert element.tag in PAGE_TAGS | RUN_TAGS, element.tag
    body = root.find("body")
    assert body is not None
    summaries = ["".join(s.itertext()) for s in body.iter("summary")]
    assert summaries == ["::group::Build <release>", "--- :rocket: Deploy", "+++ Tests"]
    assert "<summary>::group::Build &lt;release&gt;</summary>" in html
    text = render_text(LOG)
    assert visible(body).rstrip("\n") == text.rstrip("\n")
    sections = list(body.iter("details"))
    assert ["".join(p.itertext()) for d in sections for p in d.iter("pre")] == [
        "compiled 12 files\n::endgroup::\n",
        "shipping\n",
        "3 failed\n",
    ]


def test_the_same_page_whatever_the_window() -> None:
    # Lines reach the writer in different batches; the page is the same.
    buildkite = ("--sections", "buildkite")
    assert page(LOG, "--rows", "1", *buildkite) == page(LOG, "--rows", "200", *buildkite)


def test_buildkite_headers_only_when_asked() -> None:
    body = parse(page(LOG)).find("body")  # GitHub's groups only, by default
    assert body is not None
    assert ["".join(s.itertext()) for s in body.iter("summary")] == ["::group::Build <release>"]
    diff = b"--- a/greet.py\r\n+++ b/greet.py\r\n@@ -1 +1 @@\r\n"
    assert "<details" not in page(diff)


def test_without_sections() -> None:
    for options in (["--sections", "off"], ["--fragment"]):
        html = page(LOG, *options)
        assert "<details" not in html and html.count("<pre") == 1
    assert page(b"no sections here\r\n").count("<pre") == 1
    out = io.BytesIO()
    assert main(["render"], stdin=io.BytesIO(LOG), stdout=out) == 0
    assert out.getvalue().decode() == render_text(LOG)  # text: the marker lines as they are


def test_a_page_may_start_inside_a_section_and_end_in_one() -> None:
    data = b"::group::only\r\nx\r\n"
    body = parse(page(data)).find("body")
    assert body is not None
    assert [e.tag for e in body] == ["pre", "details", "pre"]
    assert visible(body).rstrip("\n") == render_text(data).rstrip("\n")


def test_line_anchors_number_every_line_and_add_no_text() -> None:
    html = page(LOG, "--line-anchors", "--sections", "buildkite")
    body = parse(html).find("body")
    assert body is not None
    text = render_text(LOG)
    assert visible(body).rstrip("\n") == text.rstrip("\n")  # numbers are not text
    lines = [e for e in body.iter("span") if e.get("class") == "ts-line"]
    count = len(text.split("\n"))
    assert [e.get("id") for e in lines] == [f"L{n}" for n in range(1, count + 1)]
    for n, line in enumerate(lines, 1):
        anchor = line[0]
        assert anchor.tag == "a" and dict(anchor.attrib) == {
            "class": "ts-ln",
            "href": f"#L{n}",
            "data-n": str(n),
        }
        assert not anchor.text
    assert page(LOG, "--line-anchors", "--rows", "1") == page(LOG, "--line-anchors")
    for flag in ("--line-anchors", "--sections"):
        for argv in (["--format", "html", "--fragment"], ["--format", "text"]):
            err = io.StringIO()
            value = ["buildkite"] if flag == "--sections" else []
            assert main(["render", *argv, flag, *value], stdin=io.BytesIO(b"x"), stderr=err) == 2
            assert f"{flag} applies to --format html pages" in err.getvalue()


def test_anchors_and_sections_stay_within_the_output_limit() -> None:
    # An anchor costs about 80 characters a line and a line can cost one
    # byte: past the limit (64 characters a byte), lines go on unanchored.
    for data in (b"\n" * 20000, b"::group::x\r\n" * 3000, b"--- a\n" * 5000):
        html = page(data, "--line-anchors", "--sections", "buildkite", "--rows", "1")
        transcript = Transcript(rows=1, max_lines=None)
        transcript.feed(data)
        transcript.finish()
        assert len(html) <= transcript.output_limit()
        assert 'id="L1"' in html
        body = parse(html).find("body")
        assert body is not None
        assert visible(body).rstrip("\n") == transcript.text().rstrip("\n")


GITLAB = (
    b"Running with gitlab-runner\n"
    b"\x1b[0Ksection_start:1560896352:build[collapsed=true]\r\x1b[0K"
    + CSI + b"36mBuild <all>" + CSI + b"0m\n"
    b"compiling\n"
    b"\x1b[0Ksection_end:1560896353:build\r\x1b[0K\n"
    b"section_start:1560896354:test\r\x1b[0KTests\n"
    b"3 passed\n"
    b"section_end:1560896355:test\r\x1b[0K\n"
    b"done\n"
)  # fmt: skip


def test_gitlab_sections_become_details_and_text_shows_what_a_terminal_does() -> None:
    body = parse(page(GITLAB)).find("body")
    assert body is not None
    summaries = ["".join(s.itertext()) for s in body.iter("summary")]
    assert summaries == [
        "section_start:1560896352:build[collapsed=true] Build <all>",
        "section_start:1560896354:test Tests",
    ]
    details = body.findall("details")
    assert ["".join(d[1].itertext()) for d in details] == [
        "compiling\nsection_end:1560896353:build\n",
        "3 passed\nsection_end:1560896355:test\n",
    ]
    assert visible(body).split("\n") == [
        "Running with gitlab-runner",
        "section_start:1560896352:build[collapsed=true] Build <all>",
        "compiling",
        "section_end:1560896353:build",
        "section_start:1560896354:test Tests",
        "3 passed",
        "section_end:1560896355:test",
        "done",
        "",
    ]
    # Text (and a fragment, and --sections off) show the lines as a
    # terminal does: the markers erased, their lines left blank.
    text = render_text(GITLAB)
    assert text.split("\n")[:5] == [
        "Running with gitlab-runner",
        "Build <all>",
        "compiling",
        "",
        "Tests",
    ]
    out = io.BytesIO()
    assert main(["render"], stdin=io.BytesIO(GITLAB), stdout=out) == 0
    assert out.getvalue().decode() == text
    off = parse(page(GITLAB, "--sections", "off")).find("body")
    assert off is not None and off.find("details") is None
    assert "".join(off.itertext()).strip() == text.strip()


def test_gitlab_markers_are_found_across_every_chunk_boundary() -> None:
    from termscribe.cli._markers import ci_markers

    expected = b"".join(ci_markers(iter([GITLAB]), gitlab=True, timestamps=False))
    assert b"section_start:1560896352:build[collapsed=true] \x1b[36m" in expected
    for cut in range(1, len(GITLAB)):
        pieces = iter([GITLAB[:cut], GITLAB[cut:]])
        assert b"".join(ci_markers(pieces, gitlab=True, timestamps=False)) == expected, cut


def test_malformed_gitlab_markers_are_left_to_the_terminal() -> None:
    for line in (
        b"section_start:notatime:x\r\x1b[0KHeader\n",  # no timestamp
        b"section_start:1:bad name\r\x1b[0KHeader\n",  # a space in the name
        b"section_start:1:x\rHeader\n",  # no erase
    ):
        body = parse(page(line)).find("body")
        assert body is not None and body.find("details") is None
        assert "".join(body.itertext()).strip() == render_text(line).strip()
