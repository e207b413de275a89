"""The BG Stats "create play" link carries a finished game as BG Stats documents it."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.bgstats import create_play_link
from companion.store import Store
from tests.ui.conftest import bever_totals, play


@pytest.fixture
def store():
    with Store.memory() as s:
        yield s


def sent(link: str) -> dict:
    """The play a link hands to BG Stats, read the way BG Stats reads it."""
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("bgstats", "app.bgstatsapp.com", "/createPlay.html")
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def test_the_link_carries_game_date_players_scores_and_winners(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    record = play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    data = sent(create_play_link(record))
    assert data["sourceName"] == "Companion"
    assert data["game"]["name"] == "Beverbende" and data["game"]["sourceGameId"] == "beverbende"
    assert data["game"]["highestWins"] is False  # the lowest total wins Beverbende
    assert data["players"] == [
        {"name": "Ann", "sourcePlayerId": "Ann", "score": 40, "winner": True},
        {"name": "Bob", "sourcePlayerId": "Bob", "score": 48, "winner": False},
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    played = datetime.strptime(data["playDate"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    assert abs(played - record.finished_at) .total_seconds() < 1  # the end of the game, in UTC


def test_sending_twice_sends_the_same_play_id(store):
    """BG Stats logs a play once per source id: the id is the game's, not the moment's."""
    record = store.create_game("beverbende", ["Ann", "Bob"])
    finished = play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    first = sent(create_play_link(finished))["sourcePlayId"]
    again = sent(create_play_link(store.open_game(record.id)))["sourcePlayId"]
    other = store.create_game("beverbende", ["Ann", "Bob"])
    other = play(store, other.id, [bever_totals(Ann=10, Bob=12)] * 4)
    assert first == again == finished.uuid
    assert sent(create_play_link(other))["sourcePlayId"] != first


def test_team_players_carry_their_team_and_its_score(store):
    teams = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
    record = store.create_game("clubs", ["Ann", "Bob", "Cy", "Dee"], {"target": 10}, teams)
    round_entry = {"out_order": ["Ann", "Cy"], "club_points": {"Ann": 1, "Bob": 5}, "double": []}  # Ann & Cy 14
    record = play(store, record.id, [round_entry])
    assert record.status == "finished", record.game.detail
    players = {p["name"]: p for p in sent(create_play_link(record))["players"]}
    assert players["Ann"]["team"] == players["Cy"]["team"] == "Ann & Cy"
    assert players["Ann"]["score"] == players["Cy"]["score"] == record.game.totals["Ann & Cy"]
    assert players["Ann"]["winner"] and not players["Bob"]["winner"]


def test_place_and_note_go_along_and_are_left_out_when_empty(store):
    record = store.create_game("beverbende", ["Ann", "Bob"])
    finished = play(store, record.id, [bever_totals(Ann=10, Bob=12)] * 4)
    assert not {"location", "comments"} & set(sent(create_play_link(finished)))
    noted = store.set_details(record.id, "Ann's birthday & cake", "Café De Zwaan")
    data = sent(create_play_link(noted))
    assert (data["location"], data["comments"]) == ("Café De Zwaan", "Ann's birthday & cake")
