"""Klaverjassen on the shared screens: a spade on blue; the scoreboard counts deals left
(boompje) or the target, and marks each deal nat, pit or renege as a scoresheet would."""

from __future__ import annotations

from companion.i18n import _, ngettext
from companion.rules import Game
from companion.rules.klaverjassen import KlaverjassenDetail
from companion.ui.games import Board, Look


class KlaverjassenBoard(Board):
    def target(self, game: Game) -> int | None:
        detail: KlaverjassenDetail = game.detail
        return detail["target"]

    def progress(self, game: Game) -> str:
        detail: KlaverjassenDetail = game.detail
        if detail["deciding_deal"]:
            return _("Both teams passed {target}: one more deal decides").format(target=detail["target"])
        if detail["deals_to_play"]:
            left = max(detail["deals_to_play"] - len(game.rounds), 0)
            return ngettext("{n} deal left", "{n} deals left", left).format(n=left)
        return super().progress(game)

    def goal(self, game: Game) -> str:
        detail: KlaverjassenDetail = game.detail
        if detail["deals_to_play"]:
            return ngettext("{n} deal", "{n} deals", detail["deals_to_play"]).format(n=detail["deals_to_play"])
        return super().goal(game)

    def round_notes(self, game: Game) -> list[str]:
        """Marks a scoresheet would carry: nat, pit and renege."""
        detail: KlaverjassenDetail = game.detail
        notes = []
        for deal in detail["deals"]:
            marks = []
            if deal["nat"]:
                marks.append(_("{team} nat").format(team=deal["playing"]))
            if deal["pit"]:
                marks.append(_("pit"))
            if deal["verzaakt"]:
                marks.append(_("renege"))
            notes.append(", ".join(marks))
        return notes


LOOK = Look("\u2660", "#1565C0", KlaverjassenBoard())
