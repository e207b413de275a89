"""The pure rules engine: one module per game, all built on ``base``.

``get(ruleset_id)`` returns a ruleset; ``rulesets()`` lists them all. Modules are imported on
first use, so a program that needs one game does not pay for the others.

``IDS`` is the one registry of games. A game is one line there plus modules named after its
id, which each layer finds with ``game_module`` (so no shared module names a game):

- ``companion/rules/<id>.py``: ``RULESET``, the rules, with its options' labels.
- ``companion/reference/content/<lang>/<id>.md``: its rules texts, one file per language.
- ``companion/ui/games/<id>.py``: ``LOOK``, its mark and colour and how its scoreboard reads.
- ``companion/ui/round_entry/<id>.py``: ``new_state(game, index)`` and ``view(state, on_save,
  on_cancel)``, its round-entry form.
- ``companion/ui/referee/<id>.py``: ``new_state(options)`` and ``view(state)``, its referee.
- ``bench/long_games/<id>.py`` (optional): its longest game and a random finished one, for
  the benchmarks (a game without one is left out of them).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.rules.base import Game, NextRound, Option, RuleError, Ruleset, Setup, Verdict

__all__ = ["Game", "NextRound", "Option", "RuleError", "Ruleset", "Setup", "Verdict", "get", "rulesets", "game_module", "IDS"]

IDS = (
    "clubs",
    "klaverjassen",
    "members_only",
    "beverbende",
)
"""Every game, in the order the app lists them."""


def game_module(package: str, ruleset_id: str) -> ModuleType:
    """The module of the game ``ruleset_id`` in ``package`` (e.g. ``companion.ui.referee``);
    RuleError names the known ids for a game that is not in ``IDS``."""
    if ruleset_id not in IDS:
        raise RuleError(
            "There is no game called {game!r}; choose one of {games}.", "ruleset", game=ruleset_id, games=", ".join(IDS)
        )
    return importlib.import_module(f"{package}.{ruleset_id}")


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; RuleError names the known ids otherwise."""
    ruleset: Ruleset = game_module(__name__, ruleset_id).RULESET
    return ruleset


def rulesets() -> list[Ruleset]:
    """Every game's ruleset, in the order the app lists them."""
    return [get(ruleset_id) for ruleset_id in IDS]
