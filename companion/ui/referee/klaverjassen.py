"""Klaverjassen referee: trump, the cards in the trick and your hand; what may you play?

The player picks trump, taps the cards already in the trick (in play order, leader
first) and the cards in their hand. The screen shows which cards may be played under
Amsterdam and under Rotterdam rules and why, who is winning the trick so far, what it
is worth, and once the trick is complete its roem. The rules engine decides everything
(``legal_cards``, ``trick_winner``, ``trick_points``, ``trick_roem``); the explanation
comes from ``companion.ui.referee.klaverjassen_play``.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):
``referee-klaver-trump-<S|H|D|C>``; ``referee-klaver-pile-trick`` /
``referee-klaver-pile-hand``; ``referee-klaver-card-<card>`` (e.g. ``10H``: tap to
place, tap again to take back); ``referee-klaver-trick`` and ``referee-klaver-hand``
the cards placed; ``referee-klaver-standing`` winner and points;
``referee-klaver-amsterdam`` / ``referee-klaver-rotterdam`` the cards you may play
and why; ``referee-klaver-clear``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from functools import partial
import flet as ft

from companion.i18n import _
from companion.ui.referee.klaverjassen_play import PlayAdvice, card_label, explain_play, suit_name
from companion.rules import RuleError
from companion.rules.klaverjassen import (
    PLAIN_POINTS,
    RANKS,
    RED_SUITS,
    SUITS,
    TRICKS_PER_DEAL,
    TRUMP_POINTS,
    VARIANTS,
    trick_points,
    trick_roem,
    trick_winner,
)
from companion.ui.referee import widgets

TRICK, HAND = "trick", "hand"
TRICK_SIZE = 4
CARD_KEY_WIDTH = 34
"""Eight cards of a suit fit in one row on a 360-pixel phone."""


@dataclass(frozen=True)
class Standing:
    """Who is winning the trick so far and what it is worth."""

    card: str
    seat: int  # 0 is the leader
    side: str | None  # "partner" / "opponent" / "you" as seen by the next player, None when complete
    points: int


class KlaverjassenReferee:
    """Trump, the trick so far and the hand of the player whose turn it is."""

    def __init__(self, trump: str = "H", roem_options: Mapping[str, Any] | None = None):
        self.trump = trump
        self.roem_options = dict(roem_options or {})
        self.trick: list[str] = []
        self.hand: list[str] = []
        self.pile = TRICK
        self.notice: str | None = None

    # --- intents ----------------------------------------------------------------------

    def choose_trump(self, suit: str) -> None:
        if suit not in SUITS:
            raise ValueError(suit)
        self.trump = suit

    def choose_pile(self, pile: str) -> None:
        """Where the next tapped card goes: the trick or your hand."""
        if pile not in (TRICK, HAND):
            raise ValueError(pile)
        self.pile = pile
        self.notice = None

    def tap(self, card: str) -> None:
        """Add a card to the chosen pile; a card already placed is taken back instead."""
        self.notice = None
        for cards in (self.trick, self.hand):
            if card in cards:
                cards.remove(card)
                return
        cards = self.trick if self.pile == TRICK else self.hand
        most = TRICK_SIZE if self.pile == TRICK else TRICKS_PER_DEAL
        if len(cards) >= most:
            self.notice = (
                _("A trick has four cards.") if self.pile == TRICK else _("A hand has at most eight cards.")
            )
            return
        cards.append(card)

    def clear(self) -> None:
        self.trick.clear()
        self.hand.clear()
        self.pile = TRICK
        self.notice = None

    # --- read-outs --------------------------------------------------------------------

    def place_of(self, card: str) -> str | None:
        """TRICK, HAND or None: where a card of the deck has been put."""
        if card in self.trick:
            return TRICK
        if card in self.hand:
            return HAND
        return None

    @property
    def complete(self) -> bool:
        return len(self.trick) == TRICK_SIZE

    def standing(self) -> Standing | None:
        """The card winning the trick so far, its seat and side, and the trick's card points."""
        if not self.trick:
            return None
        seat = trick_winner(self.trick, self.trump)
        if self.complete:
            return Standing(self.trick[seat], seat, None, trick_points(self.trick, self.trump))
        to_play = len(self.trick)
        side = "partner" if seat == to_play - 2 else "opponent"
        points = sum((TRUMP_POINTS if card[-1] == self.trump else PLAIN_POINTS)[card[:-1]] for card in self.trick)
        return Standing(self.trick[seat], seat, side, points)

    def roem(self) -> int | None:
        """Roem in a complete trick, under the house's roem options (the defaults unless given)."""
        return trick_roem(self.trick, self.trump, **self.roem_options) if self.complete else None

    def advice(self) -> dict[str, PlayAdvice] | None:
        """Per variant, what the player to move may play and why; None without a hand or with a full trick."""
        if not self.hand or self.complete:
            return None
        return {variant: explain_play(self.hand, self.trick, self.trump, variant) for variant in VARIANTS}

    @property
    def error(self) -> str | None:
        """A message from the rules engine, should the cards not make sense."""
        try:
            self.standing()
            self.advice()
        except RuleError as error:
            return error.message
        return None

    def standing_lines(self) -> list[tuple[str, str]]:
        """The trick's state as label and value pairs, in the player's words."""
        standing = self.standing()
        if standing is None:
            return []
        seats = (_("the leader"), _("the second player"), _("the third player"), _("the fourth player"))
        who = seats[standing.seat]
        if standing.side == "partner":
            who = _("{seat}, your partner").format(seat=who)
        elif standing.side == "opponent":
            who = _("{seat}, an opponent").format(seat=who)
        if self.complete:
            rows = [
                (_("Wins the trick"), f"{card_label(standing.card)} ({who})"),
                (_("Card points"), _("{points} ({last} as the last trick)").format(
                    points=standing.points, last=trick_points(self.trick, self.trump, last=True))),
                (_("Roem"), str(self.roem())),
            ]
        else:
            rows = [
                (_("Winning so far"), f"{card_label(standing.card)} ({who})"),
                (_("Card points so far"), str(standing.points)),
            ]
        return rows


