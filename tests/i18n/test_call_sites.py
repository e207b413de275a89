"""How the package calls the translation functions, read from its source.

A text translated at import time keeps the language of that moment: the device that
switches to Dutch would still see it in English. And a text computed before it is
translated (``_(name.capitalize())``, ``_(f"...")``) can never be in the catalogues:
extraction only sees literal strings, so such text stays English in every language.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent
TRANSLATORS = {"_", "ngettext"}
"""The functions of companion.i18n that translate (N_ only marks, and may run at import)."""


def translator_names(tree: ast.Module) -> set[str]:
    """The local names a module gives companion.i18n's translating functions (``_ as translate``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "companion.i18n":
            names.update(alias.asname or alias.name for alias in node.names if alias.name in TRANSLATORS)
    return names


def calls(tree: ast.Module, names: set[str]):
    """Each call of a translating function, with whether it runs only when a function is called."""

    def visit(node: ast.AST, deferred: bool):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # defaults and decorators are evaluated when the def runs; the body when called
            for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
                yield from visit(default, deferred)
            for decorator in getattr(node, "decorator_list", []):
                yield from visit(decorator, deferred)
            for statement in node.body if isinstance(node.body, list) else [node.body]:
                yield from visit(statement, True)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            yield node, deferred
        for child in ast.iter_child_nodes(node):
            yield from visit(child, deferred)

    yield from visit(tree, False)


def sites():
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call, deferred in calls(tree, translator_names(tree)):
            yield f"{path.relative_to(PACKAGE.parent)}:{call.lineno}: {ast.unparse(call)}", call, deferred


def test_the_scan_finds_the_translated_texts():
    assert sum(1 for _site in sites()) > 300


def test_nothing_is_translated_at_import_time():
    early = [where for where, _call, deferred in sites() if not deferred]
    assert early == [], "translate where shown; mark constants with N_ instead"


def test_every_translated_text_is_a_literal_or_a_marked_constant_looked_up():
    """A literal is extracted; a name, attribute or item holds a template marked where it was written."""
    computed = [
        where
        for where, call, _deferred in sites()
        for argument in (call.args[:2] if len(call.args) == 3 else call.args[:1])  # ngettext: singular, plural, n
        if not isinstance(argument, (ast.Constant, ast.Name, ast.Attribute, ast.Subscript))
        or (isinstance(argument, ast.Constant) and not isinstance(argument.value, str))
    ]
    assert computed == [], "these texts are computed, so no catalogue can hold them"
