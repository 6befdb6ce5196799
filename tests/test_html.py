"""The HTML renderer: markup, colours, links, documents, streaming, corpus."""

from __future__ import annotations

import io
import re
from pathlib import Path

import html5lib
import pytest
from chunking import assert_chunking_invariant, chunks_random, transcript_of
from htmlcheck import Case, check_html, corpus_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termscribe import (
    HTML_STYLESHEET,
    Transcript,
    html_end,
    html_lines,
    html_start,
    render_html,
    render_text,
)
from termscribe._render._html import html_pairs
from termscribe._style import DEFAULT, Style
from termscribe.cli import main

ESC = b"\x1b"
CSI = b"\x1b["
OSC = b"\x1b]"
BEL = b"\x07"
ST = b"\x1b\\"
PRE = '<pre class="termscribe">\n'
REL = 'rel="noopener noreferrer nofollow"'


def body(data: bytes, **options: object) -> str:
    """The fragment's content between <pre> and </pre>."""
    html = render_html(data, **options)
    assert html.startswith(PRE) and html.endswith("</pre>")
    check_html(html, render_text(data, **options))
    return html[len(PRE) : -len("</pre>")]


def link(uri: bytes, text: bytes) -> bytes:
    return OSC + b"8;;" + uri + ST + text + OSC + b"8;;" + ST


# ---------------------------------------------------------------- text


def test_plain_text_is_escaped() -> None:
    assert body(b"<script>a & b \"c\" 'd'</script>") == (
        "&lt;script&gt;a &amp; b &quot;c&quot; &#x27;d&#x27;&lt;/script&gt;"
    )


def test_styled_text_is_escaped() -> None:
    assert body(CSI + b"31m</span><b>" + CSI + b"0m") == (
        '<span class="ts-fg1">&lt;/span&gt;&lt;b&gt;</span>'
    )


def test_lines_are_joined_with_newlines() -> None:
    assert body(b"a\r\nb\r\n\r\nc") == "a\nb\n\nc"


def test_leading_blank_line_survives_the_pre_newline_rule() -> None:
    html = render_html(b"\r\nfirst")
    tree = html5lib.parseFragment(html, namespaceHTMLElements=False)
    assert "".join(tree.find("pre").itertext()) == "\nfirst"


# ---------------------------------------------------------------- colours


@pytest.mark.parametrize(
    ("sgr", "attributes"),
    [
        (b"31", 'class="ts-fg1"'),
        (b"92;40", 'class="ts-fg10 ts-bg0"'),
        (b"38;5;3", 'class="ts-fg3"'),
        (b"30;48;5;15", 'class="ts-fg0 ts-bg15"'),
        # 16-255: the xterm cube and grey ramp, as #rrggbb.
        (b"38;5;33", 'style="color:#0087ff"'),
        (b"38;5;67", 'style="color:#5f87af"'),
        (b"38;5;196", 'style="color:#ff0000"'),
        (b"38;5;16;48;5;231", 'style="color:#000000;background-color:#ffffff"'),
        (b"38;5;232;48;5;255", 'style="color:#080808;background-color:#eeeeee"'),
        (b"38;2;1;2;3;48;2;200;200;200", 'style="color:#010203;background-color:#c8c8c8"'),
        (b"38:2::255:128:0;48;2;0;0;0", 'style="color:#ff8000;background-color:#000000"'),
        (b"1;31;48;5;17", 'class="ts-fg1 ts-bold" style="background-color:#00005f"'),
    ],
)
def test_colours(sgr: bytes, attributes: str) -> None:
    assert body(CSI + sgr + b"mx") == f"<span {attributes}>x</span>"


@pytest.mark.parametrize(
    ("sgr", "attributes"),
    [
        (b"7", 'class="ts-fgbg ts-bgfg"'),
        (b"7;31", 'class="ts-fgbg ts-bg1"'),
        (b"7;41", 'class="ts-fg1 ts-bgfg"'),
        (b"7;30;43", 'class="ts-fg3 ts-bg0"'),
        (b"7;38;2;1;2;3;48;2;200;200;200", 'style="color:#c8c8c8;background-color:#010203"'),
    ],
)
def test_inverse_swaps_colours(sgr: bytes, attributes: str) -> None:
    assert body(CSI + sgr + b"mx") == f"<span {attributes}>x</span>"


