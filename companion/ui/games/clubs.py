"""CLUBS on the shared screens: a club on green; the scoreboard shows progress to the target."""

from __future__ import annotations

from companion.rules import Game
from companion.rules.clubs import ClubsDetail
from companion.ui.games import Board, Look


class ClubsBoard(Board):
    def target(self, game: Game) -> int | None:
        detail: ClubsDetail = game.detail
        return detail["target"]


LOOK = Look("\u2663", "#2E7D32", ClubsBoard())
