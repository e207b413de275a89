"""Issue 15 points 13 and 14 at phone size, in each language: a Klaverjassen target typed
beside the quick choices, Beverbende's limit ending, and the rules search by words.

Screenshots: the new game's options with the typed target, and the search's first hit.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import phones

pytestmark = pytest.mark.browser

# locale: (player name label, field beside the quick choices, the options' summary, the
#          scoreboard's target line, search label, a question about lost stones)
LANGUAGES = {
    "en-US": ("Player name", "Or type a number", "Changed: Ending", "Playing to 750 points", "Search the rules",
              "stones back"),
    "nl-NL": ("Naam van de speler", "Of typ een getal", "Gewijzigd: Einde", "Spelen tot 750 punten",
              "Zoek in de regels", "stenen terug"),
    "de-DE": ("Spielername", "Oder tippe eine Zahl ein", "Geändert: Spielende", "Gespielt wird bis 750 Punkte",
              "Regeln durchsuchen", "Steine zurück"),
    "fr-FR": ("Nom du joueur", "Ou tape un nombre", "Modifiées : Fin de partie", "Partie en 750 points",
              "Chercher dans les règles", "jetons récupérés"),
}


@pytest.fixture
def device(chromium, app_url, output_dir):
    """A phone of its own whose browser prefers ``locale``."""
    with phones(chromium, output_dir) as open_phone:
        yield lambda locale: open_phone(app_url, locale=locale)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_klaverjassen_to_a_target_the_club_types(device, locale):
    name_label, field, changed, target_line, _, _ = LANGUAGES[locale]
    phone = device(locale)
    phone.open("/new")
    phone.tap("ruleset-klaverjassen")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"], start=1):
        phone.type(name_label, name)
        phone.wait(f"seat-{seat}")
    phone.tap("options-toggle")
    phone.wait("option-ending-boompje")
    phone.type(field, "750")
    phone.expect_text("options-toggle", changed)
    phone.screenshot(f"new-game-target-{locale}", tall=2000)
    phone.tap("start-game")
    phone.expect_text("next-up", target_line)


LIMIT_LINE = {
    "en-US": "Over when someone reaches 100 · lowest total wins",
    "nl-NL": "Voorbij als iemand 100 haalt · laagste totaal wint",
    "de-DE": "Vorbei, sobald jemand 100 erreicht · niedrigste Summe gewinnt",
    "fr-FR": "Finie quand quelqu'un atteint 100 · le plus bas total gagne",
}


@pytest.mark.parametrize("locale", LANGUAGES)
def test_beverbende_limit_is_offered_and_said_on_the_scoreboard(device, locale):
    name_label, _, changed, *_ = LANGUAGES[locale]
    phone = device(locale)
    phone.open("/new")
    phone.tap("ruleset-beverbende")
    for seat, name in enumerate(["Ann", "Bob"], start=1):
        phone.type(name_label, name)
        phone.wait(f"seat-{seat}")
    phone.tap("options-toggle")
    phone.tap("option-ending-limit")
    phone.expect_text("options-toggle", changed)
    phone.tap("start-game")
    phone.expect_text("next-up", LIMIT_LINE[locale])
    phone.screenshot(f"beverbende-limit-{locale}")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_question_about_lost_stones_finds_that_rule_first(device, locale):
    *_, search_label, question = LANGUAGES[locale]
    phone = device(locale)
    phone.open("/rules")
    phone.type(search_label, question)
    # the search follows each key: the passages to read are those found for the whole question
    phone.expect_text("reference-summary", question)
    first = phone.page.evaluate(
        "() => [...document.querySelectorAll('[flt-semantics-identifier^=\"reference-passage-\"]')]"
        ".sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]"
        ".getAttribute('flt-semantics-identifier')"
    )
    assert first == "reference-passage-members_only-lost-stones"
    phone.screenshot(f"search-lost-stones-{locale}")
