"""Referee screens: settle a dispute at the table in seconds, one screen per game.

``referee_view(ruleset_id, options=None)`` returns the referee for that game; the app
shell puts it in a screen of its own. Opened from a game, pass ``game.options``: CLUBS then
starts with that game's 15s-wild and Crazy CLUBS switches, Klaverjassen counts roem with
its four-jacks, four-of-a-kind and runs-by-colour options. Each game's plain-Python state (tested without a browser) sits
beside its view, and every decision comes from the rules engine:

- CLUBS ``ClubsReferee``: "Can I play this?" (``judge_play``).
- Klaverjassen ``KlaverjassenReferee``: what may I play under Amsterdam and Rotterdam,
  who wins the trick, its points and roem.
- MEMBERS ONLY ``MembersOnlyReferee``: what a bet pays, or that its stone is lost.
- Beverbende ``BeverbendeReferee``: may I knock yet, and what replaces special cards.

Identifiers for browser tests (``[flt-semantics-identifier='...']``), per game:

CLUBS
    ``referee-clubs-wild`` and ``referee-clubs-crazy`` switches;
    ``referee-clubs-pile-table`` / ``referee-clubs-pile-play`` choose where taps go;
    ``referee-clubs-card-<1..15>`` card keys; ``referee-clubs-table-<i>`` and
    ``referee-clubs-play-<i>`` the cards placed (tap the cross to take one back);
    ``referee-clubs-verdict`` the ruling; ``referee-clubs-clear`` start over.
Klaverjassen
    ``referee-klaver-trump-<S|H|D|C>``; ``referee-klaver-pile-trick`` /
    ``referee-klaver-pile-hand``; ``referee-klaver-card-<card>`` (e.g. ``10H``: tap to
    place, tap again to take back); ``referee-klaver-trick`` and ``referee-klaver-hand``
    the cards placed; ``referee-klaver-standing`` winner and points;
    ``referee-klaver-amsterdam`` / ``referee-klaver-rotterdam`` the cards you may play
    and why; ``referee-klaver-clear``.
MEMBERS ONLY
    ``referee-members-field-<field>`` (e.g. ``<=3``), ``referee-members-stone-<single|double>``,
    ``referee-members-risk``, steppers ``referee-members-shown`` and ``referee-members-minus``
    (with ``-minus`` / ``-plus``), ``referee-members-verdict``.
Beverbende
    ``referee-bever-players`` stepper, ``referee-bever-turns-<seat>`` steppers,
    ``referee-bever-knocker-<seat index>``, ``referee-bever-knock`` the answer;
    ``referee-bever-slot-<0..3>``, ``referee-bever-pile``, ``referee-bever-card-<0..9|swap|peek|draw_twice>``,
    ``referee-bever-drawn``, ``referee-bever-undo``, ``referee-bever-clear``,
    ``referee-bever-replacement`` the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

import flet as ft

from companion.rules import get
from companion.ui.referee import beverbende, clubs, klaverjassen, members_only

BeverbendeReferee = beverbende.BeverbendeReferee
ClubsReferee = clubs.ClubsReferee
KlaverjassenReferee = klaverjassen.KlaverjassenReferee
MembersOnlyReferee = members_only.MembersOnlyReferee

ROEM_OPTIONS = ("four_jacks", "four_of_a_kind", "runs_by_colour")
"""Klaverjassen options that change what a trick's roem is worth."""

# Each game's referee state and the view that draws it (a view takes its own game's state).
_SCREENS: dict[str, tuple[type, Callable[[Any], ft.Control]]] = {
    "clubs": (ClubsReferee, clubs.view),
    "klaverjassen": (KlaverjassenReferee, klaverjassen.view),
    "members_only": (MembersOnlyReferee, members_only.view),
    "beverbende": (BeverbendeReferee, beverbende.view),
}

__all__ = [
    "referee_view",
    "referee_state",
    "BeverbendeReferee",
    "ClubsReferee",
    "KlaverjassenReferee",
    "MembersOnlyReferee",
]


def referee_state(ruleset_id: str, options: Mapping[str, Any] | None = None):
    """A fresh plain-Python referee for the game, set up like a game with ``options``.

    ``options`` are a game's (``game.options``); the referee reads the ones that change
    its answers. RuleError names unknown games.
    """
    get(ruleset_id)
    chosen = dict(options or {})
    if ruleset_id == "clubs":
        return ClubsReferee(wild_15=chosen.get("wild_15", False), crazy=chosen.get("crazy", False))
    if ruleset_id == "klaverjassen":
        return KlaverjassenReferee(roem_options={name: chosen[name] for name in ROEM_OPTIONS if name in chosen})
    state_class, _view = _SCREENS[ruleset_id]
    return state_class()


def referee_view(ruleset_id: str, options: Mapping[str, Any] | None = None) -> ft.Control:
    """The referee screen's content for ``ruleset_id`` (set up by the game's ``options``)."""
    state = referee_state(ruleset_id, options)
    _state_class, view = _SCREENS[ruleset_id]
    return ft.Semantics(content=view(state), identifier=f"referee-{ruleset_id}")
