"""Beverbende (Dutch edition of Biberbande), with the endings of its relative Rat-a-Tat Cat.

Each player keeps a row of four face-down cards and tries to end the round with the
lowest sum. The deck's number cards are the values 0 to 8 four times each and nine 9s;
special cards (swap, peek, draw twice) left in a row at the end are replaced from the
draw pile until a number card comes, so every scored card is a number card. A round
scores 0 to 36 per player and the lowest total wins; equal lowest totals share the win.
The Dutch rulebook names no player range; 2 to 6 players (with every ending) follows
Rat-a-Tat Cat, and six rows use only 24 of the deck's 45 number cards.

Round entry (JSON-compatible), one of:
- ``{"cards": {name: [four card values 0..9]}}``: the row each player turned over;
- ``{"totals": {name: int}}``: each player's sum for the round, 0 to 36.
Every player still in the game appears exactly once. Rows that need more cards of one
value than the deck holds are rejected, and so are totals no deal of the deck can make.
With the ``time`` ending an entry may also carry ``"last": true`` when time is up.

Endings (option ``ending``):
- ``seed``: as many rounds as players, 4 rounds with two players (the rulebook's rule);
- ``rounds``: the number of rounds in option ``rounds``;
- ``elimination``: a player whose total reaches 100 or more is out and plays no further
  rounds (later entries list only the players still in; those who are out score 0); the
  last player left wins. If every remaining player reaches 100 in the same round, the one
  among them with the lowest total wins (equal lowest share the win). Standings follow
  the same idea: players still in by total, then those out, who lasted longest first
  (players out in the same round by total), so a player out early never ranks above the
  survivors even with a lower total;
- ``time``: play stops when the agreed time is up; the round entered with ``"last": true``
  ends the game;
- ``limit`` (Rat-a-Tat Cat's common ending): the round in which any total reaches 100 or
  more ends the game, and the lowest total wins (equal lowest share the win); nobody is
  out before.

The first player in seating order deals the first round; the deal passes clockwise and
skips players who are out. The player left of the dealer starts.

Referee helpers for the rules reference: ``may_knock``, ``last_turns``,
``replacement_order``, ``final_card`` and ``final_row``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Mapping, Sequence, TypedDict

from companion.i18n import N_
from companion.rules.base import NextRound, Option, RuleError, Ruleset, Setup, Verdict
from companion.rules.text import Names

CARDS_PER_ROW = 4
COPIES = {value: 4 for value in range(9)} | {9: 9}
"""How many number cards of each value the deck holds."""
ROW_MAX = 9 * CARDS_PER_ROW
LIMIT = 100
"""The total that puts a player out (``elimination``) or ends the game (``limit``)."""
SPECIAL_CARDS = ("swap", "peek", "draw_twice")
ENDINGS = ("seed", "rounds", "elimination", "time", "limit")
ENTRY_PARTS = ("cards", "totals", "last")

_DECK_ASCENDING = sorted(value for value, copies in COPIES.items() for _ in range(copies))
_LOWEST_SUM = (0, *accumulate(_DECK_ASCENDING))
"""_LOWEST_SUM[m]: the sum of the m lowest number cards."""
_HIGHEST_SUM = (0, *accumulate(reversed(_DECK_ASCENDING)))
"""_HIGHEST_SUM[m]: the sum of the m highest number cards."""


@dataclass(frozen=True)
class BeverbendeState:
    """Running totals and who is out, in seating order; ``dealer`` is the next dealer's seat."""

    totals: tuple[int, ...]
    out_in_round: tuple[int, ...]  # 0 while still in, else the round the player went out
    dealer: int = 0
    rounds_played: int = 0
    last_called: bool = False


# --- referee helpers -------------------------------------------------------------------


def may_knock(turns_taken: Sequence[int]) -> bool:
    """Whether a player may knock now: every player must have had at least one turn.

    ``turns_taken`` holds each player's number of finished turns this round, the
    knocking player's current turn included.
    """
    if len(turns_taken) < 2:
        raise RuleError("Beverbende needs at least two players.", "turns_taken")
    if any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in turns_taken):
        raise RuleError("Turns taken must be whole numbers of at least 0.", "turns_taken")
    return min(turns_taken) >= 1


