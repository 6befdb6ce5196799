"""Strict base64 and absolute-path rules (termscribe.acp._validate)."""

import base64
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termscribe.acp import InvalidMessageError, TerminalOutputChunk, decode_base64, is_absolute_path
from termscribe.acp._errors import FieldError
from termscribe.acp._validate import MAX_JSON_DEPTH, canonical_base64, copy_json


@pytest.mark.parametrize(
    ("encoded", "decoded"),
    [("", b""), ("YQ==", b"a"), ("YWI=", b"ab"), ("YWJj", b"abc"), ("/+8=", b"\xff\xef")],
)
def test_valid_base64_decodes(encoded: str, decoded: bytes) -> None:
    assert decode_base64(encoded, "data") == decoded


@pytest.mark.parametrize(
    ("encoded", "reason"),
    [
        ("YQ", "multiple of 4"),
        ("YWJjZA", "multiple of 4"),
        ("YQ=", "multiple of 4"),
        ("YQ== ", "outside the alphabet"),
        ("YQ==\n", "outside the alphabet"),
        ("Y Q==", "outside the alphabet"),
        ("-_8=", "outside the alphabet"),  # base64url alphabet
        ("YWé=", "outside the alphabet"),
        ("YQ==YQ==", "padding only allowed"),
        ("=YQ=", "padding only allowed"),
        ("Y===", "padding only allowed"),
        ("YR==", "padding bits"),
        ("YWJ=", "padding bits"),
    ],
)
def test_invalid_base64_names_the_reason(encoded: str, reason: str) -> None:
    with pytest.raises(FieldError) as info:
        decode_base64(encoded, "data")
    assert info.value.field == "data"
    assert reason in info.value.reason


@pytest.mark.parametrize("value", [None, 1, ["YQ=="], {"data": "YQ=="}, b"YQ=="])
def test_base64_must_be_a_string(value: object) -> None:
    with pytest.raises(FieldError, match="expected a base64 string"):
        decode_base64(value, "data")


def test_error_does_not_echo_a_huge_payload() -> None:
    huge = "QUFB" * 2_500_000 + "!"
    with pytest.raises(InvalidMessageError) as info:
        TerminalOutputChunk.from_wire(
            {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": huge}
        )
    assert len(str(info.value)) < 300
    assert "offset 10000000" in str(info.value)


@given(st.binary(max_size=200))
def test_base64_round_trip(data: bytes) -> None:
    assert decode_base64(base64.b64encode(data).decode(), "data") == data


@given(
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", max_size=16
    )
)
def test_accepted_base64_is_canonical(text: str) -> None:
    try:
        data = decode_base64(text, "data")
    except FieldError:
        return
    assert base64.b64encode(data).decode() == text


_BASE64_FORM = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _strict_base64(value: str) -> bytes | None:
    """The rule as RFC 4648 states it: the form (4-character groups, padding
    last), then zero pad bits; None for what it refuses."""
    if _BASE64_FORM.fullmatch(value) is None:
        return None
    if value.endswith("=="):
        last, mask = value[-3], 0b1111
    elif value.endswith("="):
        last, mask = value[-2], 0b11
    else:
        last, mask = "A", 0
    if _ALPHABET.index(last) & mask:
        return None
    return base64.b64decode(value)


@given(
    st.one_of(
        st.text(alphabet=_ALPHABET + "=", max_size=16),
        st.text(alphabet=_ALPHABET + "= \n-_.é\0", max_size=16),
        st.binary(max_size=12).map(lambda data: base64.b64encode(data).decode()),
    )
)
def test_decode_base64_accepts_what_the_rfc_rule_accepts(text: str) -> None:
    expected = _strict_base64(text)
    assert canonical_base64(text) == expected
    if expected is not None:
        assert decode_base64(text, "data") == expected
    else:
        with pytest.raises(FieldError):
            decode_base64(text, "data")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/workspace/project",
        "//server/share",
        "C:\\",
        "C:\\Users\\dev",
        "c:/Users/dev",
        "\\\\server\\share",
        "\\\\server\\share\\dir",
        "\\\\?\\C:\\very\\long",
    ],
)
def test_absolute_paths(path: str) -> None:
    assert is_absolute_path(path)


@pytest.mark.parametrize(
    "path",
    [
        "",
        "workspace",
        "./x",
        "../x",
        "~/x",
        "C:",
        "C:foo",
        "\\\\server",
        "\\\\server\\",
        "\\dir",
        "/tmp/a\0b",
    ],
)
def test_relative_or_invalid_paths(path: str) -> None:
    assert not is_absolute_path(path)


def test_json_copy_is_deep_and_bounded() -> None:
    original = {"a": [1, {"b": "c"}], "d": None, "e": 1.5, "f": True}
    copied = copy_json(original, "_meta")
    assert copied == original
    copied["a"][1]["b"] = "changed"
    assert original["a"][1]["b"] == "c"

    deep: object = {}
    for _ in range(MAX_JSON_DEPTH + 1):
        deep = {"x": deep}
    with pytest.raises(FieldError, match="nested deeper"):
        copy_json(deep, "_meta")

    very_deep: object = []
    for _ in range(100_000):  # far beyond the recursion limit: the copy is iterative
        very_deep = [very_deep]
    with pytest.raises(FieldError, match="nested deeper"):
        copy_json(very_deep, "_meta")


@pytest.mark.parametrize("value", [{1: "x"}, {"x": {1, 2}}, {"x": b"bytes"}])
def test_json_copy_rejects_non_json(value: object) -> None:
    with pytest.raises(FieldError, match="not JSON"):
        copy_json(value, "_meta")