@pytest.mark.parametrize(
    ("sgr", "classes"),
    [
        (b"1", "ts-bold"),
        (b"3", "ts-italic"),
        (b"5", "ts-blink"),
        (b"4", "ts-ul"),
        (b"21", "ts-ul2"),
        (b"4:3", "ts-ul3"),
        (b"4:4", "ts-ul4"),
        (b"4:5", "ts-ul5"),
        (b"9", "ts-strike"),
        (b"53", "ts-overline"),
        (b"1;3;5;9;53;4:3", "ts-bold ts-italic ts-blink ts-ul3 ts-strike ts-overline"),
    ],
)
def test_attributes(sgr: bytes, classes: str) -> None:
    assert body(CSI + sgr + b"mx") == f'<span class="{classes}">x</span>'


def test_underline_colour_only_with_an_underline() -> None:
    assert body(CSI + b"4;58;5;196mx" + CSI + b"0;58;5;196my" + CSI + b"0;4;58:5:2mz") == (
        '<span class="ts-ul" style="text-decoration-color:#ff0000">x</span>y'
        '<span class="ts-ul" style="text-decoration-color:var(--ts-c2)">z</span>'
    )


@pytest.mark.parametrize(
    "sgr",
    [b"38;2;300;-1;99999", b"38;5;999", b"38:2:red:0:0", b"38;2;255;0;0);background:url(x)"],
)
def test_invalid_colours_never_reach_css(sgr: bytes) -> None:
    html = body(CSI + sgr + b"mtext" + CSI + b"0m")
    assert 'style="' not in html  # a quote in text would be &quot;


def test_concealed_text_stays_visible() -> None:
    # Red on green is readable once its red is darkened (see the contrast tests).
    assert body(b"pass: " + CSI + b"8;31;42msecret" + CSI + b"28mshown") == (
        'pass: <span title="hidden in the terminal" class="ts-conceal">secret</span>'
        '<span class="ts-fgx ts-bg2" style="--ts-l:#8a2121;--ts-d:#a12626">shown</span>'
    )


@pytest.mark.parametrize(
    "sgr",
    [
        b"30;40",
        b"31;41",
        b"97;107",
        b"38;5;196;48;2;255;0;0",
        b"38;2;10;10;10;48;2;12;20;10",
        # A palette colour and a fixed one that equal it in both themes.
        b"30;48;2;0;0;0",
        b"38;5;16;40",
        b"7;30;40",
    ],
)
def test_same_colour_text_is_shown_as_hidden(sgr: bytes) -> None:
    assert (
        body(CSI + sgr + b"mx")
        == '<span title="hidden in the terminal" class="ts-conceal">x</span>'
    )


@pytest.mark.parametrize(
    "sgr",
    # Readable in at least one theme; default colours are the viewer's.
    [b"30;47", b"31;42", b"38;2;0;0;0;48;2;40;40;40", b"30", b"7;30", b"40", b"34;104"],
)
def test_different_colours_are_not_hidden(sgr: bytes) -> None:
    assert "ts-conceal" not in body(CSI + sgr + b"mx")


def test_equal_styles_merge_into_one_span() -> None:
    data = CSI + b"31ma" + CSI + b"31mb" + CSI + b"0;31mc" + CSI + b"1md" + CSI + b"22me"
    assert body(data) == (
        '<span class="ts-fg1">abc</span><span class="ts-fg1 ts-bold">d</span>'
        '<span class="ts-fg1">e</span>'
    )


def test_styles_that_render_alike_merge_too() -> None:
    # An unsafe link and concealment in different colours change nothing shown.
    data = CSI + b"31ma" + link(b"javascript:x", b"b") + b"c" + CSI + b"8;32md" + CSI + b"33me"
    assert body(data) == (
        '<span class="ts-fg1">abc</span>'
        '<span title="hidden in the terminal" class="ts-conceal">de</span>'
    )


def test_spans_never_cross_lines() -> None:
    assert body(CSI + b"32mone\r\ntwo" + CSI + b"0m") == (
        '<span class="ts-fg2">one</span>\n<span class="ts-fg2">two</span>'
    )


# ---------------------------------------------------------------- links


def test_safe_link_shows_its_real_target() -> None:
    html = body(b"see " + link(b"https://evil.example/login", b"https://github.com/x") + b" end")
    assert html == (
        'see <a href="https://evil.example/login" title="https://evil.example/login" '
        f"{REL}>https://github.com/x</a> end"
    )


