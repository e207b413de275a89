"""Game modes for a player's statistics: a game played alone to 50 and in teams to 100 are
two modes, and an average over both would describe neither.

A mode is the game, whether it is played alone or in teams, and what ends it (the points
to reach, the deals or rounds to play), as the game's own board says it (ui/games/<id>.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion import rules
from companion.i18n import _
from companion.store import PlayerResult
from companion.ui.format import points
from companion.ui.games import look


@dataclass(frozen=True)
class Mode:
    ruleset: str
    teams: bool
    goal: str
    """What ends a game of this mode, in words (the game's own board says it)."""

    @property
    def label(self) -> str:
        """'<game> · alone · to 50'."""
        parts = [rules.get(self.ruleset).name, _("in teams") if self.teams else _("alone")]
        return " · ".join(parts + ([self.goal] if self.goal else []))


def mode_of(result: PlayerResult) -> Mode:
    """The mode a finished game was played in, from how the rules set it up."""
    game = rules.get(result.ruleset).new_game(result.players, result.options, result.teams)
    return Mode(result.ruleset, result.teams is not None, look(result.ruleset).board.goal(game))


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
    for mode in sorted(groups, key=lambda m: (order.get(m.ruleset, len(order)), m.teams, m.goal)):
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
