"""The screen stays on while a game is open: a table glances at the scores between rounds,
and a phone that locks itself in the meantime has to be woken for every round.

Flet's ``Wakelock`` service does the work: on a phone or computer it holds the platform's
wakelock; in a browser it asks for the Screen Wake Lock API (on localhost or https; plain
http at a LAN address has no such API there, and the browser's own fallback, a silent
looping video, keeps most phones awake instead). The browser lets go of it while the page
is hidden and it is asked for again when the page comes back.
"""

from __future__ import annotations

from typing import Any, Callable, Coroutine

from companion.ui.routes import Page, Route

AWAKE_PAGES = frozenset(
    {Page.GAME, Page.ENTRY, Page.CORRECTION, Page.GAME_RULES, Page.GAME_REFEREE, Page.TABLE, Page.TABLE_OF_GAME}
)
"""The pages of a game being played: its scoreboard, its round entry, its rules and
referee looked up mid-game, and the table view on a TV."""


class ScreenAwake:
    """Asks for the wakelock when a game's page opens and lets it go when the player leaves
    the game; ``lock`` makes the session's wakelock (only once a game is first opened:
    each new service costs the first page a message of its own), ``run`` starts a coroutine."""

    def __init__(self, lock: Callable[[], Any], run: Callable[..., Any]):
        self._make_lock = lock
        self._run = run
        self._lock: Any = None  # the session's Wakelock, made on first use
        self.held = False

    def follow(self, route: Route) -> None:
        """Hold the wakelock on a game's pages, and on no other."""
        wanted = route.page in AWAKE_PAGES
        if wanted == self.held:
            return
        self.held = wanted
        if self._lock is None:
            self._lock = self._make_lock()
        self._run(_switch, self._lock.enable if wanted else self._lock.disable)


async def _switch(change: Callable[[], Coroutine[Any, Any, None]]) -> None:
    try:
        await change()
    except Exception:  # a device that cannot keep its screen on simply lets it sleep
        pass
