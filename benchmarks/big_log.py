"""The page of a big CI log: its size per input byte, the time headless
Chromium takes to load and paint it, and the renderer's peak memory.

    python benchmarks/big_log.py --mb 50 --browser      # docs/ci-logs.md's figures
    python benchmarks/big_log.py --mb 500               # memory stays bounded

A log of about ``--mb`` MB is generated into a temporary directory (never
kept): GitHub Actions groups of 2,000 lines, each line a compiler's or a
test runner's, with colours, and an annotation now and then.  It is rendered
by ``termscribe render --format html --line-anchors`` in a child process
(its peak resident memory is the child's ``ru_maxrss``), then, with
``--browser``, opened from the file in headless Chromium (Debian's
chromium and chromedriver, as tests/test_browser.py uses them): the time
from the request to the load event and to the first contentful paint, as
the browser's own Navigation and Paint Timing report them, and to a frame
drawn after the load (two animation frames), measured by the script.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GROUP_LINES = 2000


def make_log(path: Path, megabytes: float) -> int:
    """Write a CI log of about ``megabytes`` MB to ``path``; its size."""
    target = int(megabytes * 1_000_000)
    size = 0
    group = 0
    with path.open("wb") as out:
        while size < target:
            group += 1
            lines = [b"::group::Build shard %d\n" % group]
            for n in range(GROUP_LINES):
                if n % 3:
                    lines.append(
                        b"  CC      src/module_%05d/file_%04d.o  \x1b[32mok\x1b[0m  %d ms\n"
                        % (group, n, n % 97)
                    )
                else:
                    lines.append(
                        b"tests/test_%05d.py::test_case_%04d \x1b[1;32mPASSED\x1b[0m [%3d%%]\n"
                        % (group, n, n * 100 // GROUP_LINES)
                    )
            lines.append(b"::endgroup::\n")
            if group % 10 == 0:
                lines.append(b"::warning file=src/module_%05d.c,line=3::unused variable\n" % group)
            chunk = b"".join(lines)
            out.write(chunk)
            size += len(chunk)
    return size


def render(source: Path, page: Path, *options: str) -> dict[str, float]:
    """Render ``source`` to ``page`` in a child process: seconds and peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "termscribe", "render", "--format", "html", *options,
         "-o", str(page), str(source)],
        check=True,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak <= before:
        peak = before  # ru_maxrss is the largest child's: an earlier one was larger
    return {"render_s": seconds, "peak_rss_mb": peak / 1024}


_TIMING_JS = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  done({load: nav.loadEventEnd, dom: nav.domContentLoadedEventEnd,
        fcp: paint ? paint.startTime : null, frame: performance.now(),
        lines: document.querySelectorAll('[id^="L"]').length});
}));
"""


def browse(page: Path) -> dict[str, float]:
    """Open ``page`` in headless Chromium: milliseconds to each milestone."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    profile = tempfile.TemporaryDirectory(prefix="termscribe-bench-")
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
                     f"--user-data-dir={profile.name}"):  # fmt: skip
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.set_page_load_timeout(600)
        driver.set_script_timeout(600)
        driver.get("about:blank")
        started = time.perf_counter()
        driver.get(page.as_uri())
        timing = driver.execute_async_script(_TIMING_JS)
        timing["wall_ms"] = (time.perf_counter() - started) * 1000
        return dict(timing)
    finally:
        driver.quit()
        profile.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50, help="the log's size (default 50)")
    parser.add_argument("--browser", action="store_true", help="open the page in Chromium")
    parser.add_argument("--keep", metavar="DIR", help="keep the log and the page in DIR")
    parser.add_argument("--no-anchors", action="store_true", help="render without --line-anchors")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="termscribe-big-") as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        source, page = folder / "big.log", folder / "big.html"
        size = make_log(source, args.mb)
        result: dict[str, object] = {"input_mb": size / 1e6}
        result["anchors"] = not args.no_anchors
        result.update(render(source, page, *([] if args.no_anchors else ["--line-anchors"])))
        result["html_bytes_per_input_byte"] = os.path.getsize(page) / size
        if args.browser:
            result.update(browse(page))
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
