"""The invisible channel (SECURITY.md, "invisible smuggling").

Every default-ignorable, format, private-use, unassigned or noncharacter code
point is shown visibly, whatever surrounds it; the one exception is a joiner
in context: at most one variation selector directly after a base character,
and ZWJ, ZWNJ or CGJ after a base or after that selector. The sets come from
Unicode's own properties, checked here with the ``regex`` module over every
code point.
"""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path

import pytest
import regex
from chunking import assert_chunking_invariant
from hypothesis import given, settings
from hypothesis import strategies as st
from textcheck import HIDDEN, SELECTOR, assert_no_hidden_runs, assert_safe_text

from termscribe import Transcript, render_ansi, render_html, render_text
from termscribe._unicode_data import UNICODE_VERSION
from termscribe.acp import TerminalStore

ROOT = Path(__file__).resolve().parent.parent
_NONCHARACTER = regex.compile(r"\p{Noncharacter_Code_Point}")
_MODES: list[dict[str, object]] = [
    {},
    {"columns": 11},
    {"mode": "strip"},
    {"mode": "screen", "columns": 40, "rows": 8},
]


def _generator() -> object:
    spec = importlib.util.spec_from_file_location(
        "make_unicode_data", ROOT / "scripts" / "make_unicode_data.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tables_are_unicodes_own_properties() -> None:
    # The committed module is what the generator makes from the installed
    # regex module's Unicode data, at the version of wcwidth's table.
    from wcwidth.table_wide import WIDE_EASTASIAN

    assert UNICODE_VERSION in WIDE_EASTASIAN
    generated = _generator().module()  # type: ignore[attr-defined]
    assert (ROOT / "src" / "termscribe" / "_unicode_data.py").read_text("utf-8") == generated


def _expected(cp: int) -> str:
    ch = chr(cp)
    if _NONCHARACTER.match(ch) or 0xD800 <= cp <= 0xDFFF:
        return "x\ufffdy"
    if HIDDEN.match(ch):
        return f"x<U+{cp:04X}>y"  # joiners too: "x" is no base for them
    return f"x{ch}y"


# Planes 4 to 12 hold no assigned code point: plane 13 stands for them in the
# default profile.
_UNASSIGNED = pytest.mark.deep(reason="another plane of unassigned code points")


@pytest.mark.parametrize(
    "plane", [pytest.param(p, marks=_UNASSIGNED) if 4 <= p <= 12 else p for p in range(17)]
)
def test_every_code_point_is_shown_or_marked(plane: int) -> None:
    points = [cp for cp in range(plane << 16, (plane + 1) << 16) if not 0xD800 <= cp <= 0xDFFF]
    points = [cp for cp in points if cp >= 0xA0]
    data = "\n".join(f"x{chr(cp)}y" for cp in points)
    transcript = Transcript(max_lines=None)
    transcript.feed(data.encode("utf-8", "surrogatepass"))
    transcript.finish()
    shown = transcript.text().split("\n")
    assert len(shown) == len(points)
    wrong = [
        (hex(cp), line)
        for cp, line in zip(points, shown, strict=True)
        if line != _expected(cp) and not _combining_or_wide(cp, line)
    ]
    assert wrong == []


def _combining_or_wide(cp: int, line: str) -> bool:
    """A shown code point that is not hidden: kept raw (a combining mark
    joins the x, a wide one takes two cells; the text is the same)."""
    return not HIDDEN.match(chr(cp)) and line == f"x{chr(cp)}y"


@pytest.mark.parametrize("base", ["😀", "漢", "1", "é", "❤"])
@pytest.mark.parametrize("options", _MODES)
def test_at_most_one_variation_selector_follows_a_base(
    base: str, options: dict[str, object]
) -> None:
    selectors = "".join(chr(0xFE00 + i % 16) if i % 2 else chr(0xE0100 + i) for i in range(32))
    shown = assert_chunking_invariant(f"{base}{selectors}ok".encode(), **options)
    assert shown.startswith(base + selectors[0])
    raw = SELECTOR.findall(shown)
    assert raw == [selectors[0]], shown
    # The others are markers that decorate the base's cell, as many as it
    # holds (MAX_COMBINING code points, a marker's tag counted); the rest
    # are counted as omitted (the screen mode, a terminal's screen, has no
    # such count).
    assert shown.count("<U+") == 15
    if options.get("mode") != "screen":
        assert shown.endswith("ok [termscribe: 16 characters omitted]")
    assert_safe_text(shown)


@pytest.mark.parametrize("options", _MODES)
def test_emoji_sequences_keep_their_joiners(options: dict[str, object]) -> None:
    for sequence in ["❤\ufe0f\u200d🔥", "👨\u200d👩\u200d👧", "1\ufe0f\u20e3", "می\u200cخواهم"]:
        assert assert_chunking_invariant(sequence.encode(), **options) == sequence


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("漢\ufe0f\u200d\u200d字", "漢\ufe0f\u200d<U+200D>字"),  # one joiner after the selector
        ("漢\u200d\ufe0f", "漢\u200d<U+FE0F>"),  # no selector after a joiner
        ("漢\u200c\u200d", "漢\u200c<U+200D>"),
        ("a\ufff0\ufff8b", "a<U+FFF0><U+FFF8>b"),  # unassigned specials
        ("\ue0b0 prompt", "<U+E0B0> prompt"),  # private use (Nerd Font glyphs)
        ("\u3164\u115f\u1160\uffa0", "<U+3164><U+115F><U+1160><U+FFA0>"),  # fillers
        ("\U0001d173x", "<U+1D173>x"),
        ("a\U000e0080b", "a<U+E0080>b"),
    ],
)
def test_invisible_code_points_in_context(data: str, expected: str) -> None:
    wide_enough: list[dict[str, object]] = [{}, {"columns": 80}, {"mode": "strip"}]
    for options in [*wide_enough, {"mode": "screen", "columns": 40, "rows": 8}]:
        assert assert_chunking_invariant(data.encode(), **options) == expected


_PIECES = st.sampled_from(
    [
        "a", "漢", "😀", "1", " ", "\n", "\r", "é", "\u0301",
        "\ufe0f", "\ufe0e", "\U000e0101", "\u180b",
        "\u200d", "\u200c", "\u034f",
        "\u200b", "\u2060", "\ufeff", "\u00ad", "\ufff0", "\ue000", "\ue001", "\U000e0041",
        "\x1b[31m", "\x1b[2D", "\x1b[K",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.sampled_from(range(len(_MODES))))
def test_no_run_of_invisible_code_points_survives(pieces: list[str], mode: int) -> None:
    data = "".join(pieces).encode()
    options = _MODES[mode]
    for render in (render_text, render_ansi):
        assert_no_hidden_runs(render(data, **options))  # type: ignore[arg-type]
    html = render_html(data, **options)  # type: ignore[arg-type]
    assert_no_hidden_runs(regex.sub(r"<[^>]*>", "", html))


def test_the_store_and_its_text_show_the_channel() -> None:
    smuggled = "ok😀" + "".join(chr(0xE0100 + b) for b in b"secret") + "\ufff1done"
    store = TerminalStore()
    update = {
        "sessionUpdate": "terminal_output_chunk",
        "terminalId": "t",
        "data": base64.b64encode(smuggled.encode()).decode(),
    }
    store.apply(
        {
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"sessionId": "s", "update": update},
        }
    )
    terminal = store.get("s", "t")
    assert terminal is not None
    text = terminal.text()
    assert text == "ok😀\U000e0173<U+E0165><U+E0163><U+E0172><U+E0165><U+E0174><U+FFF1>done"
