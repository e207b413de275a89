"""The app's addresses, read in one place: ``parse`` turns any address into a ``Route`` (an
address that is none of ours is home), ``Route.path`` builds one back; and which page a
change announced between the devices at a table reloads (``refresh_needed``).

    /                        home
    /new                     new game
    /game/<id>               scoreboard of a game
    /game/<id>/round         enter the next round (same page as the scoreboard)
    /game/<id>/round/<i>     correct round i, counted from 0 (same page)
    /history, /history/<id>  finished games; a game opened from here is read-only
    /players, /players/<name>
    /share                   Share this table: QR code, address, the joined devices
    /table, /table/<id>      table view for a TV: the newest game in progress, or game <id>
    /rules, /rules/<ruleset>/referee
    <game>/rules, <game>/referee   a game's rules (its options highlighted) or its referee,
                             where <game> is /game/<id> or /history/<id>
    /settings                language and theme of this device
    /event, /event/<n>       club evenings; an evening's draw, tables and live ranking

Any address may carry a join code, ``?code=...`` (a link from the host's QR code).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from urllib.parse import quote, unquote

from companion.rules import IDS
from companion.share.live import (
    DeviceEnded,
    DevicesChanged,
    EveningChanged,
    GameChanged,
    GamesRestored,
    JoinCodeChanged,
    Message,
    PlayersChanged,
    RoleChanged,
)
from companion.share.table import Device
from companion.ui.format import number


class Page(Enum):
    """Each kind of address; its value is the address with ``{game_id}``, ``{round}``,
    ``{player}`` and ``{ruleset}`` to fill in."""

    HOME = "/"
    NEW = "/new"
    GAME = "/game/{game_id}"
    ENTRY = "/game/{game_id}/round"
    CORRECTION = "/game/{game_id}/round/{round}"
    GAME_RULES = "/game/{game_id}/rules"
    GAME_REFEREE = "/game/{game_id}/referee"
    HISTORY = "/history"
    FINISHED = "/history/{game_id}"
    FINISHED_RULES = "/history/{game_id}/rules"
    FINISHED_REFEREE = "/history/{game_id}/referee"
    PLAYERS = "/players"
    PLAYER = "/players/{player}"
    SHARE = "/share"
    TABLE = "/table"
    TABLE_OF_GAME = "/table/{game_id}"
    RULES = "/rules"
    REFEREE = "/rules/{ruleset}/referee"
    SETTINGS = "/settings"
    EVENTS = "/event"
    EVENT = "/event/{evening}"


BELOW: dict[Page, Page] = {
    Page.FINISHED: Page.HISTORY,
    Page.PLAYER: Page.PLAYERS,
    Page.REFEREE: Page.RULES,
    Page.GAME_RULES: Page.GAME,
    Page.GAME_REFEREE: Page.GAME,
    Page.FINISHED_RULES: Page.FINISHED,
    Page.FINISHED_REFEREE: Page.FINISHED,
    Page.EVENT: Page.EVENTS,
}
"""The page under each page on the navigation stack, where it is not home."""

STORED_STATE = frozenset(
    {Page.HOME, Page.GAME, Page.TABLE, Page.TABLE_OF_GAME, Page.HISTORY, Page.FINISHED, Page.PLAYERS, Page.PLAYER, Page.SHARE,
     Page.EVENT}
)
"""Pages that show what is stored and hold no input of their own, or keep it when shown again
(a new player's name, a late arrival's), so reloading them loses nothing (not a round being
entered, a new game being set up, or a referee question)."""

LISTS = frozenset({Page.HOME, Page.HISTORY, Page.FINISHED, Page.PLAYERS, Page.PLAYER})
"""Pages that list games or count them in statistics."""


@dataclass(frozen=True)
class Route:
    """One address of the app: its page and what the page shows."""

    page: Page = Page.HOME
    game_id: int | None = None
    round: int | None = None
    """The round being corrected, counted from 0 (Page.CORRECTION)."""
    player: str | None = None
    ruleset: str | None = None
    evening: int | None = None
    """The club evening shown (Page.EVENT)."""
    code: str | None = None
    """The join code a link carried, if any."""

    @property
    def path(self) -> str:
        """The address of the page, without the code: the inverse of ``parse``."""
        return self.page.value.format(
            game_id=self.game_id, round=self.round, player=quote(self.player or "", safe=""), ruleset=self.ruleset,
            evening=self.evening,
        )

    @property
    def below(self) -> Route | None:
        """The page under this one on the navigation stack (the back arrow's), None for home."""
        if self.page is Page.HOME:
            return None
        under = BELOW.get(self.page, Page.HOME)
        return Route(under, game_id=self.game_id if "{game_id}" in under.value else None)

    @property
    def stack(self) -> list[Route]:
        """The pages on the navigation stack, home first, this page last."""
        pages = [replace(self, code=None)]
        while (below := pages[0].below) is not None:
            pages.insert(0, below)
        return pages

    @property
    def shows_only_stored_state(self) -> bool:
        return self.page in STORED_STATE


def parse(address: str) -> Route:
    """The route an address names; home (with the address's code) when it names none of ours."""
    path, _sep, query = address.partition("?")
    code = _code(query)
    route = _page(path.split("/"))
    return replace(route, code=code) if route is not None else Route(code=code)


def _code(query: str) -> str | None:
    for pair in query.split("&"):
        name, _eq, value = pair.partition("=")
        if name == "code" and value:
            return value
    return None


def _page(parts: list[str]) -> Route | None:
    parts = [p for p in parts if p]
    match parts:
        case []:
            return Route()
        case ["new"]:
            return Route(Page.NEW)
        case ["history"]:
            return Route(Page.HISTORY)
        case ["players"]:
            return Route(Page.PLAYERS)
        case ["players", name]:
            return Route(Page.PLAYER, player=unquote(name))
        case ["share"]:
            return Route(Page.SHARE)
        case ["table"]:
            return Route(Page.TABLE)
        case ["table", game] if number(game) is not None:
            return Route(Page.TABLE_OF_GAME, game_id=number(game))
        case ["rules"]:
            return Route(Page.RULES)
        case ["rules", ruleset, "referee"] if ruleset in IDS:
            return Route(Page.REFEREE, ruleset=ruleset)
        case ["settings"]:
            return Route(Page.SETTINGS)
        case ["event"]:
            return Route(Page.EVENTS)
        case ["event", evening] if number(evening) is not None:
            return Route(Page.EVENT, evening=number(evening))
        case ["game" | "history" as head, game, *rest] if number(game) is not None:
            return _game_page(head == "history", number(game), rest)
    return None


def _game_page(finished: bool, game_id: int | None, rest: list[str]) -> Route | None:
    match rest:
        case []:
            page = Page.FINISHED if finished else Page.GAME
        case ["rules"]:
            page = Page.FINISHED_RULES if finished else Page.GAME_RULES
        case ["referee"]:
            page = Page.FINISHED_REFEREE if finished else Page.GAME_REFEREE
        case ["round"] if not finished:
            page = Page.ENTRY
        case ["round", index] if not finished and number(index) is not None:
            return Route(Page.CORRECTION, game_id=game_id, round=number(index))
        case _:
            return None
    return Route(page, game_id=game_id)


def refresh_needed(route: Route, message: Message, device: Device) -> bool:
    """Whether the page at ``route`` on ``device`` must be reloaded for ``message``
    (companion.share.live: each session reloads from the store what a change concerns).

    A page with input is never reloaded under the player's fingers, except a round being
    entered when its game changed: the draft is kept and carried over to the game as it is
    now, and the form tells the scorer at once (companion.ui.round_entry.drafts). A change
    of the device's own rights reloads any page, so a form it may no longer use closes.
    """
    if isinstance(message, RoleChanged):
        return message.number == device.number
    if isinstance(message, DeviceEnded):  # the ended device's pages close (companion.ui.session); no other page shows it
        return False
    if route.page in (Page.ENTRY, Page.CORRECTION):
        return isinstance(message, GameChanged) and route.game_id == message.game_id
    if not route.shows_only_stored_state:
        return False
    page = route.page
    if isinstance(message, DevicesChanged):
        return page is Page.SHARE
    if isinstance(message, JoinCodeChanged):  # the pages that show the join code (an evening's links to its tables too)
        return page in (Page.SHARE, Page.EVENT)
    if isinstance(message, PlayersChanged):
        return page in (Page.PLAYERS, Page.PLAYER)
    if isinstance(message, GamesRestored):  # new games in the lists and statistics; no game in play changed
        return page in LISTS or page is Page.TABLE
    if isinstance(message, EveningChanged):  # a round drawn starts games: the lists show them
        return page in LISTS or page is Page.TABLE or page is Page.EVENT and route.evening == message.evening_id
    if page in (Page.TABLE, Page.EVENT):  # an evening's ranking follows every table's game
        return True
    if page in (Page.GAME, Page.TABLE_OF_GAME):
        return route.game_id == message.game_id
    return page in LISTS
