"""``render --format html --theme light|dark|auto`` and ``--wrap``: fixed
themes that keep every character readable whatever the viewer prefers,
checked as Chromium draws the page (fixtures of test_browser.py)."""

from __future__ import annotations

import io

import pytest
from contrastcheck import MIN_RATIO, hostile_sample, ratio
from htmlcheck import check_html
from test_browser import _RUNS_JS, Browser, _opaque, browser, rgb, write_page

from termscribe import html_start, render_text
from termscribe.cli import main

__all__ = ["browser"]  # the fixture, shared with test_browser.py

BACKGROUNDS = {"light": (255, 255, 255), "dark": (30, 30, 30)}


def page(data: bytes, *options: str) -> str:
    out = io.BytesIO()
    status = main(["render", "--format", "html", *options], stdin=io.BytesIO(data), stdout=out)
    assert status == 0
    return out.getvalue().decode("utf-8")


def test_theme_and_wrap_need_an_html_page() -> None:
    for argv in (["--theme", "dark"], ["--wrap"], ["--format", "html", "--fragment", "--wrap"]):
        err = io.StringIO()
        assert main(["render", *argv], stdin=io.BytesIO(b"x"), stderr=err) == 2
        assert "applies to --format html pages (not --fragment)" in err.getvalue()
    with pytest.raises(ValueError):
        html_start(theme="dark")  # a fragment has no stylesheet to carry it


def test_themed_pages_are_safe() -> None:
    data = hostile_sample()
    for options in (["--theme", "light"], ["--theme", "dark", "--wrap"]):
        check_html(page(data, *options), render_text(data))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_fixed_theme_ignores_the_viewers_and_stays_readable(browser: Browser, theme: str) -> None:
    data = hostile_sample()
    text = render_text(data)
    path = write_page(f"theme/{theme}", page(data, "--theme", theme, "--wrap"))
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(path).assert_inert()
        background, white_space = browser.computed("pre", "background-color", "white-space")
        assert rgb(background) == BACKGROUNDS[theme], (theme, scheme)
        assert white_space == "pre-wrap"
        runs = browser.driver.execute_script(_RUNS_JS)
        assert "".join(run[4] for run in runs) == text
        for colour, back, _opacity, _visibility, content in runs:
            if content.replace("\n", ""):
                value = ratio(_opaque(colour), _opaque(back))
                assert value >= MIN_RATIO - 0.005, (theme, scheme, content[:20], value)
    browser.color_scheme("light")


def test_line_numbers_are_drawn_readable_and_targetable(browser: Browser) -> None:
    path = write_page("theme/anchors", page(b"one\r\ntwo\r\nthree\r\n", "--line-anchors"))
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(path).assert_inert()
        numbers, colours = browser.driver.execute_script(
            "const a = [...document.querySelectorAll('a.ts-ln')];"
            "return [a.map(e => getComputedStyle(e, '::before').content),"
            " a.map(e => getComputedStyle(e).color)];"
        )
        assert numbers == ['"1"', '"2"', '"3"']  # the empty line after the last is none
        r, g, b = rgb(browser.computed("pre", "background-color")[0])
        for colour in colours:
            assert ratio(_opaque(colour), (r, g, b)) >= MIN_RATIO, (scheme, colour)
        text = browser.driver.execute_script("return document.querySelector('pre').textContent")
        assert text == "one\ntwo\nthree\n"  # the numbers are drawn, not text
    browser.driver.get(path.as_uri() + "#L2")
    assert browser.driver.execute_script("return document.querySelector(':target').id") == "L2"
    browser.color_scheme("light")
