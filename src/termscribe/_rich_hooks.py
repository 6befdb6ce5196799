"""Rich's renderable protocol for what has lines: `Transcript`, ``TerminalState``.

``rich`` is an optional dependency (``termscribe[rich]``): ``termscribe.rich``
is imported when Rich calls these methods, never when termscribe is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.measure import Measurement

    from ._rows import Line

__all__ = ["RichLines"]


class _HasLines(Protocol):
    def lines(self) -> list[Line]: ...


class RichLines:
    """``console.print(obj)`` shows ``obj.lines()`` as ``termscribe.rich.LinesView``
    does: styled, safe, folded at the console's width, without links."""

    __slots__ = ()

    def __rich_console__(
        self: _HasLines, console: Console, options: ConsoleOptions
    ) -> RenderResult:
        from termscribe.rich import LinesView

        yield LinesView(self.lines())

    def __rich_measure__(self: _HasLines, console: Console, options: ConsoleOptions) -> Measurement:
        from termscribe.rich import LinesView

        return LinesView(self.lines()).__rich_measure__(console, options)
