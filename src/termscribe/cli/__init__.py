"""The command line: the only package that does I/O.

Each subcommand lives in its own module, imported only when it runs (or for
``--help``), so ``termscribe render`` does not load the ACP layer.  Bad usage
and unreadable input give a one-line message on stderr and exit status 2,
never a traceback; so does an output that cannot be written (a full disk),
or running out of memory.
A reader that goes away (``| head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from . import _render
from ._args import UsageError
from ._output import WriteError
from ._render import CHUNK_SIZE

__all__ = ["CHUNK_SIZE", "UsageError", "build_parser", "main"]

#: Subcommands and the module that registers them (by its ``register``).
_COMMANDS = {"render": "_render", "acp": "_acp", "demo": "_acp", "bridge": "_bridge"}


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size()`` tells argparse,
    without importing shutil (and the compression modules it loads) at
    every start: ``COLUMNS``, else the terminal of stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``command``, only that subcommand's module is loaded."""
    parser = _Parser(
        prog="termscribe",
        description="Turn terminal byte streams into safe transcripts.",
    )
    parser.add_argument("--version", action="version", version="termscribe 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    modules = dict.fromkeys(_COMMANDS.values())
    for name in [_COMMANDS[command]] if command in _COMMANDS else modules:
        if name == "_render":
            _render.register(sub)
        elif name == "_acp":
            from . import _acp

            _acp.register(sub)
        else:
            from . import _bridge

            _bridge.register(sub)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command(argv)
    parser = build_parser(command)
    if command is None and not {"-h", "--help", "--version"} & set(argv):
        # No command: the usage and the commands, not only what is missing.
        stderr.write(parser.format_help())
        print("termscribe: a COMMAND is needed (termscribe COMMAND --help)", file=stderr)
        return 2
    try:
        args = parser.parse_args(argv)
        return int(args.func(args, stdin, stdout, stderr))
    except (UsageError, WriteError) as exc:
        print(f"termscribe: {exc}", file=stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, like cat, and
        # keep Python from complaining when it flushes stdout at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        return 130
    except MemoryError:  # what failed to be allocated is free again: one line
        print("termscribe: out of memory", file=stderr)
        return 2
    except OSError as exc:  # stdout on a full disk, say: one line, no traceback
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"termscribe: {where}{exc.strerror or exc}", file=stderr)
        return 2
