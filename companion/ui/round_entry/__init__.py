"""Round entry: one fast form per game, for a scorekeeper with one free hand.

``entry_form(game, on_save, on_cancel=None, index=None)`` returns the form for
``game.ruleset.id``. ``index=None`` enters the next round; an int edits that past round,
prefilled from ``game.rounds[index]``. Save stays disabled until the rules accept the
entry; pressing it calls ``on_save(entry)`` with the raw JSON-compatible entry (the caller
stores it). Cancel (shown only with ``on_cancel``) calls ``on_cancel()``.

The returned control expands to fill its parent: the inputs scroll, while the keypads,
status line and buttons stay at the bottom within thumb reach. Give it a parent with a
bounded height (a View, or a page that does not scroll).

Each game's form is ``round_entry/<ruleset id>.py``: ``STATE``, its plain-Python state
(tested without a browser), beside ``view(state, on_save, on_cancel)``, which returns the
form built (``widgets.EntryForm``); its docstring lists the form's own identifiers.
``RoundForm`` is a form as a page keeps it: it can show a later round in the same controls.

Identifiers for browser tests (``[flt-semantics-identifier='...']``) in every form:
``entry-save`` Save button (disabled until valid; the inner node then carries
``aria-disabled="true"``; click the tagged node itself), ``entry-cancel`` Cancel,
``entry-status`` status line (what is still missing, or a message that concerns the
whole entry), ``entry-preview`` the round's scores and notes once valid (its lines
``entry-preview-<side>`` and ``entry-preview-note-<0..>``; a form may pin it above the
keypad while a number is typed).
Forms that take numbers have a keypad for the selected input: ``entry-key-<0..9>``,
``entry-key-back`` (clear a digit), ``entry-key-next`` (next input). A number is done
by itself once no further digit fits (e.g. "8", "2" for 82 card points). A form shows
its keypad either always or only while a number is selected.
"""

from __future__ import annotations

from typing import Callable

import flet as ft

from companion.rules import game_module
from companion.rules.base import Game
from companion.ui.round_entry.state import EntryState
from companion.ui.synced import SyncedControls
from companion.ui.widgets import Stowed

__all__ = ["RoundForm", "entry_form", "entry_state"]


def entry_state(game: Game, index: int | None = None) -> EntryState:
    """The plain-Python state behind the form for ``game`` (new round, or round ``index``)."""
    state: EntryState = game_module(__name__, game.ruleset.id).STATE(game, index)
    return state


def entry_form(
    game: Game,
    on_save: Callable[[dict], None],
    on_cancel: Callable[[], None] | None = None,
    index: int | None = None,
    state: EntryState | None = None,
) -> ft.Control:
    """The round-entry form for ``game``; see the module docstring. ``state`` shows a kept
    draft (companion.ui.round_entry.drafts) instead of a fresh form."""
    return RoundForm(state if state is not None else entry_state(game, index), on_save, on_cancel).control


class RoundForm:
    """A round's form on a page, which can show a later round in the same controls
    (``show``): Flet configures and sends every control that comes onto a page, a form's
    hundreds of them at every Enter round, where the next round changes a few values."""

    def __init__(
        self,
        state: EntryState,
        on_save: Callable[[dict], None],
        on_cancel: Callable[[], None] | None = None,
        on_change: Callable[[], None] | None = None,
    ):
        self.state = state
        """The state the form's controls read, and from ``show`` on, the round it shows."""
        self._form: SyncedControls = game_module(__name__, state.game.ruleset.id).view(state, on_save, on_cancel)
        if self._form.root is None:
            raise TypeError("a round's form view returns its form built")
        self._form.on_change = on_change
        """Told after every tap on the form (the draft kept on the device)."""
        self.control = Stowed(content=self._form.root, expand=True)
        """The form, which can stay on its page hidden (``control.visible``)."""

    def show(self, state: EntryState) -> bool:
        """Fill the form in for ``state`` (another round, or a draft carried over), if it is
        built for it (``EntryState.layout``): ``state`` is then this form's state, taken over,
        and the page's next update sends what changed. False: it needs a form of its own."""
        if state.layout() != self.state.layout():
            return False
        self.state.take_over(state)
        self._form.refresh()
        return True
