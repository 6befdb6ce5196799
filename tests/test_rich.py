"""termscribe.rich: lines as Rich Text; Transcript and TerminalState in a Rich console.

What Rich draws is checked against the safe-ANSI renderer by reading both
back with termscribe: the same text in the same styles (so the ANSI
renderer's contrast and concealment tests hold for Rich too).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from chunking import transcript_of
from contrastcheck import MIN_RATIO, hostile_sample, ratio
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.color import ColorType
from rich.console import Console
from rich.measure import Measurement
from rich.panel import Panel
from rich.text import Text
from rich.theme import Theme
from wire import chunk

from termscribe import Line, Transcript, ansi_lines, safe_url
from termscribe._style import BOLD
from termscribe.acp import TerminalStore
from termscribe.rich import MARKER_STYLE, LinesView, fold, line_text

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = sorted((ROOT / "corpus" / "recordings").glob("*.raw"))


def lines_of(data: bytes, **options: object) -> list[Line]:
    return transcript_of([data], **options).lines()


def recording_console(width: int = 1000, **options: object) -> Console:
    return Console(record=True, file=io.StringIO(), width=width, **options)  # type: ignore[arg-type]


def drawn(renderable: object, width: int = 1000, **options: object) -> str:
    """What Rich writes to a truecolor terminal for `renderable`."""
    out = io.StringIO()
    console = Console(
        file=out, width=width, force_terminal=True, color_system="truecolor", **options
    )  # type: ignore[arg-type]
    console.print(renderable)
    return out.getvalue()


def read_back(ansi: str) -> list[list[tuple[object, ...]]]:
    """`ansi` read by termscribe: each line's runs as (text, colours, flags,
    underline, link target), runs that differ in nothing else joined.  The
    underline's kind only as single or double (Rich has no curly, dotted or
    dashed) and no underline colour (Rich has none)."""
    lines = lines_of(ansi.encode())
    while lines and not lines[-1].text:
        lines.pop()
    out: list[list[tuple[object, ...]]] = []
    for line in lines:
        runs: list[tuple[object, ...]] = []
        for text, s in line.runs:
            key = (s.fg, s.bg, s.flags, bool(s.underline), s.underline == 2, s.link and s.link.uri)
            if runs and runs[-1][1:] == key:
                runs[-1] = (f"{runs[-1][0]}{text}", *key)
            elif text:
                runs.append((text, *key))
        out.append(runs)
    return out


def same_as_ansi(lines: Sequence[Line], hyperlinks: bool) -> None:
    expected = read_back(ansi_lines(lines, hyperlinks=hyperlinks))
    assert read_back(drawn(LinesView(lines, hyperlinks=hyperlinks))) == expected


def whole(data: bytes) -> Transcript:
    return transcript_of([data])


# -- styles --------------------------------------------------------------------------


def test_colours_and_attributes_become_rich_styles() -> None:
    data = (
        b"\x1b[31ma\x1b[0m\x1b[91mb\x1b[0m\x1b[38;5;200mc\x1b[0m\x1b[38;2;1;2;3md\x1b[0m"
        b"\x1b[44me\x1b[0m\x1b[48;5;17mf\x1b[0m\x1b[48;2;9;8;7mg\x1b[0m"
        b"\x1b[1mh\x1b[0m\x1b[2mi\x1b[0m\x1b[3mj\x1b[0m\x1b[4mk\x1b[0m\x1b[21ml\x1b[0m"
        b"\x1b[4:3mm\x1b[0m\x1b[5mn\x1b[0m\x1b[7mo\x1b[0m\x1b[9mp\x1b[0m\x1b[53mq\x1b[0mr"
    )
    (line,) = lines_of(data)
    text = line_text(line)
    assert text.plain == "abcdefghijklmnopqr"
    styles = {text.plain[span.start : span.end]: span.style for span in text.spans}
    assert "r" not in styles  # the default style: no span
    colours = {
        char: (colour.type, colour.number, colour.triplet and tuple(colour.triplet))
        for char, colour in ((c, styles[c].color or styles[c].bgcolor) for c in "abcdefg")  # type: ignore[union-attr]
        if colour is not None
    }
    assert colours == {
        "a": (ColorType.STANDARD, 1, None),
        "b": (ColorType.STANDARD, 9, None),
        "c": (ColorType.EIGHT_BIT, 200, None),
        "d": (ColorType.TRUECOLOR, None, (1, 2, 3)),
        "e": (ColorType.STANDARD, 4, None),
        "f": (ColorType.EIGHT_BIT, 17, None),
        "g": (ColorType.TRUECOLOR, None, (9, 8, 7)),
    }
    assert styles["e"].bgcolor is not None and styles["e"].color is None  # type: ignore[union-attr]
    attributes = {
        "h": "bold",
        "i": "dim",
        "j": "italic",
        "k": "underline",
        "l": "underline2",
        "m": "underline",
        "n": "blink",
        "o": "reverse",
        "p": "strike",
        "q": "overline",
    }
    for char, name in attributes.items():
        style = styles[char]
        assert not isinstance(style, str)
        on = {a for a in set(attributes.values()) | {"conceal"} if getattr(style, a)}
        assert on == {name}, char


def test_rich_draws_what_the_ansi_renderer_writes_for_hostile_colours_and_the_corpus() -> None:
    for data in [hostile_sample(), *(path.read_bytes() for path in RECORDINGS)]:
        lines = lines_of(data)
        for hyperlinks in (False, True):
            same_as_ansi(lines, hyperlinks)


_SGR_PARAMS = st.lists(
    st.sampled_from(
        ["0", "1", "2", "3", "4", "4:3", "5", "7", "8", "9", "21", "22", "24", "27", "28", "53"]
        + [str(n) for n in (*range(30, 38), *range(40, 48), *range(90, 98), 39, 49)]
        + ["38;5;16", "48;5;16", "38;5;231", "48;5;240", "38;2;10;10;10", "48;2;12;12;12"]
        + ["38;2;255;255;255", "48;2;250;250;250", "58;5;9"]
    ),
    max_size=4,
)


@given(st.lists(st.tuples(_SGR_PARAMS, st.sampled_from(["x", "yz", " ", "é"])), max_size=12))
def test_rich_draws_what_the_ansi_renderer_writes_for_any_sgr(
    runs: list[tuple[list[str], str]],
) -> None:
    data = "".join(f"\x1b[{';'.join(params)}m{text}" for params, text in runs).encode()
    same_as_ansi(lines_of(data), hyperlinks=False)


# -- nothing hidden, nothing injected --------------------------------------------------


def test_concealed_and_same_colour_text_stays_visible_and_readable() -> None:
    data = b"\x1b[8msecret\x1b[0m \x1b[30;40mblack\x1b[0m \x1b[38;5;100;48;5;100mequal\x1b[0m"
    (line,) = lines_of(data)
    text = line_text(line)
    console = recording_console()
    console.print(text)
    assert console.export_text() == "secret black equal\n"
    for span in text.spans:
        assert not isinstance(span.style, str) and not span.style.conceal
        fg, bg = span.style.color, span.style.bgcolor
        if fg is not None and bg is not None:
            pair = (fg.get_truecolor(), bg.get_truecolor())
            assert ratio(*(tuple(c) for c in pair)) >= MIN_RATIO  # type: ignore[arg-type]


LINKED = b"\x1b]8;;%s\x1b\\here\x1b]8;;\x1b\\"


@pytest.mark.parametrize(
    "target",
    [
        b"https://example.com/docs?q=1",
        b"HTTPS://Example.COM/a b",
        b'https://example.com/"><script>alert(1)</script>',
        b"mailto:someone@example.com",
        b"javascript:alert(1)",
        b"file:///etc/passwd",
        b"https://user@evil.example/",
    ],
)
def test_links_only_with_hyperlinks_and_only_to_the_safe_url(target: bytes) -> None:
    (line,) = lines_of(LINKED % target)
    assert [span.style.link for span in line_text(line).spans] == []  # type: ignore[union-attr]
    url = safe_url(target.decode())
    links = [span.style.link for span in line_text(line, hyperlinks=True).spans]  # type: ignore[union-attr]
    assert links == ([] if url is None else [url])
    console = recording_console()
    console.print(LinesView([line], hyperlinks=True))
    html = console.export_html(clear=False)
    assert "<script" not in html and "javascript" not in html and "file:" not in html
    if url is not None:
        assert f'href="{url}"' in html and all(c not in url for c in "\"'<> ")
    assert console.export_text() == "here\n"


def test_text_is_never_read_as_markup_or_emoji_codes() -> None:
    literal = "[bold red]not bold[/] :smile: [link=https://evil.example]x[/link]"
    console = recording_console()
    console.print(whole(literal.encode()))
    assert console.export_text() == literal + "\n"
    plain = (literal, None, None, 0, False, False, None)
    assert read_back(drawn(whole(literal.encode()))) == [[plain]]


def test_markers_carry_the_marker_style_and_forged_ones_do_not() -> None:
    (line,) = lines_of("a\u202eb <U+202E> c".encode())
    assert line.text == "a<U+202E>b <U+003C>U+202E> c"
    text = line_text(line)
    marked = [text.plain[s.start : s.end] for s in text.spans if s.style == MARKER_STYLE]
    assert marked == ["<U+202E>", "<U+003C>"]  # the real one, and the escape of the forged one
    # Without a theme the style has no look; a theme gives it one.
    assert drawn(text) == line.text + "\n"
    themed = drawn(text, theme=Theme({MARKER_STYLE: "italic"}))
    assert themed == "a\x1b[3m<U+202E>\x1b[0mb \x1b[3m<U+003C>\x1b[0mU+202E> c\n"


# -- Transcript and TerminalState in a console ---------------------------------------


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.stem)
def test_printing_a_transcript_records_its_text(path: Path) -> None:
    # Wide enough for every line: one row per line, each line's text exactly
    # (spaces at its end too), and the console ends the last line.
    transcript = transcript_of([path.read_bytes()], columns=100)
    console = recording_console()
    console.print(transcript)
    assert console.export_text() == transcript.text() + "\n"


def test_an_empty_transcript_prints_one_empty_line() -> None:
    transcript = Transcript()
    console = recording_console()
    console.print(transcript)
    assert (transcript.text(), console.export_text()) == ("", "\n")


def test_lines_longer_than_the_console_fold_at_its_width_keeping_every_character() -> None:
    transcript = whole(b"0123456789abcdefghijklmnopqrstuvwxy  \r\n\x1b[31mshort\x1b[0m\r\n")
    console = recording_console(width=10)
    console.print(transcript)
    assert console.export_text() == "0123456789\nabcdefghij\nklmnopqrst\nuvwxy  \nshort\n\n"
    # In a layout that crops (a panel, a live display), nothing is cut either.
    panel = recording_console(width=14)
    panel.print(Panel(transcript))
    rows = [row[2:-2] for row in panel.export_text().splitlines()[1:-1]]
    assert "".join(rows).replace(" ", "") == transcript.text().replace("\n", "").replace(" ", "")


@given(
    st.lists(
        st.sampled_from(["a", " ", "漢", "e\u0301", "\u2764\ufe0f", "👨\u200d👩\u200d👧", "🇫🇷"])
    ),
    st.integers(1, 12),
)
def test_fold_cuts_anywhere_within_the_width_and_loses_nothing(
    pieces: list[str], width: int
) -> None:
    text = Text("".join(pieces), style="bold")
    rows = fold(text, width)
    assert "".join(row.plain for row in rows) == text.plain
    for row in rows:
        # Within the width, unless one character (and its marks) is wider.
        assert cell_len(row.plain) <= width or sum(cell_len(c) > 0 for c in row.plain) == 1
        assert row is rows[0] or cell_len(row.plain[0]) > 0  # a mark stays with its base
        assert all(span.style == "bold" for span in row.spans)


def test_measure_is_the_widest_line() -> None:
    transcript = whole("ab\r\n漢字漢字\r\n".encode())
    console = recording_console(width=80)
    measured = Measurement.get(console, console.options, transcript)
    assert (measured.minimum, measured.maximum) == (2, 8)


def test_a_terminal_state_prints_as_its_transcript() -> None:
    store = TerminalStore()
    data = b"\x1b[1mbuild\x1b[0m ok\r\n"
    store.apply(chunk("term_1", data))
    (terminal,) = store.terminals()
    console = recording_console()
    console.print(terminal)
    assert console.export_text() == terminal.text() + "\n" == "build ok\n\n"
    assert read_back(drawn(terminal)) == [
        [
            ("build", None, None, BOLD, False, False, None),
            (" ok", None, None, 0, False, False, None),
        ]
    ]


def test_importing_termscribe_imports_no_rich() -> None:
    code = (
        "import sys, termscribe, termscribe.acp\n"
        "t = termscribe.Transcript(); t.feed(b'\\x1b[31mx\\r\\n'); t.finish()\n"
        "t.text(); t.html(); t.ansi()\n"
        "s = termscribe.acp.TerminalStore()\n"
        "s.apply({'sessionUpdate': 'terminal_output_chunk', 'terminalId': 't', 'data': 'eA=='})\n"
        "names = ('rich', 'termscribe.rich')\n"
        "print(sorted(m for m in sys.modules if m in names or m.startswith('rich.')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    assert result.stdout == "[]\n"
