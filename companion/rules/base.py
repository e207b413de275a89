"""Shared types of the rules engine: rulesets, options, games and their read-outs.

A game is its setup plus the list of raw round entries. Everything else (scores,
totals, standings, the end-of-game verdict) is computed here by replaying the entries
through the ruleset, so editing a past round recomputes everything. Nothing in this
package does I/O.
"""

from __future__ import annotations

import copy
from collections import abc
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from companion.i18n import _
from companion.rules.text import briefly


class RuleError(ValueError):
    """A setup or round entry that the physical game cannot produce.

    ``field`` names the part of the entry at fault (e.g. ``"club_points.Bob"``) so a
    screen can show the message next to it. The message is an English template whose
    ``{placeholders}`` are filled from ``params``; ``message`` gives it in the player's
    language (``companion.i18n``), so the rules themselves stay free of any language.
    ``round`` is set when the error comes from replaying a past round. Values are quoted
    briefly (``companion.rules.text.brief``), however long the value given.
    """

    def __init__(self, message: str, field: str | None = None, **params: Any):
        self.template = message
        self.params = params = briefly(params)
        self.field = field
        self.round: int | None = None
        super().__init__(message.format(**params) if params else message)

    @property
    def message(self) -> str:
        """The sentence to show the player, in the current language."""
        text = _(self.template)
        if self.params:
            text = text.format(**self.params)
        if self.round is not None:
            text = _("Round {number}: {reason}").format(number=self.round, reason=text)
        return text

    def __str__(self) -> str:
        return self.message

    def in_round(self, number: int) -> RuleError:
        """This error, marked as coming from round ``number`` of a replay."""
        self.round = number
        return self


@dataclass(frozen=True)
class Option:
    """One named choice of a ruleset (a house rule or variant).

    ``type`` is ``bool``, ``int`` or ``str``; ``allowed`` lists the permitted values
    (for ``int`` options: every permitted value, or ``None`` with ``minimum``/``maximum``).
    ``label`` names the option on screen and ``description`` explains it; ``value_words``
    gives the words for text values (``(("amsterdam", "Amsterdam"), ...)``; a value without
    one is shown as it is). All three are English templates marked with ``N_`` and
    translated where shown, like ``RuleError``'s messages.
    A ``str`` option with ``allowed`` and ``minimum``/``maximum`` also takes any whole
    number in that range, written in digits ("750"): its ``allowed`` are the quick choices.
    """

    name: str
    type: type
    default: Any
    description: str
    allowed: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = field(kw_only=True)
    value_words: tuple[tuple[Any, str], ...] = field(default=(), kw_only=True)

    def value_word(self, value: Any) -> str | None:
        """The English word template for a text value, or None when it is shown as it is."""
        return dict(self.value_words).get(value)

    def check(self, value: Any) -> Any:
        if self.type is bool:
            if not isinstance(value, bool):
                raise RuleError("Option {option} must be true or false, not {value!r}.", self.name, option=self.name, value=value)
            return value
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError("Option {option} must be a whole number, not {value!r}.", self.name, option=self.name, value=value)
            if self.minimum is not None and value < self.minimum:
                raise RuleError("Option {option} must be at least {minimum}, not {value}.", self.name, option=self.name, minimum=self.minimum, value=value)
            if self.maximum is not None and value > self.maximum:
                raise RuleError("Option {option} must be at most {maximum}, not {value}.", self.name, option=self.name, maximum=self.maximum, value=value)
        elif not isinstance(value, self.type):
            raise RuleError("Option {option} must be text, not {value!r}.", self.name, option=self.name, value=value)
        if self.allowed is not None and value not in self.allowed:
            if self.type is str and self.minimum is not None and self.maximum is not None:
                return self._typed_number(value, self.minimum, self.maximum)
            choices = ", ".join(str(a) for a in self.allowed)
            raise RuleError("Option {option} must be one of {choices}; {value!r} is not allowed.", self.name, option=self.name, choices=choices, value=value)
        return value


    def _typed_number(self, value: str, minimum: int, maximum: int) -> str:
        """A number typed beside the quick choices, in digits and in range ("0750" -> "750")."""
        if not (value.isascii() and value.isdigit()) or not minimum <= int(value) <= maximum:
            raise RuleError(
                "Option {option} must be one of {choices} or a whole number from {minimum} to {maximum}; "
                "{value!r} is not allowed.",
                self.name,
                option=self.name,
                choices=", ".join(str(a) for a in self.allowed or ()),
                minimum=minimum,
                maximum=maximum,
                value=value,
            )
        return str(int(value))


