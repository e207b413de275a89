"""Club evenings in the store (issue 17): the draw saves its tables' games together, the
ranking is derived from those games as saved, corrections recompute it."""

from __future__ import annotations

import json

import pytest

from companion.rules import RuleError
from companion.rules.club import PRIZE_BOOBY, PrizeRule, SitOutScore
from companion.store import NotFoundError, StoreError
from companion.share.codes import grouped
from companion.store.club import Evenings, result_csv, result_html, result_json

NINE = ["Ann", "Bob", "Cy", "Dee", "Eva", "Fay", "Gus", "Hal", "Ida"]


def finish(store, game_id: int, first_points: int = 100) -> None:
    """Play a table's boompje to the end: 16 deals, the first team ``first_points`` a deal."""
    record = store.open_game(game_id)
    first, second = record.game.sides
    for _ in range(16):
        entry = {"card_points": {first: first_points, second: 162 - first_points}, "roem": {first: 0, second: 0}}
        record = store.add_round(game_id, entry, record.version)


@pytest.fixture
def evenings(store):
    return Evenings(store)


def boompje_evening(evenings, **settings):
    return evenings.create("Tuesday", NINE, {"ending": "boompje"}, seed=17, **settings)


def test_a_draw_starts_one_ordinary_game_per_table_with_the_evenings_options(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings, season_name="2026").id)
    (first,) = evening.rounds
    assert len(first.draw.tables) == 2 and len(first.draw.sitting_out) == 1
    for table in first.draw.tables:
        record = store.open_game(first.game_ids[table.number])
        assert record.game.players == table.seats
        assert record.game.options["ending"] == "boompje"
    assert {s.id for s in store.in_progress()} == set(first.game_ids.values())


def test_the_next_round_waits_until_every_table_has_finished(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings).id)
    one, two = evening.rounds[0].game_ids.values()
    finish(store, one)
    with pytest.raises(StoreError, match="Tables 2 are still playing"):
        evenings.draw_next(evening.id)
    finish(store, two)
    assert len(evenings.draw_next(evening.id).rounds) == 2


def test_a_table_whose_game_is_abandoned_no_longer_holds_up_the_next_draw_until_taken_up_again(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings, sit_out=SitOutScore("fixed", 1000)).id)
    one, two = evening.rounds[0].game_ids.values()
    finish(store, one)
    store.abandon(two)
    result = evenings.result(evening.id)
    assert result.playing == () and result.rounds[0].stopped == {2}
    stopped_table = evening.rounds[0].draw.tables[1]
    assert {s.player: s.total for s in result.standings if s.player in stopped_table.seats} == dict.fromkeys(stopped_table.seats, 1000)
    store.reopen(two)
    with pytest.raises(StoreError, match="Tables 2 are still playing"):
        evenings.draw_next(evening.id)
    store.abandon(two)
    assert len(evenings.draw_next(evening.id).rounds) == 2


def test_the_ranking_is_the_tables_games_and_a_correction_recomputes_it(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings, sit_out=SitOutScore("fixed", 1000)).id)
    (first,) = evening.rounds
    table = first.draw.tables[0]
    game_id = first.game_ids[table.number]
    finish(store, game_id, first_points=100)
    record = store.open_game(game_id)
    north = table.seats[0]
    result = evenings.result(evening.id)
    assert {s.player: s.total for s in result.standings}[north] == record.game.totals[record.game.setup.team_of(north)]
    assert {s.player: s.total for s in result.standings}[first.draw.sitting_out[0]] == 1000
    assert result.playing == (2,)
    first_team, second_team = record.game.sides
    corrected = store.edit_round(
        game_id, 0, {"card_points": {first_team: 0, second_team: 162}, "roem": {first_team: 0, second_team: 0}}, record.version
    )
    assert corrected.game.totals != record.game.totals
    assert {s.player: s.total for s in evenings.result(evening.id).standings}[north] == corrected.game.totals[
        corrected.game.setup.team_of(north)
    ]


def agree(followed, read) -> None:
    """A result followed save by save says what the result read whole from the store says."""
    assert followed.standings == read.standings and followed.prizes == read.prizes
    assert [(one.stopped, one.playing) for one in followed.rounds] == [(one.stopped, one.playing) for one in read.rounds]