def _clockwise_from(players: Sequence[str], first: str) -> list[str]:
    if first not in players:
        raise RuleError("{name} is not at the table.", "knocker", name=first)
    start = list(players).index(first)
    return list(players[start:]) + list(players[:start])


def last_turns(players: Sequence[str], knocker: str) -> list[str]:
    """Who still plays after a knock, in order: everyone else once, starting left of the knocker."""
    return _clockwise_from(players, knocker)[1:]


def replacement_order(players: Sequence[str], knocker: str) -> list[str]:
    """In which order players replace special cards at the end: the knocker, then clockwise."""
    return _clockwise_from(players, knocker)


def _is_number_card(card: Any) -> bool:
    return type(card) is int and 0 <= card <= 9  # type() also keeps out true and false


def _check_card(card: Any) -> None:
    if not _is_number_card(card) and card not in SPECIAL_CARDS:
        raise RuleError(
            "{card!r} is no Beverbende card: cards are 0 to 9 or one of {specials}.",
            "cards",
            card=card,
            specials=", ".join(SPECIAL_CARDS),
        )


def _first_number_card(drawn: Sequence[Any]) -> int:
    """Where the first number card lies among cards drawn in order."""
    for position, card in enumerate(drawn):
        _check_card(card)
        if _is_number_card(card):
            return position
    raise RuleError("Keep drawing: a special card is only replaced by a number card.", "cards")


def final_card(drawn: Sequence[Any]) -> int:
    """The number that takes a special card's place at the end of a round.

    ``drawn`` is what the player turns over from the draw pile, in order; special cards
    drawn are set aside too, so the first number card counts.
    """
    card: int = drawn[_first_number_card(drawn)]  # checked: a number card
    return card


