"""What the store hands out: plain frozen dataclasses with no database session attached."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.i18n import _, ngettext
from companion.rules import Game

STATUSES = ("in_progress", "finished", "abandoned")


@dataclass(frozen=True)
class GameRecord:
    """One saved game, rebuilt from its raw entries by the rules.

    ``game`` gives totals, round_scores, standings, winners, next_round and detail;
    ``version`` goes with the next change (optimistic concurrency); ``round_times`` has
    one (entered_at, edited_at) pair per round, edited_at None when never edited.
    """

    id: int
    uuid: str
    version: int
    status: str
    ruleset: str
    game: Game
    created_at: datetime
    finished_at: datetime | None
    note: str
    location: str
    round_times: list[tuple[datetime, datetime | None]]


@dataclass(frozen=True)
class GameSummary:
    """A line of the history: enough to list a game without replaying it."""

    id: int
    uuid: str
    ruleset: str
    status: str
    created_at: datetime
    finished_at: datetime | None
    sides: list[str]
    totals: dict[str, int]
    winners: list[str]
    rounds_played: int
    players: list[str]
    note: str
    location: str


@dataclass(frozen=True)
class PlayerProfile:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class RulesetStats:
    """One player's finished games of one ruleset.

    A player's score in a game is their side's total (their team's in team play).
    ``best`` is the highest score, or the lowest where the lowest total wins
    (``lowest_wins``, e.g. Beverbende).
    """

    ruleset: str
    played: int
    wins: int
    win_rate: float
    average: float
    best: int
    lowest_wins: bool


@dataclass(frozen=True)
class PlayerStats:
    """A player's record over finished games, overall and per ruleset (in rules order)."""

    player: str
    played: int
    wins: int
    win_rate: float
    by_ruleset: dict[str, RulesetStats]


@dataclass(frozen=True)
class PlayerResult:
    """One finished game as a player's statistics see it: how it was set up, when it
    ended, the player's score (their team's in team play) and whether they won."""

    game_id: int
    ruleset: str
    players: list[str]
    options: dict[str, Any]
    teams: dict[str, list[str]] | None
    played_at: datetime
    score: int
    won: bool


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished games together (as opponents or partners).

    ``shared_wins`` counts games both won (partners, or a shared win); those also count
    in ``wins`` and ``other_wins``.
    """

    player: str
    other: str
    games_together: int
    wins: int
    other_wins: int
    shared_wins: int


@dataclass(frozen=True)
class ImportReport:
    games_added: int
    games_skipped: int
    players_added: int
    evenings_added: int
    """Club evenings added (a backup from before club evenings has none)."""

    @property
    def message(self) -> str:
        """What the import did, in the current language (the command line and Settings say it)."""
        said = _("Imported {games} and {players}; {skipped} already here.").format(
            games=_games(self.games_added),
            players=ngettext("{n} new player", "{n} new players", self.players_added).format(n=self.players_added),
            skipped=_games(self.games_skipped),
        )
        if not self.evenings_added:
            return said
        evenings = ngettext("{n} club evening added.", "{n} club evenings added.", self.evenings_added)
        return f"{said} {evenings.format(n=self.evenings_added)}"


def _games(count: int) -> str:
    return ngettext("{n} game", "{n} games", count).format(n=count)
