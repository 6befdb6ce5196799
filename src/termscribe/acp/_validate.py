"""Wire-level validation helpers shared by the models and the message parser.

Rules stated once here:

* base64 (`decode_base64`): RFC 4648 section 4, standard alphabet, padding
  required, no whitespace or line breaks, and zero pad bits (section 3.5), so
  each encoded string has exactly one meaning and re-encodes to itself.  Every
  chunk is decoded on its own; callers never concatenate encoded strings.
* absolute paths (`check_absolute_path`): POSIX ``/...``, Windows drive
  ``C:\\...`` (or ``C:/...``) and UNC ``\\\\server\\share...``.  A path may not
  contain NUL, which no platform allows.
* JSON objects kept from the wire (`_meta`, unknown fields) are copied so the
  models stay immutable, and their nesting is bounded.
* pydantic models (`from_model`), such as the official Python SDK's, are read
  as the JSON they stand for: ``model_dump(mode="json", by_alias=True,
  exclude_unset=True)``.  ``exclude_unset`` keeps a patch's meaning: a field
  the message left out stays omitted (leave), one set to None is ``null``
  (clear); without it every unset optional field would clear.

Helpers raise `FieldError` with the path of the field; the public boundaries
convert it to `InvalidMessageError`.
"""

from __future__ import annotations

import binascii
import enum
import math
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeAlias, TypeVar

from ._errors import FieldError, short_repr

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_JSON_INT_BITS",
    "OMITTED",
    "JsonObject",
    "Leniency",
    "Omitted",
    "Patch",
    "canonical_base64",
    "check_absolute_path",
    "copy_json",
    "copy_json_object",
    "decode_base64",
    "encode_base64",
    "from_model",
    "is_absolute_path",
    "lenient",
    "malformed_meta",
    "optional_meta",
    "optional_nullable_str",
    "patched",
    "require_object",
    "require_str",
    "type_name",
    "without_malformed_meta",
]

JsonObject = dict[str, Any]

# `_meta` and preserved unknown fields may nest at most this deep.  JSON
# nesting is otherwise bounded only by the interpreter's recursion limit, which
# a later json.dumps of the same value could hit from a deeper stack.
MAX_JSON_DEPTH: Final = 64
# Integers copied from the wire are at most this many bits (about 4,000
# digits): CPython refuses to write longer ones as text (int_max_str_digits),
# so json.dumps of a copy would fail later, far from the message.
MAX_JSON_INT_BITS: Final = 13_000


class Omitted(enum.Enum):
    """The state of a patch field that was absent from the wire."""

    OMITTED = "OMITTED"

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: Final = Omitted.OMITTED

T = TypeVar("T")
# A patch field: OMITTED (leave unchanged), None (clear) or a value (replace).
Patch: TypeAlias = T | Literal[Omitted.OMITTED] | None


def patched(current: T | None, patch: Patch[T]) -> T | None:
    """`current` after `patch`: kept when omitted, else the patch's value (None clears)."""
    return current if patch is OMITTED else patch


_BASE64_RE: Final = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_NOT_BASE64_CHAR: Final = re.compile(r"[^A-Za-z0-9+/=]")

_WINDOWS_DRIVE_RE: Final = re.compile(r"[A-Za-z]:[\\/]")
_UNC_RE: Final = re.compile(r"\\\\[^\\/]+[\\/][^\\/]+")