def final_row(row: Sequence[Any], pile: Sequence[Any]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """A row's scoring values after its special cards are replaced, left to right, from ``pile``.

    Returns the four values and what is left of the pile (the top card first), so the
    next player in ``replacement_order`` can go on from there.
    """
    if len(row) != CARDS_PER_ROW:
        raise RuleError("A row has {size} cards, not {count}.", "cards", size=CARDS_PER_ROW, count=len(row))
    rest = list(pile)
    values = []
    for card in row:
        _check_card(card)
        if _is_number_card(card):
            values.append(card)
            continue
        position = _first_number_card(rest)
        values.append(rest[position])
        del rest[: position + 1]
    return tuple(values), tuple(rest)


# --- the ruleset -----------------------------------------------------------------------


class BeverbendeDetail(TypedDict):
    """The read-out of a Beverbende game (``Game.detail``)."""

    ending: str
    """The ``ending`` option: seed, rounds, elimination, time or limit."""
    planned_rounds: int | None
    """Rounds to play in all; None when elimination or the clock ends the game."""
    rounds_left: int | None
    elimination_limit: int | None
    """The total that puts a player out (elimination only)."""
    game_ends_at: int | None
    """The total that ends the game for all (the limit ending only)."""
    still_in: list[str]
    out_in_round: dict[str, int]
    """Each eliminated player and the round that put them out."""
    last_round_called: bool
    starts_next_round: str


class Beverbende(Ruleset):
    id = "beverbende"
    name = "Beverbende"
    min_players = 2
    max_players = 6
    lowest_wins = True
    options = (
        Option(
            "ending",
            str,
            "seed",
            N_("When the game ends: seed (one round per player, 4 with two), rounds (a set number), "
            "elimination (out at 100, last one left wins), time (stop when time is up) "
            "or limit (over when someone reaches 100, lowest total wins)."),
            allowed=ENDINGS,
            label=N_("Ending"),
            value_words=(("seed", N_("seed")), ("rounds", N_("rounds")), ("elimination", N_("elimination")), ("time", N_("time")), ("limit", N_("limit"))),
        ),
        Option("rounds", int, 5, N_("How many rounds to play with the rounds ending."), minimum=1, maximum=200, label=N_("Rounds")),
    )

    def initial_state(self, setup: Setup) -> BeverbendeState:
        seats = len(setup.players)
        return BeverbendeState((0,) * seats, (0,) * seats)

    def planned_rounds(self, setup: Setup) -> int | None:
        """The number of rounds the game lasts, or None when elimination, time or the limit decides."""
        ending = setup.options["ending"]
        if ending == "seed":
            return 4 if len(setup.players) == 2 else len(setup.players)
        if ending == "rounds":
            rounds: int = setup.options["rounds"]
            return rounds
        return None

    # --- entries ---------------------------------------------------------------------

    def apply(
        self, setup: Setup, state: BeverbendeState, entry: Mapping[str, Any], number: int
    ) -> tuple[BeverbendeState, dict[str, int]]:
        for key in entry:
            if key not in ENTRY_PARTS:
                raise RuleError("A Beverbende round has no {part!r}; give cards or totals.", key, part=key)
        last = self._check_last(setup, entry)
        playing = [p for p, out in zip(setup.players, state.out_in_round) if not out]
        if ("cards" in entry) == ("totals" in entry):
            raise RuleError("Give either every player's four cards or every player's total for the round.", "cards")
        if "cards" in entry:
            row_sums = self._check_cards(setup, entry["cards"], playing)
        else:
            row_sums = self._check_totals(setup, entry["totals"], playing)

        eliminating = setup.options["ending"] == "elimination"
        totals = list(state.totals)
        out = list(state.out_in_round)
        scores = {}
        for seat, player in enumerate(setup.players):
            points = row_sums.get(player, 0)
            scores[player] = points
            totals[seat] += points
            if eliminating and not out[seat] and totals[seat] >= LIMIT:
                out[seat] = number
        dealer = self._next_seat(state.dealer, out)
        return BeverbendeState(tuple(totals), tuple(out), dealer, number, last), scores

    def _check_last(self, setup: Setup, entry: Mapping[str, Any]) -> bool:
        last = entry.get("last", False)
        if not isinstance(last, bool):
            raise RuleError("'last' must be true or false.", "last")
        if last and setup.options["ending"] != "time":
            raise RuleError("Only a game played against the clock ends with a round marked last.", "last")
        return last

    def _check_names(self, setup: Setup, given: Any, part: str, playing: list[str]) -> None:
        """``given`` (the entry's ``part``: "cards" or "totals") names each player still in, once."""
        if not isinstance(given, Mapping):
            if part == "cards":
                raise RuleError("The cards must map each player to the four cards of their row.", part)
            raise RuleError("The totals must map each player to their total for the round.", part)
        for name in given:
            if name not in playing:
                if name in setup.players:
                    raise RuleError(
                        "{name} is out (reached {limit}) and plays no more rounds.",
                        f"{part}.{name}",
                        name=name,
                        limit=LIMIT,
                    )
                raise RuleError("{name} is not playing in this game.", f"{part}.{name}", name=name)
        if len(given) != len(playing):  # every name given is playing, so some player is missing
            missing = [p for p in playing if p not in given]
            field = f"{part}.{missing[0]}"
            if part == "cards":
                raise RuleError("No cards given for {names}.", field, names=Names(missing))
            raise RuleError("No total given for {names}.", field, names=Names(missing))

    def _check_cards(self, setup: Setup, cards: Any, playing: list[str]) -> dict[str, int]:
        self._check_names(setup, cards, "cards", playing)
        shown = [0] * len(COPIES)
        sums = {}
        for name, row in cards.items():
            if not isinstance(row, (list, tuple)) or len(row) != CARDS_PER_ROW:
                raise RuleError(
                    "{name} must have exactly {size} cards.", f"cards.{name}", name=name, size=CARDS_PER_ROW
                )
            for card in row:
                if not _is_number_card(card):
                    raise RuleError(
                        "{name} shows {card!r}, but a card counts 0 to 9 (special cards are replaced first).",
                        f"cards.{name}",
                        name=name,
                        card=card,
                    )
                shown[card] += 1
            sums[name] = sum(row)
        for value, count in enumerate(shown):
            if count > COPIES[value]:
                raise RuleError(
                    "The deck holds only {copies} cards of value {value}, but this round shows {count}.",
                    "cards",
                    copies=COPIES[value],
                    value=value,
                    count=count,
                )
        return sums

    def _check_totals(self, setup: Setup, totals: Any, playing: list[str]) -> dict[str, int]:
        self._check_names(setup, totals, "totals", playing)
        for name, points in totals.items():
            if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= ROW_MAX:
                raise RuleError(
                    "{name}'s four cards add up to 0 to {most}, not {points!r}.",
                    f"totals.{name}",
                    name=name,
                    most=ROW_MAX,
                    points=points,
                )
        self._check_deck_allows(totals)
        return dict(totals)

    @staticmethod
    def _check_deck_allows(totals: Mapping[str, int]) -> None:
        """Reject totals no deal can make: any k players hold 4k cards of the one deck.

        So the k lowest totals together are at least the sum of the deck's 4k lowest
        cards, and the k highest at most the sum of its 4k highest.
        """
        lowest_first = sorted(totals, key=lambda name: totals[name])
        highest_first = sorted(totals, key=lambda name: -totals[name])
        low = high = 0
        for k in range(1, len(totals) + 1):
            low += totals[lowest_first[k - 1]]
            high += totals[highest_first[k - 1]]
            cards = CARDS_PER_ROW * k
            if low < _LOWEST_SUM[cards]:
                names = lowest_first[:k]
                raise RuleError(
                    "{names} cannot score only {points} together: the deck's lowest {cards} cards "
                    "already add up to {least}.",
                    f"totals.{names[-1]}",
                    names=Names(names),
                    points=low,
                    cards=cards,
                    least=_LOWEST_SUM[cards],
                )
            if high > _HIGHEST_SUM[cards]:
                names = highest_first[:k]
                raise RuleError(
                    "{names} cannot score {points} together: the deck's highest {cards} cards "
                    "add up to only {most}.",
                    f"totals.{names[-1]}",
                    names=Names(names),
                    points=high,
                    cards=cards,
                    most=_HIGHEST_SUM[cards],
                )

    @staticmethod
    def _next_seat(seat: int, out: Sequence[int]) -> int:
        """The first seat clockwise after ``seat`` whose player is still in (``seat`` itself last)."""
        seats = len(out)
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            if not out[candidate]:
                return candidate
        return seat

    # --- read-outs -------------------------------------------------------------------

    def verdict(self, setup: Setup, state: BeverbendeState, totals: Mapping[str, int], rounds_played: int) -> Verdict:
        ending = setup.options["ending"]
        if ending == "elimination":
            still_in = [p for p, out in zip(setup.players, state.out_in_round) if not out]
            if len(still_in) > 1 or rounds_played == 0:
                return Verdict(False)
            if still_in:
                return Verdict(True, tuple(still_in))
            return Verdict(True, self._lowest(
                [p for p, out in zip(setup.players, state.out_in_round) if out == rounds_played], totals
            ))
        if ending == "time":
            over = state.last_called
        elif ending == "limit":
            over = any(total >= LIMIT for total in state.totals)
        else:
            planned = self.planned_rounds(setup)
            over = planned is not None and rounds_played >= planned
        return Verdict(over, self._lowest(setup.players, totals) if over else ())

    @staticmethod
    def _lowest(players: Sequence[str], totals: Mapping[str, int]) -> tuple[str, ...]:
        best = min(totals[p] for p in players)
        return tuple(p for p in players if totals[p] == best)

    def rank_key(self, setup: Setup, state: BeverbendeState, totals: Mapping[str, int], side: str) -> tuple[int, ...]:
        """In elimination play lasting longer ranks higher; otherwise the lowest total does."""
        went_out = state.out_in_round[setup.players.index(side)]
        if not went_out:
            return (0, totals[side])
        return (1, -went_out, totals[side])

    def next_round(self, setup: Setup, state: BeverbendeState, rounds_played: int) -> NextRound:
        return NextRound(rounds_played + 1, setup.players[state.dealer])

    def detail(self, setup: Setup, state: BeverbendeState) -> BeverbendeDetail:
        planned = self.planned_rounds(setup)
        played = state.rounds_played
        dealer = state.dealer
        starter = self._next_seat(dealer, state.out_in_round)
        return {
            "ending": setup.options["ending"],
            "planned_rounds": planned,
            "rounds_left": None if planned is None else max(planned - played, 0),
            "elimination_limit": LIMIT if setup.options["ending"] == "elimination" else None,
            "game_ends_at": LIMIT if setup.options["ending"] == "limit" else None,
            "still_in": [p for p, out in zip(setup.players, state.out_in_round) if not out],
            "out_in_round": {p: out for p, out in zip(setup.players, state.out_in_round) if out},
            "last_round_called": state.last_called,
            "starts_next_round": setup.players[starter],
        }


RULESET = Beverbende()
