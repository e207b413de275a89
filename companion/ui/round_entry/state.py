"""What every round-entry form shares: checking the entry against the rules.

A form's state never judges an entry itself. It builds the raw entry from what the
player tapped and asks the game (``add_round`` for a new round, ``replace_round`` when
editing a past one); the ruleset's ``RuleError`` becomes the inline message, placed
next to the input its ``field`` names. Inputs the player has not filled in yet are not
errors: they are listed in ``missing`` and keep Save disabled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.i18n import _, language
from companion.rules.base import Game, RuleError
from companion.ui.format import join_names


@dataclass(frozen=True)
class Preview:
    """What saving would do: this round's points per side and the totals afterwards.

    ``notes`` are short lines in the player's words (bonus cards, "nat", payouts...), the
    last one ``ending`` when the round would end the game. When a past round is edited,
    ``totals`` are the game's totals after every round.
    """

    scores: dict[str, int]
    totals: dict[str, int]
    notes: tuple[str, ...] = ()
    ending: str | None = None


def type_digit(current: int | None, digit: int, fresh: bool, maximum: int) -> tuple[int, bool]:
    """A number typed on a keypad, one digit at a time.

    The digit is appended to ``current`` unless ``fresh`` (a newly selected input starts
    over). Returns the new value and whether it is finished: no further digit can follow
    it without passing ``maximum`` (so "8" then "2" is 82 and done when 162 is the most,
    and the cursor can move on by itself).
    """
    value = digit if fresh or current is None else current * 10 + digit
    return value, value == 0 or value * 10 > maximum


def erase_digit(value: int | None) -> int | None:
    """Backspace on a typed number: drop its last digit (a single digit leaves it blank)."""
    return None if value is None or value < 10 else value // 10


class Keypad:
    """Typing on the form's keypad into the selected number input, the same in every form.

    ``cursor`` is the selected input (None while the keypad has nothing to type into). A
    form says which number a cursor is on (``typed``), how to store one (``store_typed``;
    None is a number erased), how large it may get (``most_typed``), each handed the cursor
    (never None), and where ``next()`` goes; ``select_input`` puts the cursor on an input, to type it afresh.
    """

    cursor: Any = None
    _typing = False  # True once a digit went into the selected input

    def typed(self, cursor: Any) -> int | None:
        raise NotImplementedError

    def store_typed(self, cursor: Any, value: int | None) -> None:
        raise NotImplementedError

    def most_typed(self, cursor: Any) -> int:
        raise NotImplementedError

    def next(self) -> None:
        raise NotImplementedError

    def select_input(self, cursor: Any) -> None:
        self.cursor = cursor
        self._typing = False

    def press(self, digit: int) -> None:
        """A digit: the selected number's next digit; on to the next input once no digit can follow."""
        cursor = self.cursor
        if cursor is None:
            return
        value, done = type_digit(self.typed(cursor), digit, not self._typing, self.most_typed(cursor))
        self.store_typed(cursor, value)
        self._typing = True
        if done:
            self.next()

    def backspace(self) -> None:
        """The selected number's last digit erased."""
        cursor = self.cursor
        if cursor is None:
            return
        erased = erase_digit(self.typed(cursor))
        self.store_typed(cursor, erased)
        self._typing = erased is not None


