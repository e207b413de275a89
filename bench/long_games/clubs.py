"""The longest CLUBS game: six players, Double Cards on, a target reached only in round 200.

The target option goes up to 10,000, so a game can last the full 200 rounds. Rounds are
made with a seeded random generator (the game is always the same); every round someone
calls Double Cards, so the doubling and the failed calls are exercised too. The target is
set to the highest total after round 200, in which the leader goes out first (without a
Double), so no side reaches it earlier.
"""

from __future__ import annotations

import random

from bench.long_games import entry_until_valid
from companion import rules
from companion.rules import Game
from companion.rules.clubs import MOST_TARGET

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
ROUNDS = 200


def _round(rng: random.Random, first_out: str | None = None) -> dict:
    order = PLAYERS[:]
    rng.shuffle(order)
    if first_out is not None:
        order.remove(first_out)
        order.insert(0, first_out)
    return {
        "out_order": order[:-1],
        "club_points": {player: rng.randrange(0, 6) for player in PLAYERS},
        "double": rng.sample(PLAYERS, rng.randrange(1, 3)),
    }


def long_game() -> dict:
    rng = random.Random(1873)
    entries = [_round(rng) for _ in range(ROUNDS - 1)]
    unended = rules.get("clubs").new_game(PLAYERS, {"target": MOST_TARGET})
    for entry in entries:
        unended = unended.add_round(entry)
    before_last = unended.totals
    last = _round(rng, first_out=max(PLAYERS, key=before_last.__getitem__))
    last["double"] = []
    entries.append(last)
    # The leader gains at least the 12 bonus in the last round, so no side had this before.
    target = max(unended.add_round(last).totals.values())
    return {
        "ruleset": "clubs",
        "players": list(PLAYERS),
        "options": {"target": target},
        "teams": None,
        "entries": entries,
    }


def finished_game(rng: random.Random, names: list[str]) -> tuple[dict, Game]:
    """A random finished game for the store bench, seated from ``names``; its setup and the game."""
    if rng.random() < 0.25:
        players = rng.sample(names, 4)
        teams = {f"Team {players[0]}": [players[0], players[2]], f"Team {players[1]}": [players[1], players[3]]}
        options = {"target": 300}
    else:
        players, teams, options = rng.sample(names, rng.randint(3, 6)), None, {"target": rng.choice((150, 180, 210))}
    game = rules.get("clubs").new_game(players, options, teams)

    def round_entry() -> dict:
        order = rng.sample(players, len(players))
        points = {p: rng.randint(0, 6) for p in players}
        doubles = [order[0]] if rng.random() < 0.1 else []
        return {"out_order": order[:-1] if teams is None else order[:2], "club_points": points, "double": doubles}

    while not game.over:
        game = entry_until_valid(game, round_entry)
    return {"options": options, "teams": teams}, game
