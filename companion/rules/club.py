"""A club evening of Klaverjassen: draws, the evening's ranking, prizes and the season.

An evening is its checked-in players, each round's draw (who sits where, who sits out) and
one ordinary Klaverjassen game per table. Everything else (each player's score, the
ranking, the prizes, the season table) is derived from those games here, so a corrected
deal changes the ranking the way it changes the game. Nothing in this module does I/O.

Partners sit opposite each other (seat 1 with 3, 2 with 4). A draw avoids, in this order:
partnering someone again, then meeting someone again at a table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.rules.base import Game, RuleError

SEATS = 4
# How a player count that four does not divide is handled: players sit out the round (and
# receive the club's sit-out score), or stand-in "joker" seats fill the tables.
CLUB_GAME = "klaverjassen"
"""The game every table of a club evening plays."""
ODD_PLAYERS = ("sit_out", "joker")
# The score a player sitting out receives: the round's lowest, its average, or a fixed number.
SIT_OUT_SCORES = ("lowest", "average", "fixed")
JOKER = "Joker"
# The backtracking search for a repeat-free partnering gives up after this many steps and
# falls back to the partnering with the fewest repeats (only when repeats are unavoidable
# or nearly so: a dense choice is found in about one step per player).
_SEARCH_STEPS = 20_000
# A repeated partner weighs as much as this many repeated meetings at a table.
_PARTNER_WEIGHT = 1000


@dataclass(frozen=True)
class Table:
    """One table of a round: its number and its four seats in order (seat 1 deals first)."""

    number: int
    seats: tuple[str, str, str, str]

    @property
    def pairs(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """The two partnerships: seat 1 with seat 3, seat 2 with seat 4."""
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


@dataclass(frozen=True)
class Draw:
    """One round of an evening: its tables and the players sitting it out."""

    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(player for table in self.tables for player in table.seats)

    def as_json(self) -> dict[str, Any]:
        return {"tables": [list(table.seats) for table in self.tables], "sitting_out": list(self.sitting_out)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draw:
        tables = tuple(Table(number, _four(seats)) for number, seats in enumerate(data["tables"], start=1))
        return cls(tables, tuple(data.get("sitting_out", ())))


def is_joker(name: str) -> bool:
    """Whether a seat is a stand-in (a joker scores nothing in the ranking)."""
    return name == JOKER or name.startswith(JOKER + " ")


def check_players(players: Iterable[Any]) -> tuple[str, ...]:
    """The evening's players as names; RuleError for a missing, repeated or joker name."""
    names: list[str] = []
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise RuleError("Every player needs a name.", "players")
        name = player.strip()
        if name in names:
            raise RuleError("{player} is checked in twice; every player needs a different name.", "players", player=name)
        if is_joker(name):
            raise RuleError("{player} is the name of a stand-in seat; choose another name.", "players", player=name)
        names.append(name)
    return tuple(names)


def draw_round(players: Sequence[str], earlier: Sequence[Draw], seed: int, odd_players: str = "sit_out") -> Draw:
    """The next round's draw for the players present, by lot (``seed``) and avoiding repeats.

    With ``odd_players="sit_out"`` the players who sat out least so far sit out (by lot among
    equals); with ``"joker"`` stand-in seats fill the last tables, at most one per table.
    """
    names = check_players(players)
    if odd_players not in ODD_PLAYERS:
        raise RuleError("Players left over are either sitting out or playing with a joker.", "odd_players")
    if len(names) < SEATS:
        raise RuleError("A draw needs at least {count} players, not {given}.", "players", count=SEATS, given=len(names))
    rng = random.Random(f"{seed}/{len(earlier) + 1}")
    partnered, met, sat_out = _history(earlier)
    spare = len(names) % SEATS
    sitting_out: list[str] = []
    jokers: list[str] = []
    if odd_players == "sit_out":
        by_turn = sorted(names, key=lambda name: (sat_out[name], rng.random()))
        sitting_out = sorted(by_turn[:spare], key=names.index)
    elif spare:
        jokers = [f"{JOKER} {number}" for number in range(1, SEATS - spare + 1)]
        if len(jokers) > (len(names) + len(jokers)) // SEATS:
            raise RuleError(
                "{given} players need {count} jokers, more than one per table; let players sit out instead.",
                "odd_players",
                given=len(names),
                count=len(jokers),
            )
    playing = [name for name in names if name not in sitting_out]
    rng.shuffle(playing)
    joker_partners = playing[: len(jokers)]
    pairs = [(player, joker) for player, joker in zip(joker_partners, jokers)]
    pairs += _partnerships(playing[len(jokers) :], partnered, rng)
    tables = _tables(pairs, len(jokers), met, rng)
    return Draw(tuple(tables), tuple(sitting_out))


