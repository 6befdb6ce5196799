#!/usr/bin/env python3
"""termscribe's throughput, chunking cost and streaming memory, beside its peers.

One run makes (or reads) every input and measures everything side by side on
the same machine, so the ratios mean something even when the machine is noisy:

1. Throughput (MB/s of input, best of N runs) of termscribe's renderers and of
   pyte, ansi2html, rich and a regex ANSI stripper, on the two public logs in
   ``benchmarks/data/``, on generated ordinary logs and on the hostile inputs of
   SECURITY.md; then the termscribe/peer ratios. The N runs are N rounds of
   every measurement in turn, so that a stretch of load on the machine slows
   one run of each measurement, not every run of one.
2. Per-chunk cost: ``Transcript.feed`` with 1 B, 64 B, 4 KB chunks and one feed.
3. Peak memory (tracemalloc) and speed of a streamed export of a generated
   200 MB log, text and HTML, taking committed lines after every 64 KB chunk.
4. The project's performance targets, each with PASS or FAIL.

Generated inputs come from a fixed seed: every run measures the same bytes.
MB means 10^6 bytes. Peers are given ``str`` where they take it, and their
timed function includes ``data.decode("utf-8", "replace")``, since termscribe
takes bytes and decodes them inside its own timing.

Usage:

    python benchmarks/bench.py                      # everything, best of 3
    python benchmarks/bench.py --quick              # small inputs, 1 run, 20 MB stream
    python benchmarks/bench.py --only npm-install docker-compose-pull
    python benchmarks/bench.py --only stream        # sections: throughput, chunks, stream
    python benchmarks/bench.py --markdown > benchmarks/RESULTS.md

Progress goes to stderr; the tables go to stdout.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import functools
import gc
import os
import platform
import random
import re
import signal
import subprocess
import sys
import time
import tracemalloc
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from termscribe import (
    Transcript,
    html_end,
    html_lines,
    html_start,
    render_ansi,
    render_html,
    render_text,
)

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SEED = 20261129
MB = 1_000_000

# pyte interprets every character in Python (0.1-0.3 MB/s); on the generated
# inputs it gets only their first 200 KB (--quick: 10 KB) so a full run stays
# in minutes. The public logs it gets whole, as in its published figures.
PYTE_CAP = 200_000
# A call that takes longer than this is stopped and reported as a timeout
# (a peer may be quadratic on a hostile input; the run must still finish).
# A call that raises is reported as failed, with the exception's name.
TIMEOUT_S = 30.0
QUICK_TIMEOUT_S = 10.0

# --quick cuts every input (and the pyte cap) to this fraction.
QUICK_DIVISOR = 20
STREAM_MB = 200
QUICK_STREAM_MB = 20
STREAM_CHUNK = 64 * 1024
CHUNK_SIZES = (1, 64, 4096)
CHUNK_INPUTS = ("npm-install", "colour-log")

SECTIONS = ("throughput", "chunks", "stream")


# ------------------------------------------------------------------ inputs

ESC = "\x1b"
CSI = ESC + "["
RESET = CSI + "0m"


def sgr(*params: int) -> str:
    return CSI + ";".join(map(str, params)) + "m"


def _until(size: int, make_line: Callable[[], str]) -> bytes:
    """Lines from ``make_line`` until the UTF-8 reaches ``size`` bytes."""
    parts: list[bytes] = []
    total = 0
    while total < size:
        line = make_line().encode("utf-8")
        parts.append(line)
        total += len(line)
    return b"".join(parts)


def plain_log(size: int, seed: int = SEED) -> bytes:
    """An ordinary service log: timestamps, levels, modules, no escapes."""
    rng = random.Random(seed)
    levels = ["INFO"] * 6 + ["DEBUG"] * 3 + ["WARN", "ERROR"]
    modules = ["http.server", "db.pool", "worker.queue", "auth", "cache", "scheduler"]
    messages = [
        lambda: f"GET /api/v1/items/{rng.randrange(10**6)} 200 {rng.randrange(1, 900)}ms",
        lambda: f"connection {rng.randrange(64)} returned to pool (idle={rng.randrange(16)})",
        lambda: f"processed batch {rng.randrange(5000)} of 5000 in {rng.randrange(1, 99)}ms",
        lambda: f"cache miss for key user:{rng.randrange(10**5)}:profile, loading from db",
        lambda: f"retrying job {rng.getrandbits(48):012x} after timeout ({rng.randrange(1, 6)}/5)",
        lambda: f"loaded {rng.randrange(10**4)} rows from table events in {rng.random():.3f}s",
    ]
    clock = [0]

    def line() -> str:
        clock[0] += rng.randrange(1, 2000)
        ms = clock[0]
        stamp = f"2026-11-29T{ms // 3_600_000 % 24:02d}:{ms // 60_000 % 60:02d}:"
        stamp += f"{ms // 1000 % 60:02d}.{ms % 1000:03d}Z"
        level = rng.choice(levels)
        return f"{stamp} {level:<5} [{rng.choice(modules)}] {rng.choice(messages)()}\n"

    return _until(size, line)


def colour_log(size: int, seed: int = SEED) -> bytes:
    """pytest and cargo output as a PTY gives it: CRLF, SGR every few words,
    16-colour, 256-colour and truecolour, bold and dim."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "parse", "render", "stream", "chunk", "token"]
    crates = ["serde", "tokio", "regex", "clap", "syn", "quote", "anyhow", "rayon"]
    green, red, yellow, blue, bold, dim = sgr(32), sgr(31), sgr(33), sgr(34), sgr(1), sgr(2)

    def pytest_line() -> str:
        path = f"tests/{rng.choice(words)}/test_{rng.choice(words)}.py"
        case = f"test_{rng.choice(words)}_{rng.choice(words)}[{rng.randrange(100)}]"
        pct = f"{dim}[{rng.randrange(101):3d}%]{RESET}"
        if rng.random() < 0.9:
            return f"{path}::{case} {green}PASSED{RESET} {pct}\r\n"
        a, b = rng.randrange(1000), rng.randrange(1000)
        return (
            f"{red}{bold}FAILED{RESET} {path}::{case} - {red}AssertionError{RESET}: "
            f"assert {bold}{a}{RESET} == {bold}{b}{RESET}\r\n"
        )

    def cargo_line() -> str:
        crate = rng.choice(crates)
        version = f"{rng.randrange(3)}.{rng.randrange(30)}.{rng.randrange(20)}"
        if rng.random() < 0.8:
            path = f"{dim}/src/{crate}{RESET}"
            return f"{bold}{green}   Compiling{RESET} {crate} v{version} ({path})\r\n"
        name = rng.choice(words)
        where = f"src/{crate}.rs:{rng.randrange(1, 900)}:{rng.randrange(1, 80)}"
        return (
            f"{bold}{yellow}warning{RESET}{bold}: unused variable: `{name}`{RESET}\r\n"
            f"  {bold}{blue}-->{RESET} {where}\r\n"
        )

    def rainbow_line() -> str:
        # A colour every two to four words, in all three colour syntaxes.
        out: list[str] = []
        for _ in range(rng.randrange(6, 14)):
            kind = rng.randrange(3)
            if kind == 0:
                out.append(sgr(rng.randrange(30, 38)))
            elif kind == 1:
                out.append(sgr(38, 5, rng.randrange(256)))
            else:
                out.append(sgr(38, 2, rng.randrange(256), rng.randrange(256), rng.randrange(256)))
            out.append(" ".join(rng.choice(words) for _ in range(rng.randrange(2, 5))) + " ")
        return "".join(out) + RESET + "\r\n"

    makers = [pytest_line] * 5 + [cargo_line] * 3 + [rainbow_line] * 2
    return _until(size, lambda: rng.choice(makers)())


