"""What players read when the rules refuse an entry or a referee explains a ruling.

The rules stay free of any language: every message is an English template and its values
(``RuleError``, ``companion.rules.text.Phrase``), translated through ``companion.i18n``
when it is read. These tests pin the English sentence each kind of bad entry gives, check
that every template is a literal the catalogue extraction finds, and that an installed
translation replaces the template with the values filled in.
"""

from __future__ import annotations

import ast
import gettext
import re
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.frontend import parse_keywords

import companion
from companion import i18n, rules
from companion.rules import RuleError
from companion.rules.beverbende import final_card, final_row, last_turns, may_knock
from companion.rules.clubs import judge_play
from companion.rules.klaverjassen import legal_cards, trick_points, trick_winner
from companion.rules.text import Names, Phrase

PACKAGE = Path(companion.__file__).parent
EXTRACTION_SCRIPT = PACKAGE.parent / "scripts" / "update-translations.sh"


@cache
def extracted_messages() -> frozenset[str]:
    """The message ids scripts/update-translations.sh extracts from the package (as pybabel does)."""
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update(parse_keywords(re.findall(r"--keywords=(\S+)", EXTRACTION_SCRIPT.read_text())))
    found = set()
    for path in PACKAGE.rglob("*.py"):
        with path.open("rb") as source:
            for _, message, _, _ in extract("python", source, keywords=keywords):
                found.update([message] if isinstance(message, str) else message)
    return frozenset(found)


def templates(value: object) -> set[str]:
    """Every template in a phrase, a name list or an error, nested values included."""
    if isinstance(value, RuleError):
        return {value.template}.union(*map(templates, value.params.values()))
    if isinstance(value, Phrase):
        return {value.template}.union(*map(templates, value.params.values()))
    if isinstance(value, Names):
        return {"{names} and {last}"}.union(*map(templates, value))
    return set()


def refusal(ruleset_id, players, entry, options=None, teams=None, earlier=()) -> RuleError:
    """The error a game of ``ruleset_id`` gives for ``entry`` after the ``earlier`` rounds."""
    game = rules.get(ruleset_id).new_game(players, options, teams)
    for round_entry in earlier:
        game = game.add_round(round_entry)
    with pytest.raises(RuleError) as caught:
        game.add_round(entry)
    return caught.value


def assert_reads(err: RuleError, message: str, field: str | None) -> None:
    assert (str(err), err.field) == (message, field)
    assert templates(err) <= extracted_messages()


# --- CLUBS ------------------------------------------------------------------------------

FOUR = ["Ann", "Bob", "Cy", "Dee"]
PAIRS = {"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]}


@pytest.mark.parametrize(
    "players, teams, entry, message, field",
    [
        (FOUR, None, {"out_order": ["Ann"], "bid": 3}, "A CLUBS round has no 'bid'; it takes out_order, club_points and double.", "bid"),
        (FOUR, None, {}, "Say who went out, in order.", "out_order"),
        (FOUR, None, {"out_order": "Ann"}, "Who went out must be a list of names, in order.", "out_order"),
        (FOUR, None, {"out_order": ["Zed"]}, "Zed is not at this table, so cannot have gone out.", "out_order"),
        (FOUR, None, {"out_order": ["Ann", "Ann"]}, "Ann cannot go out twice in one round.", "out_order"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "club_points": [3]}, "Club points must be given per player (name: points).", "club_points"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "club_points": {"Zed": 3}}, "Zed is not at this table, so cannot have club points.", "club_points.Zed"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "club_points": {"Bob": -2}}, "Bob's club points must be a whole number of 0 or more, not -2.", "club_points.Bob"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "double": "Ann"}, "Who called Double Cards must be a list of names.", "double"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "double": ["Zed"]}, "Zed is not at this table, so cannot have called Double Cards.", "double"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy"], "double": ["Bob", "Bob"]}, "Bob is listed twice as calling Double Cards.", "double"),
        (FOUR, None, {"out_order": ["Ann", "Bob", "Cy", "Dee"]}, "Dee cannot go out: the round ends when only Dee still holds cards, and Dee takes the 0 bonus card.", "out_order"),
        (["Ann", "Bob"], None, {"out_order": ["Bob", "Ann"]}, "Ann cannot go out too: with two players the round ends when the first goes out.", "out_order"),
        (FOUR, PAIRS, {"out_order": ["Bob", "Dee", "Ann"]}, "Ann cannot have gone out: the round was over as soon as only players of North held cards.", "out_order"),
        (FOUR, PAIRS, {"out_order": ["Bob"]}, "The round was not over while Ann, Cy and Dee still held cards: it ends only when the players holding cards all belong to one team.", "out_order"),
        (FOUR, None, {"out_order": ["Ann", "Bob"]}, "Cy and Dee cannot both take the 0 bonus card: the round goes on until only one player holds cards.", "out_order"),
        (FOUR, None, {"out_order": ["Ann"]}, "Bob, Cy and Dee cannot all still hold cards at the end: the round goes on until only one player does.", "out_order"),
        (["Ann", "Bob"], None, {"out_order": []}, "Ann and Bob cannot both still hold cards at the end: the round goes on until only one player does.", "out_order"),
    ],
)
def test_clubs_refusals_read_as_plain_english(players, teams, entry, message, field):
    assert_reads(refusal("clubs", players, entry, teams=teams), message, field)


