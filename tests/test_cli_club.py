"""The club evening commands: an evening's ranking as CSV or JSON, a season's table."""

from __future__ import annotations

import json

from companion import cli
from companion.store import Store
from companion.store.club import Evenings

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eva"]


def played_evening(url: str) -> int:
    """An evening of five (one sits out) whose one table ends after four reneges, closed."""
    with Store(url) as store:
        evenings = Evenings(store)
        evening = evenings.draw_next(evenings.create("Tuesday", FIVE, season_name="2026", seed=3).id)
        (game_id,) = evening.rounds[0].game_ids.values()
        record = store.open_game(game_id)
        _first, second = record.game.sides
        for _ in range(4):
            record = store.add_round(game_id, {"verzaakt": second}, record.version)
        evenings.close(evening.id)
        return evening.id


def test_an_evenings_ranking_prints_as_csv_and_json(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    evening_id = played_evening(url)
    assert cli.main(["evening", str(evening_id), "--database-url", url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "place,player,total,round 1,nats,pits"
    assert sorted(line.split(",")[2] for line in lines[1:]) == ["0", "0", "324", "648", "648"]
    assert cli.main(["evening", str(evening_id), "--json", "--database-url", url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {line["player"] for line in data["ranking"]} == set(FIVE)


def test_a_season_prints_each_players_best_evenings(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    played_evening(url)
    assert cli.main(["season", "2026", "--best", "1", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "(1 evening, total 648, average 648)" in out


def test_an_unknown_evening_is_a_message_not_a_traceback(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    assert cli.main(["evening", "9", "--database-url", url]) == 1
    assert capsys.readouterr().err == "companion: There is no club evening 9.\n"