def test_link_keeps_its_style_and_escapes_its_target() -> None:
    data = link(b'https://a.example/?x=1&y="2"', CSI + b"1;31m<b>" + CSI + b"0m")
    url = "https://a.example/?x=1&amp;y=%222%22"
    assert body(data) == f'<a href="{url}" title="{url}" {REL} class="ts-fg1 ts-bold">&lt;b&gt;</a>'


@pytest.mark.parametrize(
    "uri",
    [
        b"javascript:alert(1)",
        b"java\tscript:alert(1)",
        b" JaVaScRiPt:alert(1)",
        b"data:text/html,<script>alert(1)</script>",
        b"vbscript:msgbox(1)",
        b"file:///etc/passwd",
        b"//evil.example/",
        b"https://github.com@evil.example/",
    ],
)
def test_unsafe_link_keeps_its_text_only(uri: bytes) -> None:
    assert body(b"a " + link(uri, b"click <here>") + b" b") == "a click &lt;here&gt; b"


def test_mailto_link() -> None:
    assert body(link(b"mailto:dev@example.com", b"mail")) == (
        f'<a href="mailto:dev@example.com" title="mailto:dev@example.com" {REL}>mail</a>'
    )


def test_unterminated_link_ends_with_each_line() -> None:
    html = body(OSC + b"8;;https://a.example/" + BEL + b"one\r\ntwo")
    assert html.count("<a ") == 2 and html.count("</a>") == 2


# ---------------------------------------------------------------- documents


def test_fragment_is_one_pre() -> None:
    assert render_html(b"x") == f"{PRE}x</pre>"
    assert render_html(b"") == f"{PRE}</pre>"


