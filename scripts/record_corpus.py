#!/usr/bin/env python3
"""Record real terminal programs into corpus/recordings/.

Every program runs in a fresh pseudo-terminal of 100 columns x 30 rows
(set with TIOCSWINSZ before the program starts), with TERM=xterm-256color,
LANG=C.UTF-8, COLUMNS/LINES set and HOME pointing at a throw-away directory.
Every byte the program writes to the terminal is saved unchanged as
``corpus/recordings/<name>.raw``; a sidecar ``<name>.json`` describes it:

    {"name", "command", "columns", "rows", "kind", "description", "recorded"}

``kind`` is "line" for programs that print lines and "fullscreen" for programs
that take over the screen (vim, less, top, htop).

Fixtures (a small pytest project, a cargo crate, git repositories, a directory
with varied file types, ...) are created under a fixed scratch directory
(``/tmp/termscribe-corpus``) so paths that end up in the output are the same
on every run.  Git commits use fixed names and dates, so hashes are stable.

Usage:

    python scripts/record_corpus.py              # record everything
    python scripts/record_corpus.py vim less     # re-record some
    python scripts/record_corpus.py --list       # list the names

Programs needed (Debian 12) and how to install them:

    apt-get update
    apt-get install -y vim less procps htop man-db manpages git groff-base
    pip install pytest tqdm
    # cargo (rustup) and node/npm must be on PATH; the pip and npm
    # recordings need access to PyPI and the npm registry.  top and htop run
    # as PID 1 of a new PID namespace (unshare from util-linux, needs root) so
    # their process list shows only the fixture's processes.

After recording, regenerate the xterm.js references:
``cd scripts/xterm && npm ci && node reference.mjs``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import errno
import fcntl
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COLUMNS = 100
ROWS = 30
REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "corpus" / "recordings"
SCRATCH = Path("/tmp/termscribe-corpus")
MAX_BYTES = 1_000_000
FIXED_TIME = 1_577_880_000  # 2020-01-01 12:00:00 UTC


@dataclass
class Plan:
    """How to run one program."""

    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
    # (seconds to wait after the previous step, bytes to type)
    keys: list[tuple[float, bytes]] = field(default_factory=list)
    timeout: float = 60.0


@dataclass
class Recording:
    name: str
    command: str
    kind: str
    description: str
    setup: Callable[[Path], Plan]


RECORDINGS: dict[str, Recording] = {}


def recording(name: str, command: str, kind: str, description: str):
    def register(func: Callable[[Path], Plan]) -> Callable[[Path], Plan]:
        RECORDINGS[name] = Recording(name, command, kind, description, func)
        return func

    return register


# --------------------------------------------------------------------------
# pty runner
# --------------------------------------------------------------------------


def base_env(home: Path) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "COLUMNS": str(COLUMNS),
        "LINES": str(ROWS),
        "HOME": str(home),
        "USER": "root",
        "LOGNAME": "root",
        "SHELL": "/bin/sh",
        "TZ": "UTC",
    }
    # Toolchains installed under the real home (rustup, pyenv) keep working.
    for key in ("RUSTUP_HOME", "CARGO_HOME", "PYENV_ROOT"):
        if key in os.environ:
            env[key] = os.environ[key]
    real_home = Path(os.path.expanduser("~"))
    if "RUSTUP_HOME" not in env and (real_home / ".rustup").is_dir():
        env["RUSTUP_HOME"] = str(real_home / ".rustup")
    if "CARGO_HOME" not in env and (real_home / ".cargo").is_dir():
        env["CARGO_HOME"] = str(real_home / ".cargo")
    return env


def run_in_pty(plan: Plan, env: dict[str, str]) -> tuple[bytes, int | None]:
    """Run plan.argv on a new pty; return (all output bytes, exit status)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.setsid()
            os.close(master)
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            os.chdir(plan.cwd)
            os.execvpe(plan.argv[0], plan.argv, env)
        except BaseException as exc:  # pragma: no cover - child side
            os.write(2, f"exec failed: {exc}\n".encode())
        finally:
            os._exit(127)
    os.close(slave)

    chunks: list[bytes] = []
    start = time.monotonic()
    keys = list(plan.keys)
    next_key_at = start + keys[0][0] if keys else None
    status: int | None = None
    exited_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            if next_key_at is not None and now >= next_key_at:
                _, data = keys.pop(0)
                with contextlib.suppress(OSError):
                    os.write(master, data)
                next_key_at = now + keys[0][0] if keys else None
            if now - start > plan.timeout:
                print(f"  timeout after {plan.timeout}s, killing", file=sys.stderr)
                _kill(pid)
            if status is None:
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = st
                    exited_at = now
            if exited_at is not None and now - exited_at > 2.0:
                break  # a grandchild still holds the pty; stop reading
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError as exc:
                if exc.errno == errno.EIO:
                    break  # every writer closed the slave side
                raise
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        if status is None:
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status) if status is not None else None
    return b"".join(chunks), code


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


