"""Small valid games of every ruleset for the store tests (the rules check every entry)."""

from __future__ import annotations

from companion.store import GameRecord, Store

KLAVER_TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def play(store: Store, ruleset: str, players: list[str], entries: list[dict], **setup) -> GameRecord:
    """Create a game and save each entry as its own round."""
    record = store.create_game(ruleset, players, **setup)
    for entry in entries:
        record = store.add_round(record.id, entry, expected_version=record.version)
    return record


def beverbende(store: Store, rounds: list[dict[str, int]], **setup) -> GameRecord:
    """A Beverbende game from each round's totals; with the seed ending, one round per player."""
    players = list(rounds[0])
    return play(store, "beverbende", players, [{"totals": totals} for totals in rounds], **setup)


def klaverjassen_boompje(store: Store, us: int, deals: int = 16, **setup) -> GameRecord:
    """Sixteen deals ("boompje") in which team Us takes ``us`` card points of every deal."""
    entries = [{"card_points": {"Us": us, "Them": 162 - us}} for _ in range(deals)]
    return play(
        store, "klaverjassen", ["Ann", "Bob", "Cy", "Dee"], entries,
        options={"ending": "boompje"}, teams=KLAVER_TEAMS, **setup,
    )


def members_only_one_hand(store: Store, players: list[str] | None = None) -> GameRecord:
    """A hand that puts a marker at 5 on every symbol, so it ends the game; the first player wins."""
    players = players or ["Ann", "Bob", "Cy"]
    first, second, third = players
    entry = {
        "bets": [
            {"player": first, "symbol": "umbrella", "field": ">=8"},
            {"player": first, "symbol": "crown", "field": ">=8"},
            {"player": first, "symbol": "teacup", "field": "<=1"},
            {"player": second, "symbol": "big_ben", "field": "<=1"},
            {"player": third, "symbol": "hat", "field": "<=1"},
        ],
        "counts": {"umbrella": 8, "crown": 8, "teacup": 0, "big_ben": 0, "hat": 0},
    }
    return play(store, "members_only", players, [entry])


def clubs_teams_round(first_out: str, second_out: str, club_points: dict[str, int]) -> dict:
    return {"out_order": [first_out, second_out], "club_points": club_points}