def test_standalone_document() -> None:
    data = CSI + b"31mred" + CSI + b"0m " + link(b"https://a.example/", b"a")
    html = render_html(data, standalone=True, title="build <log> & \u202e\x01")
    check_html(html, render_text(data))
    assert html.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert (
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'\">"
    ) in html
    assert "<title>build &lt;log&gt; &amp; \ufffd\ufffd</title>" in html
    assert HTML_STYLESHEET in html
    assert html.endswith("</pre>\n</body>\n</html>\n")
    for external in ("<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "//fonts"):
        assert external not in html


def test_stylesheet_has_both_themes_and_the_palette() -> None:
    light, _, dark = HTML_STYLESHEET.partition("@media (prefers-color-scheme:dark)")
    for theme in (light, dark):
        for i in range(16):
            assert re.search(rf"--ts-c{i}:#[0-9a-f]{{6}};", theme), (i, theme[:80])
        assert "--ts-fg:#" in theme and "--ts-bg:#" in theme
    assert "display:none" not in HTML_STYLESHEET and "visibility" not in HTML_STYLESHEET


def test_transcript_html_before_finish_shows_state_so_far() -> None:
    transcript = Transcript()
    transcript.feed(CSI + b"31mred\xe2\x82")
    assert transcript.html() == f'{PRE}<span class="ts-fg1">red</span></pre>'


# ---------------------------------------------------------------- streaming


def test_streamed_lines_give_the_same_document() -> None:
    data = b"".join(CSI + b"3%dmline %d\r\n" % (i % 8, i) for i in range(100)) + b"tail"
    transcript = Transcript(rows=5)
    parts = [html_start(standalone=True)]
    for i in range(0, len(data), 37):
        transcript.feed(data[i : i + 37])
        committed = transcript.take_lines()
        if committed:
            parts.append(html_lines(committed) + "\n")
    transcript.finish()
    parts.append(html_lines(transcript.lines()) + html_end(standalone=True))
    assert len(parts) > 10
    assert "".join(parts) == render_html(data, standalone=True, rows=5)


def _cli(args: list[str], data: bytes) -> tuple[int, bytes]:
    out = io.BytesIO()
    status = main(["render", *args], stdin=io.BytesIO(data), stdout=out, stderr=io.StringIO())
    return status, out.getvalue()


def test_cli_html_streams_the_same_fragment() -> None:
    data = b"".join(CSI + b"1;3%dm<%d>\r\n" % (i % 8, i) for i in range(5000))
    status, out = _cli(["--format", "html", "--fragment", "--rows", "3"], data)
    assert status == 0
    assert out.decode("utf-8") == render_html(data, rows=3) + "\n"
    # A page without CI sections (with them, the page's stylesheet has
    # their rules, and the log goes in a box of its own: tests/htmlcheck.py).
    status, out = _cli(["--format", "html", "--rows", "3", "--sections", "off"], data)
    assert status == 0
    assert out.decode("utf-8") == render_html(data, rows=3, standalone=True)


def test_cli_html_is_a_page_unless_fragment(tmp_path: Path) -> None:
    source = tmp_path / "build.raw"
    source.write_bytes(CSI + b"31mred")
    for name, args, standalone in [
        ("a.html", [], True),
        ("b.HTM", [], True),
        ("c.txt", [], True),
        ("d.html", ["--fragment"], False),
        ("e.html", ["--no-standalone"], False),  # the older spelling
        ("f.txt", ["--standalone"], True),
    ]:
        target = tmp_path / name
        status, _ = _cli(["--format", "html", *args, "-o", str(target), str(source)], b"")
        assert status == 0
        html = target.read_text(encoding="utf-8")
        assert html.startswith("<!DOCTYPE html>") == standalone, name
        check_html(html, "red")
        if standalone:
            assert "<title>Terminal transcript: build.raw</title>" in html


def test_cli_standalone_needs_html_format() -> None:
    for flag in ("--standalone", "--fragment"):
        status, _ = _cli(["--format", "text", flag], b"x")
        assert status == 2


# ---------------------------------------------------------------- the checker


@pytest.mark.parametrize(
    "bad",
    [
        '<span class="ts-fg1">x</span>',  # text differs (no <pre>)
        PRE + "<script>x</script></pre>",
        PRE + '<span onclick="x" class="ts-fg1">x</span></pre>',
        PRE + '<span class="evil">x</span></pre>',
        PRE + '<span style="color:red">x</span></pre>',
        PRE + '<span style="color:#ff0000;background:url(x)">x</span></pre>',
        PRE + "<span>x</span></pre>",
        PRE + '<a href="javascript:x" title="javascript:x" rel="noopener noreferrer nofollow">'
        "x</a></pre>",
        PRE + '<a href="https:///x" title="https:///x" rel="noopener noreferrer nofollow">x</a>'
        "</pre>",
        PRE + '<a href="https://a.example/" title="https://b.example/" '
        'rel="noopener noreferrer nofollow">x</a></pre>',
        PRE + '<a href="https://a.example/">x</a></pre>',
        PRE + "&#x9b;</pre>",
        PRE + "&#155;</pre>",
        PRE + "<b>x</b></pre>",
        PRE + "x</pre",
        PRE + "y</pre>",
        PRE + "x</pre><p>after</p>",
        # Readable in one theme only, or in neither.
        PRE + '<span style="color:#ffffff">x</span></pre>',
        PRE + '<span style="color:#000000">x</span></pre>',
        PRE + '<span class="ts-fg0">x</span></pre>',
        PRE + '<span class="ts-fg1 ts-bg1">x</span></pre>',
        PRE + '<span class="ts-fgbg">x</span></pre>',
        PRE + '<span class="ts-fgx" style="--ts-l:#000000;--ts-d:#000000">x</span></pre>',
        PRE + '<span class="ts-fgx" style="--ts-l:#000000">x</span></pre>',
        PRE + '<span style="color:#0a0a0a;background-color:#000000">x</span></pre>',
    ],
)
def test_checker_rejects(bad: str) -> None:
    with pytest.raises(AssertionError):
        check_html(bad, "x")


def test_checker_accepts_what_the_renderer_may_emit() -> None:
    check_html(
        PRE + '<span class="ts-fg1 ts-bold" style="color:#008800;text-decoration-color:var'
        '(--ts-c3)">x</span><a href="https://a.example/?q=1&amp;r" title="https://a.example/'
        '?q=1&amp;r" rel="noopener noreferrer nofollow" class="ts-ul">y</a></pre>',
        "xy",
    )


# ---------------------------------------------------------------- SECURITY.md rows


def _no_escape(html: str) -> None:
    assert "\x1b" not in html and "\x9b" not in html


SECURITY_ROWS: list[tuple[str, bytes, object]] = [
    (
        "query-report",
        OSC + b"0;cmd" + BEL + CSI + b"21t" + ESC + b'P$q"p' + ST + CSI + b"6nvisible",
        lambda html: _no_escape(html) or "cmd" not in html,
    ),
    (
        "host-actions",
        OSC + b"52;c;Y3VybCBldmlsIHwgc2g=" + BEL + ESC + b"_Gf=100;AAAA" + ST + b"visible",
        lambda html: "Y3VybC" not in html and "AAAA" not in html,
    ),
    (
        "hyperlink-spoofing",
        link(b"https://evil.example/", b"https://github.com/x"),
        lambda html: 'title="https://evil.example/"' in html,
    ),
    (
        "hiding-conceal",
        b"a" + CSI + b"8mhidden" + CSI + b"0m " + CSI + b"30;40mblack" + CSI + b"0m",
        lambda html: html.count('class="ts-conceal"') == 2,
    ),
    ("hiding-overwrite", b"rm -rf /\rls -la   ", lambda html: "ls -la" in html),
    ("c1-raw", b"a\x9b31mb\x9dc", lambda html: "\ufffd" in html),
    ("c1-utf8", b"a\xc2\x9b31mb\xc2\x85c", _no_escape),
    (
        "framing",
        OSC + b"0;t\x18visible " + OSC + b"0;a" + CSI + b"31mred" + OSC + b"0;open",
        lambda html: "visible" in html and 'class="ts-fg1"' in html,
    ),
    ("bidi", "x\u202eevil\u2066".encode(), lambda html: "&lt;U+202E&gt;" in html),
    (
        "invisible",
        "a\u200bb\u2060c\ufeffd\U000e0041".encode(),
        lambda html: "&lt;U+200B&gt;" in html and "&lt;U+E0041&gt;" in html,
    ),
    ("line-separators", "a\u2028b\u2029c\x85d\x0be\x0cf\x1cg".encode(), _no_escape),
    ("noncharacters", b"a\xef\xbf\xbeb\xc0\xafc\xed\xa0\x80d", lambda html: "\ufffd" in html),
    (
        "markup-injection",
        b"<script>alert(1)</script>"
        + link(b'https://x.example/"><script>', b"q")
        + link(b"java\tscript:alert(1)", b"j")
        + link(b"data:text/html,x", b"d")
        + link(b"//evil.example/", b"s"),
        lambda html: "<script" not in html and "javascript" not in html and html.count("<a ") == 1,
    ),
    ("css-injection", CSI + b"38;2;300;-1;99999mx", lambda html: 'style="' not in html),
    ("combining-storm", b"e" + "\u0301".encode() * 100_000, lambda html: len(html) < 1000),
    (
        "unbounded-buffers",
        OSC + b"0;" + b"A" * 1_000_000 + BEL + b"after",
        lambda html: "AAAA" not in html and "after" in html,
    ),
    (
        "huge-numbers",
        b"x" + CSI + b"2147483647b" + CSI + b"1000000000;1000000000H!",
        lambda html: len(html) < 300_000,
    ),
    (
        "output-growth",
        b"".join(CSI + b"3%dmx" % (1 + i % 2) for i in range(20_000)),
        lambda html: html.count("<span") == 20_000 and len(html) < 40 * 20_000,
    ),
    (
        "chunk-dependent",
        CSI
        + b"38;2;1;2;3m\xe2\x82\xac"
        + OSC
        + b"8;;https://a.example/"
        + ST
        + b"l\xf0\x9f\x98\x80",
        lambda html: "--ts-l:#010203" in html and "\u20ac" in html,
    ),
    ("redos", CSI + b"1" * 50_000 + b";" + b"2" * 50_000 + b"mtext", lambda html: "text" in html),
]


@pytest.mark.parametrize(
    ("data", "check"), [row[1:] for row in SECURITY_ROWS], ids=[row[0] for row in SECURITY_ROWS]
)
def test_security_rows(data: bytes, check: object) -> None:
    assert callable(check)
    text = render_text(data, columns=80)
    check_html(render_html(data, standalone=True, columns=80), text)
    html = render_html(data, columns=80)
    check_html(html, text)
    assert check(html) in (None, True)
    assert_chunking_invariant(data, Transcript.html, bytewise=len(data) < 5000, columns=80)


# ---------------------------------------------------------------- corpus


CASES = corpus_cases()


def test_corpus_is_present() -> None:
    kinds = {case.path.parent.name for case in CASES}
    assert {"recordings", "hostile"} <= kinds, kinds


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_html_is_safe(case: Case) -> None:
    transcript = transcript_of([case.data()], **case.options())
    for standalone in (False, True):
        check_html(transcript.html(standalone=standalone), transcript.text())


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.has_golden], ids=[c.name for c in CASES if c.has_golden]
)
def test_corpus_html_matches_golden(case: Case) -> None:
    assert case.golden.exists(), "no golden: run python scripts/regen_html_goldens.py"
    got = render_html(case.data(), **case.options())
    want = case.golden.read_text(encoding="utf-8")
    assert got == want, f"{case.golden} is stale or the renderer changed: review, then regen"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_corpus_html_is_chunking_invariant(case: Case) -> None:
    data = case.data()
    if len(data) <= 16 * 1024:
        assert_chunking_invariant(data, Transcript.html, **case.options())
        return
    whole = transcript_of([data], **case.options()).html()
    for seed in (1, 2):
        split = transcript_of(chunks_random(data, seed, max_size=8192), **case.options())
        assert split.html() == whole, f"seed {seed}"


