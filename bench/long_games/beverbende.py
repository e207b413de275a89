"""The longest Beverbende game: six players against the clock, 200 rounds of dealt rows.

The time ending has no round limit, so it allows the full 200 rounds; the last entry
carries ``"last": true``. Rows are dealt from a shuffled deck (seeded, so the game is
always the same) and entered card by card, the entry form that needs the most checking.
"""

from __future__ import annotations

import random

from bench.long_games import entry_until_valid
from companion import rules
from companion.rules import Game
from companion.rules.beverbende import CARDS_PER_ROW, COPIES

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
ROUNDS = 200


def long_game() -> dict:
    deck = [value for value, copies in COPIES.items() for _ in range(copies)]
    rng = random.Random(2024)
    entries = []
    for number in range(1, ROUNDS + 1):
        rng.shuffle(deck)
        cards = {
            player: deck[seat * CARDS_PER_ROW : (seat + 1) * CARDS_PER_ROW] for seat, player in enumerate(PLAYERS)
        }
        entry: dict = {"cards": cards}
        if number == ROUNDS:
            entry["last"] = True
        entries.append(entry)
    return {"ruleset": "beverbende", "players": list(PLAYERS), "options": {"ending": "time"}, "teams": None, "entries": entries}


def finished_game(rng: random.Random, names: list[str]) -> tuple[dict, Game]:
    """A random finished game for the store bench, seated from ``names``; its setup and the game."""
    players = rng.sample(names, rng.randint(2, 6))
    options = {"ending": "rounds", "rounds": rng.randint(18, 34)} if rng.random() < 0.8 else {}
    game = rules.get("beverbende").new_game(players, options)
    while not game.over:
        game = entry_until_valid(game, lambda: {"totals": {p: rng.randint(10, 28) for p in players}})
    return {"options": options, "teams": None}, game
