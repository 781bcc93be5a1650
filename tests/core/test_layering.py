"""The layers of the package, checked from its own imports: no circle of imports
anywhere in parlour/ (function-local imports included), game packages that know no
front end, and front ends that reach a game only through its public face."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "parlour"
GAMES = ("chess", "checkers", "backgammon")
FRONT_ENDS = ("server", "tui", "cli", "lineplay", "web")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in ROOT.rglob("*.py")}


def imports_of(path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of parlour that ``path`` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from package import module" imports the module; anything else
            # ("from module import name") the module named.
            submodules = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [name for name in submodules if name in known] or [node.module]
        else:
            continue
        found.update(name for name in names if name in known)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(path, known) - {name} for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_circle_of_imports() -> None:
    assert circles(graph()) == []


@pytest.mark.parametrize("game", GAMES)
def test_a_game_package_imports_only_core_ai_and_itself(game: str) -> None:
    for name, targets in graph().items():
        if name == f"parlour.{game}" or name.startswith(f"parlour.{game}."):
            foreign = {
                t
                for t in targets
                if not t.startswith((f"parlour.{game}", "parlour.core", "parlour.ai"))
            }
            assert foreign == set(), f"{name} imports {sorted(foreign)}"


def test_front_ends_reach_a_game_only_through_the_registry() -> None:
    reaches = {}
    for name, targets in graph().items():
        parts = name.split(".")
        if len(parts) > 1 and parts[1] in FRONT_ENDS:
            inside = {t for t in targets if len(t.split(".")) > 1 and t.split(".")[1] in GAMES}
            if inside:
                reaches[name] = inside
    assert reaches == {}
