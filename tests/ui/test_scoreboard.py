import pytest

from companion.ui.chart import nice_step
from companion.ui.scoreboard import ScoreboardState
from tests.ui.conftest import bever_totals, play

KLAVER = ["Ann", "Bob", "Cy", "Dee"]
AC, BD = "Ann & Cy", "Bob & Dee"


def board(store, game_id, read_only=False) -> ScoreboardState:
    state = ScoreboardState(store, game_id, read_only=read_only)
    assert state.load()
    return state


def deal(ac: int, roem: dict | None = None, **extra) -> dict:
    return {"card_points": {AC: ac, BD: 162 - ac}, "roem": roem or {}, "pit": None, "verzaakt": None, **extra}


def test_a_new_game_shows_zeros_and_who_deals_first(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert [(r.name, r.total, r.leading) for r in s.sides()] == [("Ann", 0, False), ("Bob", 0, False)]
    assert s.next_up == "Round 1 · Ann deals"
    assert s.progress == "4 rounds left · lowest total wins"
    assert s.rounds() == [] and s.banner is None
    assert s.can_enter and not s.can_undo


def test_the_lowest_total_leads_in_beverbende(store):
    record = store.create_game("beverbende", ["Ann", "Bob", "Cy"])
    play(store, record.id, [bever_totals(Ann=20, Bob=12, Cy=30)])
    s = board(store, record.id)
    assert s.leaders == ["Bob"]
    assert [r.leading for r in s.sides()] == [False, True, False]
    assert s.next_up == "Round 2 · Bob deals"


def test_rounds_carry_their_points_and_running_totals(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=20, Bob=12), bever_totals(Ann=5, Bob=17)])
    s = board(store, record.id)
    rows = s.rounds()
    assert [(r.number, r.scores, r.running) for r in rows] == [(1, (20, 12), (20, 12)), (2, (5, 17), (25, 29))]
    assert s.chart() == {"Ann": [0, 20, 25], "Bob": [0, 12, 29]}