def test_clubs_double_cards_switched_off_is_refused_in_words():
    err = refusal("clubs", FOUR, {"out_order": ["Ann", "Bob", "Cy"], "double": ["Ann"]}, {"double_cards": False})
    assert_reads(err, "Double Cards is not played in this game.", "double")


def test_clubs_team_shapes_outside_the_rulebook_name_the_sizes():
    with pytest.raises(RuleError) as caught:
        rules.get("clubs").new_game(FOUR + ["Eve"], teams={"A": ["Ann", "Bob", "Cy"], "B": ["Dee", "Eve"]})
    assert_reads(
        caught.value,
        "Team CLUBS is played by 4 players as two teams of two, or by 6 players as three teams of two "
        "or two teams of three; not 5 players in teams of 3 and 2.",
        "teams",
    )


@pytest.mark.parametrize(
    "previous, play, options, message, field",
    [
        (None, "7", {}, "The play must be a list of card values.", "play"),
        (7, [8], {}, "The previous must be a list of card values.", "previous"),
        (None, [], {}, "Choose the cards to play.", "play"),
        ([], [3], {}, "Choose the cards on the table.", "previous"),
        (None, [16], {}, "16 is no CLUBS card: cards are 1 to 15.", "play"),
        (None, list(range(1, 12)), {}, "A hand holds only 10 cards, so no play has 11.", "play"),
        ([4, 4, 4], [4, 4], {}, "The deck has only four 4s.", "play"),
        (None, [4], {"play_kind": "pair"}, "A play is a single, a set or a run, not 'pair'.", "kind"),
        ([3, 9], [10, 10], {}, "The cards on the table cannot have been played: they form no single, set or run.", "previous"),
        ([3, 4], [9, 9], {"previous_kind": "set"}, "The cards on the table cannot have been played as a set: they form no single, set or run.", "previous"),
        ([4, 4], [9, 10], {"previous_kind": "run"}, "The cards on the table cannot have been played as a run: they form no single, set or run.", "previous"),
        ([4, 4], [9, 9], {"previous_kind": "single"}, "The cards on the table cannot have been played as a single: they form no single, set or run.", "previous"),
    ],
)
def test_clubs_referee_refuses_impossible_cards_in_words(previous, play, options, message, field):
    with pytest.raises(RuleError) as caught:
        judge_play(previous, play, **options)
    assert_reads(caught.value, message, field)


