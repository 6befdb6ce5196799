"""CI log pages (``render --format html --line-anchors``) as Chromium draws
them, in the light and the dark theme: section titles, line numbers, links
to lines and annotations, durations beside their summary, no empty box
(fixtures of test_browser.py; screenshots in
test-output/browser/screenshots/ci-*.png)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from cilogs import BUILDKITE, BUILDKITE_PAGE, GITHUB, GITHUB_PAGE, GITLAB, GITLAB_PAGE
from contrastcheck import MIN_RATIO, ratio
from test_browser import Browser, _opaque, browser, rgb, write_page

from termscribe.cli import main

__all__ = ["browser"]  # the fixture, shared with test_browser.py

LOGS = {
    "github": (GITHUB, GITHUB_PAGE, ()),
    "gitlab": (GITLAB, GITLAB_PAGE, ()),
    "buildkite": (BUILDKITE, BUILDKITE_PAGE, ("--timestamps",)),
}

# Each line with an id: its number, the number the stylesheet draws, its
# text; each <pre>'s text and height; each summary's text, top and
# whether its section is open; each duration's text and top.
_PAGE_JS = """
const lineText = (e) => {  // from the line's id to its end
  let text = '';
  for (let n = e.nextSibling; n; n = n.nextSibling) {
    const end = n.textContent.indexOf('\\n');
    if (end >= 0) return text + n.textContent.slice(0, end);
    text += n.textContent;
  }
  return text;
};
const lines = [...document.querySelectorAll('[id^="L"]')].map(e => [
  e.id, e.matches('a.ts-ln') ? getComputedStyle(e, '::before').content : null, lineText(e)]);
const pres = [...document.querySelectorAll('pre')].map(
  e => [e.textContent, e.getBoundingClientRect().height]);
const summaries = [...document.querySelectorAll('summary')].map(e => [
  e.textContent, e.getBoundingClientRect().top, e.parentElement.open,
  getComputedStyle(e).fontFamily]);
const durations = [...document.querySelectorAll('.ts-dur')].map(
  e => [e.textContent, e.getBoundingClientRect().top,
        e.previousElementSibling.querySelector('summary').getBoundingClientRect().top]);
const nav = document.querySelector('nav');
const first = document.body.firstElementChild;
return {lines, pres, summaries, durations,
        navTop: nav ? nav.getBoundingClientRect().top : null,
        firstTop: first.getBoundingClientRect().top,
        links: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href'))};
"""

# Each annotation label: its colour and the background it is drawn on.
_LABELS_JS = """
const background = (element) => {
  for (let e = element; e; e = e.parentElement) {
    const value = getComputedStyle(e).backgroundColor;
    if (value !== 'rgba(0, 0, 0, 0)' && value !== 'transparent') return value;
  }
  return 'none';
};
return [...document.querySelectorAll('.ts-annot, .ts-dur, summary, a.ts-ln')].map(
  e => [e.className, getComputedStyle(e).color, background(e)]);
"""


def page(data: bytes, *options: str) -> str:
    out = io.BytesIO()
    argv = ["render", "--format", "html", "--line-anchors", *options]
    assert main(argv, stdin=io.BytesIO(data), stdout=out) == 0
    return out.getvalue().decode("utf-8")


@pytest.mark.parametrize("name", list(LOGS))
def test_ci_page_in_both_themes(browser: Browser, name: str) -> None:
    data, expected, options = LOGS[name]
    path = write_page(f"ci/{name}", page(data, *options))
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(path).assert_inert()
        drawn: dict[str, Any] = browser.driver.execute_script(_PAGE_JS)
        # Every line shown, numbered as the text output's lines: the
        # number drawn is the id's, and is not text of the page.
        assert [(int(i[1:]), text) for i, _, text in drawn["lines"]] == expected
        assert [number for _, number, _ in drawn["lines"]] == [f'"{n}"' for n, _ in expected]
        # No empty box: every <pre> has lines, and takes room unless its
        # section is collapsed.
        for text, _height in drawn["pres"]:
            assert text.strip("\n"), (scheme, drawn["pres"])
        summaries = drawn["summaries"]
        assert summaries, name
        for text, _top, _open, font in summaries:
            assert "::" not in text and "section_" not in text and not text.startswith("---")
            assert "monospace" in font, font  # the log's font, not the page's
        for text, top, summary_top in drawn["durations"]:
            assert text and abs(top - summary_top) < 4, (text, top, summary_top)
        if drawn["navTop"] is not None:  # annotations are listed first
            assert drawn["navTop"] <= drawn["firstTop"] + 1
            for href in drawn["links"]:
                assert browser.driver.find_elements("css selector", href)
        for class_name, colour, background in browser.driver.execute_script(_LABELS_JS):
            value = ratio(_opaque(colour), _opaque(background))
            assert value >= MIN_RATIO - 0.005, (scheme, class_name, colour, background)
        shot = browser.screenshot(f"ci-{name}-{scheme}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.color_scheme("light")


def test_collapsed_sections_keep_their_text_and_links_reach_lines(browser: Browser) -> None:
    path = write_page("ci/gitlab-links", page(GITLAB))
    browser.open(path).assert_inert()
    collapsed = browser.driver.execute_script(
        "return [...document.querySelectorAll('details:not([open])')].map(d =>"
        " [d.querySelector('summary').textContent, d.querySelector('pre').textContent,"
        "  d.querySelector('pre').checkVisibility()])"
    )
    assert collapsed == [
        [
            'Preparing the "docker" executor',
            "Using Docker executor with image python:3.12 ...\n",
            False,
        ],
        [
            "Installing <dependencies>",
            "Collecting pytest\nSuccessfully installed pytest-8.3.0\n",
            False,
        ],
    ]
    path = write_page("ci/github-links", page(GITHUB))
    browser.open(path).assert_inert()
    browser.driver.find_element("css selector", "nav a[href='#L10']").click()
    target = browser.driver.execute_script("return document.querySelector(':target').id")
    assert target == "L10"
    assert rgb(browser.computed("nav", "background-color")[0]) == rgb(
        browser.computed("pre", "background-color")[0]
    )
