"""Benchmark drivers, one optional module per game, named after its ruleset id.

Each has ``long_game()``, the longest game its options allow (the replay bench and the
rules tests play it), and ``finished_game(rng, names)``, a random finished game (the
store bench fills its database with them). A game without a module here is left out of
the benchmarks, which say so.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from companion import rules
from companion.rules import Game, RuleError


def benched() -> dict[str, ModuleType]:
    """The driver of every game that has one, by ruleset id in the registry's order."""
    found = {}
    for ruleset_id in rules.IDS:
        try:
            found[ruleset_id] = rules.game_module(__name__, ruleset_id)
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{ruleset_id}":
                raise
            print(f"{ruleset_id}: no bench/long_games/{ruleset_id}.py, left out")
    return found


def entry_until_valid(game: Game, make: Callable[[], dict]) -> Game:
    """Add the first generated entry the rules accept (generators aim close, the rules decide)."""
    for _ in range(200):
        try:
            return game.add_round(make())
        except RuleError:
            continue
    raise RuntimeError(f"no valid entry found for {game!r}")