# ---------------------------------------------------------------- generated input

_FRAGMENTS = st.sampled_from(
    [
        b"a", b"text ", b"<", b">", b"&", b'"', b"'", b"&amp;", b"\r", b"\n", b"\r\n", b"\t",
        b"\x08", b"\x00", b"\x7f", b"\x9b", b"\xc2\x9b", b"\xc2\x85", b"\xe2\x80\xae",
        b"\xe2\x80\x8b", b"\xf0\x9f\x98\x80", b"\xe4\xb8\xad", b"e\xcc\x81", b"\xff", b"\xed\xa0",
        CSI + b"31m", CSI + b"1;4;7m", CSI + b"8m", CSI + b"0m", CSI + b"m", CSI + b"38;5;",
        CSI + b"38;2;1;2;3m", CSI + b"48:2::9:9:9m", CSI + b"4:3;58;5;9m", CSI + b"30;40m",
        CSI + b"2K", CSI + b"A", CSI + b"5D", CSI + b"H", CSI + b"?1049h", CSI + b"?1049l",
        OSC + b"8;;https://a.example/x?y=<1>&z" + BEL, OSC + b"8;;javascript:alert(1)" + ST,
        OSC + b"8;;" + BEL, OSC + b"8;;", OSC + b"0;<title>" + BEL, ESC, b"\x18", ST,
    ]
)  # fmt: skip
_STREAMS = st.lists(_FRAGMENTS, max_size=40).map(b"".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_STREAMS, st.sampled_from([None, 7]), st.sampled_from(["lines", "strip"]))
def test_generated_streams_give_safe_html(data: bytes, columns: int | None, mode: str) -> None:
    transcript = transcript_of([data], columns=columns, rows=4, mode=mode)
    check_html(transcript.html(), transcript.text())
    check_html(transcript.html(standalone=True), transcript.text())


