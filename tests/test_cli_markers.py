"""Buildkite's timestamps (``--timestamps``), surfaced from the APC strings
a transcript otherwise drops."""

from __future__ import annotations

import io

from termscribe import render_text
from termscribe.cli import main
from termscribe.cli._inputs import Resize
from termscribe.cli._markers import ci_markers

# 2023-11-14 22:13:20 UTC and 1.5 s later; ST ends the second.
BUILDKITE = (
    b"\x1b_bk;t=1700000000000\x07~~~ Running commands\r\n"
    b"\x1b_bk;t=1700000001500\x1b\\\x1b[31mfailed\x1b[0m <b>\r\n"
)


def run(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.StringIO()
    status = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue().decode(), err.getvalue()


def test_timestamps_are_shown_only_when_asked() -> None:
    assert run(["render"], BUILDKITE) == (0, "~~~ Running commands\nfailed <b>\n", "")
    assert run(["render", "--timestamps"], BUILDKITE) == (
        0,
        "[22:13:20] ~~~ Running commands\n[22:13:21] failed <b>\n",
        "",
    )
    status, out, _ = run(["render", "--timestamps", "--format", "ansi"], BUILDKITE)
    assert status == 0
    assert out.splitlines()[1] == "[22:13:21] \x1b[0;31mfailed\x1b[0m <b>"
    status, out, _ = run(["render", "--timestamps", "--format", "html", "--fragment"], BUILDKITE)
    assert status == 0
    assert "[22:13:20] ~~~ Running commands" in out and "&lt;b&gt;" in out


def test_timestamps_across_every_chunk_boundary() -> None:
    whole = b"".join(ci_markers(iter([BUILDKITE]), gitlab=False, timestamps=True))
    for cut in range(1, len(BUILDKITE)):
        pieces = iter([BUILDKITE[:cut], BUILDKITE[cut:]])
        assert b"".join(ci_markers(pieces, gitlab=False, timestamps=True)) == whole, cut
    assert render_text(whole) == "[22:13:20] ~~~ Running commands\n[22:13:21] failed <b>\n"


def test_other_apc_strings_and_bad_times_are_dropped_as_before() -> None:
    for data in (
        b"\x1b_bk;t=99999999999999999999\x07x\n",  # too many digits
        b"\x1b_bk;t=12a\x07x\n",
        b"\x1b_other;t=1\x07x\n",
        b"\x1b_bk;t=1700000000000",  # never ended
    ):
        assert run(["render", "--timestamps"], data) == run(["render"], data), data


def test_a_timestamp_ends_a_sequence_it_cuts_short_as_the_apc_did() -> None:
    # ESC in a CSI sequence aborts it; the text after it is printed.
    data = b"\x1b[3\x1b_bk;t=0\x07" + b"1mx\n"
    assert run(["render"], data)[1] == "1mx\n"
    assert run(["render", "--timestamps"], data)[1] == "[00:00:00] 1mx\n"


def test_resizes_pass_through_in_order() -> None:
    chunks = iter([b"a\x1b_bk;t=0", Resize(10, 5), b"\x07b"])
    assert list(ci_markers(chunks, gitlab=False, timestamps=True)) == [
        b"a",
        b"\x1b_bk;t=0",
        Resize(10, 5),
        b"\x07b",
    ]
