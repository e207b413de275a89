"""MEMBERS ONLY (Reiner Knizia): bet on how many cards of each symbol end face up.

A round is one hand ("Durchgang"). Entry format, one dict per hand::

    {"bets": [{"player": "Ann", "symbol": "umbrella", "field": ">=5",
               "stone": "single" | "double", "risk": false}, ...],
     "counts": {"umbrella": 4, "crown": 7, "teacup": 2, "big_ben": 9, "hat": 6}}

or, instead of ``counts``, the face-up cards as the table shows them:
``"shown": {symbol: symbol cards}, "minus": {symbol: minus cards}`` (``minus`` may leave
out symbols without minus cards). Every symbol needs a count. ``bets`` lists every stone
placed that hand (none: an empty list or no ``bets``); the order carries no meaning.
``stone`` defaults to ``"single"`` and ``risk`` to false.

How a hand runs, and what the entry can therefore be checked against:

- Hands of 11 / 9 / 7 cards for 3 / 4 / 5 players and 2 cards face up at the start. On
  each turn a player may place one stone on a free field; from the second turn on they
  turn two cards face up. Betting stops once everyone is down to three cards, so a
  player gets 5 / 4 / 3 betting turns a hand. At the end each player sets one card aside
  unseen and turns up the other two: 32 / 34 / 32 cards end face up. Entered as shown
  and minus cards, they add up to an even number: that total, less any cancelled pairs the
  players took off the table (two cards at a time).
- A minus card cancels one card of its symbol, so a symbol counts its face-up cards less
  its face-up minus cards (never below 0). Whether the players removed the cancelled
  pairs before counting or not, at least 20 fewer than the face-up total remain (there
  are 10 minus cards), so 12 / 14 / 12 is the least the five counts can add up to.
- Each player owns 4 single stones, 1 double stone and 1 risk stone. The risk stone may
  only go under the stone a player places on their first turn, so at most one of a
  player's bets per hand can be on it; the order of turns is not recorded, so that is
  all the entry can check.
- A right bet moves the player's marker on that symbol's track up by the field's payout
  times the stone's multiplier (single 1, double 2, single on risk 2, double on risk 3);
  a track stops at 10. A wrong bet loses the stone for good, except the risk stone,
  which always returns. A player left with one betting stone or none gets all five back
  for the next hand.
- The game ends after the first hand whose scoring leaves every symbol with some marker
  at 5 or more. Only tracks at 5..10 count; the highest sum wins, ties share the win.

Seat 1 deals the first hand and the next player clockwise starts it; whoever started a
hand deals the next one (the base rotation), so the start moves one seat clockwise too.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Mapping, NamedTuple, TypedDict

from companion.rules.base import RuleError, Ruleset, Setup, Verdict
from companion.rules.text import Phrase

SYMBOLS = ("umbrella", "crown", "teacup", "big_ben", "hat")
FIELDS = ("<=1", "<=2", "<=3", "<=4", ">=5", ">=6", ">=7", ">=8")
PAYOUTS = dict(zip(FIELDS, (5, 3, 2, 1, 1, 2, 3, 5)))
STONES = ("single", "double")
_STONE_INDEX = {"single": 0, "double": 1}  # position in a (singles, doubles) pair
MULTIPLIERS = {("single", False): 1, ("double", False): 2, ("single", True): 2, ("double", True): 3}

SINGLE_STONES = 4
DOUBLE_STONES = 1
REFILL_AT = 1  # a player with this many betting stones or fewer gets all back
TRACK_TOP = 10
COUNTS_FROM = 5  # tracks at this value or more score at the end
SYMBOL_CARDS = 11  # per symbol
MINUS_CARDS = 2  # per symbol
HAND_SIZE = {3: 11, 4: 9, 5: 7}
FACE_UP_AT_START = 2
CARDS_LEFT_WHEN_BETTING_STOPS = 3

SYMBOL_NAMES = {
    "umbrella": Phrase("umbrella"),
    "crown": Phrase("crown"),
    "teacup": Phrase("teacup"),
    "big_ben": Phrase("Big Ben"),
    "hat": Phrase("hat"),
}
"""How a message names each symbol, in the player's language when shown."""
FIELD_NAMES = {
    f: Phrase("{count} or fewer", count=int(f[2:])) if f[0] == "<" else Phrase("{count} or more", count=int(f[2:]))
    for f in FIELDS
}
_COLUMN = {symbol: column for column, symbol in enumerate(SYMBOLS)}
_in_symbol_order = itemgetter(*SYMBOLS)  # {symbol: value} -> values in SYMBOLS order
_ENTRY_KEYS = frozenset({"bets", "counts", "shown", "minus"})
_BET_KEYS = frozenset({"player", "symbol", "field", "stone", "risk"})


