"""Beverbende on the shared screens: a diamond on rust; the scoreboard says how the game ends
(rounds left, the elimination limit, or the clock) and who is out."""

from __future__ import annotations

from companion.i18n import _, ngettext
from companion.rules import Game
from companion.rules.beverbende import BeverbendeDetail
from companion.ui.games import Board, Look


class BeverbendeBoard(Board):
    def progress(self, game: Game) -> str:
        detail: BeverbendeDetail = game.detail
        if detail["ending"] == "elimination":
            return _("Out at {limit} points · last player left wins").format(limit=detail["elimination_limit"])
        if detail["ending"] == "time":
            return _("Play until time is up; mark the last round when it is")
        if detail["ending"] == "limit":
            return _("Over when someone reaches {limit} · lowest total wins").format(limit=detail["game_ends_at"])
        left = detail["rounds_left"]  # a number with the seed and rounds endings
        if left:
            return ngettext("{n} round left · lowest total wins", "{n} rounds left · lowest total wins", left).format(n=left)
        return _("Round {played} of {planned} · lowest total wins").format(
            played=len(game.rounds), planned=detail["planned_rounds"]
        )

    def goal(self, game: Game) -> str:
        detail: BeverbendeDetail = game.detail
        if detail["ending"] == "elimination":
            return _("out at {points}").format(points=detail["elimination_limit"])
        if detail["ending"] == "time":
            return _("until time is up")
        if detail["ending"] == "limit":
            return _("to {points}").format(points=detail["game_ends_at"])
        planned = detail["planned_rounds"]
        if planned is None:  # only a game of so many rounds plans them
            return _("until time is up")
        return ngettext("{n} round", "{n} rounds", planned).format(n=planned)

    def side_note(self, game: Game, side: str) -> str:
        detail: BeverbendeDetail = game.detail
        out = detail["out_in_round"]
        if side in out:
            return _("Out after round {number}").format(number=out[side])
        return ""


LOOK = Look("\u2666", "#BF360C", BeverbendeBoard())
