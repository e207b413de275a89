"""CLUBS (North Star Games; HUCH! & friends edition), solo and team play, with its referee.

Players race to empty their hands of ten cards. Only club cards score (the points printed
on them; we never assume a deck total, so club points are entered as numbers), and the
players who go out take bonus cards: the first out the highest one left, and so on.

Bonus cards by player count: 6: 12 10 8 5 2 0; 5: 10 8 5 2 0; 4: 8 5 2 0; 3: 5 2 0; 2: only
the 5. A round ends as soon as the players still holding cards all sit on one side (in solo
play: one player). That player takes the 0 card and scores nothing, club points included.
With two players the one left only loses the bonus: they still score their club points.

Double Cards: a caller who is the first player of the round to go out doubles club and bonus
points; every other caller scores nothing that round.

Team CLUBS (``teams`` given): 4 players as two teams of two (target 100), 6 players as three
teams of two (100) or two teams of three (150). A team scores the sum of its members' round
scores, a successful Double doubled first. The round ends when only one team's players still
hold cards, and that team scores nothing for the round.

End: after a round in which a side reaches the target (50 in solo play) the game ends and
the highest total wins; equal highest totals share the win unless ``break_ties`` is on, in
which case rounds go on until one side leads alone. The first player in seating order deals
first and the deal passes to the left (clockwise) every round.

Round entry (JSON-compatible)::

    {"out_order": [names in the order they went out],
     "club_points": {name: int},      # optional; a player left out won no club points
     "double": [names who called Double Cards]}   # optional

Players missing from ``out_order`` still held cards when the round ended.

Referee: ``judge_play(previous, play, wild_15=False, crazy=False)`` says whether ``play``
(card values 1..15) may follow ``previous`` (None for a lead) and whether it wins the trick.
A play is a single card, a set (equal values) or a run (values in a row, any suits); a play
must match the kind and number of cards on the table with a higher top card, and a 15 wins
the trick at once. With wild 15s a 15 may stand for any value; a 15 standing for another
value plays as that value and does not win at once. Crazy CLUBS: a 15 never wins at once, a
single counts as a set of one, and a play may also beat the table with more cards of the same
kind, whatever their values (never with fewer).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence, TypedDict

from companion.i18n import N_
from companion.rules.base import Option, RuleError, Ruleset, Setup, Verdict
from companion.rules.text import Names, Phrase, sentence

BONUS_CARDS = {
    2: (5,),
    3: (5, 2, 0),
    4: (8, 5, 2, 0),
    5: (10, 8, 5, 2, 0),
    6: (12, 10, 8, 5, 2, 0),
}
"""The bonus cards on the table for each player count, highest first."""

SOLO_TARGET = 50
TEAM_TARGETS = {(2, 2): 100, (3, 2): 100, (2, 3): 150}
"""Team CLUBS target by shape: (number of teams, players per team)."""

ENTRY_KEYS = ("out_order", "club_points", "double")

LOWEST_CARD, HIGHEST_CARD = 1, 15
COPIES_PER_VALUE = 4
"""Four suits: each value is in the deck four times."""
CLUB_CARDS = HIGHEST_CARD - LOWEST_CARD + 1
"""The clubs suit: one card of each value."""
MOST_CLUB_POINTS = CLUB_CARDS * HIGHEST_CARD
"""The most club points one round can hand out, to one player or to all together.

The points printed on each club card are not published (RULES.md), so this bound takes no
card to print more than the deck's highest value, 15: the fifteen club cards then hold at
most 225 between them. Generous on purpose: it lets every real round through and keeps
out numbers no deck can hold."""
MOST_TARGET = 10_000
"""The highest target a game may set: 200 times the rulebook's 50, more than any evening holds."""
HAND_SIZE = 10
KINDS = ("single", "set", "run")


# --- scoring ------------------------------------------------------------------------------


class RoundResult(NamedTuple):
    """What the last round put on the scoreboard, per player in seating order.

    ``player_scores`` is each player's share of their side's round score (so members of a
    team add up to the team's score); ``bonus_cards`` is None for a player who took none.
    """

    out_order: tuple[str, ...]
    bonus_cards: tuple[tuple[str, int | None], ...]
    player_scores: tuple[tuple[str, int], ...]
    doubled: str | None
    failed_doubles: tuple[str, ...]
    held_cards: tuple[str, ...]


