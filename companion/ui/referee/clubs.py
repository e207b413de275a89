"""CLUBS referee, "Can I play this?": the play on the table, the cards you want to play.

The player taps card values (1 to 15) into two piles, the play to beat and their own
play, and flips the 15s-wild and Crazy CLUBS switches; ``companion.rules.clubs.judge_play``
gives the verdict. An empty table means the play leads.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):
``referee-clubs-wild`` and ``referee-clubs-crazy`` switches;
``referee-clubs-pile-table`` / ``referee-clubs-pile-play`` choose where taps go;
``referee-clubs-card-<1..15>`` card keys; ``referee-clubs-table-<i>`` and
``referee-clubs-play-<i>`` the cards placed (tap the cross to take one back);
``referee-clubs-verdict`` the ruling; ``referee-clubs-clear`` start over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from functools import partial
import flet as ft

from companion.i18n import _
from companion.rules import RuleError
from companion.rules.clubs import COPIES_PER_VALUE, HAND_SIZE, HIGHEST_CARD, LOWEST_CARD, PlayVerdict, judge_play
from companion.ui.referee import widgets

TABLE, PLAY = "table", "play"
VALUES = tuple(range(LOWEST_CARD, HIGHEST_CARD + 1))


@dataclass(frozen=True)
class Ruling:
    """What the referee says about the play, in the player's words."""

    legal: bool
    headline: str
    reason: str
    trick: str


class ClubsReferee:
    """Two piles of card values and the two play-variant switches."""

    def __init__(self, wild_15: bool = False, crazy: bool = False):
        self.table: list[int] = []
        self.play: list[int] = []
        self.pile = PLAY
        self.wild_15 = wild_15
        self.crazy = crazy
        self.notice: str | None = None

    # --- intents ----------------------------------------------------------------------

    def choose_pile(self, pile: str) -> None:
        """Where the next tapped card goes: the table (play to beat) or your play."""
        if pile not in (TABLE, PLAY):
            raise ValueError(pile)
        self.pile = pile
        self.notice = None

    def tap(self, value: int) -> None:
        """Add a card of ``value`` to the chosen pile, as far as the deck and a hand allow."""
        cards = self._cards(self.pile)
        if (self.table + self.play).count(value) >= COPIES_PER_VALUE:
            self.notice = _("The deck has only four cards of each value.")
        elif len(cards) >= HAND_SIZE:
            self.notice = _("A play has at most ten cards: a hand holds no more.")
        else:
            cards.append(value)
            cards.sort()
            self.notice = None

    def take_back(self, pile: str, value: int) -> None:
        """Remove one card of ``value`` from ``pile``."""
        self._cards(pile).remove(value)
        self.notice = None

    def clear(self) -> None:
        self.table.clear()
        self.play.clear()
        self.pile = PLAY
        self.notice = None

    def toggle_wild(self) -> None:
        self.wild_15 = not self.wild_15

    def toggle_crazy(self) -> None:
        self.crazy = not self.crazy

    # --- read-outs --------------------------------------------------------------------

    def can_add(self, value: int) -> bool:
        return (self.table + self.play).count(value) < COPIES_PER_VALUE and len(self._cards(self.pile)) < HAND_SIZE

    def verdict(self) -> PlayVerdict | None:
        """The rules engine's verdict, or None while there is no play to judge."""
        if not self.play:
            return None
        return judge_play(self.table or None, self.play, wild_15=self.wild_15, crazy=self.crazy)

    def ruling(self) -> Ruling | None:
        """The verdict in words; None until cards to play are chosen."""
        try:
            verdict = self.verdict()
        except RuleError as error:
            return Ruling(False, _("Check the cards"), error.message, "")
        if verdict is None:
            return None
        if not verdict.legal:
            return Ruling(False, _("No, you may not play this"), verdict.reason, "")
        if verdict.wins_trick:
            trick = _("It wins the trick at once.")
        else:
            trick = _("It does not win the trick at once: the trick goes on.")
        return Ruling(True, _("Yes, you may play this"), verdict.reason, trick)

    @property
    def prompt(self) -> str:
        """What to do next, shown until there is a ruling."""
        if not self.play:
            return _("Tap the cards you want to play. Leave the table empty if you lead.")
        return ""

    def _cards(self, pile: str) -> list[int]:
        return self.table if pile == TABLE else self.play



def new_state(options: Mapping[str, Any]) -> ClubsReferee:
    """The referee set up like a game with ``options``: its 15s-wild and Crazy CLUBS switches."""
    return ClubsReferee(wild_15=options.get("wild_15", False), crazy=options.get("crazy", False))


def view(state: ClubsReferee) -> ft.Control:
    """Card keys 1 to 15, the two piles, the switches and the ruling."""
    screen = widgets.Binder()
    def card_key(value: int) -> ft.Control:
        return screen.key(str(value), f"referee-clubs-card-{value}", partial(state.tap, value),
                          disabled=lambda: not state.can_add(value), width=52)

    keys = [card_key(value) for value in VALUES]
    return screen.rooted(ft.Column(
        [
            screen.switch(_("15s are wild"), "referee-clubs-wild", lambda: state.wild_15, state.toggle_wild),
            screen.switch(_("Crazy CLUBS"), "referee-clubs-crazy", lambda: state.crazy, state.toggle_crazy),
            screen.choice([(TABLE, _("On the table")), (PLAY, _("Your play"))], lambda: state.pile, state.choose_pile,
                          "referee-clubs-pile"),
            ft.Row(keys, wrap=True, spacing=6, run_spacing=6),
            screen.section(lambda: [
                _pile(_("On the table"), TABLE, state.table, _("Nothing: you lead."), state, screen),
                _pile(_("Your play"), PLAY, state.play, _("No cards yet."), state, screen),
                *widgets.notice(state.notice, "referee-clubs-notice"),
                _ruling(state),
            ]),
            widgets.tagged(ft.TextButton(_("Start over"), icon=ft.Icons.RESTART_ALT, on_click=screen.intent(state.clear)),
                           "referee-clubs-clear"),
        ],
        spacing=12,
    ))


def _pile(title: str, pile: str, cards: list[int], empty: str, state: ClubsReferee, screen: widgets.Binder) -> ft.Control:
    chips: list[ft.Control] = [
        widgets.tagged(
            ft.Chip(
                label=ft.Text(str(value)),
                on_delete=screen.intent(partial(state.take_back, pile, value)),
                delete_icon_tooltip=_("Take back"),
            ),
            f"referee-clubs-{pile}-{index}",
            label=str(value),
        )
        for index, value in enumerate(cards)
    ]
    content = ft.Row(chips, wrap=True, spacing=6) if chips else ft.Text(empty, italic=True)
    return widgets.tagged(ft.Column([widgets.heading(title), content], spacing=4), f"referee-clubs-{pile}")


def _ruling(state: ClubsReferee) -> ft.Control:
    ruling = state.ruling()
    if ruling is None:
        return widgets.tagged(ft.Text(state.prompt), "referee-clubs-verdict")
    lines = [ruling.reason] + ([ruling.trick] if ruling.trick else [])
    return widgets.verdict(ruling.legal, ruling.headline, lines, "referee-clubs-verdict")