def betting_turns(player_count: int) -> int:
    """Turns per hand on which each player may place a stone: 5 / 4 / 3 for 3 / 4 / 5 players."""
    return 1 + (HAND_SIZE[player_count] - CARDS_LEFT_WHEN_BETTING_STOPS) // 2


def face_up_at_scoring(player_count: int) -> int:
    """Cards face up when a hand is scored: everyone's hand but the card set aside, plus the two."""
    return FACE_UP_AT_START + player_count * (HAND_SIZE[player_count] - 1)


def least_total_count(player_count: int) -> int:
    """The smallest possible sum of the five counts: minus cards cancel at most two cards each."""
    return face_up_at_scoring(player_count) - 2 * MINUS_CARDS * len(SYMBOLS)


def symbol_count(shown: int, minus: int) -> int:
    """A symbol's count: its face-up cards less its face-up minus cards, never below 0."""
    return max(shown - minus, 0)


def bet_wins(field: str, count: int) -> bool:
    """Whether a stone on ``field`` is right when the symbol's count is ``count``."""
    if type(field) is not str or field not in PAYOUTS:
        raise RuleError(
            "{value!r} is not a betting field; the fields are {fields}.", "field", value=field, fields=", ".join(FIELDS)
        )
    bound = int(field[2:])
    return count <= bound if field.startswith("<=") else count >= bound


# Lookup tables for apply() and verdict(), which run on every hand of every replay.
# Points per field and count (0..11) for a single stone, 0 where the bet is wrong.
_POINTS = {f: tuple(PAYOUTS[f] if bet_wins(f, c) else 0 for c in range(SYMBOL_CARDS + 1)) for f in FIELDS}
# What a marker at 0..10 adds to its player's score: only 5 or more counts.
_TRACK_SCORE = tuple(value if value >= COUNTS_FROM else 0 for value in range(TRACK_TOP + 1))
_TURNS = {seats: betting_turns(seats) for seats in HAND_SIZE}
_FACE_UP = {seats: face_up_at_scoring(seats) for seats in HAND_SIZE}
_LEAST_TOTAL = {seats: least_total_count(seats) for seats in HAND_SIZE}


def payout(field: str, count: int, stone: str = "single", risk: bool = False) -> int:
    """Points a bet moves its track up (before the track stops at 10); 0 when the bet is wrong.

    Use ``bet_wins`` to tell a wrong bet apart; a right bet always earns at least 1.
    """
    if type(stone) is not str or stone not in STONES:
        raise RuleError("A betting stone is single or double, not {stone!r}.", "stone", stone=stone)
    if not bet_wins(field, count):
        return 0
    return PAYOUTS[field] * MULTIPLIERS[(stone, bool(risk))]


class Bet(NamedTuple):
    player: str
    symbol: str
    field: str
    stone: str
    risk: bool


class BetResult(NamedTuple):
    """A settled bet: ``points`` is its payout (0 when lost); a lost bet loses its stone."""

    bet: Bet
    symbol_count: int  # not ``count``: that would hide ``tuple.count``
    won: bool
    points: int

    def as_dict(self) -> dict[str, Any]:
        return {**self.bet._asdict(), "count": self.symbol_count, "won": self.won, "points": self.points}


class MembersOnlyState(NamedTuple):
    """Per seat (setup order): the five track positions and the (single, double) stones owned.

    ``reached``: the symbols with some marker at 5 or more (markers never move down).
    ``last_bets`` and ``last_counts``: the last hand, settled again for the read-out.
    """

    tracks: tuple[tuple[int, ...], ...]
    stones: tuple[tuple[int, int], ...]
    hands: int = 0
    reached: frozenset[str] = frozenset()
    last_counts: tuple[int, ...] | None = None
    last_bets: tuple[Bet, ...] = ()
    refilled: tuple[str, ...] = ()


_GAME_GOES_ON = Verdict(False)


class MembersOnlyDetail(TypedDict):
    """The read-out of a MEMBERS ONLY game (``Game.detail``); see ``MembersOnly.detail``."""

    tracks: dict[str, dict[str, int]]
    stones: dict[str, dict[str, int]]
    symbols_reached: list[str]
    starter: str
    turns_per_hand: int
    last_hand: dict[str, Any] | None


