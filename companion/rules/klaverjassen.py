"""Klaverjassen: four players in two fixed partnerships, 32 cards, trump, roem, nat and pit.

Seating and teams
    Exactly four players, listed clockwise; the first deals first and the deal moves one
    seat to the left each time. Partners sit opposite: seats 1 and 3 against seats 2 and 4.
    Without ``teams`` the teams are named after their players ("Ann & Cy", "Bob & Dee").
    The player left of the dealer must choose trump, so that player's team is the playing
    team of the deal (``next_round.playing``).

Round entry (one deal), JSON-compatible::

    {"card_points": {team: int, team: int},  # including the 10 for the last trick
     "roem": {team: int},                    # optional; missing teams have 0
     "pit": team or null,                    # the team that took all eight tricks
     "verzaakt": team or null,               # the team that reneged
     "playing": team}                        # optional: overrides the playing team

    Card points add up to 162 (152 in the cards, 10 for the last trick). Any value from 0
    to 162 is possible except 1 and 161, since no card is worth a single point. Roem is what
    the tricks were worth as combinations (20, 50, 100, 200 and the stuk's 20), so it is a
    multiple of 10 but never 10 or 30; the pit bonus is added by the rules, not entered.
    After a renege the deal is usually stopped, so ``card_points`` may be left out when
    ``verzaakt`` is given.

Scoring of a deal
    - Normal: each team scores its card points plus its roem.
    - Nat: the playing team must score strictly more than the opponents (card points plus
      roem; with ``nat_on_card_points`` card points alone). Otherwise, a tie included, the
      playing team scores 0 and the opponents 162 plus the roem of both teams.
    - Pit: the team that took every trick has 162 card points and earns 100 extra; the
      other team took no trick and so has no roem. Pit by the opponents makes the playing
      team nat; they earn the 100 only with ``defenders_pit_bonus``.
    - Verzaakt: the team that reneged scores 0; the other team 162 plus all roem of the
      deal (and 100 more with ``verzaakt_penalty``).

End of the game (option ``ending``)
    - "501", "1000", "1500" or any other number of points from 100 to 10000 in digits
      (the target differs from club to club): the first team to reach it wins. If both
      teams reach it in the same deal, one more deal is played and the higher total wins; while the
      totals stay equal, another deal follows.
    - "boompje": exactly 16 deals; the higher total wins, and equal totals share the win.
    - "boompje12": the shorter boompje of exactly 12 deals (every player deals three times),
      which clubs play to fit more boompjes in an evening; decided the same way.

Referee functions
    Cards are strings of rank and suit: "10H", "JS", "AD", "7C" (suits S H D C, ranks
    7 8 9 10 J Q K A). ``trick_winner``, ``trick_points``, ``trick_roem`` and
    ``legal_cards`` judge single tricks and plays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from companion.i18n import N_
from companion.rules.base import NextRound, Option, RuleError, Ruleset, Setup, Verdict

SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")  # natural order, used for runs
TRUMP_ORDER = ("7", "8", "Q", "K", "10", "A", "9", "J")  # lowest to highest
PLAIN_ORDER = ("7", "8", "9", "J", "Q", "K", "10", "A")
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
LAST_TRICK_POINTS = 10
DEAL_POINTS = sum(TRUMP_POINTS.values()) + 3 * sum(PLAIN_POINTS.values()) + LAST_TRICK_POINTS  # 162
TRICKS_PER_DEAL = 8
PIT_BONUS = 100
VERZAAKT_PENALTY = 100
BOOMPJE_DEALS = {"boompje": 16, "boompje12": 12}
"""The fixed-length endings and their number of deals."""
TARGET_RANGE = (100, 10000)
"""The points a club may play to: the rulebook lets the target differ from room to room."""
VARIANTS = ("amsterdam", "rotterdam")

RUN_ROEM = {3: 20, 4: 50}
STUK_ROEM = 20
FOUR_OF_A_KIND_ROEM = 100
TEN_AND_UP = frozenset({"10", "J", "Q", "K", "A"})
IMPOSSIBLE_ROEM = frozenset({10, 30})  # multiples of 10 that no sum of 20s, 50s, 100s and 200s makes

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_TRUMP_STRENGTH = {rank: i for i, rank in enumerate(TRUMP_ORDER)}
_PLAIN_STRENGTH = {rank: i for i, rank in enumerate(PLAIN_ORDER)}

Card = tuple[str, str]  # (rank, suit)


def _possible_card_points() -> frozenset[int]:
    """Every score a team can have: a sum of some cards' points, with or without the last trick.

    Cards worth nothing (sevens, eights, plain nines) can always fill tricks up, so any
    subset of the scoring cards can end up with one team.
    """
    values = [TRUMP_POINTS[r] for r in RANKS] + [PLAIN_POINTS[r] for r in RANKS] * 3
    sums = {0}
    for value in values:
        sums |= {s + value for s in sums}
    return frozenset(sums | {s + LAST_TRICK_POINTS for s in sums})


POSSIBLE_CARD_POINTS = _possible_card_points()


# --- cards and the referee --------------------------------------------------------------


def _parse_card(card: Any, field: str) -> Card:
    if isinstance(card, str) and len(card) >= 2 and card[:-1] in _RANK_INDEX and card[-1] in SUITS:
        return card[:-1], card[-1]
    raise RuleError(
        "{card!r} is not a card; write the rank and then the suit, e.g. 10H, JS, AD or 7C.", field, card=card
    )


def _parse_cards(cards: Any, field: str, fewest: int, most: int) -> list[Card]:
    """The cards of the trick (``field`` "trick") or the hand ("hand"), ``fewest`` to ``most`` of them."""
    hand = field == "hand"
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        if hand:
            raise RuleError('The hand must be a list of cards, e.g. ["10H", "JS"].', field)
        raise RuleError('The trick must be a list of cards, e.g. ["10H", "JS"].', field)
    parsed = [_parse_card(card, field) for card in cards]
    if len(set(parsed)) != len(parsed):
        twice = next(card for card in cards if cards.count(card) > 1)
        if hand:
            raise RuleError("There is only one {card} in the deck, but the hand has it twice.", field, card=twice)
        raise RuleError("There is only one {card} in the deck, but the trick has it twice.", field, card=twice)
    if not fewest <= len(parsed) <= most:
        given = len(parsed)
        if hand:  # a hand holds 1 to 8 cards
            raise RuleError(
                "The hand must have {fewest} to {most} cards, not {given}.",
                field,
                fewest=fewest,
                most=most,
                given=given,
            )
        if fewest == most:  # a complete trick
            raise RuleError("The trick must have {count} cards, not {given}.", field, count=fewest, given=given)
        raise RuleError(
            "The trick must have {fewest} to {most} cards, not {given}.",
            field,
            fewest=fewest,
            most=most,
            given=given,
        )
    return parsed


def _check_trump(trump: Any) -> str:
    if not isinstance(trump, str) or trump not in SUITS:
        raise RuleError("Trump must be one of the suits S, H, D or C, not {trump!r}.", "trump", trump=trump)
    return trump


def _strength(card: Card, led: str, trump: str) -> int:
    """How strongly a card competes for the trick; -1 when it cannot win (a discard)."""
    rank, suit = card
    if suit == trump:
        return len(PLAIN_ORDER) + _TRUMP_STRENGTH[rank]
    return _PLAIN_STRENGTH[rank] if suit == led else -1


def _winner(cards: list[Card], trump: str) -> int:
    led = cards[0][1]
    return max(range(len(cards)), key=lambda i: _strength(cards[i], led, trump))


def _points(card: Card, trump: str) -> int:
    rank, suit = card
    return TRUMP_POINTS[rank] if suit == trump else PLAIN_POINTS[rank]


def trick_winner(trick: Sequence[str], trump: str) -> int:
    """Index (in play order) of the card that wins the trick, or is winning it so far."""
    cards = _parse_cards(trick, "trick", 1, 4)
    return _winner(cards, _check_trump(trump))


def trick_points(trick: Sequence[str], trump: str, last: bool = False) -> int:
    """Card points in a complete trick, with the 10 for the last trick when ``last``."""
    cards = _parse_cards(trick, "trick", 4, 4)
    trump = _check_trump(trump)
    return sum(_points(card, trump) for card in cards) + (LAST_TRICK_POINTS if last else 0)


def _longest_run(cards: list[Card], runs_by_colour: bool) -> int:
    groups: dict[Any, set[int]] = {}
    for rank, suit in cards:
        key = (suit in RED_SUITS) if runs_by_colour else suit
        groups.setdefault(key, set()).add(_RANK_INDEX[rank])
    longest = 0
    for indexes in groups.values():
        for start in indexes:
            if start - 1 not in indexes:
                length = 1
                while start + length in indexes:
                    length += 1
                longest = max(longest, length)
    return longest


def trick_roem(
    trick: Sequence[str],
    trump: str,
    four_jacks: int = 200,
    four_of_a_kind: str = "all",
    runs_by_colour: bool = False,
) -> int:
    """Roem in a complete trick; the keyword arguments are the ruleset options of the same name."""
    cards = _parse_cards(trick, "trick", 4, 4)
    trump = _check_trump(trump)
    four_jacks = RULESET.option("four_jacks").check(four_jacks)
    four_of_a_kind = RULESET.option("four_of_a_kind").check(four_of_a_kind)
    runs_by_colour = RULESET.option("runs_by_colour").check(runs_by_colour)
    ranks = {rank for rank, _ in cards}
    if len(ranks) == 1:
        rank = cards[0][0]
        if rank == "J":
            return four_jacks
        return FOUR_OF_A_KIND_ROEM if four_of_a_kind == "all" or rank in TEN_AND_UP else 0
    stuk = STUK_ROEM if ("K", trump) in cards and ("Q", trump) in cards else 0
    return stuk + RUN_ROEM.get(_longest_run(cards, runs_by_colour), 0)


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str, variant: str = "amsterdam") -> list[str]:
    """The cards of ``hand`` the next player may play to ``trick`` (cards so far, leader first).

    Both variants: follow suit when you can; on a trump lead, beat the highest trump if you
    can. Unable to follow a plain lead, Rotterdam always asks for a trump (over the trumps
    in the trick if possible), while Amsterdam only asks you to trump when an opponent is
    winning, and forbids undertrumping (also under your partner) unless you have nothing else.
    """
    if variant not in VARIANTS:
        raise RuleError("The variant must be amsterdam or rotterdam, not {variant!r}.", "variant", variant=variant)
    cards = _parse_cards(hand, "hand", 1, TRICKS_PER_DEAL)
    played = _parse_cards(trick, "trick", 0, 3)
    trump = _check_trump(trump)
    both = set(cards) & set(played)
    if both:
        rank, suit = both.pop()
        raise RuleError(
            "{card} is already in the trick, so it cannot still be in the hand.", "hand", card=f"{rank}{suit}"
        )
    if not played:
        return list(hand)
    led = played[0][1]
    top_trump = max((_TRUMP_STRENGTH[r] for r, s in played if s == trump), default=-1)
    trumps = [c for c in cards if c[1] == trump]
    higher_trumps = [c for c in trumps if _TRUMP_STRENGTH[c[0]] > top_trump]
    plain = [c for c in cards if c[1] != trump]
    following = [c for c in cards if c[1] == led]
    if led == trump:
        allowed = higher_trumps or trumps or cards
    elif following:
        allowed = following
    elif variant == "rotterdam":
        allowed = higher_trumps or trumps or cards
    elif _winner(played, trump) == len(played) - 2:  # partner (two seats back) is winning
        allowed = plain + higher_trumps or cards
    else:
        allowed = higher_trumps or plain or cards
    keep = set(allowed)
    return [name for name, card in zip(hand, cards) if card in keep]


# --- the ruleset ----------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One scored deal; pairs are in the order of ``setup.sides``."""

    playing: str
    card_points: tuple[int, int] | None
    roem: tuple[int, int]
    bonus: tuple[int, int]  # pit bonus or renege penalty
    nat: bool
    pit: str | None
    verzaakt: str | None
    scores: tuple[int, int]


