"""The package's shape: no module imports another back, and none is long.

Imports are read from the source (every ``import`` statement: at the top,
inside functions, under ``TYPE_CHECKING``), so that a cycle hidden in a
lazy or type-only import counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "termscribe"
#: Lines a module may have. Past about 600 a module is a signal to look
#: for a seam, never a reason to split one class across files: this bound
#: only stops a module from growing without one.
MAX_LINES = 700


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    for path in PACKAGE.rglob("*.c"):  # the optional extension: imports nothing back
        out[".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Each module of the package, and the modules of the package it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = set()
        if path.suffix != ".py":
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for alias in node.names:
                    if f"{module}.{alias.name}" in modules:  # a submodule
                        graph[name].add(f"{module}.{alias.name}")
                    elif module in modules:  # a name from a module
                        graph[name].add(module)
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in modules)
        graph[name].discard(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_another_back() -> None:
    graph = import_graph()
    assert len(graph) > 50  # the whole package was read
    assert cycles(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_type_only_and_lazy_imports_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "termscribe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .two import X\n"
    )
    (package / "two.py").write_text("def f():\n    from . import one\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", package)
    assert cycles(import_graph()) == [["termscribe.one", "termscribe.two"]]


# Source modules; _unicode_data.py is generated tables (scripts/make_unicode_data.py).
_SOURCES = sorted(
    p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".c") and p.name != "_unicode_data.py"
)


@pytest.mark.parametrize("path", _SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_long(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines"