class MembersOnly(Ruleset):
    id = "members_only"
    name = "MEMBERS ONLY"
    min_players = 3
    max_players = 5
    options = ()

    def initial_state(self, setup: Setup) -> MembersOnlyState:
        seats = len(setup.players)
        return MembersOnlyState(
            tracks=((0,) * len(SYMBOLS),) * seats,
            stones=((SINGLE_STONES, DOUBLE_STONES),) * seats,
        )

    def apply(
        self, setup: Setup, state: MembersOnlyState, entry: Mapping[str, Any], number: int
    ) -> tuple[MembersOnlyState, dict[str, int]]:
        players = setup.players
        if not entry.keys() <= _ENTRY_KEYS:
            key = _unknown_part(entry, _ENTRY_KEYS)
            raise RuleError("A hand has no part called {key!r}.", key, key=key)
        counts = _read_counts(entry, len(players))
        bets = _read_bets(entry.get("bets", []))
        _check_bets(bets, players, state)

        tracks = list(map(list, state.tracks))
        stones = list(map(list, state.stones))
        gained = [0] * len(players)  # the hand's score: the change in each player's standing
        reached = state.reached
        for player, symbol, field, stone, risk in bets:
            seat = players.index(player)
            points = _bet_points(field, stone, risk, counts[symbol])
            if points:
                row, column = tracks[seat], _COLUMN[symbol]
                before = row[column]
                row[column] = after = min(before + points, TRACK_TOP)
                gained[seat] += _TRACK_SCORE[after] - _TRACK_SCORE[before]
                if after >= COUNTS_FROM and symbol not in reached:
                    reached = reached | {symbol}
            else:
                stones[seat][_STONE_INDEX[stone]] -= 1
        refilled = []
        for seat, owned in enumerate(stones):
            if sum(owned) <= REFILL_AT:
                stones[seat] = [SINGLE_STONES, DOUBLE_STONES]
                refilled.append(players[seat])

        new_state = MembersOnlyState(
            tracks=tuple(map(tuple, tracks)),
            stones=tuple((single, double) for single, double in stones),
            hands=state.hands + 1,
            reached=reached,
            last_counts=_in_symbol_order(counts),
            last_bets=tuple(bets),
            refilled=tuple(refilled),
        )
        return new_state, dict(zip(players, gained))

    def verdict(self, setup: Setup, state: MembersOnlyState, totals: Mapping[str, int], rounds_played: int) -> Verdict:
        if len(state.reached) < len(SYMBOLS):
            return _GAME_GOES_ON
        best = max(totals.values())
        return Verdict(True, tuple(player for player in setup.players if totals[player] == best))

    def detail(self, setup: Setup, state: MembersOnlyState) -> MembersOnlyDetail:
        """The board for the UI.

        ``tracks``: player -> symbol -> 0..10. ``stones``: the single and double stones each
        player owns for the next hand. ``symbols_reached``: symbols with a marker at 5 or
        more (all five end the game). ``starter``: who takes the first turn of the next
        hand. ``turns_per_hand``: the most stones a player can place in one hand.
        ``last_hand``: None before the first hand, else its ``counts``, its ``bets`` (each
        with the ``count``, ``won`` and ``points``: the payout before the 10 cap, 0 when
        lost) and the players ``refilled`` with all their stones.
        """
        players = setup.players
        last_hand = None
        if state.last_counts is not None:
            counts = dict(zip(SYMBOLS, state.last_counts))
            last_hand = {
                "counts": counts,
                "bets": [_settle(bet, counts).as_dict() for bet in state.last_bets],
                "refilled": list(state.refilled),
            }
        return {
            "tracks": {p: dict(zip(SYMBOLS, state.tracks[seat])) for seat, p in enumerate(players)},
            "stones": {p: {"single": s, "double": d} for p, (s, d) in zip(players, state.stones)},
            "symbols_reached": [symbol for symbol in SYMBOLS if symbol in state.reached],
            "starter": players[(state.hands + 1) % len(players)],
            "turns_per_hand": betting_turns(len(players)),
            "last_hand": last_hand,
        }


def _bet_points(field: str, stone: str, risk: bool, count: int) -> int:
    """A read bet's payout for its symbol's count, 0 when it is wrong."""
    return _POINTS[field][count] * MULTIPLIERS[(stone, risk)]


def _settle(bet: Bet, counts: Mapping[str, int]) -> BetResult:
    count = counts[bet.symbol]
    points = _bet_points(bet.field, bet.stone, bet.risk, count)
    return BetResult(bet, count, points > 0, points)


# --- reading and checking an entry ------------------------------------------------------


