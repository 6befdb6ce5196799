"""Argument types and the usage error shared by the command-line modules."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Final, Protocol

__all__ = ["MAX_LINE_BYTES", "Subcommands", "UsageError", "at_least"]

#: Longest JSON-RPC line the ACP commands accept (a base64 snapshot of
#: 64 MiB is about 86 MiB).
MAX_LINE_BYTES: Final = 256 * 1024 * 1024


class UsageError(Exception):
    """Bad command-line usage or unreadable input: exit status 2."""


class Subcommands(Protocol):
    """What a command module's ``register`` uses of what
    ``ArgumentParser.add_subparsers`` returns: it adds its command's parser."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer not below ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}: {value}")
        return value

    return parse
