"""Referee screens: settle a dispute at the table in seconds, one screen per game.

``referee_view(ruleset_id, options=None)`` returns the referee for that game; the app
shell puts it in a screen of its own. Opened from a game, pass ``game.options``: the
referee then starts set up like that game (the options that change its answers).

Each game's referee is ``referee/<ruleset id>.py``: ``new_state(options)``, its plain-Python
state (tested without a browser) set up by a game's options, beside ``view(state)``; its
docstring says what it answers and lists its identifiers for browser tests. Every decision
comes from the rules engine. The screen's content is tagged ``referee-<ruleset id>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

import flet as ft

from companion.rules import game_module

__all__ = ["referee_view", "referee_state"]


def referee_state(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Any:
    """A fresh plain-Python referee for the game, set up like a game with ``options``.

    ``options`` are a game's (``game.options``); the referee reads the ones that change
    its answers. RuleError names unknown games.
    """
    return game_module(__name__, ruleset_id).new_state(dict(options or {}))


def referee_view(ruleset_id: str, options: Mapping[str, Any] | None = None) -> ft.Control:
    """The referee screen's content for ``ruleset_id`` (set up by the game's ``options``)."""
    state = referee_state(ruleset_id, options)
    view: Callable[[Any], ft.Control] = game_module(__name__, ruleset_id).view
    return ft.Semantics(content=view(state), identifier=f"referee-{ruleset_id}")
