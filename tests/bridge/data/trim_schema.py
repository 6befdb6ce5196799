"""Trim an official ACP JSON Schema to the `$defs` closure of some definitions.

    python tests/bridge/data/trim_schema.py SCHEMA OUT TITLE NAME...

The kept definitions are copied unchanged; the top-level ``anyOf`` is dropped
(tests validate against ``{"$ref": "#/$defs/NAME"}``).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def refs(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                out.add(item.rsplit("/", 1)[-1])
            else:
                refs(item, out)
    elif isinstance(value, list):
        for item in value:
            refs(item, out)


def closure(defs: dict[str, Any], roots: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            found: set[str] = set()
            refs(defs[name], found)
            todo.extend(found)
    return seen


def main(argv: list[str]) -> None:
    source, target, title, *roots = argv
    with open(source, encoding="utf-8") as f:
        schema = json.load(f)
    keep = closure(schema["$defs"], roots)
    trimmed = {key: value for key, value in schema.items() if key not in ("$defs", "anyOf")}
    trimmed["title"] = title
    trimmed["$defs"] = {name: schema["$defs"][name] for name in sorted(keep)}
    with open(target, "w", encoding="utf-8") as f:
        json.dump(trimmed, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
