"""v2 content blocks and the small session updates both versions share, as
valid v1 ones, or an error saying why they cannot be.

Both versions define the same five block types (text, image, audio,
resource_link, resource) with the same required fields.  A block an agent
sends may still be malformed: a required field missing or of the wrong
type makes it unusable (`InvalidMessageError`); an optional field of the
wrong type is left out, as the schema's ``x-deserialize-default-on-error``
reads it, so what a v1 client receives always validates.  Fields neither
version names are kept (copied), as both schemas allow them.  The same
holds for message chunks (`v1_chunk`), ``usage_update`` and
``session_info_update`` (`v1_same_update`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ._errors import FieldError, InvalidMessageError
from ._validate import JsonObject, copy_json, type_name

__all__ = ["v1_block", "v1_chunk", "v1_same_update"]

# Per block type: required string fields, optional nullable string fields.
_REQUIRED: Final = {
    "text": ("text",),
    "image": ("data", "mimeType"),
    "audio": ("data", "mimeType"),
    "resource_link": ("name", "uri"),
    "resource": (),
}
_OPTIONAL: Final = {
    "text": (),
    "image": ("uri",),
    "audio": (),
    "resource_link": ("description", "mimeType", "title"),
    "resource": (),
}
_ROLES: Final = frozenset({"user", "assistant"})


def v1_block(block: Mapping[str, Any], kind: str) -> JsonObject:
    """`block` (of type `kind`, one of the five) copied and made valid v1."""
    out = _copy(block, "content")
    _required(out, _REQUIRED[kind], "content")
    for key in _OPTIONAL[kind]:
        _drop_unless(out, key, lambda v: v is None or isinstance(v, str))
    if kind == "resource_link":
        _drop_unless(out, "size", _nullable_int)
    if kind == "resource":
        out["resource"] = _resource(out.get("resource"))
    _drop_unless(out, "_meta", _nullable_object)
    if "annotations" in out:
        annotations = _annotations(out["annotations"])
        if annotations is None and out["annotations"] is not None:
            del out["annotations"]
        else:
            out["annotations"] = annotations
    return out


def v1_chunk(update: Mapping[str, Any], block: JsonObject) -> JsonObject:
    """A message chunk with its (already converted) block; a bad optional
    ``messageId`` or ``_meta`` left out."""
    out = _copy(update, "")
    out["content"] = block
    _drop_unless(out, "messageId", lambda v: v is None or isinstance(v, str))
    _drop_unless(out, "_meta", _nullable_object)
    return out


def v1_same_update(update: Mapping[str, Any]) -> JsonObject:
    """``usage_update`` (``used`` and ``size`` required counts) or ``session_info_update``."""
    out = _copy(update, "")
    if out["sessionUpdate"] == "usage_update":
        for key in ("used", "size"):
            value = out.get(key)
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
                reason = f"expected a count, got {type_name(value)}"
                raise InvalidMessageError(key, None, reason)
        _drop_unless(out, "cost", _cost)
    else:
        for key in ("title", "updatedAt"):
            _drop_unless(out, key, lambda v: v is None or isinstance(v, str))
    _drop_unless(out, "_meta", _nullable_object)
    return out


def _cost(value: object) -> bool:
    if value is None:
        return True
    if not isinstance(value, dict) or not isinstance(value.get("currency"), str):
        return False
    amount = value.get("amount")
    meta_ok = _nullable_object(value.get("_meta"))
    return isinstance(amount, (int, float)) and not isinstance(amount, bool) and meta_ok


def _resource(value: object) -> JsonObject:
    if not isinstance(value, dict):
        raise InvalidMessageError(
            "content.resource", None, f"expected an object, got {type_name(value)}"
        )
    text, blob = isinstance(value.get("text"), str), isinstance(value.get("blob"), str)
    if not (text or blob):
        raise InvalidMessageError("content.resource", None, "needs a string text or blob")
    _required(value, ("uri",), "content.resource")
    _drop_unless(value, "mimeType", lambda v: v is None or isinstance(v, str))
    _drop_unless(value, "_meta", _nullable_object)
    if text:  # a text resource: a blob beside it would make it match neither variant
        value.pop("blob", None)
    return value


def _annotations(value: object) -> JsonObject | None:
    """Valid annotations, or None (left out) for a value that is not an object."""
    if not isinstance(value, dict):
        return None
    audience = value.get("audience")
    if isinstance(audience, list):
        value["audience"] = [role for role in audience if role in _ROLES]
    else:
        _drop_unless(value, "audience", lambda v: v is None)
    _drop_unless(value, "lastModified", lambda v: v is None or isinstance(v, str))
    _drop_unless(
        value,
        "priority",
        lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)),
    )
    _drop_unless(value, "_meta", _nullable_object)
    return value


def _required(obj: Mapping[str, Any], keys: tuple[str, ...], where: str) -> None:
    for key in keys:
        if not isinstance(obj.get(key), str):
            reason = f"expected a string, got {type_name(obj.get(key))}"
            raise InvalidMessageError(f"{where}.{key}", None, reason)


def _drop_unless(obj: JsonObject, key: str, valid: Any) -> None:
    if key in obj and not valid(obj[key]):
        del obj[key]


def _nullable_int(value: object) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _nullable_object(value: object) -> bool:
    return value is None or isinstance(value, dict)


def _copy(value: Mapping[str, Any], field: str) -> JsonObject:
    try:
        copied: JsonObject = copy_json(value, field)
    except FieldError as exc:
        raise exc.to_public() from exc
    return copied
