"""`parse_json`: JSON text from untrusted input, every failure one `JSONError`."""

from __future__ import annotations

import json
import sys

import pytest

from termscribe._json import JSONError, parse_json


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"a":' + b"[" * 3000, "not valid JSON: nested too deeply"),  # RecursionError
        ("[" * 100_000, "not valid JSON: nested too deeply"),
        (b"{not json", "not valid JSON: Expecting property name enclosed in double quotes"),
        (b"\xff\xfe{}", "not valid UTF-8 (byte 0)"),
        (b'{\x00"\x00a\x00"\x00:\x001\x00}\x00', "not valid JSON"),  # UTF-16: not taken
        (b"NaN", "not valid JSON: NaN is not allowed"),
        (b'{"a": -Infinity}', "not valid JSON: -Infinity is not allowed"),
        ("\ufeff{}", "not valid JSON: Unexpected UTF-8 BOM"),
    ],
)
def test_every_failure_is_a_json_error(text: bytes | str, message: str) -> None:
    with pytest.raises(JSONError) as error:
        parse_json(text)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_an_integer_of_too_many_digits_is_a_json_error() -> None:
    if not hasattr(sys, "get_int_max_str_digits"):  # Python before 3.10.7 has no limit
        assert parse_json(b"9" * 5000) == int("9" * 5000)
        return
    with pytest.raises(JSONError, match="not valid JSON: Exceeds the limit"):  # a ValueError
        parse_json(b"9" * 5000)


def test_out_of_memory_is_a_json_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def loads(*args: object, **kwargs: object) -> object:
        raise MemoryError

    monkeypatch.setattr(json, "loads", loads)
    with pytest.raises(JSONError, match="too large for memory"):
        parse_json(b"[]")


def test_json_is_read_as_ever() -> None:
    nested = "[" * 500 + "]" * 500
    assert parse_json(nested) == json.loads(nested)
    assert parse_json(b'{"a": [1, 2.5, "\\u00e9", null, true]}') == {
        "a": [1, 2.5, "\u00e9", None, True]
    }
    assert parse_json('"caf\u00e9"'.encode()) == "caf\u00e9"
