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


def test_c1_controls_either_act_or_are_inert() -> None:
    introducers = set("\x90\x98\x9b\x9c\x9d\x9e\x9f")
    every = {chr(c) for c in range(0x80, 0xA0)}
    assert set(C1_ACTIONS) | set(INERT_C1) | introducers == every
    assert not set(C1_ACTIONS) & set(INERT_C1)


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