# --------------------------------------------------------------------------
# fixture helpers
# --------------------------------------------------------------------------


def write(path: Path, text: str, mode: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mode is not None:
        path.chmod(mode)
    return path


def git_env(home: Path) -> dict[str, str]:
    env = base_env(home)
    env.update(
        {
            "GIT_AUTHOR_NAME": "Ada Example",
            "GIT_AUTHOR_EMAIL": "ada@example.org",
            "GIT_COMMITTER_NAME": "Ada Example",
            "GIT_COMMITTER_EMAIL": "ada@example.org",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_PAGER": "cat",
        }
    )
    return env


def git(repo: Path, env: dict[str, str], *args: str, when: int | None = None) -> None:
    e = dict(env)
    if when is not None:
        stamp = f"@{FIXED_TIME + when * 3600} +0000"
        e["GIT_AUTHOR_DATE"] = stamp
        e["GIT_COMMITTER_DATE"] = stamp
    subprocess.run(["git", *args], cwd=repo, env=e, check=True, capture_output=True)


def make_git_repo(root: Path, home: Path, *, commits: int, files: int) -> Path:
    """A repository with a main line, a merged branch and an open branch."""
    repo = root / "project"
    repo.mkdir(parents=True)
    env = git_env(home)
    git(repo, env, "init", "-q", "-b", "main")
    tick = 0

    def commit(message: str) -> None:
        nonlocal tick
        tick += 1
        git(repo, env, "add", "-A")
        git(repo, env, "commit", "-q", "-m", message, when=tick)

    write(repo / "README.md", "# project\n\nA small example project.\n")
    commit("Initial commit")
    for i in range(commits):
        for j in range(files):
            lines = "".join(f"value_{j}_{k} = {i * k + j}\n" for k in range(40))
            write(repo / "src" / f"module_{j}.py", f"# revision {i}\n{lines}")
        commit(f"Update modules (revision {i + 1})")
    git(repo, env, "checkout", "-q", "-b", "feature/parser")
    write(repo / "src" / "parser.py", "def parse(text):\n    return text.split()\n")
    commit("Add a tiny parser")
    write(repo / "src" / "parser.py", "def parse(text):\n    return text.strip().split()\n")
    commit("Parser: strip input first")
    git(repo, env, "checkout", "-q", "main")
    write(repo / "CHANGES.md", "## 0.1\n\n- first release\n")
    commit("Add changelog")
    tick += 1
    git(repo, env, "merge", "-q", "--no-ff", "-m", "Merge branch 'feature/parser'",
        "feature/parser", when=tick)  # fmt: skip
    git(repo, env, "tag", "-a", "v0.1", "-m", "Release 0.1", when=tick)
    git(repo, env, "checkout", "-q", "-b", "wip/docs")
    write(repo / "docs" / "index.md", "# Docs\n\nWork in progress.\n")
    commit("Start documentation")
    git(repo, env, "checkout", "-q", "main")
    write(repo / "README.md", "# project\n\nA small example project.\n\nSee CHANGES.md.\n")
    commit("README: point at the changelog")
    return repo


def in_pid_namespace(command: str) -> list[str]:
    """Run command as PID 1 of a new PID namespace next to a few idle processes.

    The process list then shows only the fixture, not whatever else runs on
    the recording machine.  Needs root (or user namespaces) for unshare.
    """
    script = (
        "sleep 300 & sleep 301 & "
        "python3 -c 'import time; time.sleep(302)' & "
        "sh -c 'while :; do sleep 1; done' & "
        f"sleep 0.3; exec {command}"
    )
    return ["unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", script]


# --------------------------------------------------------------------------
# recordings
# --------------------------------------------------------------------------


@recording(
    "pytest_color",
    "pytest --color=yes",
    "line",
    "pytest run with colour on a tiny project: two passing tests, one failing assertion.",
)
def _pytest(work: Path) -> Plan:
    proj = work / "calc"
    write(
        proj / "calc.py",
        "def add(a, b):\n    return a + b\n\n\ndef mean(values):\n"
        "    return sum(values) // len(values)\n",
    )
    write(
        proj / "test_calc.py",
        "from calc import add, mean\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_add_strings():\n    assert add('a', 'b') == 'ab'\n\n\n"
        "def test_mean():\n    values = [1, 2, 3, 4]\n    assert mean(values) == 2.5\n",
    )
    write(proj / "pytest.ini", "[pytest]\n")
    env = {"PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    argv = [sys.executable, "-m", "pytest", "--color=yes", "-p", "no:cacheprovider"]
    return Plan(argv, proj, env)


@recording(
    "pip_download",
    "pip download --no-deps --no-cache-dir -d dl numpy==1.26.4 pandas==2.2.2",
    "line",
    "pip downloading two wheels (18 MB and 13 MB): rich progress bars redrawn in place "
    "with 256 colours, hidden cursor.",
)
def _pip(work: Path) -> Plan:
    argv = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir",
        "--only-binary", ":all:", "-d", "dl", "numpy==1.26.4", "pandas==2.2.2",
    ]  # fmt: skip
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    return Plan(argv, work, env, timeout=180)


@recording(
    "git_clone",
    "git clone --progress file:///tmp/termscribe-corpus/git_clone/project clone",
    "line",
    "git clone of a local repository with --progress: counters rewritten with carriage returns.",
)
def _git_clone(work: Path) -> Plan:
    home = work / "home"
    repo = make_git_repo(work, home, commits=150, files=12)
    argv = ["git", "clone", "--progress", f"file://{repo}", "clone"]
    return Plan(argv, work, git_env(home))


@recording(
    "git_log_graph",
    "git log --graph --color --all --decorate",
    "line",
    "git log with the commit graph in colour: branches, a merge, a tag, decorations.",
)
def _git_log(work: Path) -> Plan:
    home = work / "home"
    repo = make_git_repo(work, home, commits=3, files=1)
    argv = ["git", "--no-pager", "log", "--graph", "--color", "--all", "--decorate"]
    return Plan(argv, repo, git_env(home))


# (author, message, {path: content}) of the commits of the CJK project:
# Chinese, Japanese and Korean messages with gitmoji, as such projects write them.
CJK_AUTHORS = {
    "zh": ("张伟", "zhang.wei@example.cn"),
    "ja": ("山田太郎", "taro.yamada@example.jp"),
    "ko": ("김민준", "minjun.kim@example.kr"),
}
CJK_COMMITS = [
    ("zh", "🎉 初始化项目", {"README.md": "# 天气预报\n\n一个小小的天气预报工具。\n"}),
    (
        "zh",
        "✨ 添加城市搜索功能\n\n支持按拼音和汉字搜索城市。",
        {"src/搜索.py": "def 搜索(城市):\n    return 城市\n"},
    ),
    ("ja", "✨ 天気予報の取得を追加", {"src/予報.py": "def 取得(都市):\n    return {}\n"}),
    ("ko", "🐛 날짜 형식 오류 수정 (#12)", {"src/날짜.py": "형식 = '%Y년 %m월 %d일'\n"}),
    (
        "zh",
        "📝 更新文档：安装说明",
        {"docs/安装说明.md": "## 安装\n\n```\npip install 天气\n```\n"},
    ),
    (
        "ja",
        "♻️ リファクタリング：設定の読み込みを整理",
        {"src/設定.py": "設定 = {'言語': '日本語'}\n"},
    ),
    (
        "ko",
        "⚡️ 검색 속도 개선 🚀",
        {"src/搜索.py": "import functools\n\n搜索 = functools.cache(lambda 城市: 城市)\n"},
    ),
    (
        "ja",
        "🔧 設定ファイルを追加（東京・大阪・札幌）",
        {"config/都市.toml": "[東京]\n緯度 = 35.68\n[大阪]\n緯度 = 34.69\n"},
    ),
    (
        "ko",
        "✅ 테스트 추가: 검색과 날짜",
        {"tests/test_검색.py": "def test_검색():\n    assert True\n"},
    ),
    ("zh", "💄 调整界面样式 🎨，支持深色模式 🌙", {"src/界面.css": "body { color: #333; }\n"}),
    (
        "ja",
        "🌐 多言語対応：中文・日本語・한국어",
        {"locale/ja.po": 'msgid "晴れ"\nmsgstr "晴れ ☀️"\n'},
    ),
    (
        "zh",
        "🐛 修复：温度单位显示为 ℃ 而不是 °F",
        {"src/予報.py": "def 取得(都市):\n    return {'温度': '25℃'}\n"},
    ),
    (
        "ko",
        "👩\u200d💻 기여 가이드 작성",
        {"CONTRIBUTING.md": "# 기여하기 🙌\n\n풀 리퀘스트를 환영합니다!\n"},
    ),
    ("zh", "🚀 发布 v1.0.0 🎉🎉", {"CHANGELOG.md": "## v1.0.0\n\n- 城市搜索 🔍\n- 天气预报 ☀️🌧️\n"}),
]


def make_cjk_repo(root: Path, home: Path) -> Path:
    """A project whose commits, authors and file names are Chinese,
    Japanese and Korean, with emoji; a branch and a tag."""
    repo = root / "天气"
    repo.mkdir(parents=True)
    env = git_env(home)
    git(repo, env, "init", "-q", "-b", "main")
    git(repo, env, "config", "core.quotepath", "false")
    for tick, (lang, message, files) in enumerate(CJK_COMMITS, start=1):
        for path, content in files.items():
            write(repo / path, content)
        name, email = CJK_AUTHORS[lang]
        git(repo, env, "add", "-A")
        git(repo, env, "-c", f"user.name={name}", "-c", f"user.email={email}", "commit", "-q",
            "--author", f"{name} <{email}>", "-m", message, when=tick)  # fmt: skip
        if tick == len(CJK_COMMITS) - 4:
            git(repo, env, "branch", "功能/深色模式")
    git(repo, env, "tag", "-a", "v1.0.0", "-m", "发布 v1.0.0 🎉", when=len(CJK_COMMITS))
    return repo


@recording(
    "cjk_git_log",
    "git log --color --stat --decorate  (a project with Chinese, Japanese and Korean commits)",
    "line",
    "git log of a project written in Chinese, Japanese and Korean: CJK commit messages "
    "with gitmoji and other emoji (a ZWJ sequence among them), CJK author and file names, "
    "coloured hashes, decorations and diffstat bars.",
)
def _cjk_git_log(work: Path) -> Plan:
    home = work / "home"
    repo = make_cjk_repo(work, home)
    argv = ["git", "--no-pager", "log", "--color", "--stat", "--decorate"]
    return Plan(argv, repo, git_env(home))


@recording(
    "git_diff",
    "git diff --color --stat --patch HEAD~4 HEAD",
    "line",
    "Coloured unified diff with word-level changes, additions and removals.",
)
def _git_diff(work: Path) -> Plan:
    home = work / "home"
    repo = make_git_repo(work, home, commits=3, files=2)
    argv = ["git", "--no-pager", "diff", "--color", "--stat", "--patch", "HEAD~4", "HEAD"]
    return Plan(argv, repo, git_env(home))


@recording(
    "ls_color",
    "ls --color=always -l",
    "line",
    "Long listing with the default colours: dirs, executables, links, broken links, fifo, "
    "socket, setuid, sticky and other-writable dirs, archives, images.",
)
def _ls(work: Path) -> Plan:
    d = work / "listing"
    d.mkdir(parents=True)
    write(d / "notes.txt", "plain text\n")
    write(d / "run.sh", "#!/bin/sh\necho hi\n", 0o755)
    write(d / "setuid-tool", "#!/bin/sh\n", 0o4755)
    write(d / "setgid-tool", "#!/bin/sh\n", 0o2755)
    (d / "archive.tar.gz").write_bytes(b"\x1f\x8b" + b"\0" * 64)
    (d / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    (d / "song.mp3").write_bytes(b"ID3" + b"\0" * 32)
    (d / "src").mkdir()
    (d / "tmp-sticky").mkdir()
    (d / "tmp-sticky").chmod(0o1777)
    (d / "shared-writable").mkdir()
    (d / "shared-writable").chmod(0o777)
    (d / "link-to-notes").symlink_to("notes.txt")
    (d / "link-to-src").symlink_to("src")
    (d / "broken-link").symlink_to("does-not-exist")
    os.mkfifo(d / "pipe")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(d / "server.sock"))
    sock.close()
    write(d / "name with spaces.txt", "x\n")
    write(d / "ünïcödé-名前.txt", "x\n")
    for p in d.iterdir():
        os.utime(p, (FIXED_TIME, FIXED_TIME), follow_symlinks=False)
    return Plan(["ls", "--color=always", "-l"], d)


@recording(
    "cargo_build",
    "cargo build",
    "line",
    "cargo building a tiny crate without dependencies: coloured warning with source "
    "snippet, progress bar, 'Finished' line.",
)
def _cargo(work: Path) -> Plan:
    crate = work / "hello"
    write(
        crate / "Cargo.toml",
        '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    )
    write(
        crate / "src" / "main.rs",
        'fn main() {\n    let unused = 42;\n    let greeting = "hello";\n'
        '    println!("{greeting}, world");\n}\n',
    )
    write(crate / "src" / "lib.rs", "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n")
    env = {"CARGO_TARGET_DIR": str(work / "target")}
    return Plan(["cargo", "build"], crate, env, timeout=180)


@recording(
    "man_overstrike",
    "MANPAGER=cat GROFF_NO_SGR=1 MAN_KEEP_FORMATTING=1 man 1 ls",
    "line",
    "The ls man page formatted for a terminal with old-style overstrike: bold as "
    "X<BS>X and underline as _<BS>X.",
)
def _man(work: Path) -> Plan:
    env = {"MANPAGER": "cat", "PAGER": "cat", "GROFF_NO_SGR": "1", "MAN_KEEP_FORMATTING": "1"}
    return Plan(["man", "1", "ls"], work, env)


@recording(
    "tqdm_progress",
    "python -c 'tqdm over range(150) with small sleeps; then a second bar with a postfix'",
    "line",
    "tqdm progress bars redrawn with carriage returns and Unicode block characters.",
)
def _tqdm(work: Path) -> Plan:
    code = (
        "import time\n"
        "from tqdm import tqdm\n"
        "for _ in tqdm(range(150), desc='Processing', mininterval=0.05):\n"
        "    time.sleep(0.01)\n"
        "bar = tqdm(total=60, desc='Uploading', unit='B', unit_scale=True, mininterval=0.05)\n"
        "for i in range(60):\n"
        "    time.sleep(0.01)\n"
        "    bar.set_postfix(file=f'chunk-{i:02d}', refresh=False)\n"
        "    bar.update(1)\n"
        "bar.close()\n"
        "print('done')\n"
    )
    return Plan([sys.executable, "-c", code], work)


@recording(
    "npm_install",
    "npm install is-number --no-fund --no-audit --loglevel=http",
    "line",
    "npm installing one tiny package into an empty project: braille spinner redrawn with "
    "CSI 1G/CSI 0K, coloured http log lines, summary.",
)
def _npm(work: Path) -> Plan:
    proj = work / "app"
    manifest = '{\n  "name": "app",\n  "version": "1.0.0",\n  "private": true\n}\n'
    write(proj / "package.json", manifest)
    env = {"npm_config_update_notifier": "false"}
    argv = ["npm", "install", "is-number", "--no-fund", "--no-audit", "--loglevel=http"]
    return Plan(argv, proj, env, timeout=180)


VIM_FILE = '''\
"""Greeting helpers."""


def greet(name):
    return f"Hello, {name}!"


if __name__ == "__main__":
    print(greet("world"))
'''


@recording(
    "vim_edit",
    "vim greet.py  (type a function in insert mode, then :wq)",
    "fullscreen",
    "vim on the alternate screen with syntax colours and line numbers; text typed in "
    "insert mode, then saved and quit.",
)
def _vim(work: Path) -> Plan:
    home = work / "home"
    write(home / ".vimrc", "set nocompatible\nsyntax on\nset number\nset ruler\nset laststatus=2\n")
    write(work / "greet.py", VIM_FILE)
    keys = [
        (1.5, b"G"),
        (0.3, b"o"),
        (0.3, b"\n"),
        (0.2, b"def shout(name):\n"),
        (0.2, b'    return greet(name).upper() + " \xe2\x9c\x93"'),
        (0.5, b"\x1b"),
        (0.5, b"gg"),
        (0.5, b":wq\r"),
    ]
    argv = ["vim", "-i", "NONE", "-n", "greet.py"]
    return Plan(argv, work, keys=keys, timeout=30)


@recording(
    "top",
    "top -d 0.5 -n 3  (in a new PID namespace with a few sleeping processes)",
    "fullscreen",
    "top refreshing three times: full-screen redraws with bold and reverse-video rows.",
)
def _top(work: Path) -> Plan:
    return Plan(in_pid_namespace("top -d 0.5 -n 3"), work, timeout=30)


@recording(
    "less_view",
    "less report.txt  (search for a word, page down, quit)",
    "fullscreen",
    "less showing a text file: alternate screen, search highlighting, prompt line.",
)
def _less(work: Path) -> Plan:
    lines = []
    for i in range(1, 121):
        status = "ERROR" if i % 17 == 0 else "ok"
        lines.append(f"line {i:3d}: request /api/items/{i} -> {status}  ({i * 37 % 1000} ms)")
    write(work / "report.txt", "\n".join(lines) + "\n")
    keys = [(1.0, b"/ERROR\r"), (0.8, b" "), (0.8, b"q")]
    env = {"LESS": "", "LESSHISTFILE": "-"}
    return Plan(["less", "report.txt"], work, env, keys, timeout=30)


@recording(
    "htop",
    "htop -d 10  (in a new PID namespace with a few sleeping processes; q after 2 s)",
    "fullscreen",
    "htop: meters drawn with box characters and 256 colours, process list, function-key bar.",
)
def _htop(work: Path) -> Plan:
    keys = [(2.0, b"q")]
    return Plan(in_pid_namespace("htop -d 10"), work, keys=keys, timeout=30)


UNICODE_SCRIPT = r"""
import sys
w = sys.stdout.write
w("Unicode sampler\n")
w("CJK wide:      漢字かなカナ한국어 (中文)\n")
w("Fullwidth:     ＡＢＣ１２３！\n")
w("Emoji:         😀 🎉 👍🏽 ❤️ ✔️ 🇩🇪 🇯🇵\n")
w("ZWJ sequences: 👩‍💻 👨‍👩‍👧‍👦 🏳️‍🌈 🧑🏿‍🚀\n")
w("Combining:     e\u0301 a\u0308 n\u0303 o\u0302\u0323 Z\u0351\u0328\u0334\n")
w("Devanagari:    नमस्ते क्ष त्र\n")
w("Arabic:        مرحبا بالعالم\n")
w("Hebrew:        שלום עולם\n")
w("Thai:          สวัสดีครับ\n")
w("Box drawing:   ┌─┬─┐ │ │ │ └─┴─┘ ═ ║ ╔╗╚╝\n")
w("Blocks:        ▁▂▃▄▅▆▇█ ░▒▓\n")
w("\x1b[1mbold\x1b[0m \x1b[3mitalic\x1b[0m \x1b[4munderline\x1b[0m \x1b[4:3mcurly\x1b[0m "
  "\x1b[9mstrike\x1b[0m \x1b[7mreverse\x1b[0m \x1b[2mdim\x1b[0m\n")
w("".join(f"\x1b[38;5;{i}m█" for i in range(16)) + "\x1b[0m\n")
w("".join(f"\x1b[48;2;{i * 8};{128 - i * 4};{255 - i * 8}m " for i in range(32)) + "\x1b[0m\n")
w("Wide at the edge: " + "x" * 81 + "漢字漢字\n")
w("Emoji at the edge: " + "y" * 80 + "😀😀😀\n")
w("Tab\tstops\tat\tevery\teighth\tcolumn\n")
"""


@recording(
    "unicode_sampler",
    "python -c '<print CJK, emoji, ZWJ, combining marks, styles, wide chars at the edge>'",
    "line",
    "Unicode and styling sampler: CJK, fullwidth, emoji with skin tones and ZWJ, flags, "
    "combining marks, RTL scripts, box drawing, SGR styles and colours, wide characters "
    "wrapping at the right edge.",
)
def _unicode(work: Path) -> Plan:
    return Plan([sys.executable, "-c", UNICODE_SCRIPT], work)


# --------------------------------------------------------------------------


def run_in_scratch(
    scratch: Path, name: str, setup: Callable[[Path], Plan], path: str | None = None
) -> tuple[bytes, int | None, float]:
    """Make a fresh working folder for ``name`` (with a home), run the plan
    ``setup`` makes there in a pty (``path`` first on PATH), and return
    what it printed, its exit status and the seconds it took."""
    work = scratch / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    home = work / "home"
    home.mkdir(exist_ok=True)
    plan = setup(work)
    env = base_env(home)
    if path is not None:
        env["PATH"] = f"{path}:{env['PATH']}"
    env.update(plan.env)
    started = time.monotonic()
    data, code = run_in_pty(plan, env)
    return data, code, time.monotonic() - started


def save_recording(
    out_dir: Path, meta: dict[str, str], data: bytes, code: int | None, took: float, max_bytes: int
) -> None:
    """Write ``data`` as NAME.raw and ``meta`` (name, command... ; the
    terminal size and the date added) as NAME.json in ``out_dir``."""
    name = meta["name"]
    if len(data) > max_bytes:
        print(f"  warning: {len(data)} bytes, over {max_bytes}", file=sys.stderr)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{name}.raw").write_bytes(data)
    meta = {
        "name": name,
        "command": meta["command"],
        "columns": COLUMNS,
        "rows": ROWS,
        **{k: v for k, v in meta.items() if k not in ("name", "command")},
        "recorded": _dt.date.today().isoformat(),
    }
    (out_dir / f"{name}.json").write_text(
        json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"{name:20s} {len(data):8d} bytes  exit={code}  {took:.1f}s")


def record_cli(
    argv: list[str] | None,
    description: str,
    items: Mapping[str, Any],
    listing: Callable[[Any], str],
    record: Callable[[Any], None],
) -> int:
    """The command line of a recording script: record the ``items`` named
    (all by default), or ``--list`` them, a ``listing`` line each."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("names", nargs="*", help="recordings to (re)make; default all")
    parser.add_argument("--list", action="store_true", help="list recording names")
    args = parser.parse_args(argv)
    if args.list:
        for item in items.values():
            print(listing(item))
        return 0
    unknown = [n for n in args.names if n not in items]
    if unknown:
        parser.error(f"unknown recording(s): {', '.join(unknown)}")
    for name in args.names or list(items):
        record(items[name])
    return 0


def record(rec: Recording) -> None:
    data, code, took = run_in_scratch(SCRATCH, rec.name, rec.setup)
    meta = {
        "name": rec.name,
        "command": rec.command,
        "kind": rec.kind,
        "description": rec.description,
    }
    save_recording(OUT_DIR, meta, data, code, took, MAX_BYTES)


def main(argv: list[str] | None = None) -> int:
    return record_cli(
        argv,
        __doc__.split("\n")[0],
        RECORDINGS,
        lambda rec: f"{rec.name:20s} {rec.kind:10s} {rec.command}",
        record,
    )


if __name__ == "__main__":
    sys.exit(main())
