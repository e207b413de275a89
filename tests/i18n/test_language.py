"""Which language the app speaks: the choice remembered in settings, else the device's
preferred locales, else English; each UI session its own, the process language elsewhere."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.i18n import LANGUAGES, _, choose, environment_language, ngettext, supported


@pytest.fixture
def sessions():
    """A stand-in for the UI: the language of 'the session the code serves' is whatever ``current`` says."""
    current: dict[str, str | None] = {"language": None}
    with i18n.speaking(i18n.SOURCE_LANGUAGE):
        i18n.follow_sessions(lambda: current["language"])
        yield current


@pytest.mark.parametrize(
    "tag, language",
    [
        ("nl", "nl"),
        ("nl-BE", "nl"),
        ("de_AT.UTF-8", "de"),
        ("fr_CA@euro", "fr"),
        ("FR", "fr"),
        ("en-GB", "en"),
        ("pt-BR", None),
        ("C.UTF-8", None),
        ("", None),
        (None, None),
    ],
)
def test_a_locale_tag_names_the_language_before_its_region(tag, language):
    assert supported(tag) == language


def test_the_device_locale_is_spoken_when_nothing_was_chosen():
    assert choose(None, ["nl-NL"]) == "nl"


def test_the_first_device_locale_the_app_speaks_wins():
    assert choose(None, ["pt-BR", "de-AT", "fr-FR"]) == "de"


def test_the_language_chosen_in_settings_wins_over_the_device():
    assert choose("fr", ["nl-NL", "de-DE"]) == "fr"


def test_a_remembered_language_the_app_no_longer_speaks_falls_back_to_the_device():
    assert choose("xx", ["de-CH"]) == "de"


def test_with_no_language_the_app_speaks_it_is_english():
    assert choose(None, ["pt-BR", "ja"]) == "en"
    assert choose(None) == "en"


@pytest.mark.parametrize(
    "environ, language",
    [
        ({"LANG": "nl_NL.UTF-8"}, "nl"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "nl_NL.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "nl_NL.UTF-8"}, "de"),
        ({"LANGUAGE": "pt:de", "LANG": "nl_NL.UTF-8"}, "de"),
        ({"LANGUAGE": "pt", "LANG": "fr_BE.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_command_line_follows_the_posix_locale_variables(environ, language):
    assert environment_language(environ) == language


def test_the_four_languages_are_each_named_in_themselves():
    assert LANGUAGES == ("en", "nl", "de", "fr")
    assert [i18n.LANGUAGE_NAMES[code] for code in LANGUAGES] == ["English", "Nederlands", "Deutsch", "Français"]


def test_each_session_hears_its_own_language(sessions):
    sessions["language"] = "nl"
    assert (_("jack"), i18n.language()) == ("boer", "nl")
    sessions["language"] = "de"
    assert (_("jack"), i18n.language()) == ("Bube", "de")


def test_outside_any_session_the_process_language_is_spoken(sessions):
    i18n.set_language("fr")
    assert (_("jack"), i18n.language()) == ("valet", "fr")
    sessions["language"] = "nl"
    assert _("jack") == "boer"


def test_a_session_in_english_hears_the_source_text_whatever_the_process_speaks(sessions):
    i18n.set_language("de")
    sessions["language"] = "en"
    assert _("jack") == "jack"


def test_plurals_follow_the_session_language(sessions):
    singular = "The last card drawn was not needed: the next player goes on with it."
    plural = "The last {n} cards drawn were not needed: the next player goes on with them."
    sessions["language"] = "nl"
    one, three = ngettext(singular, plural, 1), ngettext(singular, plural, 3)
    assert one.startswith("De laatst") and three.startswith("De laatste {n}")
    sessions["language"] = "en"
    assert (ngettext(singular, plural, 1), ngettext(singular, plural, 3)) == (singular, plural)


def test_an_unknown_process_language_is_english(sessions):
    i18n.set_language("xx")
    assert (_("jack"), i18n.language()) == ("jack", "en")


def test_speaking_a_language_for_a_while_leaves_the_one_before_behind(sessions):
    i18n.set_language("fr")
    with i18n.speaking("nl"):
        i18n.follow_sessions(lambda: "de")
        assert _("jack") == "Bube"
    assert (_("jack"), i18n.language()) == ("valet", "fr")  # the process language and the session lookup before