def grep_log(size: int, seed: int = SEED) -> bytes:
    """``grep -rn --color=always`` output: file name, line number and each
    match coloured, every colour followed by EL (``CSI K``), as GNU grep
    writes it."""
    rng = random.Random(seed)
    words = ["value", "result", "stream", "config", "parser", "handler", "buffer", "token"]

    def coloured(params: str, text: str) -> str:
        return f"{CSI}{params}m{CSI}K{text}{CSI}m{CSI}K"

    def line() -> str:
        path = f"src/{rng.choice(words)}/{rng.choice(words)}_{rng.randrange(40)}.py"
        before = " " * rng.randrange(0, 12) + f"{rng.choice(words)} = {rng.choice(words)}("
        after = f", {rng.choice(words)}={rng.randrange(1000)})"
        return (
            coloured("35", path) + coloured("36", ":") + coloured("32", str(rng.randrange(1, 900)))
            + coloured("36", ":") + before + coloured("01;31", "match") + after + "\n"
        )  # fmt: skip

    return _until(size, line)


def columns_log(size: int, seed: int = SEED) -> bytes:
    """Tab-separated columns, as ``git log --format='%h%x09%an%x09%s'``,
    ``cut`` or a TSV file print them."""
    rng = random.Random(seed)
    names = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Ken Thompson", "Barbara Liskov"]
    verbs = ["Fix", "Add", "Remove", "Refactor", "Document", "Speed up"]
    things = ["parser", "HTML renderer", "chunk decoding", "style cache", "bridge", "tests"]

    def line() -> str:
        commit = f"{rng.getrandbits(28):07x}"
        subject = f"{rng.choice(verbs)} {rng.choice(things)}"
        return f"{commit}\t{rng.choice(names)}\t{rng.randrange(1, 400)}\t{subject}\n"

    return _until(size, line)


def progress_log(size: int, seed: int = SEED) -> bytes:
    """Progress lines redrawn after CR with colour and EL, as cargo
    (``CR EL`` before the text), pip's rich bars (``CR ESC [ 2 K``), git
    (EL after the text) and Node spinners (``ESC [ 1 G ESC [ 0 K``) draw
    them, each ending in a line of its own."""
    rng = random.Random(seed)
    crates = ["serde", "tokio", "regex", "syn", "quote", "libc", "memchr", "rand"]
    spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
    # Each kind: the frame for step i of n, and what ends the bar.
    kinds: list[tuple[Callable[[int, int], str], Callable[[int], str]]] = [
        (
            lambda i, n: (
                f"\r{CSI}K{CSI}1m{CSI}96m    Building{CSI}0m "
                f"[{'=' * (i * 30 // n):<30}] {i}/{n}: {rng.choice(crates)}"
            ),
            lambda n: f"\r{CSI}K{CSI}1m{CSI}92m    Finished{CSI}0m release in 4.2s\n",
        ),
        (
            lambda i, n: (
                f"\r{CSI}2K   {CSI}38;5;197m{'━' * (i * 40 // n)}{CSI}0m "
                f"{CSI}32m{i * 18.3 / n:.1f}/18.3 MB{CSI}0m {CSI}31m42.0 MB/s{CSI}0m"
            ),
            lambda n: "\r\n",
        ),
        (
            lambda i, n: (
                f"\rremote: Counting objects: {i * 100 // n:3d}% ({i * 57}/{n * 57}){CSI}K"
            ),
            lambda n: ", done.\n",
        ),
        (
            lambda i, n: (
                f"{CSI}1G{CSI}0K{CSI}36m{spinner[i % 10]}{CSI}39m Installing dependencies ({i}/{n})"
            ),
            lambda n: f"{CSI}1G{CSI}0K{CSI}32m✔{CSI}39m Installed {n} packages\n",
        ),
    ]

    def bar() -> str:
        frame, end = rng.choice(kinds)
        steps = rng.randrange(20, 60)
        return "".join(frame(i, steps) for i in range(steps)) + end(steps)

    return _until(size, bar)


def man_page(size: int, seed: int = SEED) -> bytes:
    """A manual page as ``man`` prints it to a terminal without a pager
    (grotty's overstrike): bold as ``N\\bN``, underlined as ``_\\bx``."""
    rng = random.Random(seed)
    words = ["file", "directory", "option", "list", "entries", "sort", "print", "default"]
    options = ["all", "almost-all", "author", "escape", "block-size", "ignore-backups"]

    def bold(text: str) -> str:
        return "".join(f"{c}\b{c}" for c in text)

    def underlined(text: str) -> str:
        return "".join(f"_\b{c}" for c in text)

    def line() -> str:
        kind = rng.randrange(6)
        if kind == 0:
            return bold(rng.choice(words).upper()) + "\n"
        if kind == 1:
            option = rng.choice(options)
            return f"       {bold('--' + option)}={underlined(rng.choice(words).upper())}\n"
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(6, 12)))
        return f"              {text} {underlined(rng.choice(words))} {text[:20]}\n"

    return _until(size, line)