@dataclass(frozen=True)
class Setup:
    """Who plays, in seating order (clockwise, the first deals first), with which options."""

    ruleset_id: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """The names that score: team names in team play, else player names."""
        if self.teams is not None:
            return tuple(name for name, _members in self.teams)
        return self.players

    def team_of(self, player: str) -> str:
        for name, members in self.teams or ():
            if player in members:
                return name
        raise KeyError(player)

    def members(self, team: str) -> tuple[str, ...]:
        return dict(self.teams or ())[team]


@dataclass(frozen=True)
class NextRound:
    """Who deals the next round, and (where it applies) which team plays it."""

    number: int
    dealer: str
    playing: str | None = None


@dataclass(frozen=True)
class Verdict:
    """Whether the game is over and who won (several sides on a shared win)."""

    over: bool
    winners: tuple[str, ...] = ()


class Ruleset:
    """A game's rules. Subclasses define the class attributes and override the hooks they need.

    Hooks (all pure; ``apply`` and ``verdict`` have no default):
    - ``check_setup(setup)``: raise RuleError for setups the game does not allow, and
      return the setup (possibly with teams filled in).
    - ``initial_state(setup)``: the state before the first round.
    - ``apply(setup, state, entry, number) -> (state, scores)``: validate one raw entry
      against the state and return the new state and ``{side: points}`` for that round.
      Must not mutate ``state`` or ``entry``.
    - ``verdict(setup, state, totals, rounds_played) -> Verdict``.
    - ``next_round(setup, state, rounds_played) -> NextRound``.
    - ``detail(setup, state)``: ruleset-specific read-out (JSON-compatible).
    - ``rank_key(setup, state, totals, side)``: sort key for standings; by default higher
      totals come first unless ``lowest_wins``.
    """

    id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    lowest_wins: bool = False

    # --- public API -----------------------------------------------------------------

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
    ) -> Game:
        players = self._check_players(players)
        checked = self._check_options(options or {})
        team_tuple = None
        if teams is not None:
            team_tuple = self._check_teams(players, teams)
        setup = Setup(self.id, players, MappingProxyType(checked), team_tuple)
        setup = self.check_setup(setup)
        return Game(self, setup, (), self.initial_state(setup), ())

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    # --- hooks ----------------------------------------------------------------------

    def check_setup(self, setup: Setup) -> Setup:
        if setup.teams is not None:
            raise RuleError("{game} is not played in teams.", "teams", game=self.name)
        return setup

    def initial_state(self, setup: Setup) -> Any:
        return None

    def apply(self, setup: Setup, state: Any, entry: Mapping[str, Any], number: int) -> tuple[Any, dict[str, int]]:
        raise NotImplementedError

    def verdict(self, setup: Setup, state: Any, totals: Mapping[str, int], rounds_played: int) -> Verdict:
        raise NotImplementedError

    def next_round(self, setup: Setup, state: Any, rounds_played: int) -> NextRound:
        return NextRound(rounds_played + 1, setup.players[rounds_played % len(setup.players)])

    def detail(self, setup: Setup, state: Any) -> Any:
        return {}

    def rank_key(self, setup: Setup, state: Any, totals: Mapping[str, int], side: str) -> Any:
        """Sort key for standings, first place smallest: the total, lowest or highest first."""
        return totals[side] if self.lowest_wins else -totals[side]

    # --- helpers for subclasses ------------------------------------------------------

    def _check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise RuleError("Players must be a list of names.", "players")
        names = []
        for p in players:
            if not isinstance(p, str) or not p.strip():
                raise RuleError("Every player needs a name.", "players")
            names.append(p.strip())
        seen = set()
        for n in names:
            if n in seen:
                raise RuleError("{player} is seated twice; every player needs a different name.", "players", player=n)
            seen.add(n)
        if not self.min_players <= len(names) <= self.max_players:
            if self.min_players == self.max_players:
                raise RuleError(
                    "{game} is for exactly {count} players, not {given}.",
                    "players", game=self.name, count=self.min_players, given=len(names),
                )
            raise RuleError(
                "{game} is for {low} to {high} players, not {given}.",
                "players", game=self.name, low=self.min_players, high=self.max_players, given=len(names),
            )
        return tuple(names)

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise RuleError("Options must be given as name: value pairs.", "options")
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                raise RuleError("{game} has no option called {option!r}.", name, game=self.name, option=name)
        return {o.name: o.check(options[o.name]) if o.name in options else o.default for o in self.options}

    def _check_teams(self, players: tuple[str, ...], teams: Mapping[str, Sequence[str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        if not isinstance(teams, Mapping) or not teams:
            raise RuleError("Teams must map each team name to its players.", "teams")
        placed: dict[str, str] = {}
        result = []
        for name, members in teams.items():
            if not isinstance(name, str) or not name.strip():
                raise RuleError("Every team needs a name.", "teams")
            if isinstance(members, str) or not isinstance(members, Sequence) or not members:
                raise RuleError("Team {team} needs a list of players.", "teams", team=name)
            for m in members:
                if m not in players:
                    raise RuleError("{player} is in team {team} but not at the table.", "teams", player=m, team=name)
                if m in placed:
                    raise RuleError("{player} cannot play in both {team} and {other}.", "teams", player=m, team=placed[m], other=name)
                placed[m] = name
            result.append((name.strip(), tuple(members)))
        missing = [p for p in players if p not in placed]
        if missing:
            raise RuleError("{players} is in no team.", "teams", players=", ".join(missing))
        if len({n for n, _members in result}) != len(result):
            raise RuleError("Two teams have the same name.", "teams")
        if set(n for n, _members in result) & set(players):
            raise RuleError("A team cannot have the same name as a player.", "teams")
        return tuple(result)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _freeze_entry(value: Any) -> Any:
    """A private copy of a JSON-compatible entry, so callers cannot change history.

    Tuples become lists and other mappings plain dicts, as they would after a trip
    through JSON; anything JSON cannot hold is refused. Exact type checks come first
    because this runs on every round of every replay.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or isinstance(value, abc.Mapping):
        copied = {}
        for key, item in value.items():
            if type(key) is not str:
                raise RuleError("Names in a round entry must be text, not {key!r}.", key=key)
            copied[key] = item if type(item) in _SCALARS else _freeze_entry(item)
        return copied
    if kind is list or kind is tuple:
        return [item if type(item) in _SCALARS else _freeze_entry(item) for item in value]
    raise RuleError("A round entry must be made of plain numbers, text, lists and name: value pairs.")


class Game:
    """An immutable game: setup plus raw round entries, with everything derived from them."""

    __slots__ = ("ruleset", "setup", "_rounds", "_state", "_round_scores", "_totals", "_verdict")

    def __init__(self, ruleset: Ruleset, setup: Setup, rounds: tuple[Any, ...], state: Any, round_scores: tuple[Mapping[str, int], ...]):
        self.ruleset = ruleset
        self.setup = setup
        self._rounds = rounds
        self._state = state
        self._round_scores = round_scores
        totals = {side: 0 for side in setup.sides}
        for scores in round_scores:
            for side, pts in scores.items():
                totals[side] += pts
        self._totals = totals
        self._verdict = ruleset.verdict(setup, state, totals, len(rounds))

    # --- changes (each returns a new Game) --------------------------------------------

    def add_round(self, entry: Mapping[str, Any]) -> Game:
        if self.over:
            raise RuleError("The game is over; no more rounds can be added.")
        return self._extend(self, [entry])

    def replace_round(self, index: int, entry: Mapping[str, Any]) -> Game:
        if not isinstance(index, int) or not 0 <= index < len(self._rounds):
            raise RuleError("There is no round {number} to change.", number=index + 1 if isinstance(index, int) else index)
        rounds = list(self._rounds)
        rounds[index] = entry
        return self.replay(self.ruleset, self.setup, rounds)

    def undo(self) -> Game:
        if not self._rounds:
            raise RuleError("There is no round to undo.")
        return self.replay(self.ruleset, self.setup, self._rounds[:-1])

    @classmethod
    def replay(cls, ruleset: Ruleset, setup: Setup, rounds: Iterable[Mapping[str, Any]]) -> Game:
        """Rebuild a game from its setup and raw entries, validating every round."""
        start = Game(ruleset, setup, (), ruleset.initial_state(setup), ())
        return cls._extend(start, list(rounds))

    @staticmethod
    def _extend(game: Game, entries: list[Any]) -> Game:
        ruleset, setup = game.ruleset, game.setup
        rounds = list(game._rounds)
        scores = list(game._round_scores)
        state = game._state
        totals = dict(game._totals)
        for entry in entries:
            number = len(rounds) + 1
            if rounds and ruleset.verdict(setup, state, totals, len(rounds)).over:
                raise RuleError("The game was already over after round {last}; round {number} cannot follow.", last=len(rounds), number=number)
            if not isinstance(entry, abc.Mapping):
                raise RuleError("Round {number} must be given as name: value pairs.", number=number)
            entry = _freeze_entry(entry)
            try:
                state, round_scores = ruleset.apply(setup, state, entry, number)
            except RuleError as err:
                if len(entries) > 1 or rounds != list(game._rounds):
                    raise err.in_round(number) from None
                raise
            rounds.append(entry)
            scores.append(MappingProxyType(dict(round_scores)))
            for side, pts in round_scores.items():
                totals[side] += pts
        return Game(ruleset, setup, tuple(rounds), state, tuple(scores))

    # --- read-outs --------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def sides(self) -> tuple[str, ...]:
        return self.setup.sides

    @property
    def options(self) -> Mapping[str, Any]:
        return self.setup.options

    @property
    def teams(self) -> dict[str, tuple[str, ...]] | None:
        return dict(self.setup.teams) if self.setup.teams is not None else None

    @property
    def rounds(self) -> list[Any]:
        return copy.deepcopy(list(self._rounds))

    @property
    def rounds_played(self) -> int:
        """How many rounds were played (``rounds`` without copying them)."""
        return len(self._rounds)

    @property
    def round_scores(self) -> list[dict[str, int]]:
        return [dict(s) for s in self._round_scores]

    @property
    def totals(self) -> dict[str, int]:
        return dict(self._totals)

    @property
    def standings(self) -> list[str]:
        """Sides from first to last place; ties keep seating order."""
        rank_key = self.ruleset.rank_key
        order = {side: i for i, side in enumerate(self.sides)}
        return sorted(self.sides, key=lambda s: (rank_key(self.setup, self._state, self._totals, s), order[s]))

    @property
    def over(self) -> bool:
        return self._verdict.over

    @property
    def winners(self) -> list[str]:
        return list(self._verdict.winners) if self._verdict.over else []

    @property
    def next_round(self) -> NextRound:
        return self.ruleset.next_round(self.setup, self._state, len(self._rounds))

    @property
    def detail(self) -> Any:
        return self.ruleset.detail(self.setup, self._state)

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.id} {list(self.sides)} rounds={len(self._rounds)} over={self.over}>"
