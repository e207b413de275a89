"""The longest Klaverjassen game: 1500 points, reached by both teams together, then tied deals.

With nat decided on card points alone a deal can end level (the playing team has more card
points, the opponents as much with roem), so after both teams pass 1500 in the same deal the
deciding deals can stay tied up to the 200-deal cap. Before that, pairs of mirrored deals
(seeded choice of made, nat, pit, defenders' pit, renege) keep the totals level.
"""

from __future__ import annotations

import random

from bench.long_games import entry_until_valid
from companion import rules
from companion.rules import Game

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
OPTIONS = {"ending": "1500", "nat_on_card_points": True}
ROUNDS = 200


def _made(p: str, o: str) -> dict:
    return {"card_points": {p: 96, o: 66}, "roem": {p: 20}}


def _made_with_roem(p: str, o: str) -> dict:
    return {"card_points": {p: 120, o: 42}, "roem": {p: 100, o: 20}}


def _nat(p: str, o: str) -> dict:
    return {"card_points": {p: 78, o: 84}, "roem": {p: 50}}


def _pit(p: str, o: str) -> dict:
    return {"card_points": {p: 162, o: 0}, "roem": {p: 40}, "pit": p}


def _defenders_pit(p: str, o: str) -> dict:
    return {"card_points": {p: 0, o: 162}, "pit": o}


def _renege(p: str, o: str) -> dict:
    return {"verzaakt": o, "roem": {p: 20}}


def _level(p: str, o: str) -> dict:
    """91 against 91: not nat when only card points decide."""
    return {"card_points": {p: 91, o: 71}, "roem": {o: 20}}


KINDS = (_made, _made_with_roem, _nat, _pit, _defenders_pit, _renege)


def _other(team: str) -> str:
    return next(t for t in TEAMS if t != team)


def long_game() -> dict:
    ruleset = rules.get("klaverjassen")
    game = ruleset.new_game(PLAYERS, OPTIONS, TEAMS)
    rng = random.Random(1501)
    entries: list[dict] = []
    while len(entries) < ROUNDS:
        playing = game.next_round.playing
        assert playing is not None, "the game ended before the benchmark's deals were in"
        kind = rng.choice(KINDS)
        first, second = kind(playing, _other(playing)), kind(_other(playing), playing)
        halfway = game.add_round(first)
        if halfway.over:  # one team would pass 1500 alone; switch to level deals
            break
        game = halfway.add_round(second)
        entries += [first, second]
    while len(entries) < ROUNDS:
        playing = game.next_round.playing
        assert playing is not None, "the game ended before the benchmark's deals were in"
        entry = _level(playing, _other(playing))
        game = game.add_round(entry)
        entries.append(entry)
    return {
        "ruleset": "klaverjassen",
        "players": list(PLAYERS),
        "options": dict(OPTIONS),
        "teams": {name: list(members) for name, members in TEAMS.items()},
        "entries": entries,
    }


RANDOM_TEAMS = ("Wij", "Zij")
"""The team names of the store bench's random games."""


def finished_game(rng: random.Random, names: list[str]) -> tuple[dict, Game]:
    """A random finished game for the store bench, seated from ``names``; its setup and the game."""
    players = rng.sample(names, 4)
    teams = {RANDOM_TEAMS[0]: [players[0], players[2]], RANDOM_TEAMS[1]: [players[1], players[3]]}
    options = {"ending": rng.choice(("1500", "1500", "boompje"))}
    game = rules.get("klaverjassen").new_game(players, options, teams)

    def deal() -> dict:
        first = rng.choice([p for p in range(0, 163) if p not in (1, 161)])
        entry = {"card_points": {RANDOM_TEAMS[0]: first, RANDOM_TEAMS[1]: 162 - first}}
        if rng.random() < 0.3 and 0 < first < 162:
            entry["roem"] = {rng.choice(RANDOM_TEAMS): rng.choice((20, 40, 50))}
        return entry

    while not game.over:
        game = entry_until_valid(game, deal)
    return {"options": options, "teams": teams}, game
