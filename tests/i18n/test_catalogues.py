"""The gettext catalogues are complete and sound: every message of the app is translated
into Dutch, German and French, keeps its {placeholders}, speaks to the player in one
register, and is compiled.

The messages are extracted from the source now, by scripts/update-translations.sh itself
(run on a temporary copy of the catalogues, so the committed files stay as they are).
When a test here fails, run ``scripts/update-translations.sh``, translate the empty
entries in companion/locale/<lang>/LC_MESSAGES/companion.po, and run it again.
(The rules reference texts are Markdown per language, checked in tests/reference.)
"""

from __future__ import annotations

import ast
import gettext
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from companion import i18n
from tests.i18n import source as call_sites

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "update-translations.sh"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
SHOWN = 15
"""How many offending messages a failure lists."""


def load(path: Path) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f)


def po_path(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def key(message_id: str | tuple[str, str], context: str | None) -> str | tuple[str, str]:
    """A message's id, (singular, plural) for plurals, after "<context>\x04" for a message
    with a context (as gettext's compiled catalogues key them)."""
    if context is None:
        return message_id
    if isinstance(message_id, tuple):
        return (f"{context}\x04{message_id[0]}", message_id[1])
    return f"{context}\x04{message_id}"


def messages(catalogue: Catalog) -> dict[str | tuple[str, str], Message]:
    """The catalogue's messages by ``key``; the header left out."""
    return {key(m.id, m.context): m for m in catalogue if m.id}


def listing(items) -> str:
    items = sorted(items, key=repr)
    more = f"\n  ... and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return "".join(f"\n  {item!r}" for item in items[:SHOWN]) + more


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str | tuple[str, str], Message]:
    """The template as the project's own script extracts it from the source today."""
    locale = tmp_path_factory.mktemp("i18n") / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    env = dict(os.environ, LOCALE_DIR=str(locale), PYBABEL=str(Path(sys.executable).with_name("pybabel")))
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return messages(load(locale / f"{i18n.DOMAIN}.pot"))


def placeholders(text: str) -> list[str]:
    """The replacement fields of a str.format template, as written ('{name}', '{value!r}'), sorted."""
    found = []
    for _literal, field, spec, conversion in Formatter().parse(text):
        if field is not None:
            found.append("{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return sorted(found)


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def test_the_committed_template_holds_every_message_of_the_source(extracted):
    committed = messages(load(i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"))
    missing, stale = extracted.keys() - committed.keys(), committed.keys() - extracted.keys()
    if missing or stale:
        pytest.fail(
            "companion.pot is out of date; run scripts/update-translations.sh."
            f"\nIn the source but not in the template:{listing(missing)}"
            f"\nIn the template but no longer in the source:{listing(stale)}",
            pytrace=False,
        )


def test_every_literal_a_translating_function_is_given_is_extracted(extracted):
    """Whatever name a module calls ``_`` or ``ngettext`` by (``_ as translate``, ``i18n._``),
    the text it translates must reach the catalogues, or it is English in every language."""
    missed = []
    for site in call_sites.sites():
        literals = [t.value for t in site.texts if isinstance(t, ast.Constant) and isinstance(t.value, str)]
        if len(literals) != len(site.texts):
            continue  # a marked constant looked up (see tests/i18n/test_call_sites.py)
        if key(literals[0] if len(literals) == 1 else (literals[0], literals[1]), site.context) not in extracted:
            missed.append(site.where)
    if missed:
        pytest.fail(f"translated but never extracted (see scripts/update-translations.sh):{listing(missed)}", pytrace=False)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_translation(extracted, lang):
    translated = messages(load(po_path(lang)))
    untranslated = [
        key
        for key in extracted
        if key not in translated or translated[key].fuzzy or not all(forms(translated[key]))
    ]
    if untranslated:
        pytest.fail(
            f"{len(untranslated)} of {len(extracted)} messages have no (or only a fuzzy) {lang} translation in "
            f"{po_path(lang).relative_to(ROOT)}:{listing(untranslated)}",
            pytrace=False,
        )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_of_their_message(lang):
    """A translation with a placeholder too many fails (KeyError) when shown; one too few loses a value."""
    wrong = []
    for message in messages(load(po_path(lang))).values():
        singular, plural = message.id if message.pluralizable else (message.id, None)
        for index, text in enumerate(forms(message)):
            if not text:
                continue
            try:
                given = placeholders(text)
            except ValueError as err:  # an unbalanced brace: str.format refuses the whole text
                wrong.append((singular, text, str(err)))
                continue
            if plural is None:
                if given != placeholders(singular):
                    wrong.append((singular, text))
            # a plural form may leave out the count its English singular leaves out
            elif not set(placeholders(singular)) <= set(given) <= set(placeholders(singular) + placeholders(plural)):
                wrong.append((singular, index, text))
    if wrong:
        pytest.fail(f"{lang} translations whose placeholders differ from their message's:{listing(wrong)}", pytrace=False)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_the_current_one(lang):
    compiled = io.BytesIO()
    write_mo(compiled, load(po_path(lang)))
    compiled.seek(0)
    with open(po_path(lang).with_suffix(".mo"), "rb") as committed:
        current = gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(compiled)._catalog
    if not current:
        pytest.fail(
            f"{po_path(lang).with_suffix('.mo').name} of {lang} is out of date with its .po; "
            "run scripts/update-translations.sh --compile.",
            pytrace=False,
        )


FORMAL = {
    "nl": re.compile(r"\b(u|uw)\b", re.IGNORECASE),
    "de": re.compile(r"\b\w+en Sie\b|\bIhnen\b|[a-zäöüß,] Ihr(e[mnrs]?)?\b"),
    "fr": re.compile(r"\b(vous|votre|vos)\b|(^|[.;:!?]\s+)\w+ez\b", re.IGNORECASE),
}
"""How each language addresses someone formally: "u", "Sie" (a polite imperative, "Ihnen",
"Ihr" within a sentence), "vous" (its pronouns, or a clause that opens on its imperative)."""

TO_THE_TABLE = frozenset(
    {
        "Play to 501, 1000 or 1500 points, to any other target your club uses, or a boompje of exactly 16 or 12 deals.",
        "Play until time is up; mark the last round when it is",
        "In your game: {value}",
        "In your game: {value} (the default)",
    }
)
"""Messages said to the whole table (German "ihr", Dutch "jullie"): in French the plural
"vous", which is also its formal address."""


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_app_speaks_to_the_player_informally_in_every_language(lang):
    """One register throughout, as a friend at the table would speak: "je", "du", "tu"; a
    formal sentence among them reads as another app's."""
    formal = [
        (message.id, text)
        for message in messages(load(po_path(lang))).values()
        if not (lang == "fr" and message.id in TO_THE_TABLE)
        for text in forms(message)
        if text and FORMAL[lang].search(text)
    ]
    if formal:
        pytest.fail(f"{lang} translations that address the player formally:{listing(formal)}", pytrace=False)
