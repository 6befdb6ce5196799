"""The one table of what each control means (``_controls``)."""

from __future__ import annotations

import pytest

from termscribe import render_text
from termscribe._controls import C1_ACTIONS, CONTROL_ACTIONS, ESCAPE_ACTIONS, INERT_C1, Controls
from termscribe._lines import LinesModel
from termscribe._screen._model import ScreenModel


@pytest.mark.parametrize("model", [LinesModel, ScreenModel])
def test_every_action_is_a_method_of_each_model(model: type[Controls]) -> None:
    for name in [*CONTROL_ACTIONS.values(), *ESCAPE_ACTIONS.values()]:
        assert callable(getattr(model, name))
    # The dispatch tables follow the class's own methods (its overrides).
    for control, name in CONTROL_ACTIONS.items():
        assert model._control_functions[control] is getattr(model, name)
    for final, name in ESCAPE_ACTIONS.items():
        assert model._escape_functions[final] is getattr(model, name)


@pytest.mark.parametrize("mode", ["lines", "screen", "strip"])
def test_c1_controls_not_in_the_table_do_nothing(mode: str) -> None:
    for control in INERT_C1:
        assert render_text(f"ab{control}cd".encode(), mode=mode, columns=20, rows=3) == "abcd"


@pytest.mark.parametrize(
    ("control", "expected"),
    [
        ("\x84", "ab\n  cd"),  # IND: down, same column
        ("\x85", "ab\ncd"),  # NEL: CR and LF
        ("\x8d", "  cd\nab"),  # RI at the top: scrolls down
        ("\x88\r\t", "abcd"),  # HTS: the TAB stops at column 2
    ],
)
def test_c1_controls_in_the_table_do_what_it_names(control: str, expected: str) -> None:
    assert control[0] in C1_ACTIONS
    for mode in ("lines", "screen"):
        assert render_text(f"ab{control}cd".encode(), mode=mode, columns=20, rows=3) == expected


def test_an_override_in_a_model_is_what_its_control_does() -> None:
    """The screen model's line feed (ScreenModel._line_feed) honours LNM."""
    stream = b"\r\nab\x0bcd"  # VT: a line feed, which only moves down in a PTY stream
    assert render_text(stream, mode="screen", columns=10, rows=3) == "\nab\n  cd"
    lnm = b"\x1b[20h" + stream  # unless LNM is set
    assert render_text(lnm, mode="screen", columns=10, rows=3) == "\nab\ncd"


def test_strip_has_its_own_meanings() -> None:
    # CR breaks the line there, where the lines model returns to column 0.
    assert render_text(b"50%\r100%\n", mode="strip") == "50%\n100%\n"
    assert render_text(b"50%\r100%\n") == "100%\n"