def type_name(value: object) -> str:
    """JSON type name of a decoded value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def decode_base64(value: object, field: str) -> bytes:
    """Decode one strict RFC 4648 base64 string (see the module rules)."""
    if not isinstance(value, str):
        raise FieldError(field, f"expected a base64 string, got {type_name(value)}")
    data = canonical_base64(value)
    if data is not None:
        return data
    if _BASE64_RE.fullmatch(value) is None:
        raise FieldError(field, _base64_problem(value))
    # The form is right, so what makes it another string than the encoding
    # of its bytes can only be the bits the last character carries past them.
    raise FieldError(field, "not canonical base64: padding bits are not zero")


if sys.version_info >= (3, 11):

    def canonical_base64(value: str) -> bytes | None:
        """The bytes `value` encodes if it is their one strict encoding (see
        the module rules), else None.  The C decoder's strict mode refuses
        what is not in the alphabet and padding anywhere but last; it
        ignores pad bits, which only a padded last group has: that group
        must survive the round trip through its bytes."""
        try:
            data = binascii.a2b_base64(value, strict_mode=True)
        except (binascii.Error, ValueError):  # bad form; a character above ASCII
            return None
        if value[-1:] == "=":
            last = data[-1:] if value[-2] == "=" else data[-2:]
            if binascii.b2a_base64(last, newline=False) != str.encode(value[-4:]):
                return None
        return data

else:

    def canonical_base64(value: str) -> bytes | None:
        """The same before Python 3.11 (no strict mode): the lenient C
        decoder skips what is not in the alphabet and ignores pad bits, but
        then the bytes re-encode to another string: only the canonical
        encoding survives the round trip."""
        try:
            data = binascii.a2b_base64(value)
        except (binascii.Error, ValueError):  # bad padding; a character above ASCII
            return None
        if binascii.b2a_base64(data, newline=False) != str.encode(value):
            return None
        return data


def _base64_problem(value: str) -> str:
    bad = _NOT_BASE64_CHAR.search(value)
    if bad is not None:
        char = bad.group()
        shown = repr(char) if char.isprintable() and char.isascii() else f"U+{ord(char):04X}"
        return f"not base64: character {shown} at offset {bad.start()} is outside the alphabet"
    if len(value) % 4:
        return f"not base64: length {len(value)} is not a multiple of 4 (padding missing?)"
    return "not base64: '=' padding only allowed as the last one or two characters"


def encode_base64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def is_absolute_path(path: str) -> bool:
    """True for POSIX, Windows drive and UNC absolute paths."""
    if "\0" in path:
        return False
    return (
        path.startswith("/")
        or _WINDOWS_DRIVE_RE.match(path) is not None
        or _UNC_RE.match(path) is not None
    )


def check_absolute_path(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise FieldError(field, f"expected an absolute path string, got {type_name(value)}")
    if not is_absolute_path(value):
        if "\0" in value:
            raise FieldError(field, "path contains NUL")
        raise FieldError(field, f"path {short_repr(value)} is not absolute")
    return value


def from_model(value: object, field: str) -> object:
    """A pydantic model (anything with a ``model_dump`` method) as its JSON value
    (see the module rules); any other value as it is.  A model that cannot be
    dumped is a `FieldError` (pydantic raises ValueError or TypeError)."""
    if isinstance(value, (dict, list)):
        return value
    dump = getattr(value, "model_dump", None)
    if not callable(dump):
        return value
    try:
        return dump(mode="json", by_alias=True, exclude_unset=True)
    except (TypeError, ValueError) as exc:
        reason = f"{type(value).__name__}.model_dump failed: {type(exc).__name__}"
        raise FieldError(field, reason) from exc


def require_object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise FieldError(field, f"expected an object, got {type_name(value)}")
    return value


def require_str(obj: Mapping[str, Any], key: str) -> str:
    if key not in obj:
        raise FieldError(key, "required field is missing")
    value = obj[key]
    if not isinstance(value, str):
        raise FieldError(key, f"expected a string, got {type_name(value)}")
    return value


def optional_nullable_str(obj: Mapping[str, Any], key: str) -> str | None:
    """An optional nullable string where omission and null are equivalent."""
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise FieldError(key, f"expected a string or null, got {type_name(value)}")
    return value


def optional_meta(obj: Mapping[str, Any], key: str = "_meta") -> JsonObject | None:
    """An optional nullable `_meta` object, copied."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise FieldError(key, f"expected an object or null, got {type_name(value)}")
    return copy_json_object(value, key)


