"""MEMBERS ONLY on the shared screens: a crown on purple; the scoreboard shows each player's
five symbol tracks and how many symbols have reached 5."""

from __future__ import annotations

from companion.i18n import _, ngettext
from companion.rules import Game
from companion.rules.members_only import COUNTS_FROM, MembersOnlyDetail
from companion.ui.games import Board, Look, Track


def symbol_name(symbol: str) -> str:
    """MEMBERS ONLY's five symbols in words, as the form and the scoreboard label them."""
    return {
        "umbrella": _("Umbrella"),
        "crown": _("Crown"),
        "teacup": _("Teacup"),
        "big_ben": _("Big Ben"),
        "hat": _("Hat"),
    }[symbol]


def field_name(field: str) -> str:
    """A betting field as printed on the board ("3 or fewer", "5 or more"), as the form and the referee name it."""
    if field.startswith("<="):
        return _("{n} or fewer").format(n=field[2:])
    return _("{n} or more").format(n=field[2:])


class MembersOnlyBoard(Board):
    def progress(self, game: Game) -> str:
        detail: MembersOnlyDetail = game.detail
        reached = len(detail["symbols_reached"])
        return ngettext(
            "{reached} of 5 symbols has a track at 5 or more; the game ends when all 5 have one.",
            "{reached} of 5 symbols have a track at 5 or more; the game ends when all 5 have one.",
            reached,
        ).format(reached=reached)

    def tracks(self, game: Game, side: str) -> tuple[Track, ...]:
        """Each symbol's track; a track counts from 5 up."""
        detail: MembersOnlyDetail = game.detail
        return tuple(
            Track(symbol_name(symbol), value, value >= COUNTS_FROM) for symbol, value in detail["tracks"][side].items()
        )


LOOK = Look("\u265B", "#6A1B9A", MembersOnlyBoard())
