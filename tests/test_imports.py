"""The layers import one way (rules, then store, then share and the UI): no module imports,
directly or through others, a module that imports it back, and the sharing logic knows
no screen."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports, anywhere in it
    (an import inside a function closes a circle as surely as one at the top)."""
    files = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])])
                submodules = {f"{base}.{alias.name}" for alias in node.names} & files.keys()
                imported.update(submodules)  # ``from package import module`` needs the module
                if len(submodules) < len(node.names):
                    imported.add(base)
        graph[name] = {module for module in imported if module in files and module != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles (strongly connected groups of more than one module), by Tarjan."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    path: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        path.append(module)
        for imported in sorted(graph[module]):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in path:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = path[path.index(module):]
            del path[path.index(module):]
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back():
    assert circles(import_graph()) == []


def test_the_circle_finder_sees_a_circle_through_a_third_module():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_sharing_logic_imports_no_screen():
    graph = import_graph()
    sharing = {module for module in graph if module.startswith("companion.share")}
    assert sharing and not {imported for module in sharing for imported in graph[module] if imported.startswith("companion.ui")}
