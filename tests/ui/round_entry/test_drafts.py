"""Drafts: a round being entered is kept until it is saved or discarded on purpose, and
carried over (with a notice) when the game changed meanwhile on another device."""

import json

import pytest

from companion import rules
from companion.ui.round_entry import entry_state
from companion.ui.round_entry.drafts import Drafts

GAME_ID = 7


def clubs_game():
    return rules.get("clubs").new_game(["Ann", "Bob", "Cy"])


def half_entered(drafts, game):
    state = drafts.open(GAME_ID, game).state
    state.tap_out("Ann")
    state.tap_out("Bob")
    state.step("Ann", 7)
    return state


def test_a_fresh_form_has_nothing_entered_and_is_not_pending():
    drafts = Drafts()
    assert not drafts.open(GAME_ID, clubs_game()).state.has_input
    assert not drafts.pending(GAME_ID)


def test_a_draft_left_without_saving_is_there_when_the_form_opens_again():
    drafts, game = Drafts(), clubs_game()
    entry = half_entered(drafts, game).entry()
    again = drafts.open(GAME_ID, game)
    assert again.state.entry() == entry and again.notice is None
    assert drafts.pending(GAME_ID)


def test_a_discarded_draft_is_gone_and_the_next_form_is_empty():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    drafts.discard(GAME_ID)
    assert not drafts.pending(GAME_ID)
    assert not drafts.open(GAME_ID, game).state.has_input


def test_drafts_are_kept_per_game_and_round():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    assert not drafts.open(GAME_ID + 1, game).state.has_input
    assert drafts.pending(GAME_ID) and not drafts.pending(GAME_ID + 1)


def test_a_round_saved_elsewhere_meanwhile_keeps_the_draft_as_the_next_round_and_says_so():
    drafts, game = Drafts(), clubs_game()
    entry = half_entered(drafts, game).entry()
    elsewhere = game.add_round({"out_order": ["Cy", "Ann"], "club_points": {"Cy": 3}})
    draft = drafts.open(GAME_ID, elsewhere)
    assert draft.state.round_number == 2
    assert draft.state.entry() == entry and draft.state.valid
    assert draft.notice == (
        "Round 1 was saved on another device meanwhile. What you entered is kept: save it as round 2, or discard it."
    )


def test_a_change_elsewhere_to_a_form_with_nothing_entered_needs_no_notice():
    drafts, game = Drafts(), clubs_game()
    drafts.open(GAME_ID, game)
    elsewhere = game.add_round({"out_order": ["Cy", "Ann"]})
    draft = drafts.open(GAME_ID, elsewhere)
    assert draft.notice is None and draft.state.round_number == 2


def test_a_members_only_hand_is_entered_stone_by_stone_across_visits_and_saved_with_its_counts():
    drafts = Drafts()
    game = rules.get("members_only").new_game(["Ann", "Bob", "Cy"])
    for symbol in ("umbrella", "crown", "teacup"):  # one visit per stone, as each is placed
        drafts.open(GAME_ID, game).state.tap_field(symbol, "<=1")
    state = drafts.open(GAME_ID, game).state
    for symbol, count in {"umbrella": 0, "crown": 0, "teacup": 0, "big_ben": 11, "hat": 11}.items():
        state.select("counts", symbol)
        state.press(count // 10 if count > 9 else count)
        if count > 9:
            state.press(count % 10)
    assert state.valid
    assert [(bet["player"], bet["symbol"]) for bet in state.entry()["bets"]] == [
        ("Bob", "umbrella"), ("Cy", "crown"), ("Ann", "teacup")
    ]


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_every_rulesets_fresh_form_has_nothing_to_ask_about_when_left(ruleset_id):
    game = rules.get(ruleset_id).new_game(["Ann", "Bob", "Cy", "Dee"])
    state = entry_state(game)
    assert not state.has_input


def test_typing_goes_on_where_it_was_in_a_carried_over_draft():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"])
    state = drafts.open(GAME_ID, game).state
    for digit in (2, 2, 2, 2):
        state.press(digit)
    elsewhere = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    carried = drafts.open(GAME_ID, elsewhere).state
    assert carried.cursor == ("Bob", 0)
    for digit in (3, 3, 3, 3):
        carried.press(digit)
    assert carried.valid and carried.entry()["cards"] == {"Ann": [2, 2, 2, 2], "Bob": [3, 3, 3, 3]}


def test_a_round_saved_elsewhere_that_ends_the_game_discards_the_draft_and_says_so():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 1})
    state = drafts.open(GAME_ID, game).state
    for digit in (2, 2, 2, 2):  # Ann's four cards
        state.press(digit)
    last = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    assert last.over
    assert drafts.ended(GAME_ID, last) == (
        "Round 1 was saved on another device and ended the game. What you entered for it is discarded."
    )
    assert not drafts.pending(GAME_ID) and drafts.ended(GAME_ID, last) is None


