"""Rules search by words (issue 15 point 13): any order, any plural or ending, in four languages.

The examples are the issue's: "stone left", "stones back" and "lost stone" must find the
MEMBERS ONLY rule on lost stones, and "one stone" must put that section first, not the
turn's "each field holds one stone"; the same questions asked in Dutch, German and French.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rules
from companion.reference import LANGUAGES, Passage, search, sections, words

LOST_STONES = ("members_only", "lost-stones")


def first(term: str, lang: str) -> tuple[str, str]:
    return next((p.ruleset_id, p.id) for p in search(term, lang))


def found(term: str, lang: str) -> set[tuple[str, str]]:
    return {(p.ruleset_id, p.id) for p in search(term, lang)}


@pytest.mark.parametrize(
    ("lang", "term"),
    [
        ("en", "stone left"),
        ("en", "stones back"),
        ("en", "lost stone"),
        ("en", "one stone"),
        ("nl", "steen over"),
        ("nl", "stenen terug"),
        ("nl", "verloren steen"),
        ("nl", "één steen"),
        ("de", "Stein übrig"),
        ("de", "Steine zurück"),
        ("de", "verlorener Stein"),
        ("de", "ein Stein"),
        ("fr", "jeton restant"),
        ("fr", "jetons récupérés"),
        ("fr", "jeton perdu"),
        ("fr", "un jeton"),
    ],
)
def test_a_question_about_lost_stones_finds_that_rule_first(lang, term):
    assert first(term, lang) == LOST_STONES


def test_one_stone_ranks_the_rule_above_the_turn_that_says_one_stone_too():
    hits = [p.id for p in search("one stone", "en") if p.ruleset_id == "members_only"]
    assert next(p for p in sections("members_only", "en") if p.id == "turn").mentions("one stone")
    assert hits.index("lost-stones") < hits.index("turn")


@pytest.mark.parametrize(("lang", "words_typed"), [("en", "risk stone"), ("de", "Wette falsche"), ("fr", "jeton risque")])
def test_words_are_found_in_any_order(lang, words_typed):
    backwards = " ".join(reversed(words_typed.split()))
    assert found(backwards, lang) == found(words_typed, lang) != set()


@pytest.mark.parametrize(
    ("lang", "one", "other"),
    [
        ("en", "stone", "stones"),
        ("en", "scores", "scoring"),
        ("nl", "steen", "stenen"),
        ("nl", "kaart", "kaarten"),
        ("de", "Stein", "Steine"),
        ("de", "verloren", "verlorene"),
        ("fr", "jeton", "jetons"),
        ("fr", "perdu", "perdus"),
    ],
)
def test_plural_and_endings_find_the_same_passages(lang, one, other):
    assert found(one, lang) == found(other, lang) != set()


@pytest.mark.parametrize(("lang", "part", "compound"), [("nl", "steen", "risicosteen"), ("de", "Stein", "Risikostein")])
def test_a_word_is_found_inside_dutch_and_german_compounds(lang, part, compound):
    assert found(compound, lang) <= found(part, lang)


def test_a_word_is_not_found_inside_another_english_word():
    inside = Passage("members_only", "x", "Stones", "none of them, or someone's stones", "en")
    assert not inside.holds(words.stem("one", "en"))
    assert Passage("members_only", "x", "Stones", "one of them", "en").holds(words.stem("one", "en"))


def test_a_title_holding_the_words_comes_before_a_passage_that_only_mentions_them():
    hits = search("risk stone", "en")
    assert hits[0].id == "risk-stone"
    assert {p.id for p in hits[1:]} == {"setup", "scoring"}


def test_without_a_passage_holding_every_word_those_holding_most_are_found():
    hits = search("stone dragon", "en")
    assert hits and all(not p.holds_every_word("stone dragon") and p.words_held("stone dragon") == 1 for p in hits)
    assert {(p.ruleset_id, p.id) for p in hits} == found("stone", "en")


def _passages():
    return [p for lang in LANGUAGES for game in rules.IDS for p in sections(game, lang)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_passages()), st.integers(1, 3), st.randoms(use_true_random=False))
def test_words_taken_from_a_passage_find_it_and_only_passages_holding_them_all(passage, count, rnd: random.Random):
    text_words = words.split(passage.searchable)
    term = " ".join(rnd.sample(text_words, min(count, len(text_words))))
    hits = search(term, passage.lang)
    assert passage in hits
    assert all(hit.holds_every_word(term) for hit in hits)

