"""Every call of companion.i18n's translating functions in the package, read from its source,
whatever name a module gives them (``_ as translate``, ``i18n._``): the extractor only knows
the names it is told, so the checks that use this see the calls it would miss."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import companion

PACKAGE = Path(companion.__file__).parent
TRANSLATORS = {"_", "ngettext", "pgettext", "npgettext"}
"""The functions of companion.i18n that translate (N_ only marks, and may run at import)."""


def translator_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The local names a module gives companion.i18n's translating functions (``_ as
    translate``), and the names it gives the module itself (``from companion import i18n``)."""
    functions, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "companion.i18n":
            functions.update(alias.asname or alias.name for alias in node.names if alias.name in TRANSLATORS)
        elif isinstance(node, ast.ImportFrom) and node.module == "companion":
            modules.update(alias.asname or alias.name for alias in node.names if alias.name == "i18n")
        elif isinstance(node, ast.Import):
            modules.update(alias.asname for alias in node.names if alias.name == "companion.i18n" and alias.asname)
    return functions, modules


def translating(call: ast.Call, functions: set[str], modules: set[str]) -> str | None:
    """Which translating function ``call`` calls (its companion.i18n name), if any."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in functions:
        return func.id
    if isinstance(func, ast.Attribute) and func.attr in TRANSLATORS and isinstance(func.value, ast.Name) and func.value.id in modules:
        return func.attr
    return None


class Site(NamedTuple):
    where: str
    call: ast.Call
    function: str
    """The companion.i18n name of the function called."""
    deferred: bool
    """Whether the call runs only when a function is called (not at import)."""

    @property
    def texts(self) -> list[ast.expr]:
        """The arguments that are messages: after the context of pgettext and npgettext, and
        before the count of ngettext and npgettext."""
        args = self.call.args
        first = 1 if self.function.endswith("pgettext") else 0
        return list(args[first : first + (2 if self.function.endswith("ngettext") else 1)])

    @property
    def context(self) -> str | None:
        argument = self.call.args[0] if self.function.endswith("pgettext") else None
        return argument.value if isinstance(argument, ast.Constant) else None


def calls(tree: ast.Module) -> Iterator[tuple[ast.Call, str, bool]]:
    """Each call of a translating function, the function, and whether it runs only when a function is called."""
    functions, modules = translator_names(tree)

    def visit(node: ast.AST, deferred: bool) -> Iterator[tuple[ast.Call, str, bool]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # defaults and decorators are evaluated when the def runs; the body when called
            for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
                yield from visit(default, deferred)
            for decorator in getattr(node, "decorator_list", []):
                yield from visit(decorator, deferred)
            for statement in node.body if isinstance(node.body, list) else [node.body]:
                yield from visit(statement, True)
            return
        function = translating(node, functions, modules) if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and function is not None:
            yield node, function, deferred
        for child in ast.iter_child_nodes(node):
            yield from visit(child, deferred)

    yield from visit(tree, False)


def sites() -> Iterator[Site]:
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call, function, deferred in calls(tree):
            yield Site(f"{path.relative_to(PACKAGE.parent)}:{call.lineno}: {ast.unparse(call)}", call, function, deferred)

