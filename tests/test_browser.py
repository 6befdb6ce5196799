"""Standalone HTML transcripts in a real browser (headless Chromium).

Each page is written to test-output/browser/ and opened from the file, so the
only request a safe page may cause is the page itself. For every page this
asserts: no script ran (no dialog, no console message, the ``window.pwned``
canary never set, no <script> in the DOM), no request besides the page, no
navigation (links are not followed), and the browser's own text of the
``<pre>`` equals the text transcript. A control page without termscribe shows
that each of these detectors does fire. Screenshots go to
test-output/browser/screenshots/ for a person to look at.

Chromium and chromedriver are Debian's (``apt-get install chromium
chromium-driver``), driven by selenium; when they are missing the tests fail,
never skip.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from chunking import transcript_of
from contrastcheck import MIN_RATIO, hostile_sample, ratio
from htmlcheck import ROOT, Case, corpus_cases

from termscribe import render_html, render_text

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
OUT = ROOT / "test-output" / "browser"
ARGUMENTS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1000,700",
]
CANARY = "pwned"

CSI = b"\x1b["
OSC = b"\x1b]"
ST = b"\x1b\\"


@dataclass
class Visit:
    """What happened while a page loaded."""

    url: str
    requests: list[str] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    canary: object = None
    scripts: int = 0
    final_url: str = ""

    def assert_inert(self) -> None:
        assert self.dialogs == [], f"a dialog opened: {self.dialogs}"
        assert self.canary is None, f"window.{CANARY} was set to {self.canary!r}"
        assert self.scripts == 0, "a <script> element is in the DOM"
        assert self.console == [], f"console messages: {self.console[:3]}"
        assert self.requests == [self.url], f"requests besides the page: {self.requests[:5]}"
        assert self.navigations == [self.url], f"navigations: {self.navigations[:5]}"
        assert self.final_url == self.url


def _browser_ui(params: dict[str, Any]) -> bool:
    """An event of Chromium's own pages (its first tab's new-tab page loads
    in the background), which no web page can cause."""
    document = params.get("documentURL") or params.get("frame", {}).get("url", "")
    return str(document).startswith("chrome://")


class Browser:
    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def open(self, path: Path) -> Visit:
        driver = self.driver
        driver.get_log("performance")  # drain what came before
        driver.get_log("browser")
        visit = Visit(path.as_uri())
        driver.get(visit.url)
        self._dismiss_dialogs()
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message["method"], message["params"]
            if _browser_ui(params):
                continue
            if method == "Network.requestWillBeSent":
                visit.requests.append(params["request"]["url"])
            elif method in ("Network.webSocketCreated", "Network.webTransportCreated"):
                visit.requests.append(params["url"])
            elif method == "Page.frameNavigated":
                visit.navigations.append(params["frame"]["url"])
            elif method == "Page.javascriptDialogOpening":
                visit.dialogs.append(params["message"])
        visit.console = [entry["message"] for entry in driver.get_log("browser")]
        visit.canary = driver.execute_script(f"return window.{CANARY}")
        visit.scripts = driver.execute_script("return document.scripts.length")
        visit.final_url = driver.current_url
        return visit

    def _dismiss_dialogs(self) -> None:
        """Close dialogs (recorded from the log) so the driver can go on."""
        from selenium.common.exceptions import NoAlertPresentException

        for _ in range(20):
            try:
                self.driver.switch_to.alert.dismiss()
            except NoAlertPresentException:
                return

    def computed(self, selector: str, *properties: str) -> list[str]:
        element = self.driver.find_element("css selector", selector)
        return [element.value_of_css_property(name) for name in properties]

    def color_scheme(self, scheme: str) -> None:
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )

    def screenshot(self, name: str) -> Path:
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1000, max(300, min(int(height) + 40, 2400)))
        target = OUT / "screenshots" / f"{name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(target))
        self.driver.set_window_size(1000, 700)
        return target


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the Python package selenium")
    if missing:
        pytest.fail(
            "the browser tests need headless Chromium; missing: " + ", ".join(missing)
            + ". Install with: apt-get install -y chromium chromium-driver && "
            "pip install selenium",
            pytrace=False,
        )  # fmt: skip
    options = Options()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.TemporaryDirectory(prefix="termscribe-chromium-")
    for argument in [*ARGUMENTS, f"--user-data-dir={profile.name}"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    # Leave a dialog open so that the test sees it instead of a driver error.
    options.set_capability("unhandledPromptBehavior", "ignore")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        driver.get("about:blank")
        yield Browser(driver)
    finally:
        driver.quit()
        profile.cleanup()


def write_page(name: str, html: str) -> Path:
    path = OUT / "pages" / f"{name}.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
    return path


def rgb(value: str) -> tuple[int, ...]:
    match = re.match(r"rgba?\((\d+), (\d+), (\d+)", value)
    assert match, value
    return tuple(int(part) for part in match.groups())


# ---------------------------------------------------------------- the detectors


def test_detectors_fire_on_an_unsafe_page(browser: Browser) -> None:
    """Not termscribe output: a page that does everything the others must not."""
    page = write_page(
        "control/unsafe",
        "<!DOCTYPE html><title>control</title><body>"
        f"<script>window.{CANARY} = 1; console.log('ran'); alert('dialog')</script>"
        '<img src="http://127.0.0.1:9/pixel.png">',
    )
    visit = browser.open(page)
    assert visit.canary == 1
    assert visit.dialogs == ["dialog"]
    assert visit.scripts == 1
    assert any("ran" in message for message in visit.console)
    assert "http://127.0.0.1:9/pixel.png" in visit.requests
    with pytest.raises(AssertionError):
        visit.assert_inert()


# ---------------------------------------------------------------- hostile input


def _payloads() -> bytes:
    """Every way terminal bytes might try to run script or fetch something."""
    js = f"window.{CANARY}=1".encode()
    markup = [
        b"<script>" + js + b"</script>",
        b'<img src=x onerror="' + js + b'">',
        b"<svg onload=" + js + b">",
        b'<iframe srcdoc="<script>parent.' + js + b'</script>">',
        b'<a href="javascript:' + js + b'">x</a>',
        b'<div style="background:url(http://127.0.0.1:9/css)">',
        b'<link rel=stylesheet href="http://127.0.0.1:9/x.css">',
        b'<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/">',
        b"<base href=http://127.0.0.1:9/>",
        b'" onmouseover="' + js + b'" x="',
        b"' onmouseover='" + js + b"' x='",
    ]
    links = [
        b"javascript:" + js,
        b"java\tscript:" + js,
        b"JAVASCRIPT:" + js,
        b" javascript:" + js,
        b"data:text/html,<script>" + js + b"</script>",
        b"vbscript:" + js,
        b'https://x.example/" onmouseover="' + js,
        b"https://x.example/'><script>" + js + b"</script>",
        b"//127.0.0.1:9/",
    ]
    parts = [CSI + b"31m" + item + CSI + b"0m\r\n" for item in markup]
    parts += [OSC + b"8;;" + uri + ST + b"hover me" + OSC + b"8;;" + ST + b"\r\n" for uri in links]
    parts += [OSC + b"0;<script>" + js + b"</script>" + ST + b"title\r\n"]
    parts += [CSI + b"38;2;255;0;0);background:url(http://127.0.0.1:9/)m" + b"css\r\n"]
    return b"".join(parts)


def test_injection_payloads_stay_inert_even_when_hovered(browser: Browser) -> None:
    data = _payloads()
    path = write_page("hostile/canary", render_html(data, standalone=True, columns=100))
    visit = browser.open(path)
    visit.assert_inert()
    from selenium.webdriver import ActionChains

    elements = browser.driver.find_elements("css selector", "pre span, pre a")
    assert len(elements) >= 10
    for element in elements:
        ActionChains(browser.driver).move_to_element(element).perform()
    assert browser.driver.execute_script(f"return window.{CANARY}") is None
    assert browser.driver.get_log("browser") == []
    hrefs = browser.driver.execute_script(
        "return Array.from(document.links, a => a.href)"
    )  # resolved by the browser
    assert all(href.startswith("https://x.example/") for href in hrefs), hrefs
    text = browser.driver.find_element("css selector", "pre").get_attribute("textContent")
    assert text == render_text(data, columns=100)


CASES = corpus_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_page_is_inert_and_shows_the_transcript(browser: Browser, case: Case) -> None:
    transcript = transcript_of([case.data()], **case.options())
    path = write_page(case.name, transcript.html(standalone=True, title=case.name))
    visit = browser.open(path)
    visit.assert_inert()
    assert browser.driver.title == case.name
    hrefs = browser.driver.execute_script("return Array.from(document.links, a => a.href)")
    assert all(re.match(r"(https?://[^/?#]+|mailto:)", href) for href in hrefs), hrefs
    text = browser.driver.find_element("css selector", "pre").get_attribute("textContent")
    assert text == transcript.text()


# ---------------------------------------------------------------- rendering


def test_styles_are_rendered(browser: Browser) -> None:
    data = (
        CSI + b"31mred" + CSI + b"0m "
        + CSI + b"1mbold" + CSI + b"0m "
        + CSI + b"38;5;196mpalette" + CSI + b"0m "
        + CSI + b"97;48;2;0;0;128mnavy" + CSI + b"0m "
        + CSI + b"4:2;9mdouble-struck" + CSI + b"0m "
        + CSI + b"8msecret" + CSI + b"0m "
        + OSC + b"8;;https://example.com/" + ST + b"link" + OSC + b"8;;" + ST
    )  # fmt: skip
    browser.open(write_page("styles", render_html(data, standalone=True))).assert_inert()
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        (red,) = browser.computed(".ts-fg1", "color")
        r, g, b = rgb(red)
        assert r > 150 and g < 100 and b < 100, (scheme, red)
        (weight,) = browser.computed(".ts-bold", "font-weight")
        assert int(weight) >= 600
        assert rgb(browser.computed("span[style='color:#ff0000']", "color")[0]) == (255, 0, 0)
        navy = browser.computed("span[style='background-color:#000080']", "background-color")
        assert rgb(navy[0]) == (0, 0, 128)
        line, style = browser.computed(".ts-ul2", "text-decoration-line", "text-decoration-style")
        assert line == "underline line-through" and style == "double"
        (link,) = browser.computed("a", "text-decoration-line")
        assert link == "underline"
        colour, visibility, opacity = browser.computed(
            ".ts-conceal", "color", "visibility", "opacity"
        )
        background = browser.computed("pre", "background-color")[0]
        assert visibility == "visible" and opacity == "1" and rgb(colour) != rgb(background)
        luminance = sum(rgb(background)) / 3
        assert (luminance < 60) if scheme == "dark" else (luminance > 200), (scheme, background)
        browser.screenshot(f"styles-{scheme}")
    browser.color_scheme("light")


SHOWCASE = ["ls_color", "git_diff", "pytest_color", "htop", "cargo_build", "unicode_sampler"]
HOSTILE_SHOWCASE = ["markup_injection", "osc8_spoofed_text", "hide_concealed_colours"]


@pytest.mark.parametrize(
    "name", [f"recordings/{n}" for n in SHOWCASE] + [f"hostile/{n}" for n in HOSTILE_SHOWCASE]
)
def test_screenshots(browser: Browser, name: str) -> None:
    (case,) = [case for case in CASES if case.name == name]
    transcript = transcript_of([case.data()], **case.options())
    path = write_page(f"showcase/{case.path.stem}", transcript.html(standalone=True))
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(path).assert_inert()
        shot = browser.screenshot(f"{case.path.stem}-{scheme}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.color_scheme("light")


# ---------------------------------------------------------------- contrast

# For each run of the <pre> (a text node right in it, or an element): its
# computed colour, the background it is drawn on (the nearest ancestor-or-self
# with a non-transparent background), its opacity and its text.
_RUNS_JS = """
const pre = document.querySelector('pre.termscribe');
const background = (element) => {
  for (let e = element; e; e = e.parentElement) {
    const value = getComputedStyle(e).backgroundColor;
    if (value !== 'rgba(0, 0, 0, 0)' && value !== 'transparent') return value;
  }
  return 'none';
};
const runs = [];
for (const node of pre.childNodes) {
  const element = node.nodeType === Node.ELEMENT_NODE ? node : pre;
  const style = getComputedStyle(element);
  runs.push([style.color, background(element), style.opacity, style.visibility,
             node.textContent]);
}
return runs;
"""


def _opaque(value: str) -> tuple[int, int, int]:
    assert value.startswith("rgb("), f"not an opaque colour: {value}"
    r, g, b = rgb(value)
    return r, g, b


def test_every_character_is_readable_in_both_schemes(browser: Browser) -> None:
    """DESIGN.md invariant 7 as Chromium draws it: every character of the
    hostile sample (contrastcheck) at 3:1 or more against the background it
    is actually on, with prefers-color-scheme emulated light and dark."""
    data = hostile_sample()
    text = render_text(data)
    path = write_page("contrast/hostile", render_html(data, standalone=True))
    lowest = {}
    pre_backgrounds = {}
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.open(path).assert_inert()
        runs = browser.driver.execute_script(_RUNS_JS)
        assert "".join(run[4] for run in runs) == text
        pre_backgrounds[scheme] = browser.computed("pre", "background-color")[0]
        characters = 0
        lowest[scheme] = 99.0
        for colour, background, opacity, visibility, content in runs:
            shown = content.replace("\n", "")
            if not shown:
                continue
            assert opacity == "1" and visibility == "visible", (scheme, content[:20])
            value = ratio(_opaque(colour), _opaque(background))
            assert value >= MIN_RATIO - 0.005, (scheme, content[:20], colour, background, value)
            characters += len(shown)
            lowest[scheme] = min(lowest[scheme], value)
        assert characters > 14_000, characters
        browser.screenshot(f"contrast-{scheme}")
    browser.color_scheme("light")
    assert rgb(pre_backgrounds["light"]) == (255, 255, 255)
    assert rgb(pre_backgrounds["dark"]) == (30, 30, 30)
    print(f"browser contrast: {characters} characters per scheme, lowest {lowest}")