VARIANT_NAMES = {"amsterdam": "Amsterdam", "rotterdam": "Rotterdam"}



ROEM_OPTIONS = ("four_jacks", "four_of_a_kind", "runs_by_colour")
"""The options that change what a trick's roem is worth."""


def new_state(options: Mapping[str, Any]) -> KlaverjassenReferee:
    """The referee set up like a game with ``options``: roem counted by its roem options."""
    return KlaverjassenReferee(roem_options={name: options[name] for name in ROEM_OPTIONS if name in options})


def view(state: KlaverjassenReferee) -> ft.Control:
    """Trump picker, the deck as tappable cards, the trick and hand, and the answers."""
    screen = widgets.Binder()
    return screen.rooted(ft.Column(
        [
            widgets.heading(_("Trump")),
            screen.choice([(suit, f"{_suit_symbol(suit)} {suit_name(suit)}") for suit in SUITS], lambda: state.trump,
                          state.choose_trump, "referee-klaver-trump"),
            screen.choice([(TRICK, _("Cards in the trick")), (HAND, _("Your hand"))], lambda: state.pile,
                          state.choose_pile, "referee-klaver-pile"),
            _deck(state, screen),
            screen.section(lambda: [
                _cards_line(_("The trick, leader first"), state.trick, _("Empty: you lead."), "referee-klaver-trick"),
                _cards_line(_("Your hand"), state.hand, _("Tap the cards in your hand."), "referee-klaver-hand"),
                *widgets.notice(state.notice or state.error, "referee-klaver-notice"),
                *_answers(state),
            ]),
            widgets.tagged(ft.TextButton(_("Start over"), icon=ft.Icons.RESTART_ALT, on_click=screen.intent(state.clear)),
                           "referee-klaver-clear"),
        ],
        spacing=12,
    ))


def _suit_symbol(suit: str) -> str:
    return card_label("7" + suit)[1:]


def _deck(state: KlaverjassenReferee, screen: widgets.Binder) -> ft.Control:
    """The 32 cards, one row per suit; cards in the trick are filled, cards in the hand tinted."""

    def card_key(card: str) -> ft.Control:
        return screen.key(
            card_label(card),
            f"referee-klaver-card-{card}",
            partial(state.tap, card),
            selected=lambda: state.place_of(card) == TRICK,
            marked=lambda: state.place_of(card) == HAND,
            width=CARD_KEY_WIDTH,
            color=ft.Colors.RED_700 if card[-1] in RED_SUITS else None,
        )

    rows: list[ft.Control] = []
    for suit in SUITS:
        keys = [card_key(rank + suit) for rank in reversed(RANKS)]
        rows.append(ft.Row(keys, wrap=True, spacing=3, run_spacing=3))
    return ft.Column(rows, spacing=3)


def _cards_line(title: str, cards: list[str], empty: str, identifier: str) -> ft.Control:
    text = "  ".join(card_label(card) for card in cards) if cards else empty
    return widgets.tagged(
        ft.Column([widgets.heading(title), ft.Text(text, size=18 if cards else None, italic=not cards)], spacing=2),
        identifier,
    )


def _answers(state: KlaverjassenReferee) -> list[ft.Control]:
    if state.error:
        return []
    answers: list[ft.Control] = []
    lines = state.standing_lines()
    if lines:
        answers.append(widgets.facts(lines, "referee-klaver-standing"))
    advice = state.advice()
    if advice is None:
        if not state.complete:
            answers.append(ft.Text(_("Add your hand to see which cards you may play.")))
        return answers
    for variant, play in advice.items():
        cards = "  ".join(card_label(card) for card in play.allowed)
        answers.append(
            widgets.verdict(
                True,
                _("{variant}: you may play {cards}").format(variant=VARIANT_NAMES[variant], cards=cards),
                [play.reason],
                f"referee-klaver-{variant}",
            )
        )
    return answers
