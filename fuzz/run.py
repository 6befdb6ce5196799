"""Run a fuzz harness for a number of seconds on a corpus seeded from corpus/.

    python fuzz/run.py TARGET [--seconds N] [--corpus DIR] [--max-len N] [--seed N]
    python fuzz/run.py TARGET --reproduce FILE...
    python fuzz/run.py all --seconds N

TARGET is one of transcript, store, bridge, cli (``fuzz/fuzz_TARGET.py``) or
all.  Without ``--corpus`` the corpus is a temporary folder; with it, the
folder is kept (and seeded when empty), so coverage grows across runs;
``--with-findings`` adds the inputs of ``fuzz/findings/`` to the seeds.
Crash, timeout and out-of-memory inputs go to ``--artifacts`` (default
``fuzz/artifacts/``), the libFuzzer log to ``TARGET.log`` there.  The last
lines printed say how many runs were made, how many per second, and which
files a failure left.  The exit status is libFuzzer's (0: nothing found),
and 1 as well when no input past the seeds was run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGETS = ("transcript", "store", "bridge", "cli")
#: Longest input libFuzzer makes (-max_len).
DEFAULT_MAX_LEN = 4096
#: Terminal-byte seeds are cut to this many bytes: short seeds run faster,
#: and the fuzzer grows them up to the maximum where that finds coverage.
SEED_BYTES = 1024
_STATUS = re.compile(r"^#(\d+)\s+(?:\w+)\s.*?exec/s: (\d+)", re.MULTILINE)
_INITED = re.compile(r"^#(\d+)\s+INITED", re.MULTILINE)
_DONE = re.compile(r"^Done (\d+) runs in (\d+) second", re.MULTILINE)
_STAT = re.compile(r"^stat::(\w+):\s+(\S+)", re.MULTILINE)
_ARTIFACT = re.compile(r"(?:Test unit written to|artifact_prefix.*?written to) (\S+)")


def transcript_seeds(max_len: int) -> dict[str, bytes]:
    """Every corpus recording and hostile case, with option bytes in front."""
    seeds = {}
    for index, raw in enumerate(sorted(ROOT.glob("corpus/*/*.raw"))):
        columns, rows = 80, 24
        sidecar = raw.with_suffix(".json")
        if sidecar.exists():
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
            columns, rows = int(meta.get("columns", 80)), int(meta.get("rows", 24))
        header = bytes([index % 3, min(columns, 253), max(rows - 1, 0) % 48, index % 32])
        size = min(max_len, SEED_BYTES) - len(header)
        seeds[f"{raw.parent.name}-{raw.stem}"] = header + raw.read_bytes()[:size]
    return seeds


def session_lines() -> list[bytes]:
    """NDJSON lines of the demo session and of the v1 ``_meta`` examples in tests/."""
    lines = (ROOT / "src/termscribe/data/demo-session.ndjson").read_bytes().splitlines()
    decoder = json.JSONDecoder()
    for path in sorted(ROOT.glob("tests/*/data/legacy-v1-meta/*.json")):
        text = path.read_text(encoding="utf-8")
        position = 0
        while True:
            while position < len(text) and text[position].isspace():
                position += 1
            if position >= len(text):
                break
            value, position = decoder.raw_decode(text, position)
            for params in value.get("args", []) if isinstance(value, dict) else []:
                message = {"jsonrpc": "2.0", "method": "session/update", "params": params}
                lines.append(json.dumps(message).encode())
    return [line for line in lines if line.strip()]


def json_seeds(max_len: int, flags: tuple[int, ...]) -> dict[str, bytes]:
    """Groups of session-log lines (one flag byte in front) and builder inputs."""
    sys.path.insert(0, str(HERE))
    from messages import TEMPLATES

    lines = session_lines() + [json.dumps(t).encode() for t in TEMPLATES]
    groups: list[list[bytes]] = [[]]
    for line in lines:
        if len(line) + 2 > max_len:
            continue
        if sum(len(x) + 1 for x in groups[-1]) + len(line) + 2 > max_len:
            groups.append([])
        groups[-1].append(line)
    seeds = {}
    for index, group in enumerate(groups):
        flag = flags[index % len(flags)]
        seeds[f"log-{index}"] = bytes([flag]) + b"\n".join(group)
    for index in range(8):
        seeds[f"built-{index}"] = bytes([flags[index % len(flags)] | 1]) + bytes(
            (index * 37 + i * 11) % 256 for i in range(64 + 32 * index)
        )
    return seeds


def seeds_for(target: str, max_len: int) -> dict[str, bytes]:
    if target == "transcript":
        return transcript_seeds(max_len)
    if target == "cli":
        # Byte 0: acp in each format and mode, bridge in each mode; 0x80: built JSON.
        return json_seeds(max_len, (0x00, 0x02, 0x04, 0x0A, 0x01, 0x03, 0x0D, 0x80, 0x81))
    # Byte 0: NDJSON (bit 0 clear) with the harness's option bits in turn.
    return json_seeds(max_len, (0x00, 0x02, 0x04, 0x0A, 0x12, 0x22, 0x44, 0x86))


def write_seeds(corpus: Path, target: str, max_len: int, findings: bool = False) -> int:
    corpus.mkdir(parents=True, exist_ok=True)
    if any(corpus.iterdir()):
        return 0
    seeds = seeds_for(target, max_len)
    if findings:
        for path in sorted((HERE / "findings").glob(f"{target}-*")):
            seeds[f"finding-{path.name}"] = path.read_bytes()
    for name, data in seeds.items():
        (corpus / name).write_bytes(data)
    return len(seeds)


def libfuzzer_command(target: str, args: argparse.Namespace, artifacts: Path) -> list[str]:
    command = [
        sys.executable,
        str(HERE / f"fuzz_{target}.py"),
        f"-max_len={args.max_len}",
        f"-timeout={args.timeout}",
        f"-rss_limit_mb={args.rss_limit_mb}",
        f"-artifact_prefix={artifacts}/{target}-",
        "-print_final_stats=1",
    ]
    dictionary = HERE / f"{target}.dict"
    if dictionary.exists():
        command.append(f"-dict={dictionary}")
    if args.seed is not None:
        command.append(f"-seed={args.seed}")
    return command


def run_target(target: str, args: argparse.Namespace) -> int:
    artifacts = Path(args.artifacts).resolve()
    artifacts.mkdir(parents=True, exist_ok=True)
    command = libfuzzer_command(target, args, artifacts)
    if args.reproduce:
        return subprocess.call(
            [*command, *(str(Path(p).resolve()) for p in args.reproduce)], cwd=ROOT
        )
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target}-") as scratch:
        corpus = Path(args.corpus).resolve() if args.corpus else Path(scratch) / "corpus"
        seeded = write_seeds(corpus, target, args.max_len, args.with_findings)
        command += [f"-max_total_time={args.seconds}", str(corpus)]
        log = artifacts / f"{target}.log"
        print(f"fuzz {target}: {args.seconds} s, corpus {corpus} ({seeded} seeds written)")
        start = time.monotonic()
        with open(log, "w", encoding="utf-8", errors="replace") as out:
            status = subprocess.call(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        elapsed = time.monotonic() - start
    text = log.read_text(encoding="utf-8", errors="replace")
    return report(target, status, text, elapsed, log)


def report(target: str, status: int, text: str, elapsed: float, log: Path) -> int:
    done = _DONE.search(text)
    counts = [int(m.group(1)) for m in _STATUS.finditer(text)]
    runs = int(done.group(1)) if done else max(counts, default=0)
    inited = _INITED.search(text)
    seed_runs = int(inited.group(1)) if inited else runs
    rate = runs / elapsed if elapsed else 0.0
    print(
        f"fuzz {target}: {runs} runs ({seed_runs} on the seeds) in {elapsed:.1f} s, "
        f"{rate:.1f} runs/s, exit status {status}"
    )
    stats = dict(_STAT.findall(text))
    if stats:
        print(
            f"fuzz {target}: libFuzzer: {stats.get('average_exec_per_sec', '?')} runs/s "
            f"(start-up excluded), slowest input {stats.get('slowest_unit_time_sec', '?')} s, "
            f"{stats.get('new_units_added', '?')} new corpus entries"
        )
    crashes = _ARTIFACT.findall(text)
    if status != 0:
        start = text.rfind("=== Uncaught Python exception")
        tail = text[start:] if start >= 0 else text[-3000:]
        print(tail.rstrip()[-4000:])
    for path in crashes:
        print(f"fuzz {target}: failing input {path}")
        print(f"  reproduce: python fuzz/run.py {target} --reproduce {path}")
    print(f"fuzz {target}: log {log}")
    if status == 0 and runs <= seed_runs:
        print(f"fuzz {target}: no run past the seeds was made")
        return 1
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", choices=[*TARGETS, "all"])
    parser.add_argument("--seconds", type=int, default=60, help="run time per target")
    parser.add_argument("--corpus", help="corpus folder to keep (one target only)")
    parser.add_argument("--artifacts", default=str(HERE / "artifacts"))
    parser.add_argument("--max-len", type=int, default=DEFAULT_MAX_LEN)
    parser.add_argument("--timeout", type=int, default=20, help="seconds for one input")
    parser.add_argument("--rss-limit-mb", type=int, default=2048)
    parser.add_argument("--seed", type=int, help="libFuzzer's random seed")
    parser.add_argument(
        "--with-findings",
        action="store_true",
        help="also seed with fuzz/findings/TARGET-* (inputs that failed before)",
    )
    parser.add_argument("--reproduce", nargs="+", metavar="FILE", help="run these inputs once")
    args = parser.parse_args(argv)
    targets = TARGETS if args.target == "all" else (args.target,)
    if args.corpus and len(targets) > 1:
        parser.error("--corpus needs a single target")
    status = 0
    for target in targets:
        status = run_target(target, args) or status
    return status


if __name__ == "__main__":
    sys.exit(main())
