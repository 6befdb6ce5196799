import codecs

import pytest
from chunking import chunks_bytewise

from termscribe import Utf8Decoder

# (input, expected) pairs from Unicode 15 §3.9 and Markus Kuhn's UTF-8 test file.
CASES = [
    (b"plain", "plain"),
    ("€ 中 😀".encode(), "€ 中 😀"),
    (b"\xc0\xaf", "\ufffd\ufffd"),  # overlong '/'
    (b"\xe0\x80\xaf", "\ufffd\ufffd\ufffd"),  # overlong, 3 bytes
    (b"\xed\xa0\x80", "\ufffd\ufffd\ufffd"),  # CESU surrogate
    (b"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"),  # above U+10FFFF
    (b"\xe2\x82", "\ufffd"),  # truncated at end: one maximal subpart
    (b"\xe2\x82x", "\ufffdx"),
    (b"\x80\x9b", "\ufffd\ufffd"),  # raw C1 bytes are ill-formed, not controls
    (b"\xf0\x9f\x98", "\ufffd"),
    (b"\xff\xfe", "\ufffd\ufffd"),
    (b"a\xf1\x80\x80\xe1\x80\xc2b\x80c", "a\ufffd\ufffd\ufffdb\ufffdc"),  # Unicode Table 3-8
    # Private use decodes as itself (printing marks it: see test_markers);
    # one cut short is ill-formed.
    (b"x\xee\x80\x80y\xee\x80\x81z", "x\ue000y\ue001z"),
    (b"\xee\x80\x82\xee\x80", "\ue002\ufffd"),
]


def decode(chunks: list[bytes]) -> str:
    decoder = Utf8Decoder()
    return "".join(decoder.feed(chunk) for chunk in chunks) + decoder.finish()


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_maximal_subpart_replacement(data: bytes, expected: str) -> None:
    assert decode([data]) == expected


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_any_split_gives_same_result(data: bytes, expected: str) -> None:
    assert decode(chunks_bytewise(data)) == expected
    for cut in range(len(data) + 1):
        assert decode([data[:cut], data[cut:]]) == expected


def test_holds_split_code_point_until_complete() -> None:
    decoder = Utf8Decoder()
    assert decoder.feed(b"a\xe2\x82") == "a"
    assert decoder.pending == 2
    assert decoder.feed(b"\xac") == "€"
    assert decoder.pending == 0


def test_finish_flushes_incomplete_code_point() -> None:
    decoder = Utf8Decoder()
    assert decoder.feed(b"\xf0\x9f") == ""
    assert decoder.finish() == "\ufffd"
    assert decoder.pending == 0


def test_matches_cpython_replace_decoder_on_kuhn_style_mix() -> None:
    data = bytes(range(256)) * 3 + "ü€😀".encode() + b"\xed\xbf\xbf\xef\xbf\xbe"
    assert decode(chunks_bytewise(data)) == codecs.decode(data, "utf-8", "replace")