def test_the_end_names_the_winner(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    s = board(store, record.id)
    assert s.status == "finished"
    assert s.banner.title == "Ann wins!"
    assert s.banner.text == "40 points after 4 rounds."
    assert not s.can_enter and s.can_undo and s.next_up == ""


def test_a_shared_win_names_everyone_sharing_it(store):
    record = store.create_game("beverbende", ["Ann", "Bob", "Cy"])
    play(store, record.id, [bever_totals(Ann=10, Bob=10, Cy=20)] * 3)
    s = board(store, record.id)
    assert s.banner.title == "Shared win!"
    assert s.banner.text == "Ann and Bob share the win with 30 points."
    assert s.leaders == ["Ann", "Bob"]


def test_clubs_shows_progress_to_its_target(store):
    record = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    play(store, record.id, [{"out_order": ["Ann", "Bob"], "club_points": {"Ann": 10, "Bob": 5}}])
    s = board(store, record.id)
    assert s.progress == "Playing to 50 points"
    # Ann 10 + the 5 bonus card, Bob 5 + the 2, Cy held cards: 15, 7 and 0 of the 50.
    assert [(r.name, r.total, r.progress) for r in s.sides()] == [
        ("Ann", 15, pytest.approx(0.3)),
        ("Bob", 7, pytest.approx(0.14)),
        ("Cy", 0, 0),
    ]
    assert s.leaders == ["Ann"]


def test_klaverjassen_names_the_playing_team_and_marks_nat(store):
    record = store.create_game("klaverjassen", KLAVER)
    s = board(store, record.id)
    assert s.next_up == "Round 1 · Ann deals · Bob & Dee play"
    assert [r.note for r in s.sides()] == ["", ""]  # the team names already say who plays
    play(store, record.id, [deal(100)])  # Bob & Dee played and took only 62: nat
    s.load()
    assert s.rounds()[0].note == "Bob & Dee nat"
    assert s.game.totals == {AC: 162, BD: 0}
    assert s.progress == "Playing to 501 points"


def test_klaverjassen_boompje_counts_the_deals_left(store):
    record = store.create_game("klaverjassen", KLAVER, options={"ending": "boompje"})
    play(store, record.id, [deal(60)])
    assert board(store, record.id).progress == "15 deals left"


def test_beverbende_elimination_marks_who_is_out(store):
    record = store.create_game("beverbende", ["Ann", "Bob", "Cy"], options={"ending": "elimination"})
    play(store, record.id, [bever_totals(Ann=30, Bob=10, Cy=10)] * 3 + [bever_totals(Ann=30, Bob=10, Cy=10)])
    s = board(store, record.id)
    assert s.progress == "Out at 100 points · last player left wins"
    assert [r.note for r in s.sides()] == ["Out after round 4", "", ""]


def test_klaverjassen_shows_the_target_the_club_typed(store):
    record = store.create_game("klaverjassen", KLAVER, options={"ending": "750"})
    play(store, record.id, [deal(100)])
    assert board(store, record.id).progress == "Playing to 750 points"


def test_beverbende_limit_says_what_ends_the_game_and_crowns_the_lowest_total(store):
    record = store.create_game("beverbende", ["Ann", "Bob", "Cy"], options={"ending": "limit"})
    play(store, record.id, [bever_totals(Ann=30, Bob=10, Cy=12)] * 3)
    s = board(store, record.id)
    assert s.progress == "Over when someone reaches 100 · lowest total wins"
    play(store, record.id, [bever_totals(Ann=30, Bob=10, Cy=12)])  # Ann 120
    s.load()
    assert s.status == "finished" and s.game.winners == ["Bob"]


def test_members_only_shows_tracks_and_symbols_reached(store):
    record = store.create_game("members_only", ["Ann", "Bob", "Cy"])
    bets = [
        {"player": "Ann", "symbol": "umbrella", "field": "<=1", "stone": "single", "risk": False},
        {"player": "Bob", "symbol": "crown", "field": "<=2", "stone": "single", "risk": False},
    ]
    counts = {"umbrella": 0, "crown": 0, "teacup": 6, "big_ben": 6, "hat": 6}
    play(store, record.id, [{"bets": bets, "counts": counts}])
    s = board(store, record.id)
    assert s.progress == "1 of 5 symbols has a track at 5 or more; the game ends when all 5 have one."
    ann, bob, _cy = s.sides()
    assert ann.tracks == (("Umbrella", 5, True), ("Crown", 0, False), ("Teacup", 0, False), ("Big Ben", 0, False), ("Hat", 0, False))
    assert bob.tracks[1] == ("Crown", 3, False)
    assert ann.note == ""


def test_named_teams_list_their_players(store):
    record = store.create_game("clubs", ["Ann", "Bob", "Cy", "Dee"], teams={"Reds": ["Ann", "Cy"], "Blues": ["Bob", "Dee"]})
    assert [r.note for r in board(store, record.id).sides()] == ["Ann and Cy", "Bob and Dee"]


def test_a_finished_game_can_be_played_again_with_the_same_table(store):
    record = store.create_game("klaverjassen", KLAVER, options={"ending": "1000"})
    play(store, record.id, [deal(162)] * 7)
    s = board(store, record.id)
    assert s.status == "finished" and s.progress == ""
    again = store.open_game(s.play_again())
    assert again.status == "in_progress" and again.game.rounds == []
    assert again.game.players == tuple(KLAVER)
    assert again.game.options == s.game.options and again.game.teams == s.game.teams


def test_a_refused_round_keeps_the_game_unchanged_and_says_why(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert not s.save(bever_totals(Ann=40, Bob=10))
    assert "40" in s.error
    assert s.game.rounds == []


def test_saving_a_round_updates_the_board(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert s.save(bever_totals(Ann=20, Bob=12))
    assert s.game.totals == {"Ann": 20, "Bob": 12} and s.error is None


def test_editing_a_past_round_recomputes_everything_after_it(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=20, Bob=12), bever_totals(Ann=5, Bob=17)])
    s = board(store, record.id)
    assert s.save(bever_totals(Ann=10, Bob=12), index=0)
    assert [r.running for r in s.rounds()] == [(10, 12), (15, 29)]


def test_undo_takes_back_the_last_round_and_redo_puts_it_back(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=20, Bob=12), bever_totals(Ann=5, Bob=17)])
    s = board(store, record.id)
    assert s.undo()
    assert len(s.game.rounds) == 1 and s.undone == [bever_totals(Ann=5, Bob=17)]
    assert s.redo()
    assert s.game.totals == {"Ann": 25, "Bob": 29} and s.undone == []


def test_two_rounds_undone_in_a_row_are_put_back_in_turn(store):
    """A double tap on Undo takes back two rounds: Redo, twice, puts both back."""
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=20, Bob=12), bever_totals(Ann=5, Bob=17), bever_totals(Ann=9, Bob=9)])
    s = board(store, record.id)
    assert s.undo() and s.undo()
    assert len(s.game.rounds) == 1
    assert s.redo() and s.redo() and not s.redo()
    assert [r.running for r in s.rounds()] == [(20, 12), (25, 29), (34, 38)]


