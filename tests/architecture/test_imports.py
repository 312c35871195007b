"""The shape of the package: no import cycles and no module over 600 lines.

An import inside a function hides a cycle from Python (it runs late) but not from a
reader, who still has to hold both modules in mind at once; so the graph here counts
every import of a module, at its top or inside a function or method, except those under
``if TYPE_CHECKING:`` (they never run). Importing ``pkg.mod`` runs ``pkg/__init__.py``
first, yet that is no edge from the importer to ``pkg``: an edge to a package is one to
its ``__init__``, made only by importing a name that ``__init__`` defines or re-exports.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from pathlib import Path

#: The package ``shiftago`` (its sources).
PACKAGE = Path(__file__).resolve().parents[2] / "src" / "shiftago"
#: The most lines a module may have.
MAX_LINES = 600


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = (root.name, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import under ``node``, at any depth, outside ``if TYPE_CHECKING:`` blocks
    (their ``else`` branches run, and count)."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        for child in node.orelse:
            yield from _imports(child)
        return
    for child in ast.iter_child_nodes(node):
        yield from _imports(child)


def _base(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names (its relative dots resolved)."""
    if node.level == 0:
        return node.module or ""
    parts = name.split(".")
    if not is_package:
        parts = parts[:-1]
    if node.level > 1:
        parts = parts[: -(node.level - 1)]
    return ".".join([*parts, node.module] if node.module else parts)


def _target(dotted: str, known: dict[str, Path]) -> str | None:
    """The deepest module of the package that ``dotted`` names, None if outside."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def import_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of other modules of the package."""
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [_target(alias.name, known) for alias in node.names]
            else:
                base = _base(name, is_package, node)
                targets = [
                    f"{base}.{alias.name}"
                    if f"{base}.{alias.name}" in known
                    else _target(base, known)
                    for alias in node.names
                ]
            edges.update(t for t in targets if t is not None and t != name)
        graph[name] = edges
    return graph


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def _shortest_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``component``, within it."""
    start = component[0]
    inside = set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node] & inside):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    return [start]


def import_cycles(graph: dict[str, set[str]]) -> list[str]:
    """One line per cycle of modules that import each other: a shortest cycle, and all
    the modules caught in it when there are more."""
    lines = []
    for component in _components(graph):
        if len(component) > 1:
            cycle = _shortest_cycle(graph, component)
            more = f" (in all: {', '.join(component)})" if len(component) > len(cycle) - 1 else ""
            lines.append(" -> ".join(cycle) + more)
    return sorted(lines)


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """Imports inside functions count, ``from pkg import module`` names the module,
    and ``if TYPE_CHECKING:`` blocks do not count."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg.a import A\n")
    (pkg / "a.py").write_text("A = 1\ndef f():\n    from . import b\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\n"
        "from pkg import A\n"
    )
    (pkg / "c.py").write_text("import pkg.a\n")
    graph = import_graph(modules(pkg))
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg"}, "pkg.c": {"pkg.a"}}
    assert import_cycles(graph) == ["pkg -> pkg.a -> pkg.b -> pkg"]


def test_no_import_cycles() -> None:
    cycles = import_cycles(import_graph(modules()))
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_module_over_600_lines() -> None:
    long = [
        f"{name} ({lines} lines)"
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert not long, f"modules over {MAX_LINES} lines:\n" + "\n".join(long)