def copy_json_object(value: Mapping[str, Any], field: str) -> JsonObject:
    copied = copy_json(value, field)
    assert isinstance(copied, dict)
    return copied


def malformed_meta(value: object) -> bool:
    """Whether a ``_meta`` value is neither an object nor null: a reader
    takes it as absent (the schema's x-deserialize-default-on-error)."""
    return value is not None and not isinstance(value, dict)


def without_malformed_meta(obj: JsonObject) -> JsonObject:
    """``obj`` without a malformed ``_meta`` (see malformed_meta), for
    objects passed on to another reader."""
    if "_meta" in obj and malformed_meta(obj["_meta"]):
        return {key: value for key, value in obj.items() if key != "_meta"}
    return obj


def copy_json(value: object, field: str) -> Any:
    """Deep copy of a JSON value, iteratively, rejecting what json.dumps could not
    write back as JSON: non-JSON types, NaN and infinities, integers too long
    to print, and nesting deeper than `MAX_JSON_DEPTH`."""
    root: list[Any] = [None]
    # Each entry: (source container or scalar, destination container, key in destination, depth)
    stack: list[tuple[object, Any, Any, int]] = [(value, root, 0, 0)]
    while stack:
        src, dst, key, depth = stack.pop()
        if isinstance(src, dict):
            if depth >= MAX_JSON_DEPTH:
                raise FieldError(field, f"nested deeper than {MAX_JSON_DEPTH} levels")
            new_obj: dict[str, Any] = {}
            dst[key] = new_obj
            for k, v in src.items():
                if not isinstance(k, str):
                    raise FieldError(field, f"object key of type {type_name(k)} is not JSON")
                new_obj[k] = None
                stack.append((v, new_obj, k, depth + 1))
        elif isinstance(src, list):
            if depth >= MAX_JSON_DEPTH:
                raise FieldError(field, f"nested deeper than {MAX_JSON_DEPTH} levels")
            new_list: list[Any] = [None] * len(src)
            dst[key] = new_list
            for i, v in enumerate(src):
                stack.append((v, new_list, i, depth + 1))
        elif src is None or isinstance(src, (str, bool)):
            dst[key] = src
        elif isinstance(src, int):
            if src.bit_length() > MAX_JSON_INT_BITS:
                raise FieldError(field, f"integer longer than {MAX_JSON_INT_BITS} bits")
            dst[key] = src
        elif isinstance(src, float):
            if not math.isfinite(src):
                raise FieldError(field, f"number {src!r} is not JSON")
            dst[key] = src
        else:
            raise FieldError(field, f"value of type {type(src).__name__} is not JSON")
    return root[0]


class Leniency:
    """Where optional fields that fail validation are collected instead of raised.

    The v2 schema marks optional fields ``x-deserialize-default-on-error``:
    the Rust SDK and Zed read a malformed one as omitted.  Parsers given a
    `Leniency` do the same through `lenient` and record the problem (with
    its path, from `child` prefixes); parsers given None raise it (strict).
    """

    __slots__ = ("_prefix", "problems")

    def __init__(self, problems: list[FieldError] | None = None, prefix: str = "") -> None:
        self.problems: list[FieldError] = [] if problems is None else problems
        self._prefix = prefix

    def child(self, prefix: str) -> Leniency:
        """The same collector, for the fields of the object at `prefix`."""
        if self._prefix and prefix and not prefix.startswith("["):
            prefix = f"{self._prefix}.{prefix}"
        else:
            prefix = self._prefix + prefix
        return Leniency(self.problems, prefix)

    def add(self, exc: FieldError) -> None:
        self.problems.append(exc.within(self._prefix))


def lenient(leniency: Leniency | None, parse: Callable[[], T], default: T) -> T:
    """``parse()``; with a `Leniency`, its FieldError is recorded and `default` returned."""
    if leniency is None:
        return parse()
    try:
        return parse()
    except FieldError as exc:
        leniency.add(exc)
        return default