def test_a_result_that_takes_in_each_saved_game_agrees_with_the_result_read_again(store, evenings):
    """A big screen follows the tables' saves without reading the evening again
    (``EveningResult.following``): deals, a stop and its taking back, an earlier round's
    correction."""
    evening = evenings.draw_next(boompje_evening(evenings, prize_rule=PrizeRule(booby=True, most_pits=True)).id)
    one, two = evening.rounds[0].game_ids.values()
    followed = evenings.result(evening.id)
    record = store.open_game(one)
    first, second = record.game.sides
    for points in (100, 62, 81, 162, 0, 90, 70, 100, 100, 100, 100, 100, 100, 100, 100, 100):  # to the end: prizes once round 1 is done
        record = store.add_round(one, {"card_points": {first: points, second: 162 - points}, "roem": {first: 20, second: 0}}, record.version)
        followed = followed.following(record)
        agree(followed, evenings.result(evening.id))
    for change in (store.abandon, store.reopen, store.abandon):
        followed = followed.following(change(two))
        agree(followed, evenings.result(evening.id))
    assert followed.finished and followed.prizes
    evening = evenings.draw_next(evening.id)  # a new round: the page reads the evening again (EveningChanged)
    followed = evenings.result(evening.id)
    corrected = store.edit_round(one, 0, {"card_points": {first: 0, second: 162}, "roem": {first: 0, second: 0}}, record.version)
    followed = followed.following(corrected)
    agree(followed, evenings.result(evening.id))
    other = store.create_game("klaverjassen", ["Zoe", "Yan", "Xia", "Wim"])
    assert followed.following(other) is None  # not one of the evening's games


def test_late_arrivals_and_early_leavers_change_the_next_draw(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings).id)
    for game_id in evening.rounds[0].game_ids.values():
        finish(store, game_id)
    evenings.check_out(evening.id, "Ida")
    evenings.check_in(evening.id, "Jan")
    evening = evenings.draw_next(evening.id)
    second = evening.rounds[1].draw
    assert "Ida" not in second.seated + second.sitting_out
    assert "Jan" in second.seated + second.sitting_out
    standings = {s.player: s for s in evenings.result(evening.id).standings}
    assert standings["Ida"].rounds[1] is None and standings["Jan"].rounds[0] is None


def test_a_fixed_pairs_evening_follows_its_schedule(store, evenings):
    evening = evenings.create("Pairs", NINE[:8], {"ending": "boompje"}, fixed_pairs=True, seed=1)
    evening = evenings.draw_next(evening.id)
    assert [table.pairs for table in evening.rounds[0].draw.tables] == [(("Ann", "Bob"), ("Gus", "Hal")), (("Cy", "Dee"), ("Eva", "Fay"))]


def test_a_fixed_pairs_evening_ranks_and_awards_pairs_not_players(store, evenings):
    evening = evenings.create("Pairs", NINE[:8], {"ending": "boompje"}, fixed_pairs=True, seed=1, prize_rule=PrizeRule(places=2))
    evening = evenings.draw_next(evening.id)
    one, two = evening.rounds[0].game_ids.values()
    finish(store, one, first_points=120)  # Ann & Bob beat Gus & Hal
    finish(store, two, first_points=90)  # Cy & Dee against Eva & Fay
    result = evenings.result(evening.id)
    assert [(s.place, s.player) for s in result.standings][:4] == [(1, "Ann"), (1, "Bob"), (2, "Cy"), (2, "Dee")]
    assert [(p.position, p.players) for p in result.prizes] == [(1, ("Ann", "Bob")), (2, ("Cy", "Dee"))]


def test_results_export_as_json_and_csv_with_prizes(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings, prize_rule=PrizeRule(places=2, booby=True)).id)
    for game_id in evening.rounds[0].game_ids.values():
        finish(store, game_id)
    result = evenings.result(evening.id)
    data = json.loads(result_json(result))
    assert [line["player"] for line in data["ranking"]] == [s.player for s in result.standings]
    assert data["prizes"][-1]["kind"] == PRIZE_BOOBY
    lines = result_csv(result).splitlines()
    assert lines[0] == "place,player,total,round 1,nats,pits" and len(lines) == 10


