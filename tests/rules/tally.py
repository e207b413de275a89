"""Tally, a toy game for tests of the shared machinery: every round each player scores 0 to
10 points; the first round that brings someone to the target ends the game and the highest
total wins (ties shared)."""

from __future__ import annotations

from companion.rules.base import Option, RuleError, Ruleset, Verdict


class Tally(Ruleset):
    id = "tally"
    name = "Tally"
    min_players = 2
    max_players = 4
    options = (
        Option("target", int, 20, "Points that end the game.", minimum=5, maximum=50, label="Target"),
        Option("doubles", bool, False, "Whether points count twice.", label="Doubles"),
        Option(
            "pace",
            str,
            "normal",
            "How fast the game goes.",
            allowed=("normal", "fast"),
            label="Pace",
            value_words=(("normal", "normal"), ("fast", "fast")),
        ),
    )

    def apply(self, setup, state, entry, number):
        points = entry.get("points")
        if not isinstance(points, dict) or set(points) != set(setup.sides):
            raise RuleError("Give points for every side.", "points")
        for side, value in points.items():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
                raise RuleError(f"{side} scores 0 to 10, not {value!r}.", f"points.{side}")
        factor = 2 if setup.options["doubles"] else 1
        return (state or 0) + 1, {side: value * factor for side, value in points.items()}

    def verdict(self, setup, state, totals, rounds_played):
        best = max(totals.values())
        if best < setup.options["target"]:
            return Verdict(False)
        return Verdict(True, tuple(side for side in setup.sides if totals[side] == best))
