"""Parser tests, written against the vt100.net DEC parser diagram."""

from __future__ import annotations

import pytest
from chunking import chunks_bytewise, chunks_random, transcript_of
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe import Parser, Performer, Transcript
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


class BatchRecorder(Recorder):
    """Records each batch as its parts (a Recorder sees only their default
    expansion into the calls one by one)."""

    def batch(self, parts: list[str]) -> None:
        self.events.append(("batch", *parts))


def parse_batches(*chunks: str) -> list[Event]:
    recorder = BatchRecorder()
    parser = Parser(recorder, one_by_one=False)  # whatever TERMSCRIBE_ONE_BY_ONE says
    for chunk in chunks:
        parser.feed(chunk)
    return recorder.events


def test_a_stretch_of_complete_items_is_one_batch() -> None:
    text = "a\x1b[1mb\x1b[0m\r\nxy\x1b[2Kz\x1b]8;;http://a.b/\x07l\x1b_bk;t=1\x07\x1b7\x84\x9b2A"
    assert parse_batches(text) == [
        (
            "batch",
            *("a\x1b[1mb\x1b[0m", "\r", "", "\n", "xy", "\x1b[2K", "z"),
            *("\x1b]8;;http://a.b/\x07", "l", "\x1b_bk;t=1\x07", "", "\x1b7", ""),
            *("\x84", "", "\x9b2A", ""),
        )
    ]
    # A printable run alone is one print; text with SGR in it, a batch.
    assert parse_batches("abc") == [("print", "abc")]
    assert parse_batches("a\x1b[1mb") == [("batch", "a\x1b[1mb")]


@pytest.mark.parametrize(
    ("text", "events"),
    [
        # What the state machine takes ends a batch: CAN, DEL, a sequence
        # cut by the end of the chunk, an overlong one, a string's C1
        # introducer, ST alone.
        ("a\rb\x18c", [("batch", "a", "\r", "b"), ("print", "c")]),
        ("a\rb\x7fc", [("batch", "a", "\r", "b"), ("print", "c")]),
        ("a\r\x1b[1", [("batch", "a", "\r", "")]),
        ("\r\x1b[" + "1" * (MAX_PARAM_CHARS + 1) + "Hx", [("batch", "", "\r", ""), ("print", "x")]),
        ("a\r\x9dtitle\x07b", [("batch", "a", "\r", ""), ("osc", "title"), ("print", "b")]),
        # An SGR with a private marker or intermediates, or after the C1
        # CSI, is an item; as the text holds them, it is part of the text.
        ("\x1b[>4;2mq\x9b1m", [("batch", "", "\x1b[>4;2m", "q", "\x9b1m", "")]),
    ],
)
def test_what_ends_a_batch(text: str, events: list[Event]) -> None:
    # (A Recorder's merged prints: the BatchRecorder records the rest.)
    assert parse_batches(text) == events


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "é", "\r", "\n", "\x1b[1m", "\x1b[2K", "\x1b[?25l",
                                 "\x1b]0;t\x07", "\x1b_x\x1b\\", "\x1b7", "\x84", "\x9b2A",
                                 "\x1b", "\x18", "\x7f", "\x9c", "1", ";", "\x1bP1$qm\x1b\\"]),
                max_size=30).map("".join))  # fmt: skip
def test_batches_replayed_are_the_events_one_by_one(text: str) -> None:
    # By default a batch is replayed: the same calls as with one_by_one, and
    # as character by character, where most batches are one item.
    recorder = Recorder()
    parser = Parser(recorder, one_by_one=True)
    parser.feed(text)
    parser.finish()
    assert parse(text) == recorder.events
    assert parse(*text) == recorder.events


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