@pytest.mark.parametrize(
    "previous, play, options, reason",
    [
        (None, [7], {}, "Any single, set or run may lead: this is a single 7."),
        (None, [3, 4, 5], {}, "Any single, set or run may lead: this is a run 3-4-5."),
        (None, [7, 15], {"wild_15": True}, "Any single, set or run may lead: this is a run 7-8 (the 15 standing for 8). It may also be led as a set of two 7s (the 15 standing for 7)."),
        (None, [15], {}, "Any single, set or run may lead: this is a single 15. The 15 wins the trick at once."),
        (None, [15], {"crazy": True}, "Any single, set or run may lead: this is a single 15. In Crazy CLUBS the 15 does not win at once: the trick goes on until all others pass."),
        ([4, 4], [6, 6], {}, "A set of two 6s beats a set of two 4s."),
        ([4, 4], [6, 6, 6], {}, "On a set of two 4s you must play exactly 2 cards, not 3."),
        ([7], [5], {}, "Your highest card must beat the 7 on the table; a single 5 does not."),
        ([15], [3], {}, "The trick was won the moment a 15 was played (a single 15); its player leads the next one."),
        ([4, 4], [5, 6], {}, "The trick is played in sets; a run 5-6 cannot follow a set of two 4s."),
        ([4], [5, 6], {}, "The trick is played in singles; a run 5-6 cannot follow a single 4."),
        ([4, 5], [9], {}, "The trick is played in runs; a single 9 cannot follow a run 4-5."),
        ([4, 5], [9], {"crazy": True}, "The trick is played in runs (in Crazy CLUBS a single counts as a set of one); a single 9 cannot follow a run 4-5."),
        ([4, 4, 4], [2, 2], {"crazy": True}, "In Crazy CLUBS you may play more cards than a set of three 4s, never fewer."),
        ([9], [2, 2], {"crazy": True}, "In Crazy CLUBS more cards beat fewer, whatever the values: a set of two 2s beats a single 9."),
        ([9, 9], [3, 3], {"crazy": True}, "With as many cards, your highest must beat the 9 on the table; a set of two 3s does not."),
        ([4, 15], [9, 9], {"wild_15": True}, "A set of two 9s beats a set of two 4s (the 15 standing for 4). This assumes the cards on the table were played as a set."),
        ([4, 15], [6, 7], {"wild_15": True}, "A run 6-7 beats a run 4-5 (the 15 standing for 5). This assumes the cards on the table were played as a run."),
        (None, [3, 5, 9], {}, "3, 5 and 9 form neither a set (equal values) nor a run (values in a row)."),
        (None, [3, 4], {"play_kind": "set"}, "3 and 4 cannot be played as a set."),
        ([2], [15, 15, 15], {"wild_15": True}, "The trick is played in singles; a set of three 15s cannot follow a single 2."),
    ],
)
def test_clubs_referee_explains_each_ruling_in_whole_sentences(previous, play, options, reason):
    verdict = judge_play(previous, play, **options)
    assert verdict.reason == reason
    assert set().union(*map(templates, verdict.reasons)) <= extracted_messages()


# --- Klaverjassen ----------------------------------------------------------------------

US, THEM = "Ann & Cy", "Bob & Dee"


def deal(us: int, them: int | None = None, **parts) -> dict:
    return {"card_points": {US: us, THEM: 162 - us if them is None else them}, **parts}


