"""Game modes for a player's statistics: CLUBS alone to 50 and in teams to 100 are two
modes, and an average over both would describe neither.

A mode is the game, whether it is played alone or in teams, and what ends it (the points
to reach, the deals or rounds to play), read from the rules' own setup of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion import rules
from companion.i18n import _, ngettext
from companion.store import PlayerResult
from companion.ui.format import points


@dataclass(frozen=True)
class Mode:
    ruleset: str
    teams: bool
    goal: tuple[str, int | None]
    """What ends a game of this mode: ("target", 50), ("deals", 16), ("rounds", 4),
    ("elimination", 100), ("time", None) or ("", None) where the game has one ending."""

    @property
    def label(self) -> str:
        """'CLUBS · alone · to 50'."""
        parts = [rules.get(self.ruleset).name, _("in teams") if self.teams else _("alone")]
        kind, value = self.goal
        if kind == "target":
            parts.append(_("to {points}").format(points=value))
        elif kind == "deals":
            parts.append(ngettext("{n} deal", "{n} deals", value).format(n=value))
        elif kind == "rounds":
            parts.append(ngettext("{n} round", "{n} rounds", value).format(n=value))
        elif kind == "elimination":
            parts.append(_("out at {points}").format(points=value))
        elif kind == "time":
            parts.append(_("until time is up"))
        return " · ".join(parts)


def mode_of(result: PlayerResult) -> Mode:
    """The mode a finished game was played in, from how the rules set it up."""
    detail = rules.get(result.ruleset).new_game(result.players, result.options, result.teams).detail
    return Mode(result.ruleset, result.teams is not None, _goal(detail))


def _goal(detail) -> tuple[str, int | None]:
    if not isinstance(detail, dict):
        return ("", None)
    for key, kind in (("target", "target"), ("deals_to_play", "deals"), ("planned_rounds", "rounds"), ("elimination_limit", "elimination")):
        if detail.get(key):
            return (kind, detail[key])
    if detail.get("ending") == "time":
        return ("time", None)
    return ("", None)


@dataclass(frozen=True)
class ModeStats:
    """A player's record in one mode, every figure already in words."""

    mode: str
    played: str
    wins: str
    win_rate: str
    average: str
    best: str


def percent(rate: float) -> str:
    return f"{round(rate * 100)}%"


def by_mode(results: Iterable[PlayerResult]) -> list[ModeStats]:
    """One line per mode the player has finished a game in, in the rules' order."""
    groups: dict[Mode, list[PlayerResult]] = {}
    for result in results:
        groups.setdefault(mode_of(result), []).append(result)
    order = {ruleset_id: i for i, ruleset_id in enumerate(rules.IDS)}
    lines = []
    for mode in sorted(groups, key=lambda m: (order.get(m.ruleset, len(order)), m.teams, m.goal[0], m.goal[1] or 0)):
        games = groups[mode]
        scores = [g.score for g in games]
        wins = sum(g.won for g in games)
        lowest_wins = rules.get(mode.ruleset).lowest_wins
        best = min(scores) if lowest_wins else max(scores)
        lines.append(
            ModeStats(
                mode=mode.label,
                played=str(len(games)),
                wins=str(wins),
                win_rate=percent(wins / len(games)),
                average=f"{sum(scores) / len(scores):.1f}",
                best=points(best) + (" " + _("(lowest)") if lowest_wins else ""),
            )
        )
    return lines


def wins_over_time(results: Iterable[PlayerResult]) -> list[int]:
    """Wins counted up game after game, oldest first, from 0 before the first game."""
    line = [0]
    for result in results:
        line.append(line[-1] + result.won)
    return line