def fixed_pairs_schedule(pairs: Sequence[tuple[str, str]], rounds: int) -> list[Draw]:
    """A published schedule for an evening of fixed pairs: every pair meets every other once.

    The round-robin "circle" schedule: with an odd number of pairs one pair sits out each
    round. Pair ``i`` of a table sits at seats 1 and 3 (the first pair listed) or 2 and 4.
    """
    checked = check_players([player for pair in pairs for player in pair])
    if any(len(pair) != 2 for pair in pairs):
        raise RuleError("A fixed pair is two players.", "pairs")
    units: list[tuple[str, str] | None] = [(checked[i], checked[i + 1]) for i in range(0, len(checked), 2)]
    if len(units) < 2:
        raise RuleError("A fixed-pairs evening needs at least two pairs.", "pairs")
    if len(units) % 2:
        units.append(None)
    most = len(units) - 1
    if not 1 <= rounds <= most:
        raise RuleError(
            "{pairs} pairs can meet each other in 1 to {most} rounds, not {rounds}.",
            "rounds",
            pairs=len(pairs),
            most=most,
            rounds=rounds,
        )
    draws = []
    circle = units[1:]
    for _ in range(rounds):
        line = [units[0], *circle]
        half = len(line) // 2
        tables: list[Table] = []
        sitting_out: tuple[str, ...] = ()
        for first, second in zip(line[:half], reversed(line[half:])):
            if first is None or second is None:
                sitting_out = first or second or ()
                continue
            tables.append(Table(len(tables) + 1, (first[0], second[0], first[1], second[1])))
        draws.append(Draw(tuple(tables), tuple(sitting_out)))
        circle = circle[-1:] + circle[:-1]
    return draws


def _four(seats: Sequence[str]) -> tuple[str, str, str, str]:
    if len(seats) != SEATS:
        raise RuleError("A table has four seats.", "tables")
    return (seats[0], seats[1], seats[2], seats[3])


def _history(earlier: Sequence[Draw]) -> tuple[Counter[frozenset[str]], Counter[frozenset[str]], Counter[str]]:
    """How often each two players partnered, how often they sat at one table, who sat out."""
    partnered: Counter[frozenset[str]] = Counter()
    met: Counter[frozenset[str]] = Counter()
    sat_out: Counter[str] = Counter()
    for draw in earlier:
        sat_out.update(draw.sitting_out)
        for table in draw.tables:
            for pair in table.pairs:
                partnered[frozenset(pair)] += 1
            seats = table.seats
            for i in range(SEATS):
                for j in range(i + 1, SEATS):
                    met[frozenset((seats[i], seats[j]))] += 1
    return partnered, met, sat_out


def _partnerships(players: list[str], partnered: Counter[frozenset[str]], rng: random.Random) -> list[tuple[str, str]]:
    """Pairs of partners: repeat-free if the search finds such a pairing, else fewest repeats."""
    allowed = {
        player: [other for other in players if other != player and not partnered[frozenset((player, other))]]
        for player in players
    }
    found = _repeat_free(players, allowed, rng)
    if found is not None:
        return found
    return _fewest_repeats(players, partnered, rng)


def _repeat_free(
    players: list[str], allowed: Mapping[str, list[str]], rng: random.Random
) -> list[tuple[str, str]] | None:
    """A perfect pairing using only allowed partners (backtracking, most constrained first)."""
    unpaired = set(players)
    pairs: list[tuple[str, str]] = []
    steps = 0

    def search() -> bool:
        nonlocal steps
        if not unpaired:
            return True
        steps += 1
        if steps > _SEARCH_STEPS:
            return False
        player = min(unpaired, key=lambda p: (sum(o in unpaired for o in allowed[p]), players.index(p)))
        options = [other for other in allowed[player] if other in unpaired]
        rng.shuffle(options)
        unpaired.discard(player)
        for other in options:
            unpaired.discard(other)
            pairs.append((player, other))
            if search():
                return True
            pairs.pop()
            unpaired.add(other)
        unpaired.add(player)
        return False

    return pairs if search() else None


