"""Output files and streams for the command-line modules.

* An output file is written atomically: into a temporary file next to it,
  renamed over it once complete, so a failed or interrupted export never
  leaves half a file, and readers never see one.  Targets that are not
  regular files (``/dev/null``, a FIFO, a terminal) are written in place.
* ``-o`` naming the input itself is refused before anything is opened
  (``termscribe render -o x.log x.log`` would otherwise read an empty file).
* A write that fails becomes ``WriteError`` with a one-line message
  ("cannot write OUT: No space left on device"); a closed pipe stays a
  ``BrokenPipeError``, which ``main`` turns into a quiet exit.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import BinaryIO

__all__ = ["Sink", "WriteError", "atomic_file", "is_same_file", "open_sink"]


class WriteError(Exception):
    """An output could not be written: one line on stderr, exit status 2."""


def is_same_file(output: str | None, input_path: str, stdin: BinaryIO | None = None) -> bool:
    """Whether the output path names the input (a path, or stdin's file)."""
    if output is None or output == "-":
        return False
    try:
        target = os.stat(output)
    except OSError:
        return False  # not there yet: cannot be the input
    try:
        if input_path == "-":
            if stdin is None:
                return False
            source = os.fstat(stdin.fileno())
        else:
            source = os.stat(input_path)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return stat.S_ISREG(target.st_mode) and (source.st_dev, source.st_ino) == (
        target.st_dev,
        target.st_ino,
    )


def _describe(exc: OSError) -> str:
    return exc.strerror or str(exc)


@contextmanager
def atomic_file(path: str) -> Iterator[Sink]:
    """A binary file that replaces ``path`` only when the block ends without error.

    Raises WriteError (with the path) when the file cannot be created.
    """
    real = os.path.realpath(path)  # replace a symlink's target, not the link
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_describe(exc)}") from exc
    if mode is not None and not stat.S_ISREG(mode):
        # A device, FIFO or terminal: nothing to replace, write to it directly.
        try:
            direct = open(real, "wb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {_describe(exc)}") from exc
        with _Checked(direct, path) as out:
            yield out
        return
    import tempfile  # only for output files: keep it off the startup path

    directory, name = os.path.split(real)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_describe(exc)}") from exc
    try:
        with _Checked(os.fdopen(fd, "wb"), path) as out:
            yield out
        try:
            # mkstemp makes the file private; give it the mode a plain
            # open() would have (or the replaced file's).
            os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
            os.replace(temporary, real)
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {_describe(exc)}") from exc
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


class _Checked:
    """A binary file whose write errors become WriteError (EPIPE excepted)."""

    def __init__(self, file: BinaryIO, name: str) -> None:
        self._file = file
        self._name = name

    def __enter__(self) -> Sink:
        return Sink(self._file, self._name)

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        try:
            self._file.close()
        except OSError as exc:
            if value is None:  # report the first failure only
                _raise_write_error(exc, self._name)


def _raise_write_error(exc: OSError, name: str) -> None:
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        raise BrokenPipeError(*exc.args) from exc
    raise WriteError(f"cannot write {name}: {_describe(exc)}") from exc


class Sink:
    """Writes and flushes to a binary stream, with one-line write errors."""

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, data: bytes) -> int:
        try:
            return self._stream.write(data)
        except OSError as exc:
            _raise_write_error(exc, self._name)
            raise  # pragma: no cover - _raise_write_error always raises

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            _raise_write_error(exc, self._name)


@contextmanager
def open_sink(path: str | None, stdout: BinaryIO | None) -> Iterator[Sink]:
    """Where a command writes: stdout for None or ``-``, else an atomic file."""
    if path is None or path == "-":
        if stdout is None:
            raise WriteError("no standard output here")
        yield Sink(stdout, "stdout")
        return
    with atomic_file(path) as out:
        yield out