class ClubsState(NamedTuple):
    """What the setup fixes for every round, worked out once, and the last round's result.

    Named tuples rather than frozen dataclasses: a replay builds one per round, cheaply.
    """

    side_of: Mapping[str, str]
    teams: bool
    bonus_cards: tuple[int, ...]
    last_round: RoundResult | None = None


def team_shape(setup: Setup) -> tuple[int, int] | None:
    """(number of teams, players per team) in team play, else None."""
    if setup.teams is None:
        return None
    return len(setup.teams), len(setup.teams[0][1])


def target(setup: Setup) -> int:
    """The points that end the game: the option, or the rulebook's value for this table."""
    chosen: int = setup.options["target"]
    if chosen:
        return chosen
    shape = team_shape(setup)
    return SOLO_TARGET if shape is None else TEAM_TARGETS[shape]


class ClubsDetail(TypedDict):
    """The read-out of a CLUBS game (``Game.detail``)."""

    target: int
    """The total that ends the game."""
    team_shape: str | None
    """``"2x2"``, ``"3x2"`` or ``"2x3"`` (teams x players) in team play."""
    bonus_cards: list[int]
    """The bonus cards in going-out order for the next round."""
    last_round: dict[str, Any] | None
    """The last round's out order, bonus cards, player scores, doubles and holders."""


class Clubs(Ruleset):
    id = "clubs"
    name = "CLUBS"
    min_players = 2
    max_players = 6
    options = (
        Option(
            "target",
            int,
            0,
            N_("Points that end the game; 0 plays to the rulebook's 50 (teams: 100, or 150 for two teams of three)."),
            minimum=0,
            maximum=MOST_TARGET,
            label=N_("Target"),
        ),
        Option("break_ties", bool, False, N_("On a shared lead at the end, play on until one side leads alone."), label=N_("Break ties")),
        Option("double_cards", bool, True, N_("Players may call Double Cards: go out first to double, or score 0."), label=N_("Double Cards")),
        Option("wild_15", bool, False, N_("15s are wild: a 15 may be played as any value (scoring stays the same)."), label=N_("15s wild")),
        Option("crazy", bool, False, N_("Crazy CLUBS: a 15 no longer wins at once; more cards of a kind beat fewer."), label=N_("Crazy CLUBS")),
    )

    def check_setup(self, setup: Setup) -> Setup:
        if setup.teams is None:
            return setup
        sizes = sorted((len(members) for _, members in setup.teams), reverse=True)
        shape = (len(sizes), sizes[0])
        if len(set(sizes)) != 1 or shape not in TEAM_TARGETS:
            raise RuleError(
                "Team CLUBS is played by 4 players as two teams of two, or by 6 players as three teams of two "
                "or two teams of three; not {players} players in teams of {sizes}.",
                "teams",
                players=len(setup.players),
                sizes=Names(sizes),
            )
        return setup

    def initial_state(self, setup: Setup) -> ClubsState:
        if setup.teams is None:
            side_of = {player: player for player in setup.players}
        else:
            side_of = {player: team for team, members in setup.teams for player in members}
        return ClubsState(MappingProxyType(side_of), setup.teams is not None, BONUS_CARDS[len(setup.players)])

    def apply(
        self, setup: Setup, state: ClubsState, entry: Mapping[str, Any], number: int
    ) -> tuple[ClubsState, dict[str, int]]:
        players = setup.players
        for key in entry:
            if key not in ENTRY_KEYS:
                raise RuleError(
                    "A CLUBS round has no {key!r}; it takes out_order, club_points and double.", key, key=key
                )
        out_order = _check_out_order(entry.get("out_order"), players)
        club_points = _check_club_points(entry.get("club_points", {}), players)
        doubles = _check_doubles(entry.get("double", []), players, setup.options["double_cards"])
        side_of = state.side_of
        held = _check_round_end(out_order, players, side_of, state.teams)

        cards = state.bonus_cards
        bonus = dict(zip(out_order, cards))
        if len(held) == 1 and len(out_order) < len(cards):
            bonus[held[0]] = cards[len(out_order)]
        # Solo play with 3+ players: the holder scores nothing; team play: the holders' team.
        # With two players the holder keeps their club points.
        if state.teams:
            scoreless = {player for player in players if side_of[player] == side_of[held[0]]}
        elif len(players) > 2:
            scoreless = set(held)
        else:
            scoreless = set()
        doubled = out_order[0] if out_order[0] in doubles else None
        scoreless |= doubles - {doubled}

        player_scores = []
        side_scores = dict.fromkeys(side_of.values(), 0)
        for player in players:
            points = 0
            if player not in scoreless:
                points = club_points.get(player, 0) + bonus.get(player, 0)
                if player == doubled:
                    points *= 2
            player_scores.append((player, points))
            side_scores[side_of[player]] += points
        result = RoundResult(
            out_order=out_order,
            bonus_cards=tuple([(player, bonus.get(player)) for player in players]),
            player_scores=tuple(player_scores),
            doubled=doubled,
            failed_doubles=tuple([player for player in players if player in doubles and player != doubled]),
            held_cards=held,
        )
        return ClubsState(side_of, state.teams, cards, result), side_scores

    def verdict(self, setup: Setup, state: ClubsState, totals: Mapping[str, int], rounds_played: int) -> Verdict:
        best = max(totals.values())
        if rounds_played == 0 or best < target(setup):
            return Verdict(False)
        leaders = tuple(side for side in setup.sides if totals[side] == best)
        if len(leaders) > 1 and setup.options["break_ties"]:
            return Verdict(False)
        return Verdict(True, leaders)

    def detail(self, setup: Setup, state: ClubsState) -> ClubsDetail:
        shape = team_shape(setup)
        result = state.last_round
        last_round = None
        if result is not None:
            last_round = {
                "out_order": list(result.out_order),
                "bonus_cards": dict(result.bonus_cards),
                "player_scores": dict(result.player_scores),
                "doubled": result.doubled,
                "failed_doubles": list(result.failed_doubles),
                "held_cards": list(result.held_cards),
            }
        return {
            "target": target(setup),
            "team_shape": None if shape is None else f"{shape[0]}x{shape[1]}",
            "bonus_cards": list(state.bonus_cards),
            "last_round": last_round,
        }


