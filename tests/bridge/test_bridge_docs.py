"""The bridge guide (docs/bridge.md): its example runs and its numbers and
names are current."""

from __future__ import annotations

import re

from readme import DOCS, doc_section, run_example

from termscribe.acp import DEFAULT_MAX_TEXT_CHARS, ResendPolicy
from termscribe.acp.bridge._policy import DEFAULT_FLUSH_BYTES, DEFAULT_FLUSH_MS

GUIDE = DOCS / "bridge.md"
SECTION = "# Showing v2 terminals to v1 clients (`termscribe bridge`)"


def test_python_example_runs() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```$", doc_section(GUIDE, SECTION), re.S | re.M)
    assert blocks
    for block in blocks:
        run_example(block, GUIDE)  # fails on an error the SDK only logs


def test_documented_defaults_match_the_code() -> None:
    text = doc_section(GUIDE, SECTION)
    policy = ResendPolicy()
    assert DEFAULT_MAX_TEXT_CHARS == 64 * 1024 and "64 Ki characters" in text
    assert policy.min_bytes == 1024 and "at least 1 KiB" in text
    assert policy.max_delay_ms == 500 and "waited 500 ms" in text
    assert DEFAULT_FLUSH_MS == 100 and "(default 100;" in text
    assert DEFAULT_FLUSH_BYTES == 64 * 1024 and "64 KiB wait" in text
