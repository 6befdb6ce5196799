"""OSC 8 target validation: what may be a link, and in what form."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termscribe import safe_url
from termscribe._render._urls import MAX_URL_CHARS


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("https://example.com/", "https://example.com/"),
        ("http://example.com", "http://example.com/"),
        ("HTTPS://Example.COM/Path?Q=1#Frag", "https://example.com/Path?Q=1#Frag"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("https://example.com:/x", "https://example.com/x"),
        ("https://example.com:0443/", "https://example.com:443/"),
        ("https://127.0.0.1/", "https://127.0.0.1/"),
        ("https://[::1]:8080/x", "https://[::1]:8080/x"),
        ("https://a.example?q", "https://a.example?q"),
        ("https://a.example#f", "https://a.example#f"),
        ("https://example.com./", "https://example.com./"),
        # WHATWG strips C0 and space at the ends, tab/newline anywhere.
        ("  https://example.com/ \x01", "https://example.com/"),
        ("ht\ttp\ns://exa\tmple.com/", "https://example.com/"),
        # Everything outside a small ASCII set is percent-encoded.
        ("https://x.example/a b", "https://x.example/a%20b"),
        (
            'https://x.example/"onmouseover="alert(1)',
            "https://x.example/%22onmouseover=%22alert(1)",
        ),
        ("https://x.example/'><script>", "https://x.example/%27%3E%3Cscript%3E"),
        ("https://x.example/`id`", "https://x.example/%60id%60"),
        ("https://x.example/\u202egnp.exe", "https://x.example/%E2%80%AEgnp.exe"),
        ("https://x.example/caf\u00e9", "https://x.example/caf%C3%A9"),
        ("https://x.example/%41%zz%", "https://x.example/%41%25zz%25"),
        ("https://x.example/?a=1&b=2&amp;c=&lt;3", "https://x.example/?a=1&b=2&amp;c=&lt;3"),
        # A backslash ends the host as "/" does (WHATWG), never joins it.
        ("https://evil.example\\@github.com/", "https://evil.example/@github.com/"),
        ("https://evil.example/a\\b", "https://evil.example/a%5Cb"),
        # Internationalised hosts are shown in their xn-- form.
        ("https://g\u0456thub.com/x", "https://xn--gthub-n2e.com/x"),
        ("https://B\u00fccher.example/", "https://xn--bcher-kva.example/"),
        ("https://xn--gthub-n4a.com/", "https://xn--gthub-n4a.com/"),
        ("mailto:someone@example.com", "mailto:someone@example.com"),
        ("MAILTO:Some.One+tag@Example.COM", "mailto:Some.One+tag@example.com"),
    ],
)
def test_accepted_and_normalised(uri: str, expected: str) -> None:
    assert safe_url(uri) == expected


@pytest.mark.parametrize(
    "uri",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(document.cookie)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java\rscript:alert(1)",
        " javascript:alert(1)",
        "\x01javascript:alert(1)",
        "\x00javascript:alert(1)",
        "javascript&#58;alert(1)",
        "&#106;avascript:alert(1)",
        "jav&#x09;ascript:alert(1)",
        "javascript\u00a0:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "file:///etc/passwd",
        "ftp://example.com/",
        "ssh://evil.example/",
        "x-apple.systempreferences:com.apple.preference",
        "//evil.example/path",
        "\\\\evil.example\\share",
        "/relative/path",
        "relative",
        "",
        "https:evil.example",
        "https:/evil.example",
        "https:///path",
        "https://",
        "https://github.com@evil.example/",
        "https://user:pass@evil.example/",
        "https://@evil.example/",
        "https://github.com%40evil.example/",
        "https://exa mple.com/",
        "https://example.com:99999/",
        "https://example.com:8o/",
        "https://example.com/\x7f",
        "https://example.com/\x9b31m",
        "https://example.com/a\x1b]8;;x",
        "https://-bad.example/",
        "https://under_score.example/",
        "https://[::1/",
        "https://\u202eelgoog.com/",
        "mailto:",
        "mailto:a@b@c",
        "mailto:a@b.c?body=hello",
        "mailto:<a@b.c>",
        "https://x.example/" + "a" * MAX_URL_CHARS,
    ],
)
def test_rejected(uri: str) -> None:
    assert safe_url(uri) is None


def test_result_depends_on_the_target_only() -> None:
    # No cache shared between callers: many distinct targets change nothing.
    first = safe_url("https://cache.example/")
    for i in range(10_000):
        safe_url(f"https://other{i}.example/")
    assert first == safe_url("https://cache.example/") == "https://cache.example/"


@given(st.text(max_size=60))
def test_any_accepted_url_is_plain_ascii_with_a_host(uri: str) -> None:
    _assert_safe(safe_url(uri))


_URLISH = st.builds(
    "".join,
    st.lists(
        st.sampled_from(
            ["https:", "http:", "HTTP:", "mailto:", "//", "/", "\\", "@", ":", "?", "#", "%",
             "a", "example", ".", "com", "\u0456", "\u202e", " ", "\t", "\x00", "'", '"', "<",
             "[", "]", "::1", "80", "xn--", "-", "&amp;", "javascript:", "java\tscript"]
        ),
        max_size=14,
    ),
)  # fmt: skip


@given(_URLISH)
def test_url_shaped_input_is_safe_and_idempotent(uri: str) -> None:
    result = safe_url(uri)
    _assert_safe(result)
    if result is not None:
        assert safe_url(result) == result


def _assert_safe(result: str | None) -> None:
    if result is None:
        return
    assert result.isascii() and result.isprintable()
    for bad in " \"'<>`\\":
        assert bad not in result
    parts = urlsplit(result)
    assert parts.scheme in ("http", "https", "mailto")
    if parts.scheme == "mailto":
        assert parts.path.count("@") == 1
    else:
        assert parts.hostname
        assert parts.username is None
        assert result.startswith(parts.scheme + "://")