@pytest.mark.parametrize(
    "entry, options, message, field",
    [
        ({"card_points": {US: 80, THEM: 82}, "bid": 1}, {}, "A Klaverjassen deal has no 'bid'; use card_points, roem, pit, verzaakt, playing.", "bid"),
        ({}, {}, "Enter the card points of both teams.", "card_points"),
        ({"card_points": [80, 82]}, {}, "Card points must give each team's points.", "card_points"),
        ({"card_points": {US: 80, "Zed": 82}}, {}, "'Zed' is not a team in this game; the teams are Ann & Cy and Bob & Dee.", "card_points"),
        ({"card_points": {US: 162}}, {}, "Enter the card points of Bob & Dee.", f"card_points.{THEM}"),
        (deal(80, "82"), {}, "The card points of Bob & Dee must be a whole number, not '82'.", f"card_points.{THEM}"),
        (deal(170), {}, "Ann & Cy cannot have 170 card points; a deal has 162 in all.", f"card_points.{US}"),
        (deal(161), {}, "Ann & Cy cannot have 161 card points; no set of tricks is worth that.", f"card_points.{US}"),
        (deal(80, 80), {}, "The card points add up to 160, but every deal has 162 (152 in the cards and 10 for the last trick).", "card_points"),
        (deal(80, roem=[20]), {}, "Roem must give each team's roem.", "roem"),
        (deal(80, roem={THEM: 2.5}), {}, "The roem of Bob & Dee must be a whole number, not 2.5.", f"roem.{THEM}"),
        (deal(80, roem={US: 30}), {}, "Ann & Cy cannot have 30 roem; roem is made of 20, 50, 100 and 200, so it is a multiple of 10 other than 10 or 30.", f"roem.{US}"),
        (deal(80, roem={US: 600, THEM: 200}), {"four_of_a_kind": "10 and up"}, "The two teams cannot have more than 700 roem together in one deal.", "roem"),
        (deal(150, pit=US), {}, "Ann & Cy took every trick, so they have all 162 card points.", "pit"),
        (deal(162, pit=US, roem={THEM: 20}), {}, "Bob & Dee took no trick, so Bob & Dee cannot have roem.", f"roem.{THEM}"),
        ({"verzaakt": US, "pit": THEM}, {}, "A deal with a renege is scored as verzaakt; leave pit empty.", "pit"),
        (deal(80, playing="Us"), {}, "'Us' is not a team in this game; the teams are Ann & Cy and Bob & Dee.", "playing"),
    ],
)
def test_klaverjassen_refusals_read_as_plain_english(entry, options, message, field):
    assert_reads(refusal("klaverjassen", FOUR, entry, options), message, field)