def cjk_log(size: int, seed: int = SEED) -> bytes:
    """Build and test output in Chinese, Japanese and Korean, with some
    colour and emoji: wide characters, but no combining marks or joiners."""
    rng = random.Random(seed)
    words = {
        "zh": ["编译", "成功", "模块", "已完成", "警告", "错误", "文件", "测试", "通过", "依赖"],
        "ja": ["ビルド", "完了", "テスト", "成功", "警告", "ファイル", "依存関係", "実行中"],
        "ko": ["빌드", "완료", "테스트", "성공", "경고", "파일", "의존성", "실행"],
    }
    status = [f"{CSI}32m✅{CSI}0m", f"{CSI}31m❌{CSI}0m", "🚀", "通过", "OK"]

    def line() -> str:
        chosen = words[rng.choice(list(words))]
        text = " ".join(rng.choice(chosen) for _ in range(rng.randrange(4, 10)))
        return f"[{rng.randrange(100000):05d}] {text} {rng.choice(status)} {rng.randrange(999)}ms\n"

    return _until(size, line)


def nfd_listing(size: int, seed: int = SEED) -> bytes:
    """``ls -l`` of file names in decomposed form (NFD), as macOS stores
    them: accented Latin letters as an ASCII letter and a combining mark."""
    rng = random.Random(seed)
    words = ["café", "résumé", "naïve", "Ångström", "über", "crème brûlée", "piñata"]
    words += ["façade", "Zürich", "São Paulo", "Łódź", "Dvořák", "smörgåsbord"]

    def line() -> str:
        name = unicodedata.normalize("NFD", " ".join(rng.choice(words) for _ in range(3)))
        day, minute = rng.randrange(1, 31), rng.randrange(60)
        size = rng.randrange(100_000)
        return f"-rw-r--r--  1 user  staff  {size:6d} Nov {day:2d} 09:{minute:02d} {name}.txt\n"

    return _until(size, line)


def cjk_emoji_log(size: int, seed: int = SEED) -> bytes:
    """Wide characters (CJK, kana, Hangul), emoji with skin tones, ZWJ
    sequences, flags and keycaps, and combining marks, with some colour."""
    rng = random.Random(seed)
    emoji = [
        "😀", "🚀", "✅", "❌", "🔥", "📦",  # single code points
        "👍🏽", "👋🏿",  # skin-tone modifiers
        "👨\u200d👩\u200d👧\u200d👦", "🧑\u200d💻", "🏳\ufe0f\u200d🌈", "👩🏽\u200d🚀",  # ZWJ
        "🇯🇵", "🇰🇷", "🇺🇦",  # regional-indicator flags
        "1\ufe0f\u20e3", "❤\ufe0f",  # keycap, variation selector
    ]  # fmt: skip
    combining = [
        "e\u0301", "a\u0300\u0316", "e\u0323\u0302", "n\u0303", "o\u0308\u0304",
        "क्षि", "ก\u0e34\u0e48", "\u1100\u1161\u11a8",  # Devanagari, Thai, Hangul jamo
    ]  # fmt: skip

    def cjk_word() -> str:
        block = rng.randrange(4)
        if block == 0:
            lo, hi = 0x4E00, 0x9FFF  # CJK ideographs
        elif block == 1:
            lo, hi = 0x3041, 0x3096  # hiragana
        elif block == 2:
            lo, hi = 0x30A1, 0x30FA  # katakana
        else:
            lo, hi = 0xAC00, 0xD7A3  # Hangul syllables
        return "".join(chr(rng.randint(lo, hi)) for _ in range(rng.randrange(2, 7)))

    def line() -> str:
        out: list[str] = []
        for _ in range(rng.randrange(6, 14)):
            pick = rng.random()
            if pick < 0.55:
                out.append(cjk_word())
            elif pick < 0.8:
                out.append(rng.choice(emoji))
            else:
                out.append(rng.choice(combining) + "ok")
            if rng.random() < 0.15:
                out.append(sgr(rng.randrange(31, 37)) + cjk_word() + RESET)
        return " ".join(out) + "\r\n"

    return _until(size, line)