def _unknown_part(raw: Mapping[str, Any], known: frozenset[str]) -> str:
    """The first key of ``raw`` that is not one of the ``known`` parts."""
    return next(key for key in raw if key not in known)


def _read_bets(raw: Any) -> list[Bet]:
    if not isinstance(raw, list):
        raise RuleError("The bets must be a list.", "bets")
    bets = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise RuleError("Bet {number} must be given as name: value pairs.", f"bets.{index}", number=index + 1)
        if not item.keys() <= _BET_KEYS:
            key = _unknown_part(item, _BET_KEYS)
            raise RuleError(
                "Bet {number} has no part called {key!r}.", f"bets.{index}.{key}", number=index + 1, key=key
            )
        player = item.get("player")
        if type(player) is not str or not player:
            raise RuleError("Bet {number} needs the player who placed it.", f"bets.{index}.player", number=index + 1)
        symbol = item.get("symbol")
        if type(symbol) is not str or symbol not in _COLUMN:
            raise RuleError(
                "{player}'s bet needs a symbol: one of {symbols}, not {symbol!r}.",
                f"bets.{index}.symbol",
                player=player,
                symbols=", ".join(SYMBOLS),
                symbol=symbol,
            )
        field = item.get("field")
        if type(field) is not str or field not in PAYOUTS:
            raise RuleError(
                "{player}'s bet: {value!r} is not a betting field; the fields are {fields}.",
                f"bets.{index}.field",
                player=player,
                value=field,
                fields=", ".join(FIELDS),
            )
        stone = item.get("stone", "single")
        if type(stone) is not str or stone not in _STONE_INDEX:
            raise RuleError(
                "{player}'s bet: A betting stone is single or double, not {stone!r}.",
                f"bets.{index}.stone",
                player=player,
                stone=stone,
            )
        risk = item.get("risk", False)
        if type(risk) is not bool:
            raise RuleError(
                "Whether {player}'s bet is on the risk stone must be true or false.",
                f"bets.{index}.risk",
                player=player,
            )
        bets.append(Bet._make((player, symbol, field, stone, risk)))  # quicker than Bet(...)
    return bets


def _check_bets(bets: list[Bet], players: tuple[str, ...], state: MembersOnlyState) -> None:
    """Reject what the table cannot hold: taken fields, stones a player lacks, too many turns."""
    taken: dict[tuple[str, str], str] = {}
    owned = {player: list(stones) for player, stones in zip(players, state.stones)}
    placed = dict.fromkeys(players, 0)
    on_risk: set[str] = set()
    turns = _TURNS[len(players)]
    for index, (player, symbol, field, stone, risk) in enumerate(bets):
        if player not in placed:
            raise RuleError("{player} is not at this table.", f"bets.{index}.player", player=player)
        spot = symbol, field
        other = taken.get(spot)
        if other == player:
            raise RuleError(
                "{player} cannot put two stones on {field_name} under the {symbol}; a field holds one stone.",
                f"bets.{index}.field",
                player=player,
                field_name=FIELD_NAMES[field],
                symbol=SYMBOL_NAMES[symbol],
            )
        if other is not None:
            raise RuleError(
                "{other} and {player} cannot both bet on {field_name} under the {symbol}; a field holds one stone.",
                f"bets.{index}.field",
                other=other,
                player=player,
                field_name=FIELD_NAMES[field],
                symbol=SYMBOL_NAMES[symbol],
            )
        taken[spot] = player
        stones_placed = placed[player] + 1
        if stones_placed > turns:
            raise RuleError(
                "With {players} players everyone gets {turns} turns to bet in a hand, "
                "so {player} cannot place {stones} stones.",
                f"bets.{index}.player",
                players=len(players),
                turns=turns,
                player=player,
                stones=stones_placed,
            )
        placed[player] = stones_placed
        left = owned[player]
        kind = _STONE_INDEX[stone]
        if not left[kind]:
            raise _too_few_stones(player, stone, state.stones[players.index(player)][kind], f"bets.{index}.stone")
        left[kind] -= 1
        if risk:
            if player in on_risk:
                raise RuleError(
                    "{player} has one risk stone, so only one of their bets in a hand can be on it.",
                    f"bets.{index}.risk",
                    player=player,
                )
            on_risk.add(player)


