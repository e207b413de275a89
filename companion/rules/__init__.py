"""The pure rules engine: one module per game, all built on ``base``.

``get(ruleset_id)`` returns a ruleset; ``rulesets()`` lists them all. Modules are imported on
first use, so a program that needs one game does not pay for the others.
"""

from __future__ import annotations

import importlib

from companion.rules.base import Game, NextRound, Option, RuleError, Ruleset, Setup, Verdict

__all__ = ["Game", "NextRound", "Option", "RuleError", "Ruleset", "Setup", "Verdict", "get", "rulesets", "IDS"]

IDS = ("clubs", "klaverjassen", "members_only", "beverbende")


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; RuleError names the known ids otherwise."""
    if ruleset_id not in IDS:
        raise RuleError(
            "There is no game called {game!r}; choose one of {games}.", "ruleset", game=ruleset_id, games=", ".join(IDS)
        )
    ruleset: Ruleset = importlib.import_module(f"companion.rules.{ruleset_id}").RULESET
    return ruleset


def rulesets() -> list[Ruleset]:
    """Every game's ruleset, in the order the app lists them."""
    return [get(ruleset_id) for ruleset_id in IDS]
