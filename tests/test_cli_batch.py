"""``termscribe render --out-dir DIR [-j N] FILE...``: many inputs, one
output each, in worker processes; a failing file does not stop the rest."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import ClassVar

import pytest

from termscribe.cli import main
from termscribe.cli._batch import run_batch
from termscribe.cli._render import RenderOptions, render_to_file

RECORDINGS = Path(__file__).resolve().parent.parent / "corpus" / "recordings"
INPUTS = [RECORDINGS / f"{name}.raw" for name in ("cargo_build", "npm_install", "tqdm_progress")]


def run(argv: list[str]) -> tuple[int, bytes, str]:
    out = io.BytesIO()
    err = io.StringIO()
    status = main(argv, stdin=io.BytesIO(), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def single(path: Path, *options: str) -> bytes:
    status, out, _ = run(["render", *options, str(path)])
    assert status == 0
    return out


SUMMARY = re.compile(
    r"termscribe render: (\d+) of (\d+) files to .*, [\d.]+ MB in [\d.]+ s \([\d.]+ MB/s\)"
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_input_to_its_own_file(tmp_path: Path, jobs: str) -> None:
    out_dir = tmp_path / "out"
    status, out, err = run(["render", "--out-dir", str(out_dir), "-j", jobs, *map(str, INPUTS)])
    assert (status, out) == (0, b"")
    match = SUMMARY.fullmatch(err.strip())
    assert match is not None and match.groups() == ("3", "3"), err
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "cargo_build.txt",
        "npm_install.txt",
        "tqdm_progress.txt",
    ]
    for path in INPUTS:
        assert (out_dir / f"{path.stem}.txt").read_bytes() == single(path)


def test_formats_and_options_apply_to_every_file(tmp_path: Path) -> None:
    argv = ["--format", "html", "--columns", "100", "--rows", "30"]
    status, _, _ = run(["render", *argv, "--out-dir", str(tmp_path), *map(str, INPUTS)])
    assert status == 0
    for path in INPUTS:
        page = (tmp_path / f"{path.stem}.html").read_bytes()
        assert page.startswith(b"<!DOCTYPE html>")
        assert page == single(path, *argv)


def test_a_failing_file_does_not_stop_the_others(tmp_path: Path) -> None:
    missing = tmp_path / "missing.raw"
    inputs = [str(INPUTS[0]), str(missing), str(INPUTS[1])]
    status, _, err = run(["render", "--out-dir", str(tmp_path / "out"), "-j", "2", *inputs])
    assert status == 1
    lines = err.splitlines()
    assert lines[0] == f"termscribe: cannot read {missing}: No such file or directory"
    assert SUMMARY.match(lines[1]) and lines[1].endswith("; 1 failed")
    assert SUMMARY.match(lines[1]).groups() == ("2", "3")  # type: ignore[union-attr]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "cargo_build.txt",
        "npm_install.txt",
    ]


# A raw log whose first line json.loads cannot take for want of stack.
DEEP = b'{"a":' + b"[" * 3000 + b"\nbuilt\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_input_that_breaks_the_json_parser_is_rendered_as_raw(tmp_path: Path, jobs: str) -> None:
    deep = tmp_path / "deep.log"
    deep.write_bytes(DEEP)
    inputs = [str(INPUTS[0]), str(deep), str(INPUTS[1])]
    status, _, err = run(["render", "--out-dir", str(tmp_path / "out"), "-j", jobs, *inputs])
    assert status == 0, err
    assert (tmp_path / "out" / "deep.txt").read_bytes() == single(deep)
    assert single(deep).endswith(b"[\nbuilt\n")
    for path in INPUTS[:2]:
        assert (tmp_path / "out" / f"{path.stem}.txt").read_bytes() == single(path)


def _render_or_fail(path: str, target: str) -> tuple[int, list[str]]:
    """Renders like --out-dir, except that files named bug* raise what a
    fault of termscribe would, and files named kill* end their process."""
    name = os.path.basename(path)
    if name.startswith("bug"):
        raise RecursionError("maximum recursion depth exceeded")
    if name.startswith("kill"):
        os._exit(9)
    if name.startswith("memory"):
        raise MemoryError
    return render_to_file(RenderOptions(), path, target)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_fault_on_one_file_does_not_stop_the_others(tmp_path: Path, jobs: int) -> None:
    names = ["bug.raw", "memory.raw"] + (["kill.raw"] if jobs > 1 else [])
    for name in names:
        (tmp_path / name).write_bytes(b"x\n")
    inputs = [str(INPUTS[0]), *(str(tmp_path / name) for name in names), str(INPUTS[1])]
    err = io.StringIO()
    out_dir = tmp_path / "out"
    assert run_batch(_render_or_fail, "txt", inputs, str(out_dir), jobs, err) == 1
    lines = err.getvalue().splitlines()
    assert lines[:-1] == [
        f"termscribe: {tmp_path / 'bug.raw'}: failed with RecursionError (an error of termscribe)",
        f"termscribe: {tmp_path / 'memory.raw'}: out of memory",
        *(
            [f"termscribe: {tmp_path / 'kill.raw'}: the process rendering it ended abruptly"]
            if jobs > 1
            else []
        ),
    ]
    assert SUMMARY.match(lines[-1]).groups() == ("2", str(len(inputs)))  # type: ignore[union-attr]
    assert lines[-1].endswith(f"; {len(names)} failed")
    assert sorted(p.name for p in out_dir.iterdir()) == ["cargo_build.txt", "npm_install.txt"]
    for path in INPUTS[:2]:
        assert (out_dir / f"{path.stem}.txt").read_bytes() == single(path)


def test_bad_usage(tmp_path: Path) -> None:
    a, b = (str(p) for p in INPUTS[:2])
    twin = tmp_path / "twin"
    twin.mkdir()
    (twin / "cargo_build.raw").write_bytes(b"x")
    for argv, message in [
        ([a, b], "several inputs need --out-dir DIR"),
        (["-o", str(tmp_path / "x"), "--out-dir", str(tmp_path), a], "-o takes one input"),
        (["-j", "2", a], "-j applies to --out-dir only"),
        (["--out-dir", str(tmp_path), a, "-"], "- (stdin) cannot be one of several inputs"),
        (["--out-dir", str(tmp_path), a, str(twin / "cargo_build.raw")], "would both be written"),
        (["--out-dir", str(tmp_path), "-j", "0", a], "argument -j/--jobs: must be at least 1"),
    ]:
        status, out, err = run(["render", *argv])
        assert (status, out) == (2, b""), argv
        assert err.startswith("termscribe: ") and message in err and err.count("\n") == 1, err


class _Pool:
    made: ClassVar[list[int]] = []

    def __init__(self, max_workers: int) -> None:
        _Pool.made.append(max_workers)

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def submit(self, function, *arguments):  # type: ignore[no-untyped-def]
        return _Done(function(*arguments))


class _Done:
    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value


def test_worker_processes_only_for_big_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("termscribe.cli._batch.ProcessPoolExecutor", _Pool)
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    _Pool.made.clear()
    inputs = [*map(str, INPUTS)]
    assert run(["render", "--out-dir", str(tmp_path), *inputs])[0] == 0
    assert _Pool.made == []  # 60 kB: rendered here, one after the other
    monkeypatch.setattr("termscribe.cli._batch.POOL_THRESHOLD", 1000)
    assert run(["render", "--out-dir", str(tmp_path), *inputs])[0] == 0
    assert _Pool.made == [3]  # one worker per CPU, at most one per file
    assert run(["render", "--out-dir", str(tmp_path), "-j", "2", *inputs])[0] == 0
    assert _Pool.made == [3, 2]


def test_an_output_that_is_its_input_is_refused_and_the_rest_go_on(tmp_path: Path) -> None:
    log = tmp_path / "x.txt"  # text output would be written to x.txt itself
    log.write_bytes(b"keep\n")
    status, _, err = run(["render", "--out-dir", str(tmp_path), str(log), str(INPUTS[0])])
    assert status == 1
    assert err.splitlines()[0] == f"termscribe: {log} is the input: choose another output file"
    assert log.read_bytes() == b"keep\n"
    assert (tmp_path / "cargo_build.txt").read_bytes() == single(INPUTS[0])
