"""Argument types and the usage error shared by the command-line modules."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["UsageError", "at_least"]


class UsageError(Exception):
    """Bad command-line usage or unreadable input: exit status 2."""


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