def test_klaverjassen_partners_who_do_not_sit_opposite_are_refused_by_seat():
    with pytest.raises(RuleError) as caught:
        rules.get("klaverjassen").new_game(FOUR, teams={"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]})
    assert_reads(
        caught.value,
        "Ann and Bob cannot be partners: partners sit opposite each other (Ann with Cy, Bob with Dee).",
        "teams",
    )


@pytest.mark.parametrize(
    "call, message, field",
    [
        (lambda: trick_winner(["10X"], "H"), "'10X' is not a card; write the rank and then the suit, e.g. 10H, JS, AD or 7C.", "trick"),
        (lambda: trick_winner("JS", "H"), 'The trick must be a list of cards, e.g. ["10H", "JS"].', "trick"),
        (lambda: legal_cards("JS", [], "H"), 'The hand must be a list of cards, e.g. ["10H", "JS"].', "hand"),
        (lambda: trick_winner(["JS", "JS"], "H"), "There is only one JS in the deck, but the trick has it twice.", "trick"),
        (lambda: legal_cards(["AH", "AH"], [], "H"), "There is only one AH in the deck, but the hand has it twice.", "hand"),
        (lambda: trick_points(["JS", "9S"], "H"), "The trick must have 4 cards, not 2.", "trick"),
        (lambda: trick_winner([], "H"), "The trick must have 1 to 4 cards, not 0.", "trick"),
        (lambda: legal_cards([], [], "H"), "The hand must have 1 to 8 cards, not 0.", "hand"),
        (lambda: trick_winner(["JS"], "T"), "Trump must be one of the suits S, H, D or C, not 'T'.", "trump"),
        (lambda: legal_cards(["JS"], [], "H", "utrecht"), "The variant must be amsterdam or rotterdam, not 'utrecht'.", "variant"),
        (lambda: legal_cards(["JS", "7H"], ["JS"], "H"), "JS is already in the trick, so it cannot still be in the hand.", "hand"),
    ],
)
def test_klaverjassen_referee_refuses_impossible_cards_in_words(call, message, field):
    with pytest.raises(RuleError) as caught:
        call()
    assert_reads(caught.value, message, field)


# --- MEMBERS ONLY -----------------------------------------------------------------------

THREE = ["Ann", "Bob", "Cy"]
COUNTS = {"umbrella": 3, "crown": 3, "teacup": 3, "big_ben": 3, "hat": 3}


def bet(player="Ann", symbol="hat", field=">=5", **rest) -> dict:
    return {"player": player, "symbol": symbol, "field": field, **rest}


def hand(*bets, **parts) -> dict:
    return {"bets": list(bets), **({"counts": COUNTS} if not parts else parts)}


def losing(*bets) -> dict:
    """A hand in which every bet (on 8 or more) loses its stone."""
    return hand(*bets)


@pytest.mark.parametrize(
    "entry, earlier, message, field",
    [
        ({**hand(), "note": 1}, [], "A hand has no part called 'note'.", "note"),
        ({"bets": "Ann", "counts": COUNTS}, [], "The bets must be a list.", "bets"),
        (hand("Ann"), [], "Bet 1 must be given as name: value pairs.", "bets.0"),
        (hand(bet(), bet("Bob", colour="red")), [], "Bet 2 has no part called 'colour'.", "bets.1.colour"),
        (hand({"symbol": "hat", "field": ">=5"}), [], "Bet 1 needs the player who placed it.", "bets.0.player"),
        (hand(bet(symbol="cat")), [], "Ann's bet needs a symbol: one of umbrella, crown, teacup, big_ben, hat, not 'cat'.", "bets.0.symbol"),
        (hand(bet(field=">=9")), [], "Ann's bet: '>=9' is not a betting field; the fields are <=1, <=2, <=3, <=4, >=5, >=6, >=7, >=8.", "bets.0.field"),
        (hand(bet(stone="triple")), [], "Ann's bet: A betting stone is single or double, not 'triple'.", "bets.0.stone"),
        (hand(bet(risk="yes")), [], "Whether Ann's bet is on the risk stone must be true or false.", "bets.0.risk"),
        (hand(bet("Zed")), [], "Zed is not at this table.", "bets.0.player"),
        (hand(bet(), bet()), [], "Ann cannot put two stones on 5 or more under the hat; a field holds one stone.", "bets.1.field"),
        (hand(bet(symbol="big_ben", field="<=1"), bet("Bob", "big_ben", "<=1")), [], "Ann and Bob cannot both bet on 1 or fewer under the Big Ben; a field holds one stone.", "bets.1.field"),
        (hand(*[bet(field=f) for f in ("<=1", "<=2", "<=3", "<=4")], bet(field=">=5", stone="double"), bet(field=">=6")), [], "With 3 players everyone gets 5 turns to bet in a hand, so Ann cannot place 6 stones.", "bets.5.player"),
        (hand(bet(stone="double"), bet(field="<=1", stone="double")), [], "Ann has only 1 double stone left, not 2.", "bets.1.stone"),
        (hand(*[bet(field=f) for f in ("<=1", "<=2", "<=3", "<=4", ">=5")]), [], "Ann has only 4 single stones left, not 5.", "bets.4.stone"),
        (hand(bet(stone="double")), [losing(bet(field=">=8", stone="double"))], "Ann has no double stone left.", "bets.0.stone"),
        (hand(bet(), bet(field="<=1")), [losing(*[bet(symbol=s, field=">=8") for s in ("hat", "crown", "teacup")])], "Ann has only 1 single stone left, not 2.", "bets.1.stone"),
        (hand(bet(risk=True), bet(field="<=1", risk=True)), [], "Ann has one risk stone, so only one of their bets in a hand can be on it.", "bets.1.risk"),
        ({"bets": []}, [], "How many cards of each symbol are face up? The hand needs its counts.", "counts"),
        (hand(counts=COUNTS, shown=COUNTS), [], "Give either the counts or the shown and minus cards, not both.", "counts"),
        (hand(counts=[3, 3, 3, 3, 3]), [], "The counts must map each symbol to a number of cards.", "counts"),
        (hand(shown=15), [], "The shown must map each symbol to a number of cards.", "shown"),
        (hand(shown=COUNTS, minus="none"), [], "The minus must map each symbol to a number of cards.", "minus"),
        (hand(counts={**COUNTS, "cat": 1}), [], "'cat' is not a symbol; the symbols are umbrella, crown, teacup, big_ben, hat.", "counts.cat"),
        (hand(counts={"umbrella": 3, "crown": 3, "teacup": 3, "hat": 3}), [], "How many Big Ben cards are face up? Every symbol needs a count.", "counts.big_ben"),
        (hand(counts={**COUNTS, "teacup": -1}), [], "The teacup count must be a whole number of cards, not -1.", "counts.teacup"),
        (hand(counts={**COUNTS, "crown": 12}), [], "There are only 11 crown cards, so 12 cannot be face up.", "counts.crown"),
        (hand(shown=COUNTS, minus={"umbrella": 3}), [], "There are only 2 umbrella minus cards, so 3 cannot be face up.", "minus.umbrella"),
        (hand(counts=dict.fromkeys(COUNTS, 8)), [], "With 3 players 32 cards end face up, so the counts cannot add up to 40.", "counts"),
        (hand(shown=dict.fromkeys(COUNTS, 7)), [], "With 3 players 32 cards end face up, not 35.", "shown"),
        (hand(counts=dict.fromkeys(COUNTS, 2)), [], "With 3 players 32 cards end face up and the minus cards cancel at most 20 of them, so the counts add up to at least 12, not 10.", "counts"),
    ],
)
def test_members_only_refusals_read_as_plain_english(entry, earlier, message, field):
    assert_reads(refusal("members_only", THREE, entry, earlier=earlier), message, field)


# --- Beverbende -------------------------------------------------------------------------

TOTALS = {"Ann": 10, "Bob": 12, "Cy": 14}


@pytest.mark.parametrize(
    "entry, options, earlier, message, field",
    [
        ({"totals": TOTALS, "bonus": 5}, {}, [], "A Beverbende round has no 'bonus'; give cards or totals.", "bonus"),
        ({}, {}, [], "Give either every player's four cards or every player's total for the round.", "cards"),
        ({"totals": TOTALS, "last": "yes"}, {"ending": "time"}, [], "'last' must be true or false.", "last"),
        ({"totals": TOTALS, "last": True}, {}, [], "Only a game played against the clock ends with a round marked last.", "last"),
        ({"cards": [[1, 1, 1, 1]]}, {}, [], "The cards must map each player to the four cards of their row.", "cards"),
        ({"totals": [10, 12, 14]}, {}, [], "The totals must map each player to their total for the round.", "totals"),
        ({"totals": {**TOTALS, "Zed": 4}}, {}, [], "Zed is not playing in this game.", "totals.Zed"),
        ({"totals": {"Ann": 10}}, {}, [], "No total given for Bob and Cy.", "totals.Bob"),
        ({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}}, {}, [], "No cards given for Cy.", "cards.Cy"),
        ({"totals": {"Ann": 5, "Bob": 5, "Cy": 5}}, {"ending": "elimination"}, [{"totals": {"Ann": 36, "Bob": 10, "Cy": 10}}] * 3, "Ann is out (reached 100) and plays no more rounds.", "totals.Ann"),
        ({"cards": {"Ann": [1, 2], "Bob": [2, 2, 2, 2], "Cy": [3, 3, 3, 3]}}, {}, [], "Ann must have exactly 4 cards.", "cards.Ann"),
        ({"cards": {"Ann": [1, "swap", 2, 3], "Bob": [2, 2, 2, 2], "Cy": [3, 3, 3, 3]}}, {}, [], "Ann shows 'swap', but a card counts 0 to 9 (special cards are replaced first).", "cards.Ann"),
        ({"cards": {"Ann": [3, 3, 3, 1], "Bob": [3, 3, 0, 0], "Cy": [5, 5, 6, 6]}}, {}, [], "The deck holds only 4 cards of value 3, but this round shows 5.", "cards"),
        ({"totals": {**TOTALS, "Ann": 37}}, {}, [], "Ann's four cards add up to 0 to 36, not 37.", "totals.Ann"),
        ({"totals": {"Ann": 0, "Bob": 3, "Cy": 20}}, {}, [], "Ann and Bob cannot score only 3 together: the deck's lowest 8 cards already add up to 4.", "totals.Bob"),
        ({"totals": {"Ann": 36, "Bob": 36, "Cy": 36}}, {}, [], "Ann, Bob and Cy cannot score 108 together: the deck's highest 12 cards add up to only 105.", "totals.Cy"),
    ],
)
def test_beverbende_refusals_read_as_plain_english(entry, options, earlier, message, field):
    assert_reads(refusal("beverbende", THREE, entry, options, earlier=earlier), message, field)


@pytest.mark.parametrize(
    "call, message, field",
    [
        (lambda: may_knock([1]), "Beverbende needs at least two players.", "turns_taken"),
        (lambda: may_knock([1, -1]), "Turns taken must be whole numbers of at least 0.", "turns_taken"),
        (lambda: last_turns(THREE, "Zed"), "Zed is not at the table.", "knocker"),
        (lambda: final_card(["swap", "peek"]), "Keep drawing: a special card is only replaced by a number card.", "cards"),
        (lambda: final_card(["joker"]), "'joker' is no Beverbende card: cards are 0 to 9 or one of swap, peek, draw_twice.", "cards"),
        (lambda: final_row([1, 2, 3], [4]), "A row has 4 cards, not 3.", "cards"),
    ],
)
def test_beverbende_referee_helpers_refuse_impossible_cards_in_words(call, message, field):
    with pytest.raises(RuleError) as caught:
        call()
    assert_reads(caught.value, message, field)


def test_an_unknown_game_is_refused_with_the_games_there_are():
    with pytest.raises(RuleError) as caught:
        rules.get("chess")
    assert_reads(
        caught.value, "There is no game called 'chess'; choose one of clubs, klaverjassen, members_only, beverbende.", "ruleset"
    )


# --- every template is extractable ------------------------------------------------------


def _calls_to(name: str):
    """Every call of ``name`` (as a name or an attribute) in the package, with where it is."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    yield f"{path.relative_to(PACKAGE.parent)}:{node.lineno}", node


def test_every_rule_error_message_is_a_literal_template():
    """Babel extracts ``RuleError:1`` only from a string literal: no f-strings, no variables."""
    calls = list(_calls_to("RuleError"))
    assert len(calls) > 100  # the whole package is scanned, the rules engine included
    not_literal = [
        where
        for where, call in calls
        if not (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))
    ]
    assert not_literal == []


@pytest.mark.parametrize("name", ["RuleError", "Phrase"])
def test_every_literal_template_gets_exactly_its_placeholders(name):
    """A placeholder without a value would fail only when that message is shown; a value
    without a placeholder would be silently dropped from the sentence."""
    mismatched = []
    for where, call in _calls_to(name):
        if not call.args or not isinstance(call.args[0], ast.Constant) or any(k.arg is None for k in call.keywords):
            continue
        wanted = {field for _, field, _, _ in string.Formatter().parse(call.args[0].value) if field is not None}
        given = {keyword.arg for keyword in call.keywords}
        if wanted != given:
            mismatched.append((where, sorted(wanted), sorted(given)))
    assert mismatched == []


# --- translation at read time ---------------------------------------------------------


class Catalogue(gettext.NullTranslations):
    """A stand-in catalogue: the given translations, English for everything else."""

    def __init__(self, translations: dict[str, str]):
        super().__init__()
        self.translations = translations

    def gettext(self, message: str) -> str:
        return self.translations.get(message, message)


@pytest.fixture
def dutch(monkeypatch):
    """Speak Dutch from a stand-in catalogue: ``i18n.catalogue`` answers with the given
    translations, and the code under test speaks Dutch as a session of the app does."""

    def install(translations: dict[str, str]) -> None:
        monkeypatch.setattr(i18n, "catalogue", lambda language: Catalogue(translations))

    with i18n.speaking(i18n.SOURCE_LANGUAGE):  # puts the session lookup back afterwards
        i18n.follow_sessions(lambda: "nl")
        yield install


def test_an_error_is_translated_when_read_with_its_values_filled_in(dutch):
    err = refusal("clubs", FOUR, {"out_order": ["Ann", "Ann"]})
    dutch({"{player} cannot go out twice in one round.": "{player} kan niet twee keer uitgaan in één ronde."})
    assert err.message == "Ann kan niet twee keer uitgaan in één ronde."
    assert str(err) == err.message


def test_a_list_of_names_is_joined_in_the_players_language(dutch):
    err = refusal("clubs", FOUR, {"out_order": ["Ann"]})
    dutch(
        {
            "{players} cannot all still hold cards at the end: the round goes on until only one player does.": (
                "{players} kunnen niet allemaal nog kaarten hebben aan het eind."
            ),
            "{names} and {last}": "{names} en {last}",
        }
    )
    assert err.message == "Bob, Cy en Dee kunnen niet allemaal nog kaarten hebben aan het eind."


def test_a_referee_reason_is_translated_phrase_by_phrase(dutch):
    verdict = judge_play([4, 4], [6, 6])
    dutch(
        {
            "{play} beats {table}.": "{play} is hoger dan {table}.",
            "a set of two {value}s": "twee {value}'s",
        }
    )
    assert verdict.reason == "Twee 6's is hoger dan twee 4's."


def test_a_symbol_is_named_in_the_players_language_inside_an_error(dutch):
    err = refusal("members_only", THREE, hand(bet(symbol="big_ben", field="<=1"), bet("Bob", "big_ben", "<=1")))
    dutch(
        {
            "{other} and {player} cannot both bet on {field_name} under the {symbol}; a field holds one stone.": (
                "{other} en {player} kunnen niet allebei op {field_name} bij {symbol} zetten."
            ),
            "{count} or fewer": "{count} of minder",
            "Big Ben": "de Big Ben",
        }
    )
    assert err.message == "Ann en Bob kunnen niet allebei op 1 of minder bij de Big Ben zetten."


def test_an_error_from_a_replayed_round_names_the_round_in_the_players_language(dutch):
    game = rules.get("clubs").new_game(FOUR)
    with pytest.raises(RuleError) as caught:
        rules.Game.replay(game.ruleset, game.setup, [{"out_order": ["Ann", "Bob", "Cy"]}, {"out_order": ["Zed"]}])
    dutch(
        {
            "Round {number}: {reason}": "Ronde {number}: {reason}",
            "{player} is not at this table, so cannot have gone out.": "{player} zit niet aan deze tafel.",
        }
    )
    assert caught.value.message == "Ronde 2: Zed zit niet aan deze tafel."


def test_an_untranslated_template_reads_in_english_with_its_values(dutch):
    dutch({})
    assert refusal("clubs", FOUR, {"out_order": ["Zed"]}).message == "Zed is not at this table, so cannot have gone out."


@pytest.mark.parametrize("language, round_two", [("nl", "Ronde 2"), ("de", "Runde 2"), ("fr", "Manche 2")])
def test_the_round_a_replayed_error_names_is_in_the_catalogues_of_every_language(language, round_two):
    game = rules.get("clubs").new_game(FOUR)
    with pytest.raises(RuleError) as caught:
        rules.Game.replay(game.ruleset, game.setup, [{"out_order": ["Ann", "Bob", "Cy"]}, {"out_order": ["Zed"]}])
    with i18n.speaking(language):
        assert caught.value.message.startswith(round_two)