@settings(max_examples=200, deadline=None)
@given(_STREAMS, st.lists(st.integers(0, 400), max_size=8))
def test_generated_streams_are_chunking_invariant(data: bytes, cuts: list[int]) -> None:
    points = sorted({min(cut, len(data)) for cut in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert transcript_of(pieces, columns=7, rows=4).html() == (
        transcript_of([data], columns=7, rows=4).html()
    )


_RUN_TEXTS = st.sampled_from(["", "a", "<b>", "x & y", "<U+202E>", "[termscribe: 1 line omitted]"])
_RUN_STYLES = st.sampled_from(
    [DEFAULT, Style.make(fg=1), Style.make(fg=1, flags=1), Style.make(bg=4)]
)


@settings(max_examples=300)
@given(st.lists(st.lists(st.tuples(_RUN_TEXTS, _RUN_STYLES), min_size=1, max_size=3), max_size=6))
def test_lines_of_one_run_render_as_any_other(lines: list[list[tuple[str, Style]]]) -> None:
    # A line of one run given as a tuple takes html_pieces' shortcut; as an
    # iterator, the loop over runs: both give the same HTML.
    pairs = [("".join(text for text, _ in runs), runs) for runs in lines]
    shortcut = html_pairs([(text, tuple(runs)) for text, runs in pairs])
    assert shortcut == html_pairs([(text, iter(runs)) for text, runs in pairs])