def _fewest_repeats(players: list[str], partnered: Counter[frozenset[str]], rng: random.Random) -> list[tuple[str, str]]:
    """Greedy pairing by fewest earlier partnerships, improved by swapping partners."""
    left = list(players)
    pairs: list[tuple[str, str]] = []
    while left:
        player = left.pop(0)
        other = min(left, key=lambda o: (partnered[frozenset((player, o))], rng.random()))
        left.remove(other)
        pairs.append((player, other))

    def cost(a: str, b: str) -> int:
        return partnered[frozenset((a, b))]

    improved = True
    while improved:
        improved = False
        for i in range(len(pairs)):
            for j in range(i + 1, len(pairs)):
                (a, b), (c, d) = pairs[i], pairs[j]
                now = cost(a, b) + cost(c, d)
                if cost(a, c) + cost(b, d) < now:
                    pairs[i], pairs[j] = (a, c), (b, d)
                    improved = True
                elif cost(a, d) + cost(b, c) < now:
                    pairs[i], pairs[j] = (a, d), (b, c)
                    improved = True
    return pairs


def _tables(
    pairs: list[tuple[str, str]], joker_pairs: int, met: Counter[frozenset[str]], rng: random.Random
) -> list[Table]:
    """Two pairs per table, fewest repeated meetings; the first ``joker_pairs`` never share one."""

    def cost(first: tuple[str, str], second: tuple[str, str]) -> int:
        return sum(met[frozenset((a, b))] for a in first for b in second)

    jokers = pairs[:joker_pairs]
    others = pairs[joker_pairs:]
    rng.shuffle(others)
    matches: list[list[tuple[str, str]]] = []
    for pair in jokers:
        partner_pair = min(others, key=lambda other: (cost(pair, other), rng.random()))
        others.remove(partner_pair)
        matches.append([pair, partner_pair])
    while others:
        pair = others.pop()
        partner_pair = min(others, key=lambda other: (cost(pair, other), rng.random()))
        others.remove(partner_pair)
        matches.append([pair, partner_pair])
    improved = True
    while improved:
        improved = False
        for i in range(len(matches)):
            for j in range(i + 1, len(matches)):
                (a, b), (c, d) = matches[i], matches[j]
                now = cost(a, b) + cost(c, d)
                for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
                    if cost(*first) + cost(*second) < now and not _two_jokers(first, second, jokers):
                        matches[i], matches[j] = list(first), list(second)
                        improved = True
                        break
    rng.shuffle(matches)
    tables = []
    for number, (one, two) in enumerate(matches, start=1):
        if rng.random() < 0.5:
            one, two = two, one
        north, south = one if rng.random() < 0.5 else (one[1], one[0])
        east, west = two if rng.random() < 0.5 else (two[1], two[0])
        tables.append(Table(number, (north, east, south, west)))
    return tables


def _two_jokers(
    first: tuple[tuple[str, str], tuple[str, str]], second: tuple[tuple[str, str], tuple[str, str]], jokers: list[tuple[str, str]]
) -> bool:
    """Whether either table would seat two stand-ins."""
    return all(pair in jokers for pair in first) or all(pair in jokers for pair in second)


# --- the evening's scores --------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """What one table's game gives each of its players so far."""

    table: Table
    scores: Mapping[str, int]  # each seated player: their team's total
    nats: Mapping[str, int]  # deals a player's team played and went nat
    pits: Mapping[str, int]  # deals a player's team took every trick
    deals: int
    over: bool


def table_result(table: Table, game: Game | None) -> TableResult:
    """A table's scores per player from its Klaverjassen game (no game yet: all zero)."""
    if game is None:
        zero = {player: 0 for player in table.seats}
        return TableResult(table, zero, zero, zero, 0, False)
    if game.ruleset.id != "klaverjassen" or set(game.players) != set(table.seats):
        raise RuleError("Table {number}'s game is not a Klaverjassen game of its four players.", "tables", number=table.number)
    setup = game.setup
    totals = game.totals
    nats: Counter[str] = Counter()
    pits: Counter[str] = Counter()
    for deal in game.detail["deals"]:
        if deal["nat"]:
            nats.update(setup.members(deal["playing"]))
        if deal["pit"]:
            pits.update(setup.members(deal["pit"]))
    return TableResult(
        table,
        {player: totals[setup.team_of(player)] for player in table.seats},
        {player: nats[player] for player in table.seats},
        {player: pits[player] for player in table.seats},
        game.rounds_played,
        game.over,
    )


