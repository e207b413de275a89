"""Why a Klaverjassen player may play the cards they may: the referee's explanation.

``companion.rules.klaverjassen.legal_cards`` decides which cards are allowed; this module
names the rule that applies in a sentence a player understands, for the referee screen.
``explain_play`` returns both, so the two can never disagree on the cards: the test suite
checks that every situation's named rule allows exactly the cards ``legal_cards`` allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.i18n import _
from companion.rules.klaverjassen import TRUMP_ORDER, legal_cards, trick_winner

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

# Why a play is allowed; each names one rule of the game.
LEAD = "lead"  # the first card of a trick: anything
FOLLOW = "follow"  # the suit led is in hand
OVERTRUMP = "overtrump"  # a trump higher than every trump in the trick
ANY_TRUMP = "any_trump"  # trump led, none higher in hand: any trump
UNDERTRUMP = "undertrump"  # Rotterdam: cannot follow or overtrump, but must trump
NO_TRUMP = "no_trump"  # cannot follow and no trump in hand: anything
PARTNER_WINNING = "partner_winning"  # Amsterdam: anything but a trump under the partner's
DISCARD = "discard"  # Amsterdam: opponent winning, cannot overtrump: a plain card
ONLY_LOWER_TRUMPS = "only_lower_trumps"  # Amsterdam: nothing but lower trumps in hand


@dataclass(frozen=True)
class PlayAdvice:
    """The cards of a hand that may be played, the rule that says so, and a sentence."""

    allowed: tuple[str, ...]
    rule: str
    reason: str


def rank_label(rank: str) -> str:
    """A rank as printed on the cards in the current language (J, Q, K, A in English)."""
    names = {"J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace")}
    return names[rank][0].upper() if rank in names else rank


def suit_name(suit: str) -> str:
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}[suit]


def card_label(card: str) -> str:
    """A card in the referee's notation ("10H", "JS") as players read it: "10♥", "J♠"."""
    return rank_label(card[:-1]) + SUIT_SYMBOLS[card[-1]]


def _strength(card: str) -> int:
    return TRUMP_ORDER.index(card[:-1])


def explain_play(hand: Sequence[str], trick: Sequence[str], trump: str, variant: str) -> PlayAdvice:
    """Which cards of ``hand`` may go on ``trick`` under ``variant``, and why.

    Arguments as for ``legal_cards`` (which checks them and raises RuleError).
    """
    allowed = tuple(legal_cards(hand, trick, trump, variant))
    rule, reason = _rule(list(hand), list(trick), trump, variant)
    return PlayAdvice(allowed, rule, reason)


def _rule(hand: list[str], trick: list[str], trump: str, variant: str) -> tuple[str, str]:
    if not trick:
        return LEAD, _("You lead: any card may be played.")
    led = trick[0][-1]
    trumps_played = [c for c in trick if c[-1] == trump]
    top = max(trumps_played, key=_strength) if trumps_played else None
    trumps = [c for c in hand if c[-1] == trump]
    higher = [c for c in trumps if top is None or _strength(c) > _strength(top)]
    words = {"suit": suit_name(led), "card": card_label(top) if top else ""}

    if led == trump:
        if higher:
            return OVERTRUMP, _("Trump was led: you must play a trump higher than the {card}.").format(**words)
        if trumps:
            return ANY_TRUMP, _("Trump was led and you cannot beat the {card}: play any trump.").format(**words)
        return NO_TRUMP, _("Trump was led and you have none: any card may be played.")
    if any(c[-1] == led for c in hand):
        return FOLLOW, _("You hold {suit}, the suit led: you must follow suit.").format(**words)
    if not trumps:
        return NO_TRUMP, _("You cannot follow {suit} and hold no trump: any card may be played.").format(**words)

    if variant == "rotterdam":
        if top is None:
            return OVERTRUMP, _("You cannot follow {suit}: in Rotterdam you must trump.").format(**words)
        if higher:
            return OVERTRUMP, _("You cannot follow {suit}: in Rotterdam you must trump over the {card}.").format(**words)
        return UNDERTRUMP, _(
            "You cannot follow {suit} or beat the {card}: in Rotterdam you must still trump (undertrump)."
        ).format(**words)

    winner = trick[trick_winner(trick, trump)]
    partner_winning = trick_winner(trick, trump) == len(trick) - 2
    plain = [c for c in hand if c[-1] != trump]
    if not plain and not higher:
        return ONLY_LOWER_TRUMPS, _("You hold only trumps lower than the {card}: play any of them.").format(**words)
    if partner_winning:
        if top is None:
            return PARTNER_WINNING, _(
                "Your partner is winning the trick with the {winner}: in Amsterdam you need not trump; any card may be played."
            ).format(winner=card_label(winner))
        return PARTNER_WINNING, _(
            "Your partner is winning the trick with the {card}: in Amsterdam any card may be played, but no lower trump."
        ).format(**words)
    if higher:
        if top is None:
            return OVERTRUMP, _(
                "An opponent is winning the trick and you cannot follow {suit}: in Amsterdam you must trump."
            ).format(**words)
        return OVERTRUMP, _(
            "An opponent is winning the trick with the {card}: in Amsterdam you must trump over it."
        ).format(**words)
    return DISCARD, _(
        "An opponent is winning with the {card} and you cannot overtrump: play a card of another suit, not a lower trump."
    ).format(**words)