def _filler(size: int) -> bytes:
    """Printable ASCII text without controls, for payloads and long lines."""
    text = b"the quick brown fox jumps over the lazy dog 0123456789 "
    return (text * (size // len(text) + 1))[:size]


def _repeat(unit: bytes, size: int) -> bytes:
    return unit * max(1, size // len(unit))


def _c1_flood(size: int) -> bytes:
    # Every C1 control both UTF-8 encoded (U+0080-U+009F, which start CSI,
    # OSC, DCS... strings) and as a raw byte (ill-formed UTF-8), each between
    # letters; U+009C (ST) comes round every 32 so strings do end.
    unit = b"".join(chr(c).encode() + b"ab" + bytes([c]) + b"cd" for c in range(0x80, 0xA0))
    return _repeat(unit, size)


def _bidi_flood(size: int) -> bytes:
    controls = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
    controls += ["\u200e", "\u200f", "\u061c"]
    line = "".join(f"{c}ab" for c in controls * 3) + "\r\n"
    return _repeat(line.encode(), size)


def _every_code_point(size: int) -> bytes:
    # Each code point from U+00A0 up (surrogates skipped) once, in lines of
    # 1000, until ``size`` bytes: each is new, so each is classified.
    points = (c for c in range(0xA0, 0x110000) if not 0xD800 <= c <= 0xDFFF)
    lines, line, total = [], [], 0
    for c in points:
        line.append(chr(c))
        if len(line) == 1000:
            lines.append("".join(line) + "\n")
            total += len(lines[-1].encode())
            line = []
            if total >= size:
                break
    return "".join(lines).encode()


def _style_churn(size: int) -> bytes:
    # A different style on every character: bold/italic/underline toggles,
    # 256-colour foreground and background; 80 characters a line.
    cells = [
        sgr(1 + i % 4, 38, 5, i * 7 % 256, 48, 5, i * 13 % 256) + chr(0x41 + i % 26)
        for i in range(80)
    ]
    return _repeat(("".join(cells) + "\r\n").encode(), size)


def hostile(name: str, size: int) -> bytes:
    """The hostile inputs of SECURITY.md, about ``size`` bytes each."""
    if name == "osc-unterminated":
        return b"\x1b]0;" + _filler(size)
    if name == "dcs-unterminated":
        return b"\x1bP1000p" + _filler(size)
    if name == "csi-100k-params":
        params = min(100_000, size // 8)
        return _repeat(b"\x1b[" + b"1;" * params + b"mtext\r\n", size)
    if name == "redos-digits":
        digits = min(50_000, size // 16)
        return _repeat(b"\x1b[" + b"9" * digits + b";" + b"9" * digits + b"mx\r\n", size)
    if name == "rep-2^31":
        return _repeat(b"a\x1b[2147483648b\r\n", size)
    if name == "cup-10^9":
        return _repeat(b"\x1b[1000000000;1000000000Hx", size)
    if name == "combining-storm":
        marks = min(100_000, size // 8)
        return _repeat(b"e" + "\u0301".encode() * marks + b"\r\n", size)
    if name == "newline-flood":
        return b"\n" * size
    if name == "huge-line":
        return _filler(size)
    if name == "style-churn":
        return _style_churn(size)
    if name == "c1-flood":
        return _c1_flood(size)
    if name == "bidi-flood":
        return _bidi_flood(size)
    if name == "every-code-point":
        return _every_code_point(size)
    if name == "cr-overwrite":
        line = min(65_536, size // 2)
        return _filler(line) + _repeat(b"\ry", size - line)
    if name in FLOOD_UNITS:
        return _repeat(FLOOD_UNITS[name], size)
    if name == "mixed-flood":
        return _mixed_flood(size)
    raise KeyError(name)


# Floods of one short control or sequence: each does a window's (or a row's)
# worth of work in a naive terminal model for two to ten bytes.
FLOOD_UNITS = {
    "decaln-flood": b"\x1b#8",
    "ris-flood": b"\x1bc",
    "ri-flood": b"\x1bMx",
    "ind-flood": b"\x1bDx",
    "decstbm-flood": b"\x1b[2;20r",
    "ed-flood": b"\x1b[2J\x1b[3J",
    "alt-screen-flood": b"\x1b[?1049h\x1b[?1049l",
    "decsc-decrc-flood": b"\x1b7\x1b8",
    "su-sd-flood": b"\x1b[999999S\x1b[999999T",
    "il-dl-flood": b"\x1b[99L\x1b[99M",
    "decstr-flood": b"\x1b[!p",
    "tab-stop-flood": b"\x1bH\x1b[3g",
    "mode-flood": b"\x1b[?7l\x1b[?7h\x1b[4h\x1b[4l\x1b[?6h\x1b[?6l",
}


def _mixed_flood(size: int, seed: int = SEED) -> bytes:
    """The floods' units in a random order: a flood no repetition of one
    unit can stand for."""
    rng = random.Random(seed)
    units = list(FLOOD_UNITS.values())
    out = bytearray()
    while len(out) < size:
        out += rng.choice(units)
    return bytes(out)


@dataclass(frozen=True)
class Input:
    name: str
    kind: str  # "public", "normal" or "hostile"
    description: str
    make: Callable[[bool], bytes]  # quick -> bytes


def _public(name: str) -> Callable[[bool], bytes]:
    def make(quick: bool) -> bytes:
        data = (DATA / f"{name}.raw").read_bytes()
        return data[: len(data) // QUICK_DIVISOR] if quick else data

    return make


def _sized(size: int, maker: Callable[[int], bytes]) -> Callable[[bool], bytes]:
    return lambda quick: maker(size // QUICK_DIVISOR if quick else size)


PUBLIC = {
    "npm-install": "escape-dense: an escape every ~10 bytes",
    "docker-compose-pull": "CR progress bars and cursor-up",
}
# name: (description, full-run size in bytes, generator)
NORMAL: dict[str, tuple[str, int, Callable[[int], bytes]]] = {
    "plain-log": ("ordinary log lines, no escapes", 2_000_000, plain_log),
    "colour-log": ("pytest/cargo lines, SGR every few words", 1_000_000, colour_log),
    "cjk-emoji": ("wide characters, ZWJ emoji, combining marks", 1_000_000, cjk_emoji_log),
    "cjk-log": ("Chinese, Japanese, Korean build output, some colour", 1_000_000, cjk_log),
    "nfd-names": ("ls -l of file names with combining marks (NFD)", 1_000_000, nfd_listing),
    "grep-colour": ("grep --color: SGR and EL around every match", 1_000_000, grep_log),
    "tab-columns": ("tab-separated columns", 1_000_000, columns_log),
    "man-page": ("man output with overstrike (BS) bold and underline", 1_000_000, man_page),
    "progress-bars": ("cargo, pip, git, Node progress: CR, EL, colour", 1_000_000, progress_log),
}
HOSTILE_SIZE = 800_000
HOSTILE = {
    "osc-unterminated": "ESC ] 0; and a payload never terminated",
    "dcs-unterminated": "ESC P (tmux-like) and a payload never terminated",
    "csi-100k-params": "CSI with 10^5 parameters, repeated",
    "redos-digits": "CSI 50 000 digits ; 50 000 digits m, repeated",
    "rep-2^31": "a, REP 2^31, CRLF, repeated",
    "cup-10^9": "CUP to row and column 10^9, then x, repeated",
    "combining-storm": "e + 10^5 U+0301, repeated",
    "newline-flood": "LF only",
    "huge-line": "one line of printable text, no newline",
    "style-churn": "a different SGR before every character",
    "c1-flood": "every C1 control, UTF-8 encoded and as a raw byte",
    "bidi-flood": "bidi overrides, isolates and marks between letters",
    "every-code-point": "each code point from U+00A0 up once, in lines of 1000",
    "cr-overwrite": "a line of 65 536 characters, then CR and one character, repeated",
}
FLOODS = {
    "decaln-flood": "ESC # 8 (DECALN: fill the screen with E), repeated",
    "ris-flood": "ESC c (RIS: full reset), repeated",
    "ri-flood": "ESC M x (reverse index at the top: scroll down), repeated",
    "ind-flood": "ESC D x (index: a staircase down the screen), repeated",
    "decstbm-flood": "CSI 2;20 r (scroll region), repeated",
    "ed-flood": "CSI 2 J CSI 3 J (erase the screen and scrollback), repeated",
    "alt-screen-flood": "CSI ? 1049 h CSI ? 1049 l (alternate screen in and out), repeated",
    "decsc-decrc-flood": "ESC 7 ESC 8 (save and restore the cursor), repeated",
    "su-sd-flood": "CSI 999999 S CSI 999999 T (scroll up and down), repeated",
    "il-dl-flood": "CSI 99 L CSI 99 M (insert and delete lines), repeated",
    "decstr-flood": "CSI ! p (soft reset), repeated",
    "tab-stop-flood": "ESC H CSI 3 g (set and clear tab stops), repeated",
    "mode-flood": "autowrap, insert and origin modes set and reset, repeated",
    "mixed-flood": "the units of the floods above in a random order",
}

INPUTS: list[Input] = [
    *(Input(name, "public", text, _public(name)) for name, text in PUBLIC.items()),
    *(
        Input(name, "normal", text, _sized(size, maker))
        for name, (text, size, maker) in NORMAL.items()
    ),
    *(
        Input(name, "hostile", text, _sized(HOSTILE_SIZE, functools.partial(hostile, name)))
        for name, text in (HOSTILE | FLOODS).items()
    ),
]


# --------------------------------------------------------- implementations


@dataclass(frozen=True)
class Impl:
    name: str
    run: Callable[[bytes], object] | None  # None: the package is not installed
    cap: Callable[[Input], int | None] = lambda item: None  # bytes fed at most


_ANSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]")


def _regex_strip(data: bytes) -> object:
    return _ANSI_RE.sub("", data.decode("utf-8", "replace"))


def _pyte_impl() -> Callable[[bytes], object] | None:
    try:
        import pyte
    except ImportError:
        return None

    def run(data: bytes) -> object:
        # ByteStream decodes (UTF-8, "replace") incrementally inside the
        # timing. Only the feed is timed: no text is taken out of the screen.
        screen = pyte.HistoryScreen(80, 24, history=100_000)
        pyte.ByteStream(screen).feed(data)
        return screen

    return run


def _ansi2html_impl() -> Callable[[bytes], object] | None:
    try:
        from ansi2html import Ansi2HTMLConverter
    except ImportError:
        return None
    return lambda data: Ansi2HTMLConverter().convert(data.decode("utf-8", "replace"))


def _rich_impl() -> Callable[[bytes], object] | None:
    try:
        from rich.text import Text
    except ImportError:
        return None
    return lambda data: Text.from_ansi(data.decode("utf-8", "replace"))


TEXT_LINES = "termscribe render_text lines"
TEXT_STRIP = "termscribe render_text strip"
HTML = "termscribe render_html"
ANSI = "termscribe render_ansi"
PYTE = "pyte HistoryScreen"
ANSI2HTML = "ansi2html convert"
RICH = "rich Text.from_ansi"
REGEX = "regex ANSI stripper"
TEXT_SCREEN = "termscribe render_text screen"
TERMSCRIBE = (TEXT_LINES, TEXT_STRIP, HTML, ANSI)
# With the screen mode (pyte underneath): the hostile tables and the floods' target.
TERMSCRIBE_ALL = (*TERMSCRIBE, TEXT_SCREEN)


def implementations(quick: bool) -> list[Impl]:
    pyte_cap = PYTE_CAP // QUICK_DIVISOR if quick else PYTE_CAP
    return [
        Impl(TEXT_LINES, render_text),
        Impl(TEXT_STRIP, lambda data: render_text(data, mode="strip")),
        Impl(HTML, render_html),
        Impl(ANSI, render_ansi),
        Impl(TEXT_SCREEN, lambda data: render_text(data, mode="screen")),
        Impl(PYTE, _pyte_impl(), lambda item: None if item.kind == "public" else pyte_cap),
        Impl(ANSI2HTML, _ansi2html_impl()),
        Impl(RICH, _rich_impl()),
        Impl(REGEX, _regex_strip),
    ]


# ----------------------------------------------------------------- timing


class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def timed(func: Callable[[], object], budget: float) -> float | str:
    """Seconds one call of ``func`` takes, or why it has no time: it ran past
    ``budget`` or raised (peers are not all safe on hostile input)."""
    gc.collect()
    # SIGALRM interrupts pure-Python loops and regex matching alike; without
    # it (not on Unix) every call simply runs to the end.
    alarm = hasattr(signal, "setitimer")
    if alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        start = time.perf_counter()
        result = func()
        elapsed = time.perf_counter() - start
    except _Timeout:
        return f"timed out after {budget:.0f} s"
    except Exception as error:
        return f"raised {type(error).__name__}"
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    # Freed outside the timing, the same for every implementation.
    del result
    return elapsed


def best_in_rounds(
    jobs: dict[str, Callable[[], object]], runs: int, budget: float
) -> dict[str, float | str]:
    """The best time of each job over ``runs`` rounds, each round running
    every job once in turn, so that a stretch of load on the machine slows
    one run of many jobs rather than every run of one. A job that ran past
    ``budget`` or raised is not run again: its outcome is why it failed."""
    best: dict[str, float | str] = {}
    for round_ in range(runs):
        for key, func in jobs.items():
            if isinstance(best.get(key), str):
                continue  # one failure is enough: the other runs would fail too
            progress(f"  {key} (run {round_ + 1} of {runs})")
            elapsed = timed(func, budget)
            previous = best.get(key)
            if isinstance(elapsed, str) or previous is None:
                best[key] = elapsed
            else:
                best[key] = min(previous, elapsed)
    return best


@dataclass
class Measure:
    seconds: float | None  # None: failed, see note
    nbytes: int
    note: str = ""

    @classmethod
    def of(cls, outcome: float | str, nbytes: int, note: str = "") -> Measure:
        if isinstance(outcome, str):
            return cls(None, nbytes, f"{outcome}, {note}" if note else outcome)
        return cls(outcome, nbytes, note)

    @property
    def mbps(self) -> float | None:
        return None if self.seconds is None else self.nbytes / MB / self.seconds


# ----------------------------------------------------------------- output


def fmt_num(value: float) -> str:
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "–"
    if value == float("inf"):
        return "peer failed"  # ours finished, the peer did not: no finite ratio
    return f"{fmt_num(value)}×"


def fmt_slowdown(value: float | None) -> str:
    """A hostile/normal time ratio; infinite when termscribe itself failed."""
    return "failed" if value == float("inf") else fmt_ratio(value)


def fmt_mb(nbytes: int) -> str:
    return f"{fmt_num(nbytes / MB)} MB"


@dataclass
class Report:
    markdown: bool
    lines: list[str] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.lines += ["", f"## {text}" if self.markdown else f"== {text} ==", ""]

    def para(self, text: str) -> None:
        self.lines += [text, ""]

    def table(
        self,
        title: str,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        text_columns: Sequence[int] = (0,),
    ) -> None:
        """A table; ``text_columns`` are left-aligned, the others (numbers)
        right-aligned."""
        if self.markdown:
            self.lines += [f"**{title}**", ""]
            self.lines.append("| " + " | ".join(headers) + " |")
            rules = ("---" if i in text_columns else "---:" for i in range(len(headers)))
            self.lines.append("|" + "|".join(rules) + "|")
            self.lines += ["| " + " | ".join(row) + " |" for row in rows]
        else:
            self.lines.append(title)
            widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

            def line(cells: Sequence[str]) -> str:
                return "  ".join(
                    cell.ljust(width) if i in text_columns else cell.rjust(width)
                    for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
                ).rstrip()

            self.lines.append(line(headers))
            self.lines.append("  ".join("-" * width for width in widths))
            self.lines += [line(row) for row in rows]
        self.lines.append("")

    def text(self) -> str:
        return "\n".join(self.lines).strip("\n") + "\n"


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------- sections


def run_throughput(
    inputs: list[Input], impls: list[Impl], data: dict[str, bytes], runs: int, budget: float
) -> dict[str, dict[str, Measure]]:
    jobs: dict[str, Callable[[], object]] = {}
    fed_of: dict[str, tuple[str, str, int, str]] = {}  # job: input, impl, bytes, note
    for item in inputs:
        payload = data[item.name]
        for impl in impls:
            if impl.run is None:
                continue
            cap = impl.cap(item)
            fed = payload if cap is None or len(payload) <= cap else payload[:cap]
            note = f"first {fmt_mb(len(fed))}" if len(fed) < len(payload) else ""
            key = f"{item.name}: {impl.name} ({fmt_mb(len(fed))})"
            jobs[key] = functools.partial(impl.run, fed)
            fed_of[key] = (item.name, impl.name, len(fed), note)
    outcomes = best_in_rounds(jobs, runs, budget)
    results: dict[str, dict[str, Measure]] = {item.name: {} for item in inputs}
    for key, (name, impl_name, nbytes, note) in fed_of.items():
        results[name][impl_name] = Measure.of(outcomes[key], nbytes, note)
    return results


def chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


def feed_all(chunks: list[bytes]) -> object:
    transcript = Transcript()
    feed = transcript.feed
    for chunk in chunks:
        feed(chunk)
    transcript.finish()
    return transcript


def run_chunks(
    inputs: list[Input], data: dict[str, bytes], runs: int, budget: float
) -> dict[str, dict[str, Measure]]:
    jobs: dict[str, Callable[[], object]] = {}
    labels: dict[str, tuple[str, str]] = {}  # job: input, chunk size
    for item in inputs:
        payload = data[item.name]
        for size in (*CHUNK_SIZES, None):
            label = "one feed" if size is None else f"{size} B"
            # Cut before timing: only feed() and finish() are measured.
            chunks = [payload] if size is None else chunked(payload, size)
            key = f"{item.name}: feed in {label} chunks"
            jobs[key] = functools.partial(feed_all, chunks)
            labels[key] = (item.name, label)
    outcomes = best_in_rounds(jobs, runs, budget)
    results: dict[str, dict[str, Measure]] = {item.name: {} for item in inputs}
    for key, (name, label) in labels.items():
        results[name][label] = Measure.of(outcomes[key], len(data[name]))
    return results


class CountingSink:
    """Stands in for an output file: counts what would be written."""

    def __init__(self) -> None:
        self.chars = 0

    def write(self, text: str) -> None:
        self.chars += len(text)


def stream_pool() -> bytes:
    """About 1 MB of build log (coloured test output, then plain log lines)
    that the stream cycles through. Its length is not a multiple of the chunk
    size, so chunks are cut at ever different places, inside escapes too."""
    return colour_log(500_000, SEED + 1) + plain_log(500_000, SEED + 2)


def stream_chunks(pool: bytes, total: int) -> Iterator[bytes]:
    """``total`` bytes cycling through ``pool``, 64 KB at a time, never
    holding more than one chunk beyond the pool."""
    position = 0
    sent = 0
    while sent < total:
        size = min(STREAM_CHUNK, total - sent)
        chunk = pool[position : position + size]
        if len(chunk) < size:
            chunk += pool[: size - len(chunk)]
        position = (position + size) % len(pool)
        sent += size
        yield chunk


def export_text(chunks: Iterator[bytes], sink: CountingSink) -> None:
    transcript = Transcript(max_lines=None, styled=False)
    for chunk in chunks:
        transcript.feed(chunk)
        for line in transcript.take_lines():
            sink.write(line.text + "\n")
    transcript.finish()
    for line in transcript.lines():
        sink.write(line.text + "\n")


def export_html(chunks: Iterator[bytes], sink: CountingSink) -> None:
    transcript = Transcript(max_lines=None)
    sink.write(html_start())
    for chunk in chunks:
        transcript.feed(chunk)
        taken = transcript.take_lines()
        if taken:
            sink.write(html_lines(taken) + "\n")
    transcript.finish()
    sink.write(html_lines(transcript.lines()) + html_end())


@dataclass
class StreamResult:
    nbytes: int
    seconds: float | None  # None: no untraced run (--quick)
    traced_seconds: float
    peak: int
    output_chars: int


def run_stream(total: int, untraced: bool) -> dict[str, StreamResult]:
    """Each export twice: timed without tracemalloc (which makes allocation
    several times slower), then traced for the peak; ``untraced=False``
    skips the first run to save time."""
    pool = stream_pool()  # made before tracing starts: it is the "file", not the export
    results: dict[str, StreamResult] = {}
    for name, export in (("text", export_text), ("html", export_html)):
        seconds = None
        if untraced:
            progress(f"  stream {fmt_mb(total)} as {name}")
            gc.collect()
            start = time.perf_counter()
            export(stream_chunks(pool, total), CountingSink())
            seconds = time.perf_counter() - start
        progress(f"  stream {fmt_mb(total)} as {name}, under tracemalloc")
        sink = CountingSink()
        gc.collect()
        tracemalloc.start()
        start = time.perf_counter()
        export(stream_chunks(pool, total), sink)
        traced = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        results[name] = StreamResult(total, seconds, traced, peak, sink.chars)
    return results


# ---------------------------------------------------------------- targets


@dataclass
class Target:
    text: str
    measured: str
    ok: bool | None  # None: not measured


def _ratio(results: dict[str, dict[str, Measure]], name: str, ours: str, peer: str) -> float | None:
    row = results.get(name, {})
    if ours not in row or peer not in row:
        return None
    a, b = row[ours], row[peer]
    if a.mbps is None:
        return None
    if b.mbps is None:
        return float("inf")  # the peer failed: any finished run is better
    return a.mbps / b.mbps


def targets(
    throughput: dict[str, dict[str, Measure]],
    chunks: dict[str, dict[str, Measure]],
    stream: dict[str, StreamResult],
) -> list[Target]:
    out: list[Target] = []
    for ours, peer, name, goal in (
        (TEXT_LINES, RICH, "npm-install", 4),
        (TEXT_LINES, ANSI2HTML, "npm-install", 6),
        (TEXT_LINES, RICH, "docker-compose-pull", 0.5),
        (HTML, ANSI2HTML, "npm-install", 3),
        (HTML, ANSI2HTML, "docker-compose-pull", 2),
    ):
        ratio = _ratio(throughput, name, ours, peer)
        short = ours.removeprefix("termscribe ").replace(" lines", "")
        out.append(
            Target(
                f"{short} ≥ {goal:g}× {peer.split()[0]} on {name}",
                fmt_ratio(ratio),
                None if ratio is None else ratio >= goal,
            )
        )
    for name in CHUNK_INPUTS:
        row = chunks.get(name, {})
        whole, small = row.get("one feed"), row.get("4096 B")
        ratio = None
        if whole and small and whole.seconds and small.seconds:
            ratio = small.seconds / whole.seconds
        out.append(
            Target(
                f"Transcript.feed in 4 KB chunks ≤ 1.3× the time of one feed, {name}",
                fmt_ratio(ratio),
                None if ratio is None else ratio <= 1.3,
            )
        )
    for name in ("text", "html"):
        result = stream.get(name)
        size = f"{fmt_mb(result.nbytes)} " if result else ""
        out.append(
            Target(
                f"streamed {name} export of {size or '200 MB '}in < 64 MB peak memory",
                f"{fmt_num(result.peak / MB)} MB" if result else "–",
                None if result is None else result.peak < 64 * MB,
            )
        )
    worst = hostile_ratios(throughput)
    for inputs, impls, goal, what in (
        (HOSTILE, TERMSCRIBE, 3, "hostile"),
        (FLOODS, TERMSCRIBE_ALL, 10, "flood"),
    ):
        for impl in impls:
            ratios = [
                (value, name)
                for name, row in worst.items()
                if name in inputs and (value := row.get(impl)) is not None
            ]
            text = f"{what} ≤ {goal}× colour-log time per byte, {impl}"
            if not ratios:
                out.append(Target(text, "–", None))
                continue
            value, name = max(ratios)
            out.append(Target(text, f"{fmt_slowdown(value)} (worst: {name})", value <= goal))
    return out


def hostile_ratios(
    throughput: dict[str, dict[str, Measure]], baseline: str = "colour-log"
) -> dict[str, dict[str, float | None]]:
    """Per hostile input and termscribe renderer: its time per byte over the
    baseline's time per byte with the same renderer."""
    base = throughput.get(baseline)
    if not base:
        return {}
    out: dict[str, dict[str, float | None]] = {}
    for name, row in throughput.items():
        if name not in HOSTILE and name not in FLOODS:
            continue
        out[name] = {}
        for impl in TERMSCRIBE_ALL:
            ours, normal = row.get(impl), base.get(impl)
            if ours is None or normal is None or normal.mbps is None:
                continue
            out[name][impl] = float("inf") if ours.mbps is None else normal.mbps / ours.mbps
    return out


# ------------------------------------------------------------------ report


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(HERE), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def _speedups_state() -> str:
    """Whether termscribe's optional C extension is built (see setup.py)."""
    try:
        import termscribe._speedups  # noqa: F401
    except ImportError:
        return "not built (pure Python)"
    return "built (termscribe._speedups)"


def header(report: Report, args: argparse.Namespace, runs: int) -> None:
    versions = ", ".join(
        f"{name} {_version(name)}"
        for name in ("termscribe", "pyte", "ansi2html", "rich", "wcwidth")
    )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    plural = "s" if runs != 1 else ""
    facts = [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("machine", f"{platform.platform()}; {_cpu_model()}; {os.cpu_count()} cores"),
        ("load average at start", load),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("packages", versions),
        ("C extension", _speedups_state()),
        ("commit", _commit()),
        ("command", "python benchmarks/bench.py " + " ".join(sys.argv[1:])),
        (
            "method",
            f"best of {runs} run{plural}, run as {runs} round{plural} of every measurement;"
            " MB = 10^6 bytes of input",
        ),
    ]
    if args.markdown:
        report.lines.append("# termscribe benchmark results")
        report.lines.append("")
        report.lines += [f"- {key}: {value}" for key, value in facts]
        report.lines.append("")
    else:
        report.lines += [f"{key}: {value}" for key, value in facts]


def describe_throughput(
    report: Report,
    inputs: list[Input],
    impls: list[Impl],
    data: dict[str, bytes],
    results: dict[str, dict[str, Measure]],
) -> None:
    report.heading("Throughput (MB/s of input)")
    report.para(
        "Peers decode the bytes inside their timing, as termscribe does. pyte is timed "
        "feeding its HistoryScreen(80, 24) only (no text taken out), on the whole of the "
        "public logs but only the start of generated inputs (see the notes)."
    )
    for item in inputs:
        rows = []
        for impl in impls:
            measure = results[item.name].get(impl.name)
            if measure is None:
                rows.append([impl.name, "–", "–", "not installed"])
                continue
            if measure.seconds is None:
                rows.append([impl.name, "failed", "–", measure.note])
                continue
            assert measure.mbps is not None
            rows.append(
                [impl.name, fmt_num(measure.mbps), fmt_num(measure.seconds * 1000), measure.note]
            )
        title = f"{item.name} ({fmt_mb(len(data[item.name]))}, {item.kind}): {item.description}"
        report.table(title, ["implementation", "MB/s", "best ms", "note"], rows, (0, 3))

    pairs = ((TEXT_LINES, RICH), (TEXT_LINES, ANSI2HTML), (HTML, ANSI2HTML))
    rows = [
        [item.name, *(fmt_ratio(_ratio(results, item.name, a, b)) for a, b in pairs)]
        for item in inputs
    ]
    report.table(
        "Ratios termscribe/peer (MB/s over MB/s; above 1 means termscribe is faster)",
        ["input", "render_text / rich", "render_text / ansi2html", "render_html / ansi2html"],
        rows,
    )

    ratios = hostile_ratios(results)
    if ratios:
        rows = []
        for name, row in ratios.items():
            cells = [fmt_slowdown(row.get(impl)) for impl in TERMSCRIBE_ALL]
            # Some inputs are small only on the way in (REP 2^31 prints 512
            # characters for 17 bytes): the output size explains their time.
            growth = len(render_text(data[name])) / len(data[name])
            rows.append([name, *cells, fmt_ratio(growth)])
        report.table(
            "Hostile inputs: time per byte over colour-log's time per byte, same renderer",
            [
                "input",
                "text lines",
                "text strip",
                "html",
                "ansi",
                "text screen",
                "text chars / input byte",
            ],
            rows,
        )


def describe_chunks(
    report: Report, data: dict[str, bytes], results: dict[str, dict[str, Measure]]
) -> None:
    report.heading("Per-chunk cost")
    report.para(
        "Transcript() with default options; the input is cut into chunks before timing, "
        "then feed() every chunk and finish()."
    )
    for name, row in results.items():
        whole = row["one feed"].seconds
        rows = []
        for label, measure in row.items():
            if measure.seconds is None or measure.mbps is None:
                rows.append([label, f"failed ({measure.note})", "–"])
                continue
            ratio = measure.seconds / whole if whole else None
            rows.append([label, fmt_num(measure.mbps), fmt_ratio(ratio)])
        report.table(
            f"{name} ({fmt_mb(len(data[name]))})",
            ["chunk size", "MB/s", "time / one feed"],
            rows,
        )


def describe_stream(report: Report, results: dict[str, StreamResult]) -> None:
    report.heading("Streamed export")
    report.para(
        "A generated build log (coloured test output and plain log lines, ~1 MB cycled) "
        "yielded in 64 KB chunks; take_lines() after each chunk, lines written to a "
        "counting sink. Text: Transcript(max_lines=None, styled=False); HTML: "
        "Transcript(max_lines=None) and html_lines() on the taken lines. Peak is "
        "tracemalloc's, from a second, traced run (tracing slows allocation several "
        "times, hence two times; --quick makes the traced run only)."
    )
    rows = []
    for name, result in results.items():
        seconds = result.seconds
        rows.append(
            [
                name,
                fmt_mb(result.nbytes),
                "–" if seconds is None else fmt_num(result.nbytes / MB / seconds),
                "–" if seconds is None else f"{seconds:.1f}",
                f"{result.traced_seconds:.1f}",
                f"{fmt_num(result.peak / MB)} MB",
                f"{fmt_num(result.output_chars / MB)} M",
            ]
        )
    report.table(
        "Streamed export",
        ["format", "input", "MB/s", "s", "s traced", "peak memory", "output chars"],
        rows,
    )


def describe_targets(report: Report, items: list[Target]) -> None:
    report.heading("Targets")
    report.para(
        "Hostile inputs are compared with colour-log (the normal input with escapes; "
        "plain-log takes a faster, escape-free path) for the same renderer."
    )
    verdict = {True: "PASS", False: "FAIL", None: "not measured"}
    report.table(
        "Targets",
        ["target", "measured", "result"],
        [[item.text, item.measured, verdict[item.ok]] for item in items],
        (0, 2),
    )


# -------------------------------------------------------------------- main


def select_inputs(patterns: list[str]) -> list[Input]:
    if not patterns:
        return list(INPUTS)
    chosen = [item for item in INPUTS if any(fnmatch.fnmatchcase(item.name, p) for p in patterns)]
    unknown = [p for p in patterns if not any(fnmatch.fnmatchcase(i.name, p) for i in INPUTS)]
    if unknown:
        names = ", ".join([*SECTIONS, *(item.name for item in INPUTS)])
        raise SystemExit(f"bench.py: unknown name {', '.join(unknown)} (known: {names})")
    return chosen


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Measure termscribe beside pyte, ansi2html, rich and a regex stripper.",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"inputs 1/{QUICK_DIVISOR} the size, 1 run, {QUICK_STREAM_MB} MB stream",
    )
    parser.add_argument("--runs", type=int, help="runs per measurement, best kept (default 3)")
    parser.add_argument(
        "--only",
        nargs="+",
        default=[],
        metavar="NAME",
        help="sections (throughput, chunks, stream) and/or inputs (names or globs) to run; "
        "naming only inputs runs throughput and chunks on them, without the stream",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print Markdown (with machine and versions)"
    )
    args = parser.parse_args(argv)
    if args.runs is not None and args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    runs = args.runs or (1 if args.quick else 3)
    budget = QUICK_TIMEOUT_S if args.quick else TIMEOUT_S
    sections = [name for name in args.only if name in SECTIONS]
    patterns = [name for name in args.only if name not in SECTIONS]
    inputs = select_inputs(patterns)
    wanted = set(sections) if sections else {"throughput", "chunks"}
    if not sections and not patterns:
        wanted.add("stream")

    progress("making inputs")
    data = {item.name: item.make(args.quick) for item in inputs}
    impls = implementations(args.quick)

    report = Report(args.markdown)
    header(report, args, runs)

    throughput: dict[str, dict[str, Measure]] = {}
    if "throughput" in wanted:
        progress("throughput")
        throughput = run_throughput(inputs, impls, data, runs, budget)
        describe_throughput(report, inputs, impls, data, throughput)

    chunk_results: dict[str, dict[str, Measure]] = {}
    chunk_inputs = [item for item in inputs if item.name in CHUNK_INPUTS]
    if "chunks" in wanted and chunk_inputs:
        progress("per-chunk cost")
        chunk_results = run_chunks(chunk_inputs, data, runs, budget * 4)
        describe_chunks(report, data, chunk_results)

    stream: dict[str, StreamResult] = {}
    if "stream" in wanted:
        progress("streamed export")
        stream = run_stream(
            (QUICK_STREAM_MB if args.quick else STREAM_MB) * MB, untraced=not args.quick
        )
        describe_stream(report, stream)

    describe_targets(report, targets(throughput, chunk_results, stream))
    sys.stdout.write(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
