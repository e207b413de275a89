"""The longest MEMBERS ONLY game for the replay benchmark: 200 hands, 3 players.

Three players get the most turns (up to five stones each a hand). Every umbrella bet is
wrong until the last hand, so the umbrella column never reaches 5 and the game cannot
end earlier; the other tracks fill up to 10, stones are lost and handed back, and the
counts alternate between both entry forms. The last hand's winning umbrella bet on
"1 or fewer" (5 points) ends the game.
"""

from __future__ import annotations

import random

from bench.long_games import entry_until_valid
from companion.rules import Game, get
from companion.rules.members_only import (
    FIELDS,
    MINUS_CARDS,
    SYMBOL_CARDS,
    SYMBOLS,
    bet_wins,
    face_up_at_scoring,
    least_total_count,
)

HANDS = 200
PLAYERS = ["Ann", "Bob", "Cy"]
FACE_UP = face_up_at_scoring(len(PLAYERS))


def _counts(rng: random.Random, umbrella: int | None = None) -> dict[str, int]:
    """Random counts that three players' face-up cards allow."""
    while True:
        counts = {symbol: rng.randint(0, SYMBOL_CARDS) for symbol in SYMBOLS}
        if umbrella is not None:
            counts["umbrella"] = umbrella
        if least_total_count(len(PLAYERS)) <= sum(counts.values()) <= FACE_UP:
            return counts


def _bets(rng: random.Random, counts: dict[str, int], stones: dict, last: bool) -> list[dict]:
    free = [(s, f) for s in SYMBOLS for f in FIELDS if s != "umbrella" or not bet_wins(f, counts[s])]
    rng.shuffle(free)
    if last:
        free.append(("umbrella", "<=1"))  # popped by the first bet, which the first player must place
    bets = []
    for player in PLAYERS:
        singles, doubles = stones[player]["single"], stones[player]["double"]
        least = 1 if last and player == PLAYERS[0] else 0
        for turn in range(rng.randint(least, singles + doubles)):
            stone = "double" if doubles and (not singles or rng.random() < 0.3) else "single"
            if stone == "double":
                doubles -= 1
            else:
                singles -= 1
            symbol, field = free.pop()
            bets.append({"player": player, "symbol": symbol, "field": field, "stone": stone, "risk": turn == 0})
    return bets


def _as_cards(rng: random.Random, counts: dict[str, int]) -> dict[str, dict[str, int]] | None:
    """The same counts as face-up symbol and minus cards (no minus cards if they would not fit);
    None for an odd sum, which face-up cards show only when a minus card has no card to cancel."""
    if sum(counts.values()) % 2:
        return None
    minus = {s: rng.randint(0, min(MINUS_CARDS, SYMBOL_CARDS - counts[s])) for s in SYMBOLS}
    if sum(counts.values()) + 2 * sum(minus.values()) > FACE_UP:
        minus = dict.fromkeys(SYMBOLS, 0)
    return {"shown": {s: counts[s] + minus[s] for s in SYMBOLS}, "minus": minus}


def long_game() -> dict:
    rng = random.Random(20240607)
    game = get("members_only").new_game(PLAYERS)
    entries = []
    for hand in range(1, HANDS + 1):
        last = hand == HANDS
        counts = _counts(rng, umbrella=0 if last else None)
        entry: dict[str, object] = {"bets": _bets(rng, counts, game.detail["stones"], last)}
        entry.update((hand % 2 and _as_cards(rng, counts)) or {"counts": counts})
        game = game.add_round(entry)
        entries.append(entry)
    assert game.over, "the last hand must end the game"
    return {"ruleset": "members_only", "players": PLAYERS, "options": {}, "teams": None, "entries": entries}


def finished_game(rng: random.Random, names: list[str]) -> tuple[dict, Game]:
    """A random finished game for the store bench, seated from ``names``; its setup and the game."""
    players = rng.sample(names, rng.randint(3, 5))
    game = get("members_only").new_game(players)
    low, high = least_total_count(len(players)), face_up_at_scoring(len(players))

    def hand() -> dict:
        while True:
            counts = {s: rng.randint(0, 11) for s in SYMBOLS}
            if low <= sum(counts.values()) <= high:
                break
        free = [(s, f) for s in SYMBOLS for f in FIELDS]
        rng.shuffle(free)
        bets = []
        for player in players:
            stones = game.detail["stones"][player]
            for turn in range(rng.randint(0, min(2, stones["single"]))):
                symbol, field = free.pop()
                bets.append({"player": player, "symbol": symbol, "field": field, "stone": "single", "risk": turn == 0})
        return {"bets": bets, "counts": counts}

    while not game.over:
        game = entry_until_valid(game, hand)
    return {"options": {}, "teams": None}, game