@dataclass(frozen=True)
class SitOutScore:
    """The club's score for a player sitting a round out."""

    kind: str = "average"
    fixed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in SIT_OUT_SCORES:
            raise RuleError("A player sitting out scores the round's lowest, its average or a fixed number.", "sit_out")
        if isinstance(self.fixed, bool) or not isinstance(self.fixed, int) or self.fixed < 0:
            raise RuleError("The fixed score for sitting out must be a whole number, 0 or more.", "sit_out")

    def score(self, seated_scores: Sequence[int]) -> int:
        """The score for this round, from the seated players' scores (jokers left out)."""
        if self.kind == "fixed" or not seated_scores:
            return self.fixed if self.kind == "fixed" else 0
        if self.kind == "lowest":
            return min(seated_scores)
        return (2 * sum(seated_scores) + len(seated_scores)) // (2 * len(seated_scores))  # half rounds up


@dataclass(frozen=True)
class RoundScores:
    """One round of an evening: its draw, each table's game (None: no deal saved yet) and the
    tables stopped before their end (their game abandoned: it will never finish).

    A stopped table does not hold up the next draw and is left out of the ranking: its
    players score what a player sitting the round out scores (the club's sit-out score,
    from the other tables), so nobody gains or loses by a game that did not end.
    """

    draw: Draw
    games: Mapping[int, Game | None]
    stopped: frozenset[int] = frozenset()

    def results(self) -> list[TableResult]:
        return list(self._results)

    @cached_property
    def _results(self) -> tuple[TableResult, ...]:
        """Each table's result, worked out once: the ranking, the tables still playing and a
        big screen's page all ask for them."""
        return tuple(table_result(table, self.games.get(table.number)) for table in self.draw.tables)

    def counted(self) -> list[TableResult]:
        """The tables whose games count in the ranking: all but the stopped ones."""
        return [result for result in self.results() if result.table.number not in self.stopped]

    @property
    def playing(self) -> tuple[int, ...]:
        """The numbers of the tables whose game is not over yet (nor stopped)."""
        return tuple(result.table.number for result in self.counted() if not result.over)

    @property
    def scoring_as_sitting_out(self) -> tuple[str, ...]:
        """Who scores the sit-out score this round: those sitting out and the stopped tables' players."""
        stopped = (
            player for table in self.draw.tables if table.number in self.stopped for player in table.seats if not is_joker(player)
        )
        return (*self.draw.sitting_out, *stopped)


@dataclass(frozen=True)
class Standing:
    """One player's line of the evening's ranking."""

    place: int
    player: str
    total: int
    rounds: tuple[int | None, ...]  # per round: the score, None when absent
    sat_out: int
    nats: int
    pits: int


def player_scores(round_scores: RoundScores, sit_out: SitOutScore) -> dict[str, int]:
    """Each player's score for one round: their team's total, or the sit-out score (sitting
    out, or seated at a stopped table)."""
    scores = {
        player: score
        for result in round_scores.counted()
        for player, score in result.scores.items()
        if not is_joker(player)
    }
    given = sit_out.score(list(scores.values()))
    scores.update({player: given for player in round_scores.scoring_as_sitting_out})
    return scores


def ranking(
    rounds: Sequence[RoundScores],
    sit_out: SitOutScore,
    pairs: Sequence[tuple[str, str]] = (),
    fewer_nats_first: bool = False,
) -> list[Standing]:
    """The evening's ranking: highest total first; equal totals share a place (fewer nats,
    then name, list first), unless the club ranks ``fewer_nats_first`` among equal totals
    (then only equal totals with equal nats share). A place counts the players ahead, or
    with fixed ``pairs`` the pairs ahead (the second best pair is 2nd, not 3rd)."""
    per_round = [player_scores(one, sit_out) for one in rounds]
    nats: Counter[str] = Counter()
    pits: Counter[str] = Counter()
    sat_out: Counter[str] = Counter()
    for one in rounds:
        sat_out.update(one.draw.sitting_out)
        for result in one.counted():
            nats.update(result.nats)
            pits.update(result.pits)
    players = sorted({player for scores in per_round for player in scores})
    totals = {player: sum(scores.get(player, 0) for scores in per_round) for player in players}
    order = sorted(players, key=lambda player: (-totals[player], nats[player], player))
    unit = _units(pairs)

    def rank(player: str) -> tuple[int, ...]:
        """What places a player: equal ranks share a place (``order`` keeps them together)."""
        return (-totals[player], nats[player]) if fewer_nats_first else (-totals[player],)

    standings: list[Standing] = []
    ahead: set[object] = set()  # the players, or pairs, ranked above the current place
    sharing: set[object] = set()  # those sharing the current place
    current: tuple[int, ...] | None = None
    place = 1
    for player in order:
        if rank(player) != current:
            ahead |= sharing
            sharing, current, place = set(), rank(player), len(ahead) + 1
        sharing.add(unit.get(player, player))
        standings.append(
            Standing(
                place,
                player,
                totals[player],
                tuple(scores.get(player) for scores in per_round),
                sat_out[player],
                nats[player],
                pits[player],
            )
        )
    return standings


