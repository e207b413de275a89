"""Round entry: one fast form per game, for a scorekeeper with one free hand.

``entry_form(game, on_save, on_cancel=None, index=None)`` returns the form for
``game.ruleset.id``. ``index=None`` enters the next round; an int edits that past round,
prefilled from ``game.rounds[index]``. Save stays disabled until the rules accept the
entry; pressing it calls ``on_save(entry)`` with the raw JSON-compatible entry (the caller
stores it). Cancel (shown only with ``on_cancel``) calls ``on_cancel()``.

The returned control expands to fill its parent: the inputs scroll, while the keypads,
status line and buttons stay at the bottom within thumb reach. Give it a parent with a
bounded height (a View, or a page that does not scroll).

Each game's plain-Python state (tested without a browser) sits beside its view:
``BeverbendeEntry``, ``ClubsEntry``, ``KlaverjassenEntry``, ``MembersOnlyEntry``.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):

Every form
    ``entry-save`` Save button (disabled until valid; the inner node then carries
    ``aria-disabled="true"``; click the tagged node itself), ``entry-cancel`` Cancel,
    ``entry-status`` status line (what is still missing, or a message that concerns the
    whole entry), ``entry-preview`` the round's scores and notes once valid.
    Forms that take numbers have a keypad for the selected input: ``entry-key-<0..9>``,
    ``entry-key-back`` (clear a digit), ``entry-key-next`` (next input). A number is done
    by itself once no further digit fits (e.g. "8", "2" for 82 card points). Beverbende
    always shows the keypad; the other forms show it only while a number is selected.

Beverbende
    ``bever-card-<player>-<0..3>`` a card slot, ``bever-total-<player>`` the player's total
    (tap it, then type the total on the keypad), ``bever-error-<player>`` the row's
    message, ``bever-last`` "last round" switch (only when playing against the clock).
    Four keypad taps per player: the first empty card is selected, each digit moves on.

CLUBS
    ``clubs-out-<player>`` tap in going-out order (tap again to take back; its caption
    shows the place and bonus card), ``clubs-points-<player>`` club points (tap, then the
    keypad), ``clubs-points-<player>-minus`` / ``-plus`` the stepper, ``clubs-double-<player>``
    Double Cards toggle (only when the option is on), ``clubs-error-<player>`` and
    ``clubs-error-out`` messages.

Klaverjassen (``<team>`` is the team's name, e.g. "Ann & Cy")
    ``klaver-points-<team>`` card points (the playing team's is selected at the start;
    the other team's fills in as 162 minus), ``klaver-roem-<team>-<20|50|100|200|stuk>``
    add a meld (+200 only when four jacks are worth 200), ``klaver-roem-<team>-undo`` take
    the last one back, ``klaver-pit-<team>`` and ``klaver-verzaakt-<team>`` toggles,
    ``klaver-playing-<team>`` who played this deal (preset from the deal),
    ``klaver-error-<team>`` the team's message, ``klaver-marks-<team>`` "NAT" / "PIT" as
    soon as the entry makes it so.

MEMBERS ONLY (``<symbol>`` and ``<field>`` as in the entry: ``crown``, ``<=3``, ``>=5``)
    ``mo-player-<player>`` whose stone (the starter is picked first; after each stone the
    next player in turn is picked), ``mo-stone-single`` / ``mo-stone-double`` which stone,
    ``mo-risk`` the risk stone (only on a player's first stone), ``mo-cell-<symbol>-<field>``
    a board field (tap to place, tap again to take back), ``mo-count-<symbol>`` the count
    (tap, then the keypad), ``mo-count-mode`` switch to ``mo-shown-<symbol>`` and
    ``mo-minus-<symbol>``, ``mo-error-bets`` and ``mo-error-counts`` messages.
"""

from __future__ import annotations

from typing import Callable

from companion.ui.round_entry.state import EntryState

import flet as ft

from companion.rules.base import Game
from companion.ui.round_entry import beverbende, clubs, klaverjassen, members_only

# Each game's form state and the view that draws it (a view takes its own game's state).
_FORMS: dict[str, tuple[type[EntryState], Callable[..., ft.Control]]] = {
    "beverbende": (beverbende.BeverbendeEntry, beverbende.view),
    "clubs": (clubs.ClubsEntry, clubs.view),
    "klaverjassen": (klaverjassen.KlaverjassenEntry, klaverjassen.view),
    "members_only": (members_only.MembersOnlyEntry, members_only.view),
}

BeverbendeEntry = beverbende.BeverbendeEntry
ClubsEntry = clubs.ClubsEntry
KlaverjassenEntry = klaverjassen.KlaverjassenEntry
MembersOnlyEntry = members_only.MembersOnlyEntry

__all__ = ["entry_form", "entry_state", "BeverbendeEntry", "ClubsEntry", "KlaverjassenEntry", "MembersOnlyEntry"]


def entry_state(game: Game, index: int | None = None):
    """The plain-Python state behind the form for ``game`` (new round, or round ``index``)."""
    state_class, _view = _FORMS[game.ruleset.id]
    return state_class(game, index)


def entry_form(
    game: Game,
    on_save: Callable[[dict], None],
    on_cancel: Callable[[], None] | None = None,
    index: int | None = None,
) -> ft.Control:
    """The round-entry form for ``game``; see the module docstring."""
    _state_class, view = _FORMS[game.ruleset.id]
    return view(entry_state(game, index), on_save, on_cancel)
