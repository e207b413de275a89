"""Issue 15 point 14: a club's own Klaverjassen target and Rat-a-Tat Cat's limit ending are
saved and restored, and games stored with the earlier endings keep their meaning."""

from __future__ import annotations

import pytest

from companion.store import Store
from tests.store.games import play

KLAVER = ["Ann", "Bob", "Cy", "Dee"]
AC, BD = "Ann & Cy", "Bob & Dee"


def reneges(*winners: str) -> list[dict]:
    """Deals in which the other team reneged: each winner scores 162."""
    return [{"verzaakt": BD if team == AC else AC} for team in winners]


def test_a_club_target_is_saved_and_decides_the_reopened_game(store_url):
    with Store(store_url) as store:
        record = play(store, "klaverjassen", KLAVER, reneges(AC, BD, AC, BD, AC, AC), options={"ending": "750"})
        game_id = record.id
    with Store(store_url) as reopened:
        record = reopened.open_game(game_id)
        assert record.game.options["ending"] == "750" and record.status == "in_progress"
        assert record.game.totals == {AC: 648, BD: 324}
        record = reopened.add_round(game_id, reneges(AC)[0], expected_version=record.version)
        assert record.status == "finished" and record.game.winners == [AC]


@pytest.mark.parametrize(("ending", "deals_to_finish"), [("501", 4), ("1000", 7), ("1500", 10), ("boompje", 16)])
def test_games_stored_with_the_earlier_endings_keep_their_meaning(store_url, ending, deals_to_finish):
    with Store(store_url) as store:
        record = play(store, "klaverjassen", KLAVER, reneges(*[AC] * (deals_to_finish - 1)), options={"ending": ending})
        game_id = record.id
    with Store(store_url) as reopened:
        record = reopened.open_game(game_id)
        assert record.game.options["ending"] == ending and record.status == "in_progress"
        record = reopened.add_round(game_id, reneges(AC)[0], expected_version=record.version)
        assert record.status == "finished" and record.game.winners == [AC]


def test_the_limit_ending_is_saved_and_ends_the_reopened_game(store_url):
    rounds = [{"totals": {"Ann": 30, "Bob": 10, "Cy": 12}}] * 3
    with Store(store_url) as store:
        game_id = play(store, "beverbende", ["Ann", "Bob", "Cy"], rounds, options={"ending": "limit"}).id
    with Store(store_url) as reopened:
        record = reopened.open_game(game_id)
        assert record.game.options["ending"] == "limit" and record.status == "in_progress"
        record = reopened.add_round(game_id, rounds[0], expected_version=record.version)
        assert record.status == "finished" and record.game.winners == ["Bob"]
