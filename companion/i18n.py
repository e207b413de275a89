"""The one translation function every user-facing string goes through.

English is the source language; catalogues for other languages live in
``companion/locale/<lang>/LC_MESSAGES/companion.mo`` (gettext, compiled with Babel).
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en",)
DOMAIN = "companion"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(language: str) -> None:
    """Switch every later ``_()`` call to ``language`` (falls back to English)."""
    global _translation, _language
    _language = language if language in LANGUAGES else "en"
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)


def language() -> str:
    return _language


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it: it is kept in English
    (an option description, a table of templates) and shown later through ``_()``."""
    return message
