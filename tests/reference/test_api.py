"""The reference API: sections per game, search across games, option passages to highlight."""

from __future__ import annotations

import pytest

from companion import i18n, reference
from companion.reference import normalize, option_passages, search, sections
from companion.rules import RuleError


def found(term: str, lang: str) -> set[tuple[str, str]]:
    return {(p.ruleset_id, p.id) for p in search(term, lang)}


def test_sections_come_in_reading_order_with_titles_and_bodies():
    passages = sections("clubs", "en")
    assert [p.id for p in passages[:4]] == ["goal", "setup", "turn", "bonus-cards"]
    assert passages[1].title == "Setup"
    assert passages[1].body.startswith("The deck has 60 cards")
    assert "{#" not in passages[1].title


def test_sections_in_another_language_keep_the_ids():
    english = sections("klaverjassen", "en")
    dutch = sections("klaverjassen", "nl")
    assert [p.id for p in dutch] == [p.id for p in english]
    assert dutch[0].title == "Doel van het spel"
    assert {p.lang for p in dutch} == {"nl"}


def test_sections_follow_the_app_language_by_default():
    with i18n.speaking("de"):
        assert sections("beverbende")[0].title == "Ziel des Spiels"


def test_an_unknown_language_falls_back_to_english():
    assert sections("members_only", "xx") == sections("members_only", "en")


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(RuleError, match="no game called 'whist'"):
        sections("whist", "en")


def test_examples_are_the_quoted_paragraphs_without_markers():
    scoring = next(p for p in sections("clubs", "en") if p.id == "scoring")
    assert len(scoring.examples) == 1
    assert scoring.examples[0].startswith("With 4 players, Ann goes out first (8)")
    assert ">" not in scoring.examples[0]


@pytest.mark.parametrize(
    ("term", "lang", "expected"),
    [
        ("pit", "en", {("klaverjassen", "pit"), ("klaverjassen", "option-defenders_pit_bonus")}),
        ("risk stone", "en", {("members_only", "setup"), ("members_only", "risk-stone"), ("members_only", "scoring")}),
        ("Doppelstein", "de", {("members_only", "setup"), ("members_only", "turn"), ("members_only", "risk-stone"),
                               ("members_only", "scoring")}),
        ("boompje", "nl", {("klaverjassen", "end"), ("klaverjassen", "option-ending")}),
    ],
)
def test_search_finds_every_passage_that_mentions_a_term(term, lang, expected):
    assert found(term, lang) == expected


def test_search_spans_all_games():
    hits = found("Double", "en")
    assert ("clubs", "option-double_cards") in hits
    assert ("clubs", "variant-teams") in hits
    assert ("members_only", "risk-stone") in hits  # "double stone"


def test_search_ignores_case():
    assert found("ROEM", "nl") == found("roem", "nl") != set()


def test_search_ignores_accents_both_ways():
    assert ("clubs", "scoring") in found("decompte", "fr")
    assert found("décompte", "fr") == found("DECOMPTE", "fr")
    assert ("members_only", "setup") in found("weiss", "de") | found("weiß", "de")


def test_search_ignores_markdown_emphasis():
    # "**Double Cards**" in the text is found as plain words.
    assert ("clubs", "option-double_cards") in found("call Double Cards", "en")


def test_a_phrase_is_found_across_a_line_break():
    passage = reference.Passage("members_only", "x", "Stones", "one white **risk\nstone** each", "en")
    assert passage.mentions("white risk stone")
    assert not passage.mentions("black risk stone")


@pytest.mark.parametrize("blank", ["", "   ", "**"])
def test_a_blank_search_finds_nothing(blank):
    assert search(blank, "en") == []


def test_option_passages_of_a_game_in_reading_order():
    options = {"ending": "501", "variant": "rotterdam", "four_jacks": 100}
    passages = option_passages("klaverjassen", options, "en")
    assert [p.option for p in passages] == ["variant", "four_jacks", "ending"]


def test_option_passages_take_names_as_well():
    assert [p.id for p in option_passages("beverbende", ["rounds"], "fr")] == ["option-rounds"]
    assert option_passages("beverbende", ["rounds"], "fr")[0].title == "Nombre de manches"


def test_option_passages_of_a_game_without_options():
    assert option_passages("members_only", {}, "en") == []


def test_option_passages_refuse_an_unknown_option():
    with pytest.raises(RuleError, match="no option called 'jokers'"):
        option_passages("clubs", {"jokers": True}, "en")


def test_normalize_folds_accents_case_markup_and_spaces():
    assert normalize("  Ça **Déçoit**\n  fort ") == "ca decoit fort"
    assert normalize("Weiß") == "weiss"


def test_passage_option_name():
    passage = option_passages("clubs", ["wild_15"], "en")[0]
    assert passage.option == "wild_15"
    assert next(p for p in sections("clubs", "en") if p.id == "scoring").option is None
    assert reference.OPTION_PREFIX + "wild_15" == passage.id