def test_the_season_counts_closed_evenings(store, evenings):
    for _ in range(2):
        evening = evenings.draw_next(boompje_evening(evenings, season_name="2026").id)
        for game_id in evening.rounds[0].game_ids.values():
            finish(store, game_id)
        evenings.close(evening.id)
    evenings.create("Open", NINE, season_name="2026")
    table = evenings.season_table("2026", best_of=1)
    assert {line.evenings for line in table} == {2}
    with pytest.raises(StoreError, match="closed"):
        evenings.draw_next(evening.id)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e.create("", NINE), "needs a name"),
        (lambda e: e.create("x" * 101, NINE), "at most 100 characters"),
        (lambda e: e.create("Tue", ["Ann", "Ann"]), "checked in twice"),
        (lambda e: e.create("Tue", NINE, {"ending": "forever"}), "ending must be one of"),
        (lambda e: e.create("Tue", NINE, odd_players="toss"), "sitting out or playing with a joker"),
        (lambda e: e.create("Tue", NINE, fixed_pairs=True), "even number of players"),
        (lambda e: e.evening(99), "no club evening 99"),
        (lambda e: e.evening("x"), "no club evening 'x'"),
    ],
)
def test_what_the_organiser_cannot_do_is_refused_and_saves_nothing(store, evenings, change, message):
    with pytest.raises((RuleError, StoreError, NotFoundError), match=message):
        change(evenings)
    assert evenings.evenings() == [] and store.players() == []


def test_the_print_page_holds_the_ranking_table_cards_and_score_slips(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings).id)
    (first,) = evening.rounds
    table = first.draw.tables[0]
    finish(store, first.game_ids[table.number])
    page = result_html(evenings.result(evening.id))
    assert "@page { size: A4" in page
    assert page.count("class='card'") == 2 and page.count("class='slip'") == 2
    game = store.open_game(first.game_ids[table.number]).game
    first_team, second_team = game.sides
    assert f"<th class='n'>{game.totals[first_team]}</th><th class='n'>{game.totals[second_team]}</th>" in page
    assert page.count("<td></td><td></td>") == 16  # the other table's slip: 16 deals still to write


def test_the_print_page_tells_the_prizes_once_every_table_has_finished(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings, prize_rule=PrizeRule(places=1, booby=True)).id)
    one, two = evening.rounds[0].game_ids.values()
    finish(store, one, first_points=120)
    assert "Prize" not in result_html(evenings.result(evening.id))  # table 2 still plays
    finish(store, two, first_points=90)
    result = evenings.result(evening.id)
    winners = result.prizes[0].players
    assert len(winners) == 2  # table 1's winning partners, equal on the evening's one round
    page = result_html(result)
    assert f"<li>Prize for place 1, shared: {', '.join(winners)}</li>" in page and "<li>Booby prize: " in page


def test_names_on_the_print_page_are_text_not_markup(store, evenings):
    evening = evenings.draw_next(evenings.create("<b>Tue</b>", ["<i>Ann</i>", *NINE[1:4]], seed=1).id)
    page = result_html(evenings.result(evening.id))
    assert "<i>Ann</i>" not in page and "&lt;i&gt;Ann&lt;/i&gt;" in page and "<b>Tue</b>" not in page


def test_the_organisers_page_to_print_shows_the_newest_rounds_table_codes_and_qr_codes(store, evenings):
    evening = evenings.draw_next(boompje_evening(evenings).id)
    for game_id in evening.rounds[0].game_ids.values():
        store.abandon(game_id)
    evening = evenings.draw_next(evening.id)
    older, newest = evening.rounds
    links = {n: (code, f"http://192.168.1.5:8550/game/{newest.game_ids[n]}?code={code}") for n, code in newest.codes.items()}
    page = result_html(evenings.result(evening.id), links)
    for code in newest.codes.values():
        assert page.count(f"Table code: {grouped(code)}") == 1
    assert not any(grouped(code) in page for code in older.codes.values())  # they let nobody in any more
    assert page.count("<img alt='' width='160' height='160' src='data:image/png;base64,") == len(newest.codes)
    assert "Table code" not in result_html(evenings.result(evening.id))  # anyone else's page to print has none
