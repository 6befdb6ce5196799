"""CappedText, the console fence, LineReleaser and the send policy, one by one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termscribe.acp import FlushTimer, ResendPolicy, TerminalStore
from termscribe.acp.bridge._meta import (
    REDRAW_CHARS_PER_BYTE,
    REPLACED_MARKER,
    SEPARATOR,
    LineReleaser,
    redrawn_marker,
)
from termscribe.acp.bridge._text import CappedText, console_block, fenced, safe_prefix

MARKER = re.compile(r"\[termscribe: (\d+) characters omitted\]")

lines_strategy = st.lists(
    st.text(alphabet=st.sampled_from("ab `\u0301é"), max_size=300), min_size=1, max_size=40
)


def _capped(lines: list[str], window_size: int, max_chars: int) -> tuple[str, str]:
    """(full text, capped text) with the last `window_size` lines live."""
    split = max(len(lines) - window_size, 0)
    capped = CappedText(max_chars)
    for line in lines[:split]:
        capped.add(line)
    return "\n".join(lines), capped.render(lines[split:])


@settings(max_examples=200, deadline=None)
@given(lines_strategy, st.integers(1, 5), st.integers(256, 2000))
def test_capped_text_is_exact_or_head_marker_tail(
    lines: list[str], window_size: int, max_chars: int
) -> None:
    full, capped = _capped(lines, window_size, max_chars)
    if len(full) <= max_chars:
        assert capped == full
        return
    match = MARKER.search(capped)
    assert match is not None
    head = capped[: match.start()]
    tail = capped[match.end() + 1 :]
    if head.endswith("\n") and not full.startswith(head):
        head = head[:-1]  # the line break added before the marker
    assert full.startswith(head)
    assert full.endswith(tail)
    assert len(head) <= max_chars // 4 + 1
    assert len(tail) <= max_chars - max_chars // 4
    assert int(match.group(1)) == len(full) - len(head) - len(tail)


def test_capped_text_keeps_head_and_live_tail_of_a_long_stream() -> None:
    capped = CappedText(1024)
    for n in range(10_000):
        capped.add(f"line {n}")
    text = capped.render(["live prompt"])
    assert text.startswith("line 0\nline 1\n")
    assert text.endswith("line 9999\nlive prompt")
    assert len(text) < 1024 + 64


def test_a_cut_never_splits_a_combining_sequence() -> None:
    assert safe_prefix("ab\u0301c", 2) == "a"
    assert safe_prefix("xa\u200db", 3) == "x"  # a ZWJ sequence is one cluster
    assert safe_prefix("abc", 2) == "ab"


def test_cap_below_minimum_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        CappedText(10)


@given(st.text(alphabet="`a\n", max_size=60))
def test_fence_is_longer_than_any_backtick_run(body: str) -> None:
    block = fenced(body)
    fence = block.split("\n", 1)[0].removesuffix("console")
    runs = re.findall(r"`+", body)
    assert len(fence) > max((len(r) for r in runs), default=2)
    assert block == f"{fence}console\n{body}\n{fence}"


def _terminal(**fields: object) -> object:
    store = TerminalStore()
    update = {"sessionUpdate": "terminal_update", "terminalId": "t", **fields}
    store.apply(update, session_id="s")
    terminal = store.get("s", "t")
    assert terminal is not None
    return terminal


def test_console_block_shows_command_cwd_text_and_status() -> None:
    terminal = _terminal(command="echo `hi`\nls", cwd="/w", exitStatus={"exitCode": 2})
    block = console_block(terminal, "out ``` put\n", finished=False)  # type: ignore[arg-type]
    assert block == (
        "Command (2 lines) in `/w`:\n\n```sh\necho `hi`\nls\n```\n\n"
        "````console\nout ``` put\n````\n\nStatus: exit code 2"
    )


def test_console_block_status_while_running_and_after_input_ended() -> None:
    terminal = _terminal(command="\x1b]0;x\x07make `x`")
    running = console_block(terminal, "", finished=False)  # type: ignore[arg-type]
    span = "`` <U+001B>]0;x<U+0007>make `x` ``"  # padded: it ends with a backtick
    assert running == f"Command {span}\n\n```console\n\n```\n\nStatus: running"
    ended = console_block(terminal, "x", finished=True)  # type: ignore[arg-type]
    assert ended.endswith("```console\nx\n```\n\nStatus: no exit status reported")


def test_console_block_capped_has_the_omission_outside_the_fences() -> None:
    terminal = _terminal(command="make", exitStatus={"signal": "SIG`TERM"})
    block = console_block(terminal, ("head\n", 12, "tail"), finished=False)  # type: ignore[arg-type]
    assert block == (
        "Command `make`\n\n```console\nhead\n```\n\ntermscribe: 12 characters omitted"
        "\n\n```console\ntail\n```\n\nStatus: killed by ``SIG`TERM``"
    )


def test_releaser_appends_finished_lines_and_the_rest_when_final() -> None:
    releaser = LineReleaser()
    assert releaser.release([], ["abc"], final=False) == ""
    assert releaser.release([], ["abc", "de"], final=False) == "abc\n"
    assert releaser.release(["abc"], ["de", "f"], final=False) == "de\n"
    assert releaser.release([], ["de", "f"], final=True) == "f\n"
    assert releaser.release([], ["de", "f"], final=True) == ""


def test_releaser_marks_redrawn_lines_and_snapshots() -> None:
    releaser = LineReleaser()
    assert releaser.release([], ["1/3 done", "x"], final=False) == "1/3 done\n"
    releaser.earn(10)  # output that pays for resending the line (80 characters)
    redrawn = releaser.release([], ["3/3 done", "x"], final=False)
    assert redrawn == f"{SEPARATOR}\n3/3 done\n"
    assert releaser.notes == [redrawn_marker(1)]  # said outside the output
    releaser.replaced()
    assert releaser.release([], ["new", ""], final=False) == f"{SEPARATOR}\nnew\n"
    assert releaser.notes == [redrawn_marker(1), REPLACED_MARKER]


def test_first_snapshot_has_no_marker() -> None:
    releaser = LineReleaser()
    releaser.replaced()
    assert releaser.release([], ["a", ""], final=False) == "a\n"


def test_resend_policy_rules() -> None:
    policy = ResendPolicy(min_bytes=100, growth=1.0, max_delay_ms=500)
    assert not policy.due(0, 0, None)
    assert not policy.due(99, 0, None)
    assert policy.due(100, 50, None)
    assert not policy.due(150, 200, None)
    assert policy.due(200, 200, None)
    assert policy.due(1, 10_000, 500.0)
    assert not policy.due(1, 10_000, 499.0)
    with pytest.raises(ValueError):
        ResendPolicy(growth=0)


def test_flush_timer_fires_at_most_every_interval_or_on_bytes() -> None:
    timer = FlushTimer(interval_ms=100, max_bytes=1000)
    assert not timer.due(0, 0)
    assert timer.wait_ms(0, 0) is None
    assert timer.due(0, 1)
    timer.flushed(0)
    assert not timer.due(50, 10)
    assert timer.wait_ms(50, 10) == 50
    assert timer.due(50, 1000)
    assert timer.due(100, 10)


def test_releaser_holds_a_resend_until_output_pays_for_it() -> None:
    releaser = LineReleaser()
    assert (
        releaser.release([], ["a" * 500, "b" * 500, ""], final=False)
        == f"{'a' * 500}\n{'b' * 500}\n"
    )
    cost = len(SEPARATOR) + 1 + 501  # the separator and the line sent again
    releaser.earn(cost // REDRAW_CHARS_PER_BYTE - 1)
    # "b..." changed and "c" came: nothing goes, not even the new line
    assert releaser.release([], ["a" * 500, "B" * 500, "c", ""], final=False) is None
    # the caller passes the lines committed meanwhile again, with the new ones
    assert releaser.release(["a" * 500], ["B" * 500, "c", ""], final=False) is None
    releaser.earn(2)
    resent = releaser.release(["a" * 500], ["B" * 500, "c", ""], final=False)
    assert resent == f"{SEPARATOR}\n{'B' * 500}\nc\n"
    # the credit was spent: the next resend waits again, but not at the end
    assert releaser.release([], ["x", "c", ""], final=False) is None
    assert releaser.release([], ["x", "c", ""], final=True) == f"{SEPARATOR}\nx\nc\n"
