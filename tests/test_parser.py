"""Parser tests, written against the vt100.net DEC parser diagram."""

from __future__ import annotations

import pytest
from chunking import chunks_bytewise, chunks_random, transcript_of
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import Parser, Performer, Transcript
from termscribe import _parser as parser_module
from termscribe._grammar import RUN_ITEMS, SEQUENCE_ITEMS
from termscribe._performer import ESCAPE_RUN, RUN_KINDS, TEXT_WITH_SGR, replay
from termscribe._syntax import (
    MAX_INTERMEDIATES,
    MAX_PARAM_CHARS,
    MAX_PARAM_VALUE,
    MAX_PARAMS,
    MAX_STRING_CHARS,
    csi_fields,
    parse_params,
)

Event = tuple[object, ...]


class Recorder(Performer):
    """Records every call; adjacent print runs are merged (their split is
    not meaningful)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def print(self, text: str) -> None:
        if self.events and self.events[-1][0] == "print":
            self.events[-1] = ("print", str(self.events[-1][1]) + text)
        else:
            self.events.append(("print", text))

    def execute(self, control: str) -> None:
        self.events.append(("execute", control))

    def csi_dispatch(self, private: str, params: str, intermediates: str, final: str) -> None:
        self.events.append(("csi", private, params, intermediates, final))

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        self.events.append(("esc", intermediates, final))

    def osc_dispatch(self, payload: str) -> None:
        self.events.append(("osc", payload))

    def dcs_dispatch(
        self, private: str, params: str, intermediates: str, final: str, payload: str
    ) -> None:
        self.events.append(("dcs", private, params, intermediates, final, payload))


def parse(*chunks: str) -> list[Event]:
    recorder = Recorder()
    parser = Parser(recorder)
    for chunk in chunks:
        parser.feed(chunk)
    parser.finish()
    return recorder.events


def parse_all_ways(text: str) -> list[Event]:
    """Parse whole, char by char and in random splits; all must agree."""
    whole = parse(text)
    assert parse(*text) == whole, "char by char"
    for seed in range(3):
        pieces = [bytes(p).decode("latin-1") for p in chunks_random(text.encode("latin-1"), seed)]
        assert parse(*pieces) == whole, f"split seed {seed}"
    return whole


CASES: list[tuple[str, list[Event]]] = [
    # GROUND: print and execute
    (
        "ab\tc\r\n",
        [("print", "ab"), ("execute", "\t"), ("print", "c"), ("execute", "\r"), ("execute", "\n")],
    ),
    ("a\x7fb", [("print", "ab")]),  # DEL ignored in GROUND (xterm)
    # ESCAPE and ESCAPE_INTERMEDIATE
    ("\x1b7", [("esc", "", "7")]),
    ("\x1b(0", [("esc", "(", "0")]),
    ("\x1b#8", [("esc", "#", "8")]),
    ("\x1b\x07M", [("execute", "\x07"), ("execute", "\x8d")]),  # C0 executed inside ESC
    ("\x1b\x7fM", [("execute", "\x8d")]),  # DEL ignored inside ESC
    ("\x1b( \x1bB", [("execute", "\x82")]),  # ESC restarts (ESC B is BPH's 7-bit form)
    ("\x1b7\x1bD\x1b(0", [("esc", "", "7"), ("execute", "\x84"), ("esc", "(", "0")]),
    # ESC Fe is the C1 control it stands for; the introducers and ST are not.
    *(
        (f"\x1b{chr(c)}", [("execute", chr(c + 0x40))])
        for c in range(0x40, 0x60)
        if chr(c) not in "PX[\\]^_"
    ),
    ("\x1b\\", [("esc", "", "\\")]),  # ST with no string: nothing to end
    # CSI_ENTRY / CSI_PARAM / CSI_INTERMEDIATE / dispatch
    ("\x1b[m", [("csi", "", "", "", "m")]),
    ("\x1b[1;31m", [("csi", "", "1;31", "", "m")]),
    ("\x1b[38:2::1:2:3m", [("csi", "", "38:2::1:2:3", "", "m")]),
    ("\x1b[?1049h", [("csi", "?", "1049", "", "h")]),
    ("\x1b[>4;2m", [("csi", ">", "4;2", "", "m")]),
    ("\x1b[!p", [("csi", "", "", "!", "p")]),
    ("\x1b[2 q", [("csi", "", "2", " ", "q")]),
    ("\x1b[1\n2H", [("execute", "\n"), ("csi", "", "12", "", "H")]),  # C0 executed in CSI
    ("\x1b[1\x7f2H", [("csi", "", "12", "", "H")]),
    # CSI_IGNORE: private marker after parameters, parameter after intermediate
    ("\x1b[1?2hX", [("print", "X")]),
    ("\x1b[1 2hX", [("print", "X")]),
    ("\x1b[1 \x1b[2hX", [("csi", "", "2", "", "h"), ("print", "X")]),
    # Anywhere: CAN and SUB abort, ESC restarts
    ("\x1b[31\x18m", [("print", "m")]),
    ("\x1b[31\x1am", [("print", "m")]),
    ("\x1b[31\x1b[32m", [("csi", "", "32", "", "m")]),
    # OSC_STRING: BEL or ST ends it; CAN aborts; ESC other than ST aborts
    ("\x1b]0;title\x07x", [("osc", "0;title"), ("print", "x")]),
    ("\x1b]0;title\x1b\\x", [("osc", "0;title"), ("print", "x")]),
    ("\x1b]0;t\x18visible", [("print", "visible")]),
    ("\x1b]0;a\x1b[31mred", [("csi", "", "31", "", "m"), ("print", "red")]),
    ("\x1b]0;a\x05b\x07", [("osc", "0;ab")]),  # other C0 ignored in OSC
    ("\x1b]8;;https://x/é\x07", [("osc", "8;;https://x/é")]),
    ("\x1b]0;unterminated", []),  # dropped at finish
    # DCS
    ("\x1bP$qm\x1b\\ok", [("dcs", "", "", "$", "q", "m"), ("print", "ok")]),
    ("\x1bP1000p%begin\x1b\\", [("dcs", "", "1000", "", "p", "%begin")]),
    ("\x1bP1;2|data\x07more\x1b\\", [("dcs", "", "1;2", "", "|", "data\x07more")]),
    ("\x1bP?1$rX\x1b\\", [("dcs", "?", "1", "$", "r", "X")]),
    ("\x1bP1?$qX\x1b\\Y", [("print", "Y")]),  # DCS_IGNORE
    ("\x1bPq#0;2;0;0;0\x18after", [("print", "after")]),
    ("\x1bPqunterminated", []),
    # SOS / PM / APC: payload discarded; ended by ST, BEL, CAN, ESC
    ("\x1b_Gf=100;AAAA\x1b\\x", [("print", "x")]),
    ("\x1b_bk;t=1725840899118\x07text", [("print", "text")]),
    ("\x1bXsos\x1b\\y", [("print", "y")]),
    ("\x1b\\z", [("esc", "", "\\"), ("print", "z")]),  # a lone ST is an escape
    ("\x1b^pm\x18z", [("print", "z")]),
    # C1 controls (decoded code points)
    ("\x9b31mx", [("csi", "", "31", "", "m"), ("print", "x")]),
    ("\x9d0;t\x9cy", [("osc", "0;t"), ("print", "y")]),
    ("\x90$qm\x9cz", [("dcs", "", "", "$", "q", "m"), ("print", "z")]),
    ("a\x85b", [("print", "a"), ("execute", "\x85"), ("print", "b")]),
    ("\x1b[31\x85m", [("execute", "\x85"), ("print", "m")]),  # C1 aborts
    ("\x9ftext\x9cafter", [("print", "after")]),
    # non-ASCII inside sequences
    ("\x1bé", []),
    ("\x1b[1éH ok", [("print", " ok")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[repr(c[0]) for c in CASES])
def test_state_machine(text: str, expected: list[Event]) -> None:
    assert parse_all_ways(text) == expected


def test_csi_fast_path_and_state_machine_agree_across_every_split() -> None:
    text = "x\x1b[1;38:2::10:20:30;4:3mA\x1b[?25l\x1b[2 qB\x1b[>0;1cC"
    whole = parse(text)
    for cut in range(len(text) + 1):
        assert parse(text[:cut], text[cut:]) == whole


def test_parameter_overflow_is_ignored_and_parser_resynchronises() -> None:
    long_params = ";".join(["1"] * 200)
    assert len(long_params) > MAX_PARAM_CHARS
    assert parse_all_ways(f"\x1b[{long_params}mX\x1b[1m") == [
        ("print", "X"),
        ("csi", "", "1", "", "m"),
    ]


def test_huge_digit_run_is_ignored_in_linear_time() -> None:
    text = "\x1b[" + "9" * 50_000 + ";" + "9" * 50_000 + "mafter"
    assert parse(text) == [("print", "after")]


def test_intermediate_overflow_is_ignored() -> None:
    text = "\x1b[" + " " * (MAX_INTERMEDIATES + 1) + "qX"
    assert parse_all_ways(text) == [("print", "X")]
    assert parse_all_ways("\x1b(((BY") == [("print", "Y")]


def test_string_overflow_is_dropped_not_truncated() -> None:
    big = "a" * (MAX_STRING_CHARS + 1)
    assert parse(f"\x1b]0;{big}\x07after") == [("print", "after")]
    assert parse(f"\x1bPq{big}\x1b\\after") == [("print", "after")]
    fits = "a" * (MAX_STRING_CHARS - 2)
    assert parse(f"\x1b]0;{fits}\x07") == [("osc", f"0;{fits}")]


def test_state_names_follow_the_diagram() -> None:
    parser = Parser(Performer())
    for chunk, state in [
        ("\x1b", "ESCAPE"),
        ("(", "ESCAPE_INTERMEDIATE"),
        ("B", "GROUND"),
        ("\x1b[", "CSI_ENTRY"),
        ("1", "CSI_PARAM"),
        (" ", "CSI_INTERMEDIATE"),
        ("1", "CSI_IGNORE"),
        ("m", "GROUND"),
        ("\x1bP", "DCS_ENTRY"),
        ("1", "DCS_PARAM"),
        ("$", "DCS_INTERMEDIATE"),
        ("q", "DCS_PASSTHROUGH"),
        ("\x18", "GROUND"),
        ("\x1bP1?", "DCS_IGNORE"),
        ("\x1b\\", "GROUND"),
        ("\x1b]", "OSC_STRING"),
        ("\x07", "GROUND"),
        ("\x1b_", "SOS_PM_APC_STRING"),
        ("\x1b\\", "GROUND"),
    ]:
        parser.feed(chunk)
        assert parser.state == state, chunk


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", ()),
        ("0", (0,)),
        (";", (0, 0)),
        ("1;;3", (1, 0, 3)),
        ("38:2::1:2:3", ((38, 2, 0, 1, 2, 3),)),
        ("4:3;1", ((4, 3), 1)),
        ("99999999", (MAX_PARAM_VALUE,)),
        ("70000", (MAX_PARAM_VALUE,)),
    ],
)
def test_parse_params(raw: str, expected: tuple[object, ...]) -> None:
    assert parse_params(raw) == expected


def test_parse_params_keeps_at_most_max_params() -> None:
    assert len(parse_params(";".join(["1"] * (MAX_PARAMS + 5)))) == MAX_PARAMS


def test_print_runs_never_contain_controls() -> None:
    text = "".join(chr(c) for c in range(0x00, 0x200))
    for kind, *rest in parse(text):
        if kind == "print":
            run = str(rest[0])
            assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in run)


class RunRecorder(Recorder):
    """Records runs too (a Recorder sees only their default expansion into
    execute and print calls), by kind, but for TEXT_WITH_SGR and ESCAPE_RUN."""

    def run(self, kind: int, text: str) -> None:
        if kind in (TEXT_WITH_SGR, ESCAPE_RUN):
            replay(self, kind, text)
        else:
            self.events.append((RUN_KINDS[kind].lower(), text))


def parse_grouped(text: str) -> list[Event]:
    recorder = RunRecorder()
    Parser(recorder).feed(text)
    return recorder.events


def test_lines_redrawn_after_crs_are_one_run() -> None:
    # After a line end, lines of text with CRs anywhere in them (and no
    # escape sequence) are one OVERWRITTEN_LINES run, which may start with
    # the CRs after the last LF of a run of line ends (tqdm's "\r\n\r").
    assert parse_grouped("a\r1%\r\n\r0%\r5%\r\ndone\r\n\r9%\r\x1b[K\n") == [
        ("print", "a"),
        ("overwrite_run", "\r1%"),
        ("line_ends", "\r\n"),
        ("overwritten_lines", "\r0%\r5%\r\ndone\r\n"),  # an escape sequence ends it
        ("overwrite_run", "\r9%"),
        ("execute", "\r"),
        ("csi", "", "", "", "K"),
        ("execute", "\n"),
    ]
    # Lines with no CR inside stay LINES, and a line with one after them
    # is done as before.
    assert parse_grouped("x\nab\r\ncd\n\r1%\r2%\n") == [
        ("print", "x"),
        ("execute", "\n"),
        ("lines", "ab\r\ncd\n"),
        ("overwrite_run", "\r1%\r2%"),
        ("execute", "\n"),
    ]
    assert parse_grouped("x\n\r1%\r2%\nab\n\r") == [
        ("print", "x"),
        ("execute", "\n"),
        ("overwritten_lines", "\r1%\r2%\nab\n"),  # the CR after it: not a whole line
        ("execute", "\r"),
    ]


def test_text_after_lone_crs_is_one_overwrite_run() -> None:
    assert parse_grouped("a\r10%\r 20%\r\x1b[A30%\r\r\nc\rb\r") == [
        ("print", "a"),
        ("overwrite_run", "\r10%\r 20%"),  # a cursor move ends it
        ("execute", "\r"),
        ("csi", "", "", "", "A"),
        ("print", "30%"),
        ("line_ends", "\r\r\n"),
        ("print", "c"),
        ("overwrite_run", "\rb"),
        ("execute", "\r"),  # nothing after it yet: a CR on its own
    ]


@pytest.mark.parametrize(
    "run",
    [
        "\r\x1b[K\x1b[1m\x1b[96m Building\x1b[0m 1/2\r\x1b[K\x1b[1m\x1b[96m Building\x1b[0m 2/2",
        "\r\x1b[2K 10% \x1b[32m1 MB\x1b[0m\r\x1b[2K 20% \x1b[32m2 MB\x1b[0m",  # pip
        "\r 10%\x1b[K\r 20%\x1b[K",  # git: EL after the text
        "\r10%\x1b[0K\r\x1b[2K20%\x1b[2K\r\x1b[0K30%",
        "\r\x1b[m100K\x1b[m",
        "\x1b[1G\x1b[0K\u2819 1\x1b[1G\x1b[0K\u2819 2\r3\x1b[G4",  # CHA for CR
    ],
)
def test_text_after_lone_crs_with_el_and_sgr_is_one_overwrite_run(run: str) -> None:
    assert parse_grouped(f"x{run}\n") == [("print", "x"), ("overwrite_run", run), ("execute", "\n")]


@pytest.mark.parametrize(
    ("text", "run"),
    [
        ("\r\x1b[K\r1", "\r1"),  # an EL with no text after it
        ("\r1\r\x1b[31m\r2", "\r1"),  # an SGR with no text after it
        ("\r1\x1b[K\x1b[K\r2", "\r1\x1b[K"),  # two ELs
        ("\r1\x1b[1K\r2", "\r1"),  # EL erasing to the start
        ("\r1\x1b[A\r2", "\r1"),  # another sequence
        ("\x1b[2K\r1\r2", "\r1\r2"),  # before the first CR: on its own
        ("\r1\x1b[2G2\r3", "\r1"),  # CHA to another column
    ],
)
def test_other_sequences_end_an_overwrite_run(text: str, run: str) -> None:
    events = parse_grouped(f"x{text}\n")
    assert ("overwrite_run", run) in events
    assert len([kind for kind, *_ in events if kind == "overwrite_run"]) <= 2


def test_overwrite_run_defaults_to_the_events_one_by_one() -> None:
    assert parse("x\r\x1b[2K1\x1b[1m0%\x1b[K\r20%\x1b[0K\n")[:10] == [
        ("print", "x"),
        ("execute", "\r"),
        ("csi", "", "2", "", "K"),
        ("print", "1"),
        ("csi", "", "1", "", "m"),
        ("print", "0%"),
        ("csi", "", "", "", "K"),
        ("execute", "\r"),
        ("print", "20%"),
        ("csi", "", "0", "", "K"),
    ]
    assert parse("x\x1b[G1\x1b[1G\x1b[2K2\n")[:6] == [
        ("print", "x"),
        ("csi", "", "", "", "G"),
        ("print", "1"),
        ("csi", "", "1", "", "G"),
        ("csi", "", "2", "", "K"),
        ("print", "2"),
    ]
    assert parse("x\r10%\r20%\rdone\n") == [
        ("print", "x"),
        ("execute", "\r"),
        ("print", "10%"),
        ("execute", "\r"),
        ("print", "20%"),
        ("execute", "\r"),
        ("print", "done"),
        ("execute", "\n"),
    ]


def test_lines_with_ignored_strings_are_text_lines_without_them() -> None:
    assert parse_grouped("a\n\x1b_bk;t=1\x07b\x1b[1mc\r\n\x1b_x\ny\x1b\\d\n\x1b[Ae\n") == [
        ("print", "a"),
        ("execute", "\n"),
        ("lines", "b\x1b[1mc\r\nd\n"),  # the APC strings, LF inside, are gone
        ("csi", "", "", "", "A"),
        ("print", "e"),
        ("execute", "\n"),
    ]


def test_lines_with_rep_after_a_printable_ascii_character_are_lines_with_sequences() -> None:
    assert parse_grouped("a\nb\x1b[3b\r\nplain\n\x1b_t\x07x\x1b[31my\x1b[b\x1b[0m\n\x1b[A") == [
        ("print", "a"),
        ("execute", "\n"),
        ("lines_with_sequences", "b\x1b[3b\r\nplain\nx\x1b[31my\x1b[b\x1b[0m\n"),
        ("csi", "", "", "", "A"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "\x1b[3b",  # nothing before it on the line
        "a\x1b[1m\x1b[3b",  # after an SGR sequence: not after "m"
        "a\x1b_t\x07\x1b[3b",  # after a string
        "\u00e9\x1b[3b",  # after a character that is not ASCII
        "a\x1b[2b\x1b[2b",  # after another REP
        "a\x1b[1;2b",  # more than one parameter
        "a\x1b[?2b",  # a private marker
    ],
)
def test_other_rep_sequences_end_the_lines_taken_at_once(line: str) -> None:
    events = parse_grouped(f"a\nb\n{line}\n")
    assert events[:3] == [("print", "a"), ("execute", "\n"), ("lines", "b\n")]
    assert not any(kind in ("lines", "lines_with_sequences") for kind, *_ in events[3:])


def test_lines_with_overstrikes_are_lines_with_sequences() -> None:
    # man pages: bold as "N\bN", underline as "_\bx".
    man = "N\x08NA\x08AM\x08ME\x08E\n     _\x08l_\x08s\x08s\n"
    assert parse_grouped(f"a\n{man}") == [
        ("print", "a"),
        ("execute", "\n"),
        ("lines_with_sequences", man),
    ]
    assert parse("a\n_\x08x\n")[2:] == [
        ("print", "_"),
        ("execute", "\x08"),
        ("print", "x"),
        ("execute", "\n"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "\x08a",  # nothing before it on the line
        "a\x08\x08b",  # after another BS
        "a\x08",  # nothing after it
        "a\x08\u00e9",  # before a character that is not ASCII
        "\u00e9\x08a",  # after one
        "a\x1b[1m\x08b",  # after an SGR sequence: not after "m"
        "a\x1b[2b\x08b",  # after a REP sequence
    ],
)
def test_other_backspaces_end_the_lines_taken_at_once(line: str) -> None:
    events = parse_grouped(f"a\nb\n{line}\n")
    assert events[:3] == [("print", "a"), ("execute", "\n"), ("lines", "b\n")]
    assert not any(kind in ("lines", "lines_with_sequences") for kind, *_ in events[3:])


def test_lines_with_sequences_default_to_the_events_one_by_one() -> None:
    assert parse("x\nab\x1b[2b\x1b[31mc\x1b[b\r\r\n\n") == [
        ("print", "x"),
        ("execute", "\n"),
        ("print", "ab"),
        ("csi", "", "2", "", "b"),
        ("csi", "", "31", "", "m"),
        ("print", "c"),
        ("csi", "", "", "", "b"),
        ("execute", "\r"),
        ("execute", "\r"),
        ("execute", "\n"),
        ("execute", "\n"),
    ]


def test_many_sequences_in_a_row_become_a_sequence_run() -> None:
    after = parser_module._GROUP_AFTER
    events = parse_grouped("\x1b[1;1Hx" * (after + 4) + "\n")
    assert events[: 2 * after] == [("csi", "", "1;1", "", "H"), ("print", "x")] * after
    assert events[2 * after :] == [("sequence_run", "\x1b[1;1Hx" * 4), ("execute", "\n")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # CSI, C1 controls, ST, a string aborted by a C1 control; C0 ends it.
        (
            "\x1b[Hab\x85c\x9c\x9dt\x91d\x9b2a\x90qz\x80\x07e",
            [("sequence_run", "\x1b[Hab\x85c\x9c\x9dt\x91d\x9b2a\x90qz\x80"), ("execute", "\x07")],
        ),
        # A string ended by ST is dispatched: not in a run.
        (
            "\x1b[Ha\x1b[Hb\x9dt\x9c",
            [("sequence_run", "\x1b[Ha\x1b[Hb"), ("osc", "t")],
        ),
        # One item alone is not a run.
        ("\x1b[Ha\x07", [("csi", "", "", "", "H"), ("print", "a"), ("execute", "\x07")]),
    ],
)
def test_sequence_run_items(text: str, expected: list[Event]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parser_module, "_GROUP_AFTER", 0)
        events = parse_grouped(text)
    assert events[: len(expected)] == expected


_SEQUENCE_PIECES = [
    "\x1b[H",
    "\x1b[2;3H",
    "\x1b[31m",
    "\x1b[?25l",
    "\x1b[ q",
    "\x1b[1;2;3",
    "x",
    "ab",
]
_SEQUENCE_PIECES += [chr(c) for c in (0x80, 0x84, 0x90, 0x98, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F)]
_SEQUENCE_PIECES += ["\x07", "\x1b\\", "\x1b", "\n", "\u00e9", "1", ";"]


@given(st.lists(st.sampled_from(_SEQUENCE_PIECES), max_size=30).map("".join))
def test_sequence_run_defaults_to_the_events_one_by_one(text: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parser_module, "_GROUP_AFTER", 0)
        grouped = parse(text)
        patch.setattr(parser_module, "_GROUP_AFTER", 10**9)
        assert grouped == parse(text)


def test_run_items_split_keeps_sgr_in_the_text() -> None:
    run = "a\x1b[1;2Hx\x1b[1mB\x1b[31;1myy\x84zz\x9b?25h\x1b[>4;2mq\x9b1m"
    assert RUN_ITEMS.split(run) == [
        "a",
        *("\x1b", "1;2H", "x\x1b[1mB\x1b[31;1myy"),
        *("\x84", None, "zz"),
        *("\x9b", "?25h", ""),
        *("\x1b", ">4;2m", "q"),  # not SGR: a private marker
        *("\x9b", "1m", ""),  # SGR by the 8-bit CSI: not as _TEXT takes it
    ]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ("H", ("", "", "", "H")),
        ("1000000000;1H", ("", "1000000000;1", "", "H")),
        ("?25h", ("?", "25", "", "h")),
        ("38:2::1:2:3m", ("", "38:2::1:2:3", "", "m")),
        ("1 q", ("", "1", " ", "q")),
        ("!p", ("", "", "!", "p")),
    ],
)
def test_csi_fields(body: str, fields: tuple[str, str, str, str]) -> None:
    assert csi_fields(body) == fields


@pytest.mark.parametrize("body", ["", "1;2", "?", "1?h", "\x1b[1m"])
def test_csi_fields_rejects_what_is_not_a_body(body: str) -> None:
    with pytest.raises(ValueError, match="not the body of a CSI sequence"):
        csi_fields(body)


_RUN_ITEMS = ["\x1b[H", "\x1b[2;3H", "\x1b[31m", "\x1b[?25l", "\x1b[ q", "\x9b2a", "\x9b1m"]
_RUN_ITEMS += ["\x80", "\x84", "\x8f", "\x91", "\x9a"]
_RUN_TEXTS = ["", "x", "ab", "\u00e9", "1m", "\x1b[1;2m", "\x1b[m"]


@given(
    st.lists(st.tuples(st.sampled_from(_RUN_ITEMS), st.sampled_from(_RUN_TEXTS)), min_size=1).map(
        lambda items: "".join(item + text for item, text in items)
    )
)
def test_run_items_split_as_sequence_items_give_them(run: str) -> None:
    # The same items, once the SGR sequences SEQUENCE_ITEMS takes as items
    # (after ESC [) are, as RUN_ITEMS leaves them, in the text around.
    expected: list[Event] = []
    text = ""
    for item in SEQUENCE_ITEMS.finditer(run):
        private, params, intermediates, final, control, after = item.groups()
        if final == "m" and not private and not intermediates and run[item.start()] == "\x1b":
            text += f"\x1b[{params}m"
        else:
            expected += [("text", text)] if text else []
            expected.append(("csi", private, params, intermediates, final) if final else control)
            text = ""
        text += after
    expected += [("text", text)] if text else []
    parts = RUN_ITEMS.split(run)
    got: list[Event] = [("text", parts[0])] if parts[0] else []
    for introducer, body, after in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        got.append(("csi", *csi_fields(body)) if body is not None else introducer)
        got += [("text", after)] if after else []
    assert got == expected


def test_lines_with_el_erasing_to_the_end_are_lines_with_sequences() -> None:
    grep = "f.py:\x1b[01;31m\x1b[Kmatch\x1b[m\x1b[K rest\r\n"
    assert parse_grouped(f"a\n{grep}\x1b[0Kx\n\x1b[2Ky\n") == [
        ("print", "a"),
        ("execute", "\n"),
        ("lines_with_sequences", f"{grep}\x1b[0Kx\n"),
        ("csi", "", "2", "", "K"),  # erasing the whole line: not in them
        ("print", "y"),
        ("execute", "\n"),
    ]
    assert parse(f"a\n{grep}") == [
        ("print", "a"),
        ("execute", "\n"),
        ("print", "f.py:"),
        ("csi", "", "01;31", "", "m"),
        ("csi", "", "", "", "K"),
        ("print", "match"),
        ("csi", "", "", "", "m"),
        ("csi", "", "", "", "K"),
        ("print", " rest"),
        ("execute", "\r"),
        ("execute", "\n"),
    ]


def test_lines_with_tabs_are_lines_with_sequences() -> None:
    assert parse_grouped("a\nb\tc\t\n\td\n") == [
        ("print", "a"),
        ("execute", "\n"),
        ("lines_with_sequences", "b\tc\t\n\td\n"),
    ]
    assert parse("a\nb\tc\x1b[K\t\n") == [
        ("print", "a"),
        ("execute", "\n"),
        ("print", "b"),
        ("execute", "\t"),
        ("print", "c"),
        ("csi", "", "", "", "K"),
        ("execute", "\t"),
        ("execute", "\n"),
    ]


_FE_TOKENS = [
    "a", "xy", "漢", " ", "\r", "\n", "\x08", "\t", "\x1bD", "\x1bE", "\x1bH", "\x1bM", "\x84",
    "\x8d", "\x1b]0;", "\x1b]8;;http://a.b/", "\x1b\\", "\x07", "\x1bP", "\x1b_", "\x1b^", "\x1bX",
    "\x1b[", "\x9b", "\x9d", "\x90", "\x1b", "\x18", "\x1a", "1", ";", "5", "A", "m", "31m",
    "\x1b[2K", "\x1b[3;1r", "\x1b[?6h", "\x1b[H", "\x1b7", "\x1b8", "\x1b#8", "\x1b(0", "q",
    "\x1b[?1049h", "\x1b[?1049l", "\x1b[5b", "\x1b[2J", "\x1bc", "\x9c", "\x1b[1;2",
    "\x1bN", "\x1bO", "\x1bZ", "\x1b@", "\x1bV", "\x1bW", "\x8e", "\x9a", "\x1b(", "\x1b#",
]  # fmt: skip
# Every ESC Fe and its C1 control (not the introducers P X [ ] ^ _ or ST).
_FE = {f"\x1b{chr(c)}": chr(c + 0x40) for c in range(0x40, 0x60) if chr(c) not in "PX[\\]^_"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_FE_TOKENS), max_size=40),
    st.sampled_from(
        [{}, {"columns": 10, "rows": 4}, {"mode": "strip"}, {"mode": "screen", "columns": 10}]
    ),
)
def test_escape_sequences_for_c1_controls_mean_the_controls(
    tokens: list[str], options: dict[str, object]
) -> None:
    # ESC Fe is reported as its C1 control (ESC D as IND, ESC M as RI...):
    # a stream means the same with either form, whole or byte by byte
    # (where the pair is split).
    data = "".join(tokens)
    as_c1 = data
    for escape, control in _FE.items():
        as_c1 = as_c1.replace(escape, control)
    for render in (Transcript.text, Transcript.html):
        expected = render(transcript_of([as_c1.encode()], **options))
        assert render(transcript_of([data.encode()], **options)) == expected
        assert render(transcript_of(chunks_bytewise(data.encode()), **options)) == expected


def test_each_kind_of_run_is_named_and_replayed() -> None:
    from termscribe import _performer

    assert len(_performer.RUN_KINDS) == len(_performer.REPLAYS)
    for kind, name in enumerate(_performer.RUN_KINDS):
        assert getattr(_performer, name) == kind
