"""Rules reference screen: one game's rules, search across games, the game's options highlighted."""

from __future__ import annotations

import flet as ft
import pytest

from companion import i18n, rules
from companion.rules import RuleError
from companion.ui.reference import ReferenceState, reference_view
from tests.ui.tree import find, text, walk


def ids(state: ReferenceState) -> list[str]:
    return [shown.passage.id for shown in state.passages()]


def test_opens_on_the_first_game_without_a_game():
    state = ReferenceState()
    assert state.game == "clubs"
    assert ids(state)[:3] == ["goal", "setup", "turn"]
    assert state.summary() == "CLUBS"


def test_opens_on_the_given_game():
    state = ReferenceState("members_only")
    assert state.summary() == "MEMBERS ONLY"
    assert "risk-stone" in ids(state)
    assert not any(shown.highlighted for shown in state.passages())


def test_the_options_of_the_game_are_highlighted_with_their_setting():
    game = rules.get("clubs").new_game(["Ann", "Bob", "Cy"], options={"target": 100, "wild_15": True})
    state = ReferenceState("clubs", game.options)
    highlighted = {s.passage.option: s.setting for s in state.passages() if s.highlighted}
    assert highlighted == {
        "target": "In your game: 100",
        "break_ties": "In your game: no (the default)",
        "double_cards": "In your game: yes (the default)",
        "wild_15": "In your game: yes",
        "crazy": "In your game: no (the default)",
    }
    assert all(s.setting is None for s in state.passages() if not s.highlighted)


def test_only_the_named_options_are_highlighted():
    state = ReferenceState("klaverjassen", {"variant": "rotterdam"})
    assert [s.passage.id for s in state.passages() if s.highlighted] == ["option-variant"]


def test_another_game_is_not_highlighted():
    state = ReferenceState("clubs", {"crazy": True})
    state.choose_game("beverbende")
    assert not any(s.highlighted for s in state.passages())


def test_unknown_options_are_refused():
    with pytest.raises(RuleError):
        ReferenceState("clubs", {"jokers": True})


def test_search_spans_every_game_and_says_how_many():
    state = ReferenceState("beverbende")
    state.set_query("Double")
    games = {s.passage.ruleset_id for s in state.passages()}
    assert games == {"clubs", "members_only"}
    assert state.summary() == f"{len(state.passages())} passages mention \u201cDouble\u201d."
    assert state.passages()[0].game == "CLUBS"


def test_one_hit_is_singular():
    state = ReferenceState()
    state.set_query("mars")
    assert state.summary() == "1 passage mentions \u201cmars\u201d."


def test_a_search_with_no_hits_says_so():
    state = ReferenceState()
    state.set_query("canasta")
    assert state.passages() == []
    assert state.summary() == "Nothing in the rules mentions \u201ccanasta\u201d."


def test_search_keeps_highlights_of_the_game():
    state = ReferenceState("klaverjassen", {"defenders_pit_bonus": True})
    state.set_query("pit")
    shown = {s.passage.id: s.highlighted for s in state.passages()}
    assert shown == {"pit": False, "option-defenders_pit_bonus": True}


def test_choosing_a_game_ends_the_search():
    state = ReferenceState()
    state.set_query("roem")
    state.choose_game("klaverjassen")
    assert not state.searching and state.summary() == "Klaverjassen"


def test_a_blank_search_shows_the_game():
    state = ReferenceState("beverbende")
    state.set_query("   ")
    assert not state.searching and ids(state)[0] == "goal"


def test_the_texts_follow_the_app_language():
    with i18n.speaking("nl"):
        state = ReferenceState("klaverjassen")
        assert state.passages()[0].passage.title == "Doel van het spel"
        state.set_query("verzaken")
        assert {s.passage.id for s in state.passages()} >= {"verzaakt"}


def test_the_view_opens_with_options_highlighted():
    root = reference_view("klaverjassen", {"ending": "boompje"})
    assert text(find(root, "reference-summary")) == "Klaverjassen"
    assert text(find(root, "reference-setting-klaverjassen-ending")) == "In your game: boompje"
    find(root, "reference-passage-klaverjassen-pit")


def test_the_view_searches_as_you_type():
    root = reference_view()
    field = find(root, "reference-search")
    field.value = "risk stone"
    field.on_change(type("Event", (), {"control": field})())
    assert text(find(root, "reference-summary")) == "3 passages mention \u201crisk stone\u201d."
    find(root, "reference-passage-members_only-risk-stone")
    passages = [c for c in walk(root) if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("reference-passage-")]
    assert len(passages) == 3


def test_the_view_switches_games():
    root = reference_view("clubs")
    find(root, "reference-game-beverbende").on_click(None)
    assert text(find(root, "reference-summary")) == "Beverbende"
    find(root, "reference-passage-beverbende-knock")


def test_a_search_without_every_word_says_only_most_of_it_was_found():
    state = ReferenceState()
    state.set_query("stone dragon")
    assert state.passages()
    assert state.summary() == f"No passage holds every word; {len(state.passages())} passages hold most of \u201cstone dragon\u201d."


def test_a_question_in_other_words_finds_the_rule_first():
    state = ReferenceState("clubs")
    state.set_query("stones back")
    assert state.passages()[0].passage.id == "lost-stones"
    assert state.summary().endswith("mention \u201cstones back\u201d.")