def test_a_game_not_over_or_a_draft_with_nothing_typed_needs_no_word_about_its_end():
    drafts, game = Drafts(), clubs_game()
    half_entered(drafts, game)
    assert drafts.ended(GAME_ID, game) is None and drafts.pending(GAME_ID)
    quiet = rules.get("beverbende").new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 1})
    drafts.open(GAME_ID + 1, quiet)
    assert drafts.ended(GAME_ID + 1, quiet.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})) is None


def test_cards_typed_for_part_of_a_row_count_as_entered_and_are_carried_over():
    drafts = Drafts()
    game = rules.get("beverbende").new_game(["Ann", "Bob"])
    state = drafts.open(GAME_ID, game).state
    for digit in (7, 8, 9):  # three of Ann's four cards: the row is not whole yet
        state.press(digit)
    assert state.has_input and drafts.pending(GAME_ID)
    elsewhere = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    carried = drafts.open(GAME_ID, elsewhere).state
    assert carried.cards["Ann"] == [7, 8, 9, None] and carried.cursor == ("Ann", 3)


# --- kept on the device, to outlast the session ------------------------------------------

UUID = "3f2c9a4e-game-seven"


class Device:
    """The device's storage as ``Drafts(keep=...)`` writes it: the last text it was handed."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def drafts(self, restored: bool = True) -> Drafts:
        """A session of the device, once it has read what the device kept (as the app
        does as it starts), or before (``restored`` False)."""
        drafts = Drafts(keep=self.told.append)
        if restored:
            drafts.restore(self.told[-1] if self.told else None)
        return drafts

    def later(self) -> Drafts:
        """A new session of the same device (the app closed, or the server restarted meanwhile)."""
        return self.drafts()


SOMETHING_ENTERED = {
    "beverbende": lambda state: state.press(7),  # Ann's first card
    "clubs": lambda state: state.tap_out("Ann"),
    "klaverjassen": lambda state: state.press(8),  # the playing team's card points
    "members_only": lambda state: state.tap_field("crown", "<=1"),
}


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_a_draft_outlasts_the_session_on_the_device_for_every_ruleset(ruleset_id):
    device, game = Device(), rules.get(ruleset_id).new_game(["Ann", "Bob", "Cy", "Dee"])
    drafts = device.drafts()
    state = drafts.open(GAME_ID, game, game_uuid=UUID).state
    SOMETHING_ENTERED[ruleset_id](state)
    assert state.has_input
    drafts.changed()  # as the form's every tap does
    later = device.later()
    assert later.pending(GAME_ID, UUID)
    again = later.open(GAME_ID, game, game_uuid=UUID)
    assert again.state.everything_typed() == state.everything_typed() and again.notice is None
    assert getattr(again.state, "cursor", None) == getattr(state, "cursor", None)  # typing goes on where it was


def test_the_device_keeps_only_drafts_with_something_entered_and_forgets_one_saved_or_discarded():
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    drafts.open(GAME_ID, game, game_uuid=UUID)
    assert device.told == []  # a fresh form: nothing worth keeping, nothing written
    state = drafts.open(GAME_ID, game, game_uuid=UUID).state
    state.tap_out("Ann")
    drafts.changed()
    drafts.changed()  # nothing new: the device is not told again
    assert len(device.told) == 1 and '"Ann"' in device.told[0]
    drafts.discard(GAME_ID)
    assert device.told[-1] == "[]" and not device.later().pending(GAME_ID, UUID)


def test_a_draft_on_the_device_is_only_for_the_game_it_was_entered_in():
    """A game's id is its database's: another database served at the same address may
    give the same id to another game."""
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    drafts.open(GAME_ID, game, game_uuid=UUID).state.tap_out("Ann")
    drafts.changed()
    later = device.later()
    assert not later.pending(GAME_ID, "another-game") and not later.pending(GAME_ID)
    assert not later.open(GAME_ID, game, game_uuid="another-game").state.has_input


def test_a_draft_on_the_device_whose_round_was_saved_meanwhile_is_the_next_round_and_says_so():
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    entry = half_entered_on(drafts, game)
    drafts.changed()
    elsewhere = game.add_round({"out_order": ["Cy", "Ann"], "club_points": {"Cy": 3}})
    draft = device.later().open(GAME_ID, elsewhere, game_uuid=UUID)
    assert draft.state.round_number == 2 and draft.state.entry() == entry
    assert draft.notice == (
        "Round 1 was saved on another device meanwhile. What you entered is kept: save it as round 2, or discard it."
    )


def test_a_draft_on_the_device_of_a_game_that_ended_meanwhile_is_discarded_and_says_so():
    device = Device()
    game = rules.get("beverbende").new_game(["Ann", "Bob"], {"ending": "rounds", "rounds": 1})
    drafts = device.drafts()
    drafts.open(GAME_ID, game, game_uuid=UUID).state.press(2)
    drafts.changed()
    last = game.add_round({"cards": {"Ann": [1, 1, 1, 1], "Bob": [2, 2, 2, 2]}})
    later = device.later()
    assert later.ended(GAME_ID, last, UUID) == (
        "Round 1 was saved on another device and ended the game. What you entered for it is discarded."
    )
    assert device.told[-1] == "[]"


def test_a_form_opened_before_the_device_answered_is_filled_in_with_its_draft():
    """A page reloaded on a round's form opens the form before the device's storage answers."""
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    entry = half_entered_on(drafts, game)
    drafts.changed()
    kept = device.told[-1]
    later = device.drafts(restored=False)
    opened = later.open(GAME_ID, game, game_uuid=UUID)
    assert device.told[-1] == kept  # not written over before it was read
    assert later.restore(kept) == {GAME_ID}
    assert opened.state.entry() == entry


def test_a_form_typed_in_before_the_device_answered_keeps_what_was_typed():
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    half_entered_on(drafts, game)
    drafts.changed()
    later = device.drafts(restored=False)
    later.open(GAME_ID, game, game_uuid=UUID).state.tap_out("Cy")
    assert later.restore(device.told[-1]) == set()
    assert later.kept(GAME_ID).state.entry()["out_order"] == ["Cy"]
    assert '"Cy"' in device.told[-1]  # and the device has it now


@pytest.mark.parametrize(
    "told",
    [
        "not JSON",
        '{"game": 7}',
        '[{"game": "seven", "round": null}]',
        '[{"game": 7, "round": null, "uuid": "%s", "rounds": 0, "typed": {"out_order": ["Zed"]}}]' % UUID,
        '[{"game": 7, "round": null, "uuid": "%s", "rounds": "many", "typed": {}}]' % UUID,
        '[{"game": 7, "round": null, "uuid": "%s", "rounds": 0, "typed": {}, "cursor": {"no": "such input"}}]' % UUID,
    ],
    ids=["not JSON", "not a list", "no game id", "a player not at the table", "no round count", "no such input"],
)
def test_what_the_device_cannot_read_back_is_left_out_and_the_form_opens_fresh(told):
    drafts = Device().drafts(restored=False)
    drafts.restore(told)
    assert not drafts.open(GAME_ID, clubs_game(), game_uuid=UUID).state.has_input


def test_a_draft_on_the_device_numbered_in_words_is_read_as_its_numbers():
    """Whatever the device gives back, the drafts kept with it are written again as the app writes them."""
    device, game = Device(), clubs_game()
    drafts = device.drafts()
    half_entered_on(drafts, game)
    drafts.changed()
    record = json.loads(device.told[-1])[0]
    other = {**record, "game": str(GAME_ID + 1), "round": None}
    later = device.drafts(restored=False)
    later.restore(json.dumps([record, other]))
    later.discard(GAME_ID)
    assert [r["game"] for r in json.loads(device.told[-1])] == [GAME_ID + 1]


def half_entered_on(drafts: Drafts, game) -> dict:
    state = drafts.open(GAME_ID, game, game_uuid=UUID).state
    state.tap_out("Ann")
    state.tap_out("Bob")
    state.step("Ann", 7)
    return state.entry()
