"""Rounds being entered, kept until they are saved or discarded on purpose.

A player who leaves the form (the back arrow, the browser's Back, a look at the rules)
finds what they entered when they come back: each session keeps one draft per game and
round. A round can so be entered bit by bit while it is played (each stone as it is
placed) and saved at its end. When the game changed meanwhile (another device at the table saved the
round, or changed one), the draft is carried over to the game as it is now, with a
notice that says what happened, so it can be saved as the next round or discarded.

The device keeps them too (``keep``: the app writes them to the browser's or the phone's own
storage at every change), so that they outlast the session: a phone that closed the app
in the middle of a hand, or a server restarted meanwhile, finds them again (``restore``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from companion.i18n import _
from companion.rules.base import Game
from companion.ui.round_entry import entry_state
from companion.ui.round_entry.state import EntryState, Keypad

Key = tuple[int, "int | None"]
"""A draft's game id and round (None: the next round)."""


@dataclass
class Draft:
    """A form's state, and what to tell the player about it (None: nothing happened);
    ``game_uuid`` tells the device which game it is (its ids are the database's)."""

    state: EntryState
    notice: str | None = None
    game_uuid: str | None = None


class Drafts:
    """The drafts of one session, by game id and round (None: the next round).

    ``keep`` is handed the drafts with something entered, as text, whenever they change;
    ``restore`` takes that text back."""

    def __init__(self, keep: Callable[[str], None] | None = None) -> None:
        self._kept: dict[Key, Draft] = {}
        self._stored: dict[Key, dict[str, Any]] = {}
        """Drafts the device kept from an earlier session, until their form opens."""
        self._keep = keep
        self._told: str | None = None
        """What the device has (``keep`` handed it, or ``restore`` read it); None until
        ``restore``: what the device kept is not written over before it was read."""

    def open(self, game_id: int, game: Game, index: int | None = None, game_uuid: str | None = None) -> Draft:
        """The draft for round ``index`` of ``game`` as the store has it now: the kept one
        (carried over if the game changed since), the device's from an earlier session (the
        game's ``game_uuid`` tells it apart), or a fresh form."""
        key = (game_id, index)
        draft = self._kept.get(key)
        if draft is None:
            stored = self._stored.pop(key, None)
            draft = self._kept[key] = self._from_device(key, stored, game, game_uuid) or Draft(entry_state(game, index), game_uuid=game_uuid)
        elif draft.state.game.rounds != game.rounds:
            before = draft.state
            draft.state = before.carried_to(game)
            if before.has_input:
                draft.notice = _changed_notice(before.round_number, draft.state)
        self.changed()
        return draft

    def restore(self, told: str | None) -> set[int]:
        """Take back what ``keep`` was handed in an earlier session (None: nothing); the ids
        of the games it has drafts of, to be shown again. A form opened meanwhile with
        nothing typed in it yet (a page reloaded on the form) is filled in; a draft of this
        session with something in it stays as it is. What cannot be read is left out: a
        draft is a courtesy, never a reason to refuse a form."""
        self._told = told or "[]"
        try:
            records = json.loads(told) if told else []
        except ValueError:
            records = []
        filled: set[int] = set()
        for record in records if isinstance(records, list) else []:
            try:
                key = (int(record["game"]), None if record["round"] is None else int(record["round"]))
            except (KeyError, TypeError, ValueError):
                continue
            if not isinstance(record.get("typed"), dict):
                continue
            record = {**record, "game": key[0], "round": key[1]}
            opened = self._kept.get(key)
            if opened is None:
                self._stored[key] = record
            elif not opened.state.has_input:
                restored = self._from_device(key, record, opened.state.game, opened.game_uuid)
                if restored is not None:
                    opened.state.take_over(restored.state)
                    opened.notice = restored.notice
                    filled.add(key[0])
        self.changed()  # a draft typed in before the device answered
        return {game_id for game_id, _round in self._stored} | filled

    def changed(self) -> None:
        """Hand the drafts with something entered to ``keep``, if they differ from what it
        was handed last (a form's every tap calls this)."""
        if self._keep is None or self._told is None:
            return
        kept, stored = list(self._kept.items()), list(self._stored.items())  # a tap's thread and the restore may both be here
        records = [self._record(key, draft) for key, draft in kept if draft.game_uuid and draft.state.has_input]
        records += [record for key, record in stored if key not in self._kept]
        told = json.dumps(sorted(records, key=lambda r: (r["game"], r["round"] is not None, r["round"] or 0)), separators=(",", ":"))
        if told != self._told:
            self._told = told
            self._keep(told)

    @staticmethod
    def _record(key: Key, draft: Draft) -> dict[str, Any]:
        state = draft.state
        cursor = state.cursor if isinstance(state, Keypad) else None
        return {
            "game": key[0], "round": key[1], "uuid": draft.game_uuid, "rounds": state.game.rounds_played,
            "typed": state.everything_typed(), "cursor": list(cursor) if isinstance(cursor, tuple) else cursor,
        }

    @staticmethod
    def _from_device(key: Key, record: dict[str, Any] | None, game: Game, game_uuid: str | None) -> Draft | None:
        """The device's draft ``record`` of ``key``, on ``game`` as it is now (carried over,
        with a notice, if the game changed since), if it is of this game and can be read."""
        if record is None or game_uuid is None or record.get("uuid") != game_uuid:
            return None
        cursor = record.get("cursor")
        try:
            rounds = int(record["rounds"])
            state = entry_state(game, key[1])
            state.fill_in(record["typed"], tuple(cursor) if isinstance(cursor, list) else cursor)
        except Exception:  # written by another version, or changed by hand: a fresh form
            return None
        draft = Draft(state, game_uuid=game_uuid)
        if rounds != game.rounds_played and state.has_input:
            draft.notice = _changed_notice(rounds + 1 if key[1] is None else state.round_number, state)
        return draft

    def kept(self, game_id: int, index: int | None = None) -> Draft | None:
        """The draft as it was left, if any (not carried over to a newer game)."""
        return self._kept.get((game_id, index))

    def pending(self, game_id: int, game_uuid: str | None = None) -> bool:
        """Whether a next round of the game is half entered (something typed, not saved),
        in this session or, for the game of ``game_uuid``, in the device's earlier one."""
        draft = self.kept(game_id)
        if draft is not None:
            return draft.state.has_input
        return self._stored_of(game_id, game_uuid) is not None

    def ended(self, game_id: int, game: Game, game_uuid: str | None = None) -> str | None:
        """The game took its last round on another device while its next round was being
        entered here: that draft is forgotten, and this says so (None when nothing was typed)."""
        if not game.over:
            return None
        draft, stored = self._kept.get((game_id, None)), self._stored_of(game_id, game_uuid)
        if draft is None and stored is None:
            return None
        self.discard(game_id)
        if draft is not None:
            if not draft.state.has_input:
                return None
            taken = draft.state.round_number
        else:
            taken = game.rounds_played  # the device's draft was of a round before the game's last, or of it
        return _(
            "Round {taken} was saved on another device and ended the game. What you entered for it is discarded."
        ).format(taken=taken)

    def discard(self, game_id: int, index: int | None = None) -> None:
        """Forget the draft: it was saved, or the player threw it away."""
        self._kept.pop((game_id, index), None)
        self._stored.pop((game_id, index), None)
        self.changed()

    def _stored_of(self, game_id: int, game_uuid: str | None) -> dict[str, Any] | None:
        """The device's draft of the game's next round, if it is of the game of ``game_uuid``."""
        record = self._stored.get((game_id, None))
        return record if record is not None and game_uuid is not None and record.get("uuid") == game_uuid else None


def _changed_notice(taken: int, now: EntryState) -> str:
    """What happened to a draft of round ``taken`` that is now ``now``."""
    if now.index is None and now.round_number > taken:
        return _(
            "Round {taken} was saved on another device meanwhile. What you entered is kept: "
            "save it as round {next}, or discard it."
        ).format(taken=taken, next=now.round_number)
    return _("This game was changed on another device meanwhile. What you entered is kept: check it, then save or discard it.")