def _too_few_stones(player: str, stone: str, had: int, field: str) -> RuleError:
    """``player`` bet one more ``stone`` than the ``had`` they owned at the start of the hand."""
    wanted = had + 1
    if stone == "double":  # a player owns one double stone
        if had == 0:
            return RuleError("{player} has no double stone left.", field, player=player)
        return RuleError(
            "{player} has only {count} double stone left, not {wanted}.", field, player=player, count=had, wanted=wanted
        )
    # A player left without single stones owns one stone or none, so has all back: had >= 1.
    if had == 1:
        return RuleError(
            "{player} has only {count} single stone left, not {wanted}.", field, player=player, count=had, wanted=wanted
        )
    return RuleError(
        "{player} has only {count} single stones left, not {wanted}.", field, player=player, count=had, wanted=wanted
    )


def _read_count_map(raw: Any, name: str, most: int, required: bool) -> dict[str, int]:
    """Read {symbol: number of cards}; a symbol left out is an error when ``required``, else 0."""
    if not isinstance(raw, dict):
        if name == "counts":
            raise RuleError("The counts must map each symbol to a number of cards.", name)
        if name == "shown":
            raise RuleError("The shown must map each symbol to a number of cards.", name)
        raise RuleError("The minus must map each symbol to a number of cards.", name)
    if not raw.keys() <= _COLUMN.keys():
        key = min(raw.keys() - _COLUMN.keys(), key=str)
        raise RuleError(
            "{key!r} is not a symbol; the symbols are {symbols}.", f"{name}.{key}", key=key, symbols=", ".join(SYMBOLS)
        )
    read = {}
    for symbol in SYMBOLS:
        value = raw.get(symbol)
        if type(value) is int and 0 <= value <= most:
            read[symbol] = value
        elif value is None and not required and symbol not in raw:
            read[symbol] = 0
        else:
            raise _bad_count(name, symbol, value, most)
    return read


def _bad_count(name: str, symbol: str, value: Any, most: int) -> RuleError:
    field, label = f"{name}.{symbol}", SYMBOL_NAMES[symbol]
    if value is None:
        return RuleError("How many {symbol} cards are face up? Every symbol needs a count.", field, symbol=label)
    if type(value) is not int or value < 0:
        return RuleError(
            "The {symbol} count must be a whole number of cards, not {value!r}.", field, symbol=label, value=value
        )
    if name == "minus":
        return RuleError(
            "There are only {most} {symbol} minus cards, so {value} cannot be face up.",
            field,
            most=most,
            symbol=label,
            value=value,
        )
    return RuleError(
        "There are only {most} {symbol} cards, so {value} cannot be face up.",
        field,
        most=most,
        symbol=label,
        value=value,
    )


def _read_counts(entry: Mapping[str, Any], player_count: int) -> dict[str, int]:
    """The five counts, from ``counts`` or from ``shown``/``minus``, bounded by the face-up cards."""
    face_up = _FACE_UP[player_count]
    if "counts" in entry:
        if "shown" in entry or "minus" in entry:
            raise RuleError("Give either the counts or the shown and minus cards, not both.", "counts")
        counts = _read_count_map(entry["counts"], "counts", SYMBOL_CARDS, required=True)
        total = sum(counts.values())
        if total > face_up:
            raise RuleError(
                "With {players} players {face_up} cards end face up, so the counts cannot add up to {total}.",
                "counts",
                players=player_count,
                face_up=face_up,
                total=total,
            )
    elif "shown" in entry:
        shown = _read_count_map(entry["shown"], "shown", SYMBOL_CARDS, required=True)
        minus = _read_count_map(entry.get("minus", {}), "minus", MINUS_CARDS, required=False)
        on_table = sum(shown.values()) + sum(minus.values())
        if on_table > face_up:
            raise RuleError(
                "With {players} players {face_up} cards end face up, not {on_table}.",
                "shown",
                players=player_count,
                face_up=face_up,
                on_table=on_table,
            )
        counts = {symbol: symbol_count(shown[symbol], minus[symbol]) for symbol in SYMBOLS}
        total = sum(counts.values())
    else:
        raise RuleError("How many cards of each symbol are face up? The hand needs its counts.", "counts")
    least = _LEAST_TOTAL[player_count]
    if total < least:
        raise RuleError(
            "With {players} players {face_up} cards end face up and the minus cards cancel at most "
            "{cancelled} of them, so the counts add up to at least {least}, not {total}.",
            "counts" if "counts" in entry else "shown",
            players=player_count,
            face_up=face_up,
            cancelled=face_up - least,
            least=least,
            total=total,
        )
    if "shown" in entry and on_table % 2:
        raise RuleError(
            "With {players} players {face_up} cards end face up and cancelled pairs leave the table two "
            "at a time, so the cards shown are an even number, not {on_table}.",
            "shown",
            players=player_count,
            face_up=face_up,
            on_table=on_table,
        )
    return counts


RULESET = MembersOnly()