def _check_out_order(out_order: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    if out_order is None:
        raise RuleError("Say who went out, in order.", "out_order")
    if isinstance(out_order, str) or not isinstance(out_order, list):
        raise RuleError("Who went out must be a list of names, in order.", "out_order")
    seen: set[str] = set()
    for name in out_order:
        if name not in players:
            raise RuleError("{player} is not at this table, so cannot have gone out.", "out_order", player=name)
        if name in seen:
            raise RuleError("{player} cannot go out twice in one round.", "out_order", player=name)
        seen.add(name)
    return tuple(out_order)


def _check_club_points(club_points: Any, players: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(club_points, dict):
        raise RuleError("Club points must be given per player (name: points).", "club_points")
    for name, points in club_points.items():
        if name not in players:
            raise RuleError(
                "{player} is not at this table, so cannot have club points.", f"club_points.{name}", player=name
            )
        if type(points) is not int or points < 0:  # bool is an int subclass; True is no score
            raise RuleError(
                "{player}'s club points must be a whole number of 0 or more, not {points!r}.",
                f"club_points.{name}",
                player=name,
                points=points,
            )
        if points > MOST_CLUB_POINTS:
            raise RuleError(
                "{player} cannot have {points} club points: the club cards hold at most {most} in all.",
                f"club_points.{name}",
                player=name,
                points=points,
                most=MOST_CLUB_POINTS,
            )
    if sum(club_points.values()) > MOST_CLUB_POINTS:
        raise RuleError(
            "The club points add up to {total}, but the club cards hold at most {most} in all.",
            "club_points",
            total=sum(club_points.values()),
            most=MOST_CLUB_POINTS,
        )
    return dict(club_points)


def _check_doubles(doubles: Any, players: tuple[str, ...], allowed: bool) -> frozenset[str]:
    if isinstance(doubles, str) or not isinstance(doubles, list):
        raise RuleError("Who called Double Cards must be a list of names.", "double")
    if doubles and not allowed:
        raise RuleError("Double Cards is not played in this game.", "double")
    for name in doubles:
        if name not in players:
            raise RuleError("{player} is not at this table, so cannot have called Double Cards.", "double", player=name)
    if len(set(doubles)) != len(doubles):
        twice = next(name for name in doubles if doubles.count(name) > 1)
        raise RuleError("{player} is listed twice as calling Double Cards.", "double", player=twice)
    return frozenset(doubles)


def _check_round_end(
    out_order: tuple[str, ...], players: tuple[str, ...], side_of: Mapping[str, str], teams: bool
) -> tuple[str, ...]:
    """Check the round ended exactly when the players holding cards first sat on one side.

    Returns who still held cards, in seating order.
    """
    holding: dict[str, int] = {}
    for player in players:
        holding[side_of[player]] = holding.get(side_of[player], 0) + 1
    for name in out_order:
        if len(holding) == 1:
            (side,) = holding
            if teams:
                raise RuleError(
                    "{player} cannot have gone out: the round was over as soon as only players of {team} held cards.",
                    "out_order",
                    player=name,
                    team=side,
                )
            if len(players) == 2:
                raise RuleError(
                    "{player} cannot go out too: with two players the round ends when the first goes out.",
                    "out_order",
                    player=name,
                )
            raise RuleError(
                "{player} cannot go out: the round ends when only {player} still holds cards, "
                "and {player} takes the 0 bonus card.",
                "out_order",
                player=name,
            )
        side = side_of[name]
        holding[side] -= 1
        if not holding[side]:
            del holding[side]
    out = set(out_order)
    held = tuple(player for player in players if player not in out)
    if len(holding) > 1:
        holders = Names(held)
        if teams:
            raise RuleError(
                "The round was not over while {players} still held cards: it ends only when "
                "the players holding cards all belong to one team.",
                "out_order",
                players=holders,
            )
        if len(held) > 2:
            raise RuleError(
                "{players} cannot all still hold cards at the end: the round goes on until only one player does.",
                "out_order",
                players=holders,
            )
        if 0 in BONUS_CARDS[len(players)]:
            raise RuleError(
                "{players} cannot both take the 0 bonus card: the round goes on until only one player holds cards.",
                "out_order",
                players=holders,
            )
        raise RuleError(
            "{players} cannot both still hold cards at the end: the round goes on until only one player does.",
            "out_order",
            players=holders,
        )
    return held


# --- referee ------------------------------------------------------------------------------

_SET_OF = {
    2: N_("a set of two {value}s"),
    3: N_("a set of three {value}s"),
    4: N_("a set of four {value}s"),
    5: N_("a set of five {value}s"),
    6: N_("a set of six {value}s"),
    7: N_("a set of seven {value}s"),
    8: N_("a set of eight {value}s"),
}
"""A set named by its size: at most four cards of a value, and with wild 15s four 15s more."""

_CANNOT_PLAY_AS = {
    "single": N_("{cards} cannot be played as a single."),
    "set": N_("{cards} cannot be played as a set."),
    "run": N_("{cards} cannot be played as a run."),
}

_KIND_MISMATCH = {
    ("single", False): N_("The trick is played in singles; {play} cannot follow {table}."),
    ("set", False): N_("The trick is played in sets; {play} cannot follow {table}."),
    ("run", False): N_("The trick is played in runs; {play} cannot follow {table}."),
    ("single", True): N_(
        "The trick is played in singles (in Crazy CLUBS a single counts as a set of one); "
        "{play} cannot follow {table}."
    ),
    ("set", True): N_(
        "The trick is played in sets (in Crazy CLUBS a single counts as a set of one); {play} cannot follow {table}."
    ),
    ("run", True): N_(
        "The trick is played in runs (in Crazy CLUBS a single counts as a set of one); {play} cannot follow {table}."
    ),
}
"""Why a play cannot follow the table, by the kind on the table and whether Crazy CLUBS is on."""

_ASSUMED_TABLE = {
    "set": N_("This assumes the cards on the table were played as a set."),
    "run": N_("This assumes the cards on the table were played as a run."),
}
"""Only two or more cards can be read in more than one way: as a set or as a run."""


@dataclass(frozen=True)
class Reading:
    """How a group of cards counts: its kind and the values the cards stand for, ascending.

    ``wild_as`` lists the values that wild 15s stand for (a 15 standing for 15 is left out).
    """

    kind: str
    values: tuple[int, ...]
    wild_as: tuple[int, ...] = ()

    @property
    def high(self) -> int:
        return self.values[-1]

    def describe(self) -> Phrase:
        """The cards in words, e.g. 'a set of two 4s (the 15 standing for 4)'."""
        if self.kind == "single":
            cards = Phrase("a single {value}", value=self.high)
        elif self.kind == "set":
            cards = Phrase(_SET_OF[len(self.values)], value=self.high)
        else:
            cards = Phrase("a run {values}", values="-".join(str(v) for v in self.values))
        if not self.wild_as:
            return cards
        if len(self.wild_as) == 1:
            return Phrase("{cards} (the 15 standing for {values})", cards=cards, values=Names(self.wild_as))
        return Phrase("{cards} (the 15s standing for {values})", cards=cards, values=Names(self.wild_as))


@dataclass(frozen=True)
class PlayVerdict:
    """The referee's answer: may the play follow, why, and does it win the trick at once.

    ``reasons`` are the sentences of the why, kept as English templates; ``reason`` reads
    them in the player's language. ``kind`` is the kind the play counts as (None when the
    cards form no play); ``counts_as`` the values its cards stand for, ascending (wild 15s
    resolved).
    """

    legal: bool
    reasons: tuple[Phrase, ...]
    kind: str | None
    wins_trick: bool
    counts_as: tuple[int, ...] = ()

    @property
    def reason(self) -> str:
        """Why, in the current language."""
        return " ".join(sentence(part) for part in self.reasons)


def readings(cards: Sequence[int], wild_15: bool = False) -> list[Reading]:
    """Every kind these cards can be played as, each at its highest values.

    Only the highest reading of a kind matters: it beats whatever a lower one beats.
    """
    size = len(cards)
    if size == 1:
        return [Reading("single", (cards[0],))]
    wilds = cards.count(HIGHEST_CARD) if wild_15 else 0
    naturals = sorted(card for card in cards if not (wild_15 and card == HIGHEST_CARD))
    found = []
    if not naturals or naturals[0] == naturals[-1]:
        value = naturals[0] if naturals else HIGHEST_CARD
        wild_as = (value,) * wilds if value != HIGHEST_CARD else ()
        found.append(Reading("set", (value,) * size, wild_as))
    if len(set(naturals)) == len(naturals) and (not naturals or naturals[-1] - naturals[0] < size):
        high = min(HIGHEST_CARD, naturals[0] + size - 1) if naturals else HIGHEST_CARD
        values = tuple(range(high - size + 1, high + 1))
        wild_as = tuple(v for v in values if v not in naturals and v != HIGHEST_CARD)
        found.append(Reading("run", values, wild_as))
    return found


def _check_cards(cards: Any, what: str) -> list[int]:
    """The card values of the play (``what`` "play") or of the table ("previous")."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        if what == "play":
            raise RuleError("The play must be a list of card values.", what)
        raise RuleError("The previous must be a list of card values.", what)
    if not cards:
        if what == "play":
            raise RuleError("Choose the cards to play.", what)
        raise RuleError("Choose the cards on the table.", what)
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not LOWEST_CARD <= card <= HIGHEST_CARD:
            raise RuleError(
                "{card!r} is no CLUBS card: cards are {lowest} to {highest}.",
                what,
                card=card,
                lowest=LOWEST_CARD,
                highest=HIGHEST_CARD,
            )
    if len(cards) > HAND_SIZE:
        raise RuleError(
            "A hand holds only {most} cards, so no play has {count}.", what, most=HAND_SIZE, count=len(cards)
        )
    return list(cards)


def _compare(previous: Reading, play: Reading, crazy: bool) -> tuple[bool, Phrase]:
    """Whether ``play`` beats ``previous`` (the caller has matched their kinds), and why."""
    on_table, mine = previous.describe(), play.describe()
    if not crazy:
        if previous.high == HIGHEST_CARD:
            return False, _already_won(previous)
        if len(play.values) != len(previous.values):
            return False, Phrase(
                "On {table} you must play exactly {count} cards, not {given}.",
                table=on_table,
                count=len(previous.values),
                given=len(play.values),
            )
        if play.high <= previous.high:
            return False, Phrase(
                "Your highest card must beat the {value} on the table; {play} does not.", value=previous.high, play=mine
            )
        return True, Phrase("{play} beats {table}.", play=mine, table=on_table)
    if len(play.values) < len(previous.values):
        return False, Phrase("In Crazy CLUBS you may play more cards than {table}, never fewer.", table=on_table)
    if len(play.values) > len(previous.values):
        return True, Phrase(
            "In Crazy CLUBS more cards beat fewer, whatever the values: {play} beats {table}.",
            play=mine,
            table=on_table,
        )
    if play.high <= previous.high:
        return False, Phrase(
            "With as many cards, your highest must beat the {value} on the table; {play} does not.",
            value=previous.high,
            play=mine,
        )
    return True, Phrase("{play} beats {table}.", play=mine, table=on_table)


def _already_won(previous: Reading) -> Phrase:
    return Phrase(
        "The trick was won the moment a 15 was played ({table}); its player leads the next one.",
        table=previous.describe(),
    )


def _unreadable_table(previous_kind: str | None) -> RuleError:
    """The cards on the table form no play (of the kind the table said, if it said one)."""
    if previous_kind == "single":
        return RuleError(
            "The cards on the table cannot have been played as a single: they form no single, set or run.", "previous"
        )
    if previous_kind == "set":
        return RuleError(
            "The cards on the table cannot have been played as a set: they form no single, set or run.", "previous"
        )
    if previous_kind == "run":
        return RuleError(
            "The cards on the table cannot have been played as a run: they form no single, set or run.", "previous"
        )
    return RuleError("The cards on the table cannot have been played: they form no single, set or run.", "previous")


def _family(kind: str, crazy: bool) -> str:
    """In Crazy CLUBS a single is a set of one card."""
    return "set" if crazy and kind == "single" else kind


def judge_play(
    previous: Sequence[int] | None,
    play: Sequence[int],
    wild_15: bool = False,
    crazy: bool = False,
    *,
    previous_kind: str | None = None,
    play_kind: str | None = None,
) -> PlayVerdict:
    """May ``play`` follow ``previous`` (None: ``play`` leads), and does it win the trick?

    With wild 15s some cards can count as a set or a run; the table knows which was said.
    ``previous_kind`` / ``play_kind`` pin that down; left out, the reading that lets the
    play through (the strongest one) is taken, and the reason says which.
    Raises RuleError for cards the deck cannot produce.
    """
    cards = _check_cards(play, "play")
    table = _check_cards(previous, "previous") if previous is not None else []
    for value, count in Counter(cards + table).items():
        if count > COPIES_PER_VALUE:
            raise RuleError("The deck has only four {value}s.", "play", value=value)
    for kind in (previous_kind, play_kind):
        if kind is not None and kind not in KINDS:
            raise RuleError("A play is a single, a set or a run, not {kind!r}.", "kind", kind=kind)

    options = [r for r in readings(cards, wild_15) if play_kind in (None, r.kind)]
    if not options:
        shown = Names(sorted(cards))
        if play_kind is not None:
            return PlayVerdict(False, (Phrase(_CANNOT_PLAY_AS[play_kind], cards=shown),), None, False)
        reason = Phrase("{cards} form neither a set (equal values) nor a run (values in a row).", cards=shown)
        return PlayVerdict(False, (reason,), None, False)

    def strength(reading: Reading) -> tuple[int, int]:
        return reading.high, KINDS.index(reading.kind)

    def legal_verdict(reading: Reading, reasons: tuple[Phrase, ...]) -> PlayVerdict:
        wins = reading.high == HIGHEST_CARD and not crazy
        if wins:
            reasons += (Phrase("The 15 wins the trick at once."),)
        elif reading.high == HIGHEST_CARD:
            reasons += (
                Phrase("In Crazy CLUBS the 15 does not win at once: the trick goes on until all others pass."),
            )
        return PlayVerdict(True, reasons, reading.kind, wins, reading.values)

    if previous is None:
        best = max(options, key=strength)
        reasons: tuple[Phrase, ...] = (Phrase("Any single, set or run may lead: this is {play}.", play=best.describe()),)
        others = Names(r.describe() for r in options if r is not best)
        if others:
            reasons += (Phrase("It may also be led as {plays}.", plays=others),)
        return legal_verdict(best, reasons)

    on_table = [r for r in readings(table, wild_15) if previous_kind in (None, r.kind)]
    if not on_table:
        raise _unreadable_table(previous_kind)
    if not crazy and all(p.high == HIGHEST_CARD for p in on_table):
        mine = max(options, key=strength)
        return PlayVerdict(
            False,
            (_already_won(on_table[0]),),
            mine.kind,
            False,
            mine.values,
        )
    matches = [(p, r) for p in on_table for r in options if _family(p.kind, crazy) == _family(r.kind, crazy)]
    if not matches:
        mine, theirs = options[0], on_table[0]
        return PlayVerdict(
            False,
            (Phrase(_KIND_MISMATCH[theirs.kind, crazy], play=mine.describe(), table=theirs.describe()),),
            mine.kind,
            False,
            mine.values,
        )
    judged = [(p, r, *_compare(p, r, crazy)) for p, r in matches]
    allowed = [j for j in judged if j[2]]
    if allowed:
        p, r, _, reason = max(allowed, key=lambda j: strength(j[1]))
        reasons = (reason,)
        if len(on_table) > 1:
            reasons += (Phrase(_ASSUMED_TABLE[p.kind]),)
        return legal_verdict(r, reasons)
    p, r, _, reason = max(judged, key=lambda j: strength(j[1]))
    return PlayVerdict(False, (reason,), r.kind, False, r.values)


RULESET = Clubs()