def test_undoing_the_deciding_round_reopens_the_game(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    s = board(store, record.id)
    assert s.undo()
    assert s.status == "in_progress" and s.banner is None and s.can_enter


def test_a_change_made_on_another_device_reloads_with_the_stores_message(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    phone, tablet = board(store, record.id), board(store, record.id)
    assert tablet.save(bever_totals(Ann=20, Bob=12))
    assert not phone.save(bever_totals(Ann=8, Bob=9))
    assert phone.stale
    assert phone.error == "This round changed on another device; reload."
    assert phone.game.totals == {"Ann": 20, "Bob": 12}  # the board shows what is stored now


def test_a_round_saved_again_after_its_save_reached_the_store_unseen_counts_once(store, monkeypatch):
    """The database's connection drops as a round is committed: the commit went through, the
    page was told the save failed, and the round stays in its form. Saved again, it is not
    refused as a change from another device (whose form would then offer it as the next
    round, to be counted twice): the round is in the game, as entered, once."""
    from companion.store.errors import UnreachableError

    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    added = store.add_round

    def dropped(*args, **kwargs):
        added(*args, **kwargs)
        raise UnreachableError("db.club.example", "server closed the connection unexpectedly")

    monkeypatch.setattr(store, "add_round", dropped)
    assert not s.save(bever_totals(Ann=20, Bob=12))
    assert s.error == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(store, "add_round", added)
    assert s.save(bever_totals(Ann=20, Bob=12))
    assert not s.stale and s.error is None
    assert s.game.rounds == [bever_totals(Ann=20, Bob=12)] and store.open_game(record.id).game.rounds == s.game.rounds


def test_a_round_another_scorer_entered_the_same_is_kept_once_and_a_different_one_is_refused(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    phone, tablet = board(store, record.id), board(store, record.id)
    assert tablet.save(bever_totals(Ann=20, Bob=12))
    assert phone.save(bever_totals(Ann=20, Bob=12))  # the same round: there, once
    assert len(store.open_game(record.id).game.rounds) == 1
    assert tablet.save(bever_totals(Ann=3, Bob=4), 0)
    assert phone.save(bever_totals(Ann=3, Bob=4), 0) and not phone.stale  # the same correction: there
    assert tablet.save(bever_totals(Ann=7, Bob=8), 0)
    assert not phone.save(bever_totals(Ann=5, Bob=6), 0) and phone.stale  # a different one: refused


def test_a_game_opened_from_the_history_is_read_only(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    s = board(store, record.id, read_only=True)
    assert not (s.can_enter or s.can_undo or s.can_edit)
    assert s.banner.title == "Ann wins!"


def test_an_abandoned_game_says_so_and_takes_no_more_rounds(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert s.abandon()
    assert s.banner.title == "Abandoned"
    assert not (s.can_enter or s.can_undo or s.can_edit)


def test_an_abandoned_game_can_be_reopened_from_the_history_where_it_stopped(store):
    """The store refuses changes to an abandoned game with "reopen it to change it": its
    scoreboard in the history (read-only otherwise) offers exactly that, and the game goes
    on with its rounds."""
    record = store.create_game("beverbende", ["Ann", "Bob"])
    record = store.add_round(record.id, {"totals": {"Ann": 10, "Bob": 20}}, expected_version=record.version)
    assert not board(store, record.id).can_reopen
    store.abandon(record.id)
    s = board(store, record.id, read_only=True)
    assert s.can_reopen and not (s.can_enter or s.can_undo or s.can_edit)
    assert s.reopen()
    assert store.open_game(record.id).status == "in_progress"
    assert s.game.rounds == [{"totals": {"Ann": 10, "Bob": 20}}]
    assert not board(store, record.id).can_reopen


def test_a_missing_game_is_reported(store):
    s = ScoreboardState(store, 999)
    assert not s.load()
    assert s.error == "There is no saved game number 999."


@pytest.mark.parametrize("raw, step", [(0.3, 1), (1, 1), (3, 5), (12, 20), (40, 50), (130, 200)])
def test_chart_grid_steps_are_round_numbers(raw, step):
    assert nice_step(raw) == step


def test_a_winning_team_is_named_as_a_team(store):
    record = store.create_game("klaverjassen", KLAVER)
    play(store, record.id, [deal(162)] * 3 + [deal(0)] + [deal(162)])
    s = board(store, record.id)
    assert s.game.over
    assert s.banner.title == "Ann & Cy win!"


def test_the_board_says_when_the_game_started_and_when_it_ended(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    now = lambda: record.created_at  # noqa: E731 - the board is read the moment the game starts
    s = ScoreboardState(store, record.id, now=now)
    assert s.load()
    clock = record.created_at.astimezone().strftime("%H:%M")
    assert s.dates == f"Started Today {clock}"
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    assert s.load()
    finished = s.record.finished_at.astimezone().strftime("%H:%M")
    assert s.dates == f"Started Today {clock} · finished Today {finished}"


def test_place_and_note_are_set_from_the_board_and_a_refusal_is_said(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert s.details == []
    assert s.save_details("Ann's birthday", "Café De Zwaan")
    assert s.details == ["Café De Zwaan", "Ann's birthday"]
    assert store.open_game(record.id).location == "Café De Zwaan"
    assert not s.save_details("", "x" * 101)
    assert s.error == "The place can have at most 100 characters; xxxxxxxxxxxxxxxxxxxx... is longer."
    assert s.details == ["Café De Zwaan", "Ann's birthday"]


def test_only_a_finished_game_offers_to_be_sent_to_bg_stats(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    s = board(store, record.id)
    assert s.bgstats_link is None
    play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    assert board(store, record.id, read_only=True).bgstats_link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    stopped = store.create_game("beverbende", ["Ann", "Bob"])
    store.abandon(stopped.id)
    assert board(store, stopped.id).bgstats_link is None


def test_members_only_progress_says_what_ends_the_game_in_a_whole_sentence(store):
    record = store.create_game("members_only", ["Ann", "Bob", "Cy"])
    assert board(store, record.id).progress == (
        "0 of 5 symbols have a track at 5 or more; the game ends when all 5 have one."
    )
