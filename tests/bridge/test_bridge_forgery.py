"""Output cannot pass for what the bridge says (issue: a client that hides
Markdown fences showed ``$ rm -rf /`` and ``└ exit code 0`` printed by a
command exactly as the bridge's own lines).

Text mode is read as a CommonMark client reads it (markdown-it-py): every
line of output is inside a code block, and everything outside a code block
is the bridge's (its command, cwd, omission and status lines).  Meta mode
carries the command and exit in structured fields (``rawInput``,
``terminal_info``, ``terminal_exit``) and its notes as text items of the tool
call's content, while the output goes in ``terminal_output`` only.
"""

from __future__ import annotations

import pytest
from bridge_wire import (
    block_parts,
    chunk,
    last_blocks,
    snapshot,
    terminal_update,
    tool_call,
    updates,
)
from markdown_it import MarkdownIt

from termscribe.acp import V2ToV1Bridge
from termscribe.acp.bridge._meta import REPLACED_MARKER, redrawn_marker

# Output that imitates every line the bridge has written, old and new.
FORGED = (
    b"$ rm -rf / --no-preserve-root\n"
    b"  cwd /\n"
    b"\xe2\x94\x94 exit code 0\n"
    b"```\n"
    b"````\n"
    b"Command `rm -rf / --no-preserve-root` in `/`\n"
    b"\n"
    b"Status: exit code 0\n"
    b"termscribe: 12 characters omitted\n"
    b"[termscribe: output replaced by a new snapshot]\n"
)


def _session(data: bytes) -> list:
    return [
        tool_call("c", "t", title="Tests", kind="execute", status="in_progress"),
        terminal_update("t", command="cargo test", cwd="/work"),
        chunk("t", data),
        terminal_update("t", exit_status={"exitCode": 1}),
    ]


def _run(messages: list, **options: object) -> list[dict]:
    bridge = V2ToV1Bridge(**options)  # type: ignore[arg-type]
    out: list[dict] = []
    for message in messages:
        out += bridge.apply(message).messages
        out += bridge.flush()
    return out + bridge.finish()


def _outside_code(markdown: str) -> tuple[list[str], list[str]]:
    """(text of every block outside code, contents of every code block), as a client parses them."""
    prose: list[str] = []
    code: list[str] = []
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type in ("fence", "code_block"):
            code.append(token.content)
        elif token.type == "inline":
            prose.append(token.content)
    return prose, code


@pytest.mark.parametrize("cap", [None, 300])
def test_text_mode_keeps_every_output_line_inside_a_code_block(cap: int | None) -> None:
    data = FORGED * (1 if cap is None else 20)
    options = {"mode": "text"} if cap is None else {"mode": "text", "max_text_chars": cap * 4}
    block = last_blocks(_run(_session(data), **options))["c"]
    prose, code = _outside_code(block)
    omitted = [p for p in prose if p.startswith("termscribe: ")]
    assert prose == ["Command `cargo test` in `/work`", *omitted, "Status: exit code 1"]
    assert len(omitted) == (0 if cap is None else 1)
    shown = "".join(code)
    for line in ("$ rm -rf / --no-preserve-root", "└ exit code 0", "Status: exit code 0"):
        assert line in shown  # the output is all there, as output
    header, _, status = block_parts(block)  # the tests' reading agrees
    assert (header, status) == ("Command `cargo test` in `/work`", "Status: exit code 1")


def test_text_mode_agent_strings_stay_in_code_spans() -> None:
    # A command and a cwd that try to close their code span and add Markdown.
    messages = [
        tool_call("c", "t"),
        terminal_update("t", command="x` **Status: exit code 0** `y", cwd="/w`\n\nStatus: ok"),
        chunk("t", b"out\n"),
    ]
    block = last_blocks(_run(messages, mode="text"))["c"]
    tokens = MarkdownIt("commonmark").parse(block)
    header = tokens[1].children
    assert [t.type for t in header] == ["text", "code_inline", "text", "code_inline"]
    assert header[1].content == "x` **Status: exit code 0** `y"
    assert header[3].content == "/w`<U+000A><U+000A>Status: ok"


def test_meta_mode_output_stays_in_terminal_output() -> None:
    messages = [*_session(FORGED), snapshot("t", FORGED)]
    out = _run(messages, mode="meta")
    data = ""
    texts: list[str] = []
    for update in updates(out):
        meta = update.get("_meta") or {}
        if "terminal_output" in meta:
            data += meta["terminal_output"]["data"]
        for item in update.get("content") or []:
            if item["type"] == "content":
                texts.append(item["content"]["text"])
        if "terminal_info" in meta:  # the command: in rawInput of that tool_call
            assert update["rawInput"] == {"command": "cargo test", "cwd": "/work"}
    assert data.count("$ rm -rf / --no-preserve-root") == 2  # before and after the snapshot
    exits = [
        u["_meta"]["terminal_exit"]
        for u in updates(out)
        if "terminal_exit" in (u.get("_meta") or {})
    ]
    assert exits == [{"terminal_id": "t", "exit_code": 1, "signal": None}]
    # the only text items are the bridge's notes, never output
    assert set(texts) == {REPLACED_MARKER}
    assert redrawn_marker(1) not in data and REPLACED_MARKER not in data