# --- prizes ----------------------------------------------------------------------------

PRIZE_PLACES = "places"
PRIZE_BOOBY = "booby"
PRIZE_PITS = "most_pits"


@dataclass(frozen=True)
class PrizeRule:
    """A club's prizes: the first ``places`` places (or the "formule van 4": places 1 to 4,
    then every fourth), a booby prize for the lowest, a prize for the most pits, and how
    equal totals are placed."""

    places: int = 3
    formule_van_4: bool = False
    booby: bool = False
    most_pits: bool = False
    fewer_nats_first: bool = False
    """Among equal totals, fewer nats ranks higher (else equal totals share the place and its prizes)."""

    def __post_init__(self) -> None:
        if isinstance(self.places, bool) or not isinstance(self.places, int) or self.places < 0:
            raise RuleError("The number of prize places must be a whole number, 0 or more.", "places")

    def positions(self, count: int) -> list[int]:
        """The prize-winning positions (1 = first) among ``count`` ranked players."""
        if self.formule_van_4:
            return [p for p in range(1, count + 1) if p <= 4 or p % 4 == 0]
        return list(range(1, min(self.places, count) + 1))


@dataclass(frozen=True)
class Prize:
    kind: str  # PRIZE_PLACES, PRIZE_BOOBY or PRIZE_PITS
    position: int | None
    players: tuple[str, ...]
    shared: bool = False
    """Whether players (or pairs) with equal totals share it."""


def _units(pairs: Sequence[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Each paired player's pair: who wins or places together."""
    return {player: pair for pair in pairs for player in pair}


def prizes(standings: Sequence[Standing], rule: PrizeRule, pairs: Sequence[tuple[str, str]] = ()) -> list[Prize]:
    """The prizes of a final ranking, by place: players (or fixed ``pairs``) with equal
    totals share a place, so they share the prizes of every position their place spans
    (two tied for 1st share the prizes for places 1 and 2). A shared lowest total or most
    pits shares that prize too."""
    unit = _units(pairs)
    units = list(dict.fromkeys(unit.get(s.player, s.player) for s in standings))
    place_of = {unit.get(s.player, s.player): s.place for s in standings}

    def prize(kind: str, position: int | None, winners: list[Standing]) -> Prize:
        players = tuple(s.player for s in winners)
        return Prize(kind, position, players, shared=len({unit.get(p, p) for p in players}) > 1)

    awarded = [
        prize(PRIZE_PLACES, position, [s for s in standings if s.place == place_of[units[position - 1]]])
        for position in rule.positions(len(units))
    ]
    if rule.booby and standings:
        lowest = standings[-1].total
        awarded.append(prize(PRIZE_BOOBY, None, [s for s in standings if s.total == lowest]))
    most = max((s.pits for s in standings), default=0)
    if rule.most_pits and most > 0:
        awarded.append(prize(PRIZE_PITS, None, [s for s in standings if s.pits == most]))
    return awarded


# --- the season ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonStanding:
    place: int
    player: str
    evenings: int
    total: int
    average: float
    best: int  # the sum of the player's best N evenings (all evenings when N is not set)


def season(evenings: Sequence[Mapping[str, int]], best_of: int | None = None) -> list[SeasonStanding]:
    """The season table from each evening's totals per player: by best N evenings, else by total."""
    if best_of is not None and (isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1):
        raise RuleError("Best of must count at least one evening.", "best_of")
    played: dict[str, list[int]] = {}
    for evening in evenings:
        for player, total in evening.items():
            played.setdefault(player, []).append(total)
    lines = []
    for player, scores in played.items():
        best = sum(sorted(scores, reverse=True)[:best_of] if best_of else scores)
        lines.append((player, len(scores), sum(scores), sum(scores) / len(scores), best))
    lines.sort(key=lambda line: (-line[4], -line[2], line[0]))
    standings: list[SeasonStanding] = []
    for index, (player, count, total, average, best) in enumerate(lines):
        place = standings[-1].place if standings and standings[-1].best == best and standings[-1].total == total else index + 1
        standings.append(SeasonStanding(place, player, count, total, average, best))
    return standings