class EntryState:
    """Base of the four per-game form states.

    Subclasses keep the inputs, offer intent methods (tap, step, toggle) and implement
    ``entry()``, ``missing`` and ``fields``; they may add ``_notes`` (game-specific
    preview lines). Forms with a keypad are also a ``Keypad``.
    """

    def __init__(self, game: Game, index: int | None = None):
        if index is not None and not 0 <= index < len(game.rounds):
            raise IndexError(f"round {index} does not exist")
        self.game = game
        self.index = index
        # The game as it stood before this round: what the form offers depends on it
        # (stones left, players still in, the team that plays this deal).
        self.before, self.original = game, None
        if index is not None:
            rounds = game.rounds  # a copy of every round: only a past round's form needs them
            self.before, self.original = Game.replay(game.ruleset, game.setup, rounds[:index]), rounds[index]
        self._checked_key: str | None = None
        self._outcome: Game | RuleError | None = None
        self._previewed: tuple[Game, str, Preview] | None = None
        """The last preview, of that outcome in that language (``preview``)."""

    # --- to implement -----------------------------------------------------------------

    def entry(self) -> dict:
        """The raw JSON-compatible entry built from the inputs (blank inputs left out)."""
        raise NotImplementedError

    @property
    def missing(self) -> list[str]:
        """Fields the player still has to fill in, in screen order."""
        raise NotImplementedError

    @property
    def fields(self) -> list[str]:
        """Every field the form shows an inline message beside, in screen order."""
        raise NotImplementedError

    def _notes(self, result: Game) -> list[str]:
        """Game-specific preview lines for the round as ``result`` scored it."""
        return []

    def _prefill(self, entry: dict) -> None:
        """Fill the inputs in from a raw entry (a past round, or a draft carried over)."""
        raise NotImplementedError

    # --- a form kept for the next round ------------------------------------------------

    def layout(self) -> tuple:
        """What a form's controls are built for (its rows, buttons and labels): a form built
        on one state shows any state of the same layout, its syncs filling it in
        (``take_over``). A form reads everything else through its syncs."""
        return (type(self), self.index)

    def take_over(self, other: EntryState) -> None:
        """Become ``other``, a state of this one's layout (the next round, a draft carried
        over): a form built on this state then shows ``other``'s round, where building the
        form again cost a round's Enter tap up to 470,000 Python calls on the server."""
        if other is self:
            return
        if other.layout() != self.layout():
            raise ValueError("a form's state takes over only a state of its layout")
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    # --- a draft kept across leaving the form -------------------------------------------

    def everything_typed(self) -> dict:
        """The inputs as ``_prefill`` reads them back, half-typed ones too (``entry`` may
        leave out what the rules cannot take yet)."""
        return self.entry()

    @property
    def has_input(self) -> bool:
        """Whether the player entered anything a fresh form would not show (worth asking
        before it is thrown away)."""
        return self.everything_typed() != type(self)(self.game, self.index).everything_typed()

    def carried_to(self, game: Game) -> EntryState:
        """The same entry as a form on ``game``, which changed meanwhile (another device
        saved or changed a round): the next round of ``game``, or the same past round."""
        carried = type(self)(game, self.index)
        carried.fill_in(self.everything_typed(), self.cursor if isinstance(self, Keypad) else None)
        return carried

    def fill_in(self, typed: dict, cursor: Any = None) -> None:
        """Put ``typed`` (another state's ``everything_typed``) in this form's inputs, and the
        keypad back on ``cursor``, the input it was typing in, if this form still has it."""
        self._prefill(typed)
        if isinstance(self, Keypad) and cursor is not None:
            self.select_input(cursor)  # typing goes on where it was
            try:
                self.typed(cursor)
            except KeyError:  # that input is gone (a player out since)
                self.select_input(None)

    # --- shared read-outs -------------------------------------------------------------

    @property
    def round_number(self) -> int:
        return (self.index if self.index is not None else len(self.game.rounds)) + 1

    @property
    def error(self) -> RuleError | None:
        """The rules' objection to the entry, or None (also None while inputs are missing)."""
        outcome = self._check()
        return outcome if isinstance(outcome, RuleError) else None

    @property
    def errors(self) -> dict[str | None, str]:
        """Messages to show, by the field they belong beside (None: the form as a whole)."""
        err = self.error
        return {} if err is None else {self.field_of(err.field): err.message}

    def error_at(self, field: str | None) -> str | None:
        """The message to show beside ``field`` (None: the form-wide message slot)."""
        return self.errors.get(field)

    def field_of(self, rule_field: str | None) -> str | None:
        """The shown field a rules field belongs to: itself, its nearest shown parent
        ("cards.Ann.2" -> "cards.Ann"), or None for the form-wide slot."""
        if rule_field is None:
            return None
        shown = set(self.fields)
        parts = rule_field.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in shown:
                return candidate
            parts.pop()
        return None

    @property
    def valid(self) -> bool:
        return isinstance(self._check(), Game)

    @property
    def result(self) -> Game | None:
        """The game as it would be after saving, or None while the entry is not valid."""
        outcome = self._check()
        return outcome if isinstance(outcome, Game) else None

    def preview(self) -> Preview | None:
        """What saving would do, None while the entry is not valid. Worked out once for each
        entry (and language): a form's preview and its pinned line of scores both show it."""
        result = self.result
        if result is None:
            return None
        spoken = language()
        if self._previewed is not None and self._previewed[0] is result and self._previewed[1] == spoken:
            return self._previewed[2]
        at = self.index if self.index is not None else result.rounds_played - 1
        notes = self._notes(result)
        ending = self._end_note(result.winners, teams=result.teams is not None) if result.over and not self.game.over else None
        if ending is not None:
            notes.append(ending)
        preview = Preview(result.round_scores[at], result.totals, tuple(notes), ending)
        self._previewed = (result, spoken, preview)
        return preview

    @staticmethod
    def _end_note(winners: list[str], teams: bool) -> str:
        if len(winners) == 1:
            note = _("This round ends the game: {team} win.") if teams else _("This round ends the game: {winner} wins.")
            return note.format(team=winners[0], winner=winners[0])
        return _("This round ends the game: {winners} share the win.").format(winners=join_names(winners))

    def detail_after(self, result: Game):
        """The ruleset's ``detail`` right after this round (later rounds of an edit left out)."""
        if self.index is None or self.index == result.rounds_played - 1:
            return result.detail
        return Game.replay(result.ruleset, result.setup, result.rounds[: self.index + 1]).detail

    @property
    def status(self) -> str:
        """One line for beside the Save button: what is still needed, or that it is ready."""
        if self.error is not None:
            return _("Fix the marked entry to save.")
        if self.missing:
            return _("Still to enter: {what}").format(what=", ".join(self.describe(f) for f in self.missing))
        return _("Ready to save.")

    def describe(self, field: str) -> str:
        """A short name for a field in the status line; the last part by default (a name)."""
        return field.rsplit(".", 1)[-1]

    # --- checking ---------------------------------------------------------------------

    def _check(self) -> Game | RuleError | None:
        if self.missing:
            return None
        entry = self.entry()
        key = json.dumps(entry, sort_keys=True)
        if key != self._checked_key:
            try:
                if self.index is None:
                    self._outcome = self.game.add_round(entry)
                else:
                    self._outcome = self.game.replace_round(self.index, entry)
            except RuleError as err:
                self._outcome = err
            self._checked_key = key
        return self._outcome
