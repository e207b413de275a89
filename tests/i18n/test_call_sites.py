"""How the package calls the translation functions, read from its source.

A text translated at import time keeps the language of that moment: the device that
switches to Dutch would still see it in English. And a text computed before it is
translated (``_(name.capitalize())``, ``_(f"...")``) can never be in the catalogues:
extraction only sees literal strings, so such text stays English in every language.
"""

from __future__ import annotations

import ast

from tests.i18n.source import sites


def test_the_scan_finds_the_translated_texts():
    assert sum(1 for _site in sites()) > 300


def test_nothing_is_translated_at_import_time():
    early = [site.where for site in sites() if not site.deferred]
    assert early == [], "translate where shown; mark constants with N_ instead"


def test_every_translated_text_is_a_literal_or_a_marked_constant_looked_up():
    """A literal is extracted; a name, attribute or item holds a template marked where it was written."""
    computed = [
        site.where
        for site in sites()
        for argument in site.texts
        if not isinstance(argument, (ast.Constant, ast.Name, ast.Attribute, ast.Subscript))
        or (isinstance(argument, ast.Constant) and not isinstance(argument.value, str))
    ]
    assert computed == [], "these texts are computed, so no catalogue can hold them"
