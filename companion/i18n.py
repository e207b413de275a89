"""The translation functions every user-facing string goes through, and whose language they speak.

English is the source language; catalogues for the other languages live in
``companion/locale/<lang>/LC_MESSAGES/companion.mo`` (gettext, made with Babel by
``scripts/update-translations.sh``).

Whose language: one server process serves many devices at once (every browser or phone
that opens the app is a session of its own), so the language cannot be one global. The UI
installs, with ``follow_sessions``, a function naming the language of the session the
running code serves; ``_()`` asks it on every call. Outside any session (the command line,
tests, background work) the process language applies: English unless ``set_language``
chose another, e.g. from ``environment_language()``.

Translate at display time: a constant evaluated at import would keep the language of the
moment it was imported. Mark such constants with ``N_`` and pass them through ``_()`` where
they are shown.
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "companion"
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "nl", "de", "fr")
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "fr": "Français"}
"""Each language named in itself, as someone looking for their own language would read it."""

_language = SOURCE_LANGUAGE
_translation: gettext.NullTranslations = gettext.NullTranslations()
_session_language: Callable[[], str | None] = lambda: None

_TAG_SEPARATORS = re.compile(r"[-_.@]")


def supported(tag: str | None) -> str | None:
    """The app language for a locale tag ('nl', 'nl-BE', 'de_AT.UTF-8', 'FR'), or None if the app does not speak it."""
    if not tag:
        return None
    code = _TAG_SEPARATORS.split(tag.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def choose(remembered: str | None, device_locales: Iterable[str | None] = ()) -> str:
    """The language to speak: the one chosen in settings if the app still has it, else the
    first of the device's preferred locales the app speaks, else English."""
    for tag in (remembered, *device_locales):
        code = supported(tag)
        if code is not None:
            return code
    return SOURCE_LANGUAGE


def environment_language(given: Mapping[str, str] | None = None) -> str:
    """The language of a command-line user: GNU gettext's LANGUAGE preferences first, then the
    locale in force (the first of LC_ALL, LC_MESSAGES and LANG that is set)."""
    environ = os.environ if given is None else given
    preferences = environ.get("LANGUAGE", "").split(":")
    in_force = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), None)
    return choose(None, [*preferences, in_force])


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled messages of ``language`` (English, the source, needs none)."""
    if language == SOURCE_LANGUAGE or language not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def set_language(language: str) -> None:
    """Set the process language: the one spoken outside any UI session (falls back to English)."""
    global _translation, _language
    _language = language if language in LANGUAGES else SOURCE_LANGUAGE
    _translation = catalogue(_language)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak ``language`` as the process language inside the block; afterwards the process
    language and the session lookup are what they were before (for tests, which must not
    leave a language behind for the next)."""
    before = (_language, _session_language)
    set_language(language)
    try:
        yield
    finally:
        set_language(before[0])
        follow_sessions(before[1])


def follow_sessions(session_language: Callable[[], str | None]) -> None:
    """Let each UI session speak its own language: ``session_language()`` names the language of
    the session the calling code serves, or None outside any session (the process language then)."""
    global _session_language
    _session_language = session_language


def language() -> str:
    """The language ``_()`` speaks here and now."""
    return _session_language() or _language


def _translations() -> gettext.NullTranslations:
    session = _session_language()
    return catalogue(session) if session else _translation


def _in_grammar(text: str) -> str:
    """A translated text as the language's grammar needs it once values are put in."""
    return FrenchTemplate(text) if language() == "fr" else text


def _(message: str) -> str:
    return _in_grammar(_translations().gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    return _in_grammar(_translations().ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the meaning ``context`` says (gettext's msgctxt): one English word
    with several meanings ("Rounds": a count, a table's heading) gets a context per use, so
    each language can word each use as it must."""
    return _in_grammar(_translations().pgettext(context, message))


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it: it is kept in English
    (an option description, a table of templates) and shown later through ``_()``."""
    return message


_FORMATTER = string.Formatter()
_ELIDED = re.compile(r"(?:^|(?<=[\s(«]))(de|que|De|Que) $")
_VOWEL = re.compile(r"[aeiouyàâæéèêëîïôœùûü]", re.IGNORECASE)


class FrenchTemplate(str):
    """A French text whose ``format`` elides as French does where a value begins with a
    vowel: "de {player}" reads "d'Ann", "que {player}" "qu'Ann" (and "de Bob" stays)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        parts: list[str] = []
        position = 0
        for literal, field, spec, conversion in _FORMATTER.parse(self):
            if field is None:
                parts.append(literal)
                continue
            if field == "":
                field, position = str(position), position + 1
            value = _FORMATTER.convert_field(_FORMATTER.get_field(field, args, kwargs)[0], conversion)
            shown = _FORMATTER.format_field(value, spec or "")
            elided = _ELIDED.search(literal) if _VOWEL.match(shown) else None
            if elided:
                word = elided.group(1)
                literal = literal[: elided.start()] + word[:-1] + "'"
            parts.append(literal + shown)
        return "".join(parts)