@dataclass(frozen=True)
class State:
    deals: tuple[Deal, ...] = ()
    totals: tuple[int, int] = (0, 0)
    target_reached_at: int | None = None  # deal after which a team first reached the target
    reached_together: bool = False


ENTRY_KEYS = ("card_points", "roem", "pit", "verzaakt", "playing")


class DealDetail(TypedDict):
    """One deal of a Klaverjassen game, as the scoresheet shows it."""

    number: int
    dealer: str
    playing: str
    card_points: dict[str, int] | None
    roem: dict[str, int]
    bonus: dict[str, int]
    nat: bool
    pit: str | None
    """The team that took every trick, if one did."""
    verzaakt: str | None
    """The team that reneged, if one did."""
    scores: dict[str, int]


class KlaverjassenDetail(TypedDict):
    """The read-out of a Klaverjassen game (``Game.detail``)."""

    deals: list[DealDetail]
    target: int | None
    """The points that end the game; None for a boompje."""
    deals_to_play: int | None
    """A boompje's number of deals; None when playing to a target."""
    deciding_deal: bool
    """Both teams passed the target in the same deal, and the next deal decides."""


class Klaverjassen(Ruleset):
    id = "klaverjassen"
    name = "Klaverjassen"
    min_players = 4
    max_players = 4
    options = (
        Option(
            "variant",
            str,
            "amsterdam",
            N_("Play rules when you cannot follow suit: Amsterdam (trump only against opponents) or Rotterdam."),
            allowed=VARIANTS,
            label=N_("Variant"),
            value_words=(("amsterdam", N_("Amsterdam")), ("rotterdam", N_("Rotterdam"))),
        ),
        Option("four_jacks", int, 200, N_("Roem for four jacks in one trick."), allowed=(200, 100), label=N_("Four jacks")),
        Option(
            "four_of_a_kind",
            str,
            "all",
            N_("Which ranks earn 100 roem as four of a kind: all, or only 10 and higher."),
            allowed=("all", "10 and up"),
            label=N_("Four of a kind"),
            value_words=(("all", N_("all")), ("10 and up", N_("10 and up"))),
        ),
        Option("runs_by_colour", bool, False, N_("Runs may mix the two suits of one colour (red or black)."), label=N_("Runs by colour")),
        Option("nat_on_card_points", bool, False, N_("Decide nat on card points alone, leaving roem out."), label=N_("Nat on card points")),
        Option(
            "defenders_pit_bonus",
            bool,
            False,
            N_("The defending team also earns 100 extra for taking every trick."),
            label=N_("Defenders' pit bonus"),
        ),
        Option("verzaakt_penalty", bool, False, N_("A renege also gives the other team 100 extra points."), label=N_("Verzaakt penalty")),
        Option(
            "ending",
            str,
            "501",
            N_("Play to 501, 1000 or 1500 points, to any other target your club uses, "
               "or a boompje of exactly 16 or 12 deals."),
            allowed=("501", "1000", "1500", "boompje", "boompje12"),
            label=N_("Ending"),
            value_words=(("boompje", N_("boompje")), ("boompje12", N_("boompje of 12"))),
            minimum=TARGET_RANGE[0],
            maximum=TARGET_RANGE[1],
        ),
    )

    # --- setup ------------------------------------------------------------------------

    def check_setup(self, setup: Setup) -> Setup:
        p = setup.players
        if setup.teams is None:
            teams = ((f"{p[0]} & {p[2]}", (p[0], p[2])), (f"{p[1]} & {p[3]}", (p[1], p[3])))
            return replace(setup, teams=teams)
        if len(setup.teams) != 2 or any(len(members) != 2 for _, members in setup.teams):
            raise RuleError("Klaverjassen is played by two teams of two.", "teams")
        for _, members in setup.teams:
            if set(members) not in ({p[0], p[2]}, {p[1], p[3]}):
                raise RuleError(
                    "{player} and {other} cannot be partners: partners sit opposite each other "
                    "({first} with {third}, {second} with {fourth}).",
                    "teams",
                    player=members[0],
                    other=members[1],
                    first=p[0],
                    second=p[1],
                    third=p[2],
                    fourth=p[3],
                )
        return setup

    def initial_state(self, setup: Setup) -> State:
        return State()

    def next_round(self, setup: Setup, state: State, rounds_played: int) -> NextRound:
        number = rounds_played + 1
        return NextRound(number, self._dealer(setup, number), self._chooser_team(setup, number))

    @staticmethod
    def _dealer(setup: Setup, number: int) -> str:
        return setup.players[(number - 1) % 4]

    @staticmethod
    def _chooser_team(setup: Setup, number: int) -> str:
        """The team of the player left of the dealer, who must choose trump."""
        return setup.team_of(setup.players[number % 4])

    # --- one deal ---------------------------------------------------------------------

    def apply(self, setup: Setup, state: State, entry: Mapping[str, Any], number: int) -> tuple[State, dict[str, int]]:
        sides = setup.sides
        options = setup.options
        for key in entry:
            if key not in ENTRY_KEYS:
                raise RuleError(
                    "A Klaverjassen deal has no {key!r}; use {keys}.", str(key), key=key, keys=", ".join(ENTRY_KEYS)
                )
        playing = self._team_or_none(sides, entry.get("playing"), "playing") or self._chooser_team(setup, number)
        pit = self._team_or_none(sides, entry.get("pit"), "pit")
        verzaakt = self._team_or_none(sides, entry.get("verzaakt"), "verzaakt")
        roem = self._roem(sides, entry.get("roem"), options)
        if entry.get("card_points") is None:
            if verzaakt is None:
                raise RuleError("Enter the card points of both teams.", "card_points")
            card_points = None
        else:
            card_points = self._card_points(sides, entry["card_points"])
            self._check_roem_of_trickless_cards(sides, card_points, roem, options["four_of_a_kind"])

        p = sides.index(playing)
        o = 1 - p
        nat = False
        bonus = [0, 0]
        if verzaakt is not None:
            if pit is not None:
                raise RuleError("A deal with a renege is scored as verzaakt; leave pit empty.", "pit")
            wronged = 1 - sides.index(verzaakt)
            bonus[wronged] = VERZAAKT_PENALTY if options["verzaakt_penalty"] else 0
            scores = [0, 0]
            scores[wronged] = DEAL_POINTS + roem[0] + roem[1] + bonus[wronged]
        else:
            assert card_points is not None  # required without a renege (checked above)
            if pit is not None:
                self._check_pit(sides, sides.index(pit), card_points, roem)
            if pit == sides[o]:
                nat = True
                bonus[o] = PIT_BONUS if options["defenders_pit_bonus"] else 0
            elif options["nat_on_card_points"]:
                nat = card_points[p] <= card_points[o]
            else:
                nat = card_points[p] + roem[p] <= card_points[o] + roem[o]
            if pit == sides[p]:
                bonus[p] = PIT_BONUS
            scores = [0, 0]
            if nat:
                scores[o] = DEAL_POINTS + roem[0] + roem[1] + bonus[o]
            else:
                scores = [card_points[i] + roem[i] + bonus[i] for i in (0, 1)]

        deal = Deal(playing, card_points, roem, (bonus[0], bonus[1]), nat, pit, verzaakt, (scores[0], scores[1]))
        totals = (state.totals[0] + scores[0], state.totals[1] + scores[1])
        reached_at, together = state.target_reached_at, state.reached_together
        target = self._target(setup)
        if reached_at is None and target is not None:
            reached = [total >= target for total in totals]
            if any(reached):
                reached_at, together = number, all(reached)
        new_state = State(state.deals + (deal,), totals, reached_at, together)
        return new_state, {sides[0]: scores[0], sides[1]: scores[1]}

    @staticmethod
    def _team_or_none(sides: tuple[str, ...], value: Any, field: str) -> str | None:
        if value is None:
            return None
        if value in sides:
            return str(value)
        raise _not_a_team(sides, value, field)

    @staticmethod
    def _card_points(sides: tuple[str, ...], given: Any) -> tuple[int, int]:
        """Validated card points; entries arrive as plain dicts (base copies them)."""
        if not isinstance(given, dict):
            raise RuleError("Card points must give each team's points.", "card_points")
        for team in given:
            if team not in sides:
                raise _not_a_team(sides, team, "card_points")
        points = []
        for team in sides:
            field = f"card_points.{team}"
            if team not in given:
                raise RuleError("Enter the card points of {team}.", field, team=team)
            value = given[team]
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(
                    "The card points of {team} must be a whole number, not {value!r}.", field, team=team, value=value
                )
            if not 0 <= value <= DEAL_POINTS:
                raise RuleError(
                    "{team} cannot have {value} card points; a deal has {total} in all.",
                    field,
                    team=team,
                    value=value,
                    total=DEAL_POINTS,
                )
            if value not in POSSIBLE_CARD_POINTS:
                raise RuleError(
                    "{team} cannot have {value} card points; no set of tricks is worth that.",
                    field,
                    team=team,
                    value=value,
                )
            points.append(value)
        if sum(points) != DEAL_POINTS:
            raise RuleError(
                "The card points add up to {given}, but every deal has {total} "
                "({in_cards} in the cards and {last_trick} for the last trick).",
                "card_points",
                given=sum(points),
                total=DEAL_POINTS,
                in_cards=DEAL_POINTS - LAST_TRICK_POINTS,
                last_trick=LAST_TRICK_POINTS,
            )
        return points[0], points[1]

    @staticmethod
    def _roem(sides: tuple[str, ...], given: Any, options: Mapping[str, Any]) -> tuple[int, int]:
        if given is None:
            return 0, 0
        if not isinstance(given, dict):
            raise RuleError("Roem must give each team's roem.", "roem")
        for team in given:
            if team not in sides:
                raise _not_a_team(sides, team, "roem")
        roem = []
        for team in sides:
            field = f"roem.{team}"
            value = given.get(team, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(
                    "The roem of {team} must be a whole number, not {value!r}.", field, team=team, value=value
                )
            if value < 0 or value % 10 or value in IMPOSSIBLE_ROEM:
                raise RuleError(
                    "{team} cannot have {value} roem; roem is made of 20, 50, 100 and 200, "
                    "so it is a multiple of 10 other than 10 or 30.",
                    field,
                    team=team,
                    value=value,
                )
            roem.append(value)
        most = max_roem(options["four_jacks"], options["four_of_a_kind"])
        if sum(roem) > most:
            raise RuleError("The two teams cannot have more than {most} roem together in one deal.", "roem", most=most)
        return roem[0], roem[1]

    @staticmethod
    def _check_roem_of_trickless_cards(
        sides: tuple[str, ...], card_points: tuple[int, int], roem: tuple[int, int], four_of_a_kind: str
    ) -> None:
        """A team without card points won only tricks of cards worth nothing, so little roem."""
        most = roem_without_card_points(four_of_a_kind)
        for team, points, value in zip(sides, card_points, roem):
            if points == 0 and value > most:
                raise RuleError(
                    "{team} has no card points, so it won at most two tricks of 7s, 8s and plain 9s "
                    "and never the last one: at most {most} roem, not {value}.",
                    f"roem.{team}",
                    team=team,
                    most=most,
                    value=value,
                )

    @staticmethod
    def _check_pit(sides: tuple[str, ...], taker: int, card_points: tuple[int, int], roem: tuple[int, int]) -> None:
        if card_points[taker] != DEAL_POINTS:
            raise RuleError(
                "{team} took every trick, so they have all {total} card points.",
                "pit",
                team=sides[taker],
                total=DEAL_POINTS,
            )
        if roem[1 - taker]:
            other = sides[1 - taker]
            raise RuleError("{team} took no trick, so {team} cannot have roem.", f"roem.{other}", team=other)

    # --- end of the game --------------------------------------------------------------

    @staticmethod
    def _target(setup: Setup) -> int | None:
        ending = setup.options["ending"]
        return None if ending in BOOMPJE_DEALS else int(ending)

    @staticmethod
    def _deals_to_play(setup: Setup) -> int | None:
        return BOOMPJE_DEALS.get(setup.options["ending"])

    def verdict(self, setup: Setup, state: State, totals: Mapping[str, int], rounds_played: int) -> Verdict:
        first, second = setup.sides
        deals_to_play = self._deals_to_play(setup)
        if deals_to_play is not None:
            if rounds_played < deals_to_play:
                return Verdict(False)
            best = max(totals.values())
            return Verdict(True, tuple(side for side in setup.sides if totals[side] == best))
        if state.target_reached_at is None:
            return Verdict(False)
        if state.reached_together and (rounds_played == state.target_reached_at or totals[first] == totals[second]):
            return Verdict(False)
        return Verdict(True, (first if totals[first] > totals[second] else second,))

    def detail(self, setup: Setup, state: State) -> KlaverjassenDetail:
        """Per-deal breakdown for the scoresheet, and whether extra deals must decide the game.

        ``deciding_deal`` is true while both teams have reached the target in the same deal
        and the totals do not yet name a winner.
        """
        sides = setup.sides
        totals = dict(zip(sides, state.totals))
        over = self.verdict(setup, state, totals, len(state.deals)).over
        deals: list[DealDetail] = []
        for number, deal in enumerate(state.deals, start=1):
            deals.append(
                {
                    "number": number,
                    "dealer": self._dealer(setup, number),
                    "playing": deal.playing,
                    "card_points": None if deal.card_points is None else dict(zip(sides, deal.card_points)),
                    "roem": dict(zip(sides, deal.roem)),
                    "bonus": dict(zip(sides, deal.bonus)),
                    "nat": deal.nat,
                    "pit": deal.pit,
                    "verzaakt": deal.verzaakt,
                    "scores": dict(zip(sides, deal.scores)),
                }
            )
        return {
            "deals": deals,
            "target": self._target(setup),
            "deals_to_play": self._deals_to_play(setup),
            "deciding_deal": state.reached_together and not over,
        }


def _not_a_team(sides: tuple[str, ...], value: Any, field: str) -> RuleError:
    return RuleError(
        "{value!r} is not a team in this game; the teams are {first} and {second}.",
        field,
        value=value,
        first=sides[0],
        second=sides[1],
    )


def max_roem(four_jacks: int, four_of_a_kind: str) -> int:
    """The most roem one deal can hold (both teams together).

    No trick is worth more than a four of a kind (100) except four jacks. With every rank
    counting, eight tricks of four of a kind reach the bound. Counting only 10 and higher,
    the twelve sevens to nines either fill three tricks alone (runs of three, 20 each) or
    spread over more tricks (runs of four, 50 each); the best is four runs 7-8-9-10 beside
    four jacks and three more fours.
    """
    if four_of_a_kind == "all":
        return four_jacks + 7 * FOUR_OF_A_KIND_ROEM
    return four_jacks + 3 * FOUR_OF_A_KIND_ROEM + 4 * RUN_ROEM[4]


def roem_without_card_points(four_of_a_kind: str) -> int:
    """The most roem a team with no card points can have.

    Its tricks hold only cards worth nothing: the four 7s, the four 8s and the three plain
    9s (the trump 9 is worth 14), so it won at most two tricks, and never the last one (worth
    10). Two such tricks make at most four 7s and four 8s (two fours of a kind); when only
    10 and higher count as four of a kind, a run 7-8-9 in each (a run of four needs a 10,
    and the stuk the trump king and queen, all worth points).
    """
    if four_of_a_kind == "all":
        return 2 * FOUR_OF_A_KIND_ROEM
    return 2 * RUN_ROEM[3]


RULESET = Klaverjassen()
