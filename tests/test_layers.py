"""The package's layers depend one way, and no modules import each other in a circle.

The import graph is read from the source (``ast``), imports under ``if TYPE_CHECKING:``
included: a cycle in the types is still a cycle in the design. ARCHITECTURE.md draws the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("components", "systems", "ecs")

#: Each layer, from the bottom: a module may import modules of its own layer or below.
LAYERS = (
    "components",
    "systems.physics._shapes",
    "systems._world",  # the Protocol of what a system needs of its World
    "systems.physics._broad",
    "systems.physics._kernels",
    "systems.physics._bodies",
    "systems.physics._solver",
    "systems.physics._stages",
    "systems.physics",  # the three systems and the spatial queries
    "systems.game",
    "systems",
    "ecs",
)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports (the longest known prefix of each import)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # ``from package import module`` depends on the module; ``from module import name`` on the module.
            targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                           for alias in node.names)
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def layer(name: str) -> int:
    """The index in ``LAYERS`` of the innermost layer holding ``name`` (its longest prefix)."""
    holding = [prefix for prefix in LAYERS if name == prefix or name.startswith(prefix + ".")]
    return LAYERS.index(max(holding, key=len))


GRAPH = {name: imports(name, path, modules()) for name, path in modules().items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    # The check above must be able to fail: a three-module circle and a two-module one.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d", "a"}, "f": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["d", "e"]]


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_a_module_imports_only_its_own_layer_and_those_below(name: str) -> None:
    above = sorted(target for target in GRAPH[name] if layer(target) > layer(name))
    assert above == [], f"{name} (layer {LAYERS[layer(name)]}) imports from above: {above}"


def test_the_physics_never_imports_the_world_it_runs_in() -> None:
    physics = [name for name in GRAPH if name.startswith("systems.physics")]
    assert physics
    assert [name for name in physics if any(t.startswith("ecs") for t in GRAPH[name])] == []
