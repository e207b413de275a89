"""Rounds being entered, kept until they are saved or discarded on purpose.

A player who leaves the form (the back arrow, the browser's Back, a look at the rules)
finds what they entered when they come back: each session keeps one draft per game and
round. A round can so be entered bit by bit while it is played (each stone as it is
placed) and saved at its end. When the game changed meanwhile (another device at the table saved the
round, or changed one), the draft is carried over to the game as it is now, with a
notice that says what happened, so it can be saved as the next round or discarded.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _
from companion.rules.base import Game
from companion.ui.round_entry import entry_state
from companion.ui.round_entry.state import EntryState


@dataclass
class Draft:
    """A form's state, and what to tell the player about it (None: nothing happened)."""

    state: EntryState
    notice: str | None = None


class Drafts:
    """The drafts of one session, by game id and round (None: the next round)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, int | None], Draft] = {}

    def open(self, game_id: int, game: Game, index: int | None = None) -> Draft:
        """The draft for round ``index`` of ``game`` as the store has it now: the kept one
        (carried over if the game changed since), or a fresh form."""
        key = (game_id, index)
        draft = self._kept.get(key)
        if draft is None:
            draft = self._kept[key] = Draft(entry_state(game, index))
        elif draft.state.game.rounds != game.rounds:
            before = draft.state
            draft.state = before.carried_to(game)
            if before.has_input:
                draft.notice = _changed_notice(before, draft.state)
        return draft

    def kept(self, game_id: int, index: int | None = None) -> Draft | None:
        """The draft as it was left, if any (not carried over to a newer game)."""
        return self._kept.get((game_id, index))

    def pending(self, game_id: int) -> bool:
        """Whether a next round of the game is half entered (something typed, not saved)."""
        draft = self.kept(game_id)
        return draft is not None and draft.state.has_input

    def ended(self, game_id: int, game: Game) -> str | None:
        """The game took its last round on another device while its next round was being
        entered here: that draft is forgotten, and this says so (None when nothing was typed)."""
        draft = self._kept.get((game_id, None))
        if draft is None or not game.over:
            return None
        self.discard(game_id)
        if not draft.state.has_input:
            return None
        return _(
            "Round {taken} was saved on another device and ended the game. What you entered for it is discarded."
        ).format(taken=draft.state.round_number)

    def discard(self, game_id: int, index: int | None = None) -> None:
        """Forget the draft: it was saved, or the player threw it away."""
        self._kept.pop((game_id, index), None)


def _changed_notice(before: EntryState, now: EntryState) -> str:
    if now.index is None and now.round_number > before.round_number:
        return _(
            "Round {taken} was saved on another device meanwhile. What you entered is kept: "
            "save it as round {next}, or discard it."
        ).format(taken=before.round_number, next=now.round_number)
    return _("This game was changed on another device meanwhile. What you entered is kept: check it, then save or discard it.")
