"""The app's addresses (companion.ui.routes): every kind read and built back, anything else
home; and which page a change announced at a shared table reloads."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.share.live import DeviceEnded, DevicesChanged, EveningChanged, GameChanged, GamesRestored, JoinCodeChanged, PlayersChanged, RoleChanged
from companion.share.table import Device, Role
from companion.ui.routes import Page, Route, parse, refresh_needed

ROUTES = [
    ("/", Route()),
    ("/new", Route(Page.NEW)),
    ("/game/7", Route(Page.GAME, game_id=7)),
    ("/game/7/round", Route(Page.ENTRY, game_id=7)),
    ("/game/7/round/0", Route(Page.CORRECTION, game_id=7, round=0)),
    ("/game/7/rules", Route(Page.GAME_RULES, game_id=7)),
    ("/game/7/referee", Route(Page.GAME_REFEREE, game_id=7)),
    ("/history", Route(Page.HISTORY)),
    ("/history/7", Route(Page.FINISHED, game_id=7)),
    ("/history/7/rules", Route(Page.FINISHED_RULES, game_id=7)),
    ("/history/7/referee", Route(Page.FINISHED_REFEREE, game_id=7)),
    ("/players", Route(Page.PLAYERS)),
    ("/players/Anne%20Marie%20%26%20Co", Route(Page.PLAYER, player="Anne Marie & Co")),
    ("/share", Route(Page.SHARE)),
    ("/table", Route(Page.TABLE)),
    ("/table/7", Route(Page.TABLE_OF_GAME, game_id=7)),
    ("/rules", Route(Page.RULES)),
    ("/rules/clubs/referee", Route(Page.REFEREE, ruleset="clubs")),
    ("/settings", Route(Page.SETTINGS)),
    ("/event", Route(Page.EVENTS)),
    ("/event/3", Route(Page.EVENT, evening=3)),
    ("/game/99999999999999999999", Route(Page.GAME, game_id=99999999999999999999)),  # 20 digits: still ours
]


def test_every_kind_of_page_has_an_address_here():
    assert {route.page for _address, route in ROUTES} == set(Page)


@pytest.mark.parametrize("address, route", ROUTES)
def test_each_address_is_read_as_its_page_and_built_back(address, route):
    assert parse(address) == route
    assert route.path == address


@pytest.mark.parametrize(
    "address",
    [
        "/nowhere",
        "/game",
        "/game/seven",
        "/game/-7",
        "/game/7.0",
        "/game/²",  # isdigit takes it, int does not
        "/game/٣",  # another script's digit: int would read 3
        "/history/¹",
        "/table/²",
        "/game/7/round/²",
        "/game/7/round/x",
        "/game/7/round/1/more",
        "/game/7/score",
        "/history/7/round",  # a finished game takes no rounds
        "/history/old",
        "/table/" + "9" * 21,
        "/game/" + "9" * 5000,
        "/rules/poker/referee",
        "/rules/clubs",
        "/share/more",
        "/players/Ann/more",
        "/settings/x",
        "/event/²",
        "/event/3/more",
    ],
)
def test_an_address_that_is_none_of_ours_is_home(address):
    assert parse(address) == Route()


@pytest.mark.parametrize(
    "address, code, path",
    [
        ("/?code=K7QM2XHD", "K7QM2XHD", "/"),
        ("/table?code=K7QM-2XHD", "K7QM-2XHD", "/table"),
        ("/game/3?x=1&code=AB", "AB", "/game/3"),
        ("/game/3", None, "/game/3"),
        ("/?code=", None, "/"),
        ("", None, "/"),
        ("/nowhere?code=AB", "AB", "/"),  # a code in a mistyped link still lets the browser in
    ],
)
def test_a_link_brings_its_code_and_the_page_to_open(address, code, path):
    route = parse(address)
    assert route.code == code
    assert route.path == path


def test_numbers_are_read_as_numbers():
    assert parse("/game/007/round/02") == Route(Page.CORRECTION, game_id=7, round=2)


ADDRESS_PARTS = st.sampled_from(
    ["game", "history", "table", "round", "rules", "referee", "players", "clubs", "7", "0", "²", "٣", "9" * 20, "9" * 21, "", "?code=AB", "%2F"]
) | st.text(max_size=6)


@given(st.lists(ADDRESS_PARTS, max_size=5).map(lambda parts: "/" + "/".join(parts)) | st.text())
@example("/history/7/referee")
@example("/game/7/round/2?code=AB")
def test_any_address_is_read_as_a_page_that_builds_back_to_itself(address):
    """Whatever a browser sends, reading it neither fails nor yields a page the app cannot
    show; each page on its stack is exactly what its own address reads as."""
    route = parse(address)
    assert isinstance(route.page, Page)
    assert parse(route.path) == replace(route, code=None)
    assert route.stack[0] == Route() and route.stack[-1] == replace(route, code=None)
    assert all(parse(page.path) == page for page in route.stack)


VIEWER = Device(number=3, key="key-3", browser="", system="", role=Role.VIEWER)


@pytest.mark.parametrize(
    "address, message, refresh",
    [
        ("/", GameChanged(4, 2), True),
        ("/game/4", GameChanged(4, 2), True),
        ("/game/5", GameChanged(4, 2), False),
        ("/game/4/round", GameChanged(4, 2), True),  # the scorer is told at once; the draft is kept
        ("/game/4/round/1", GameChanged(4, 2), True),
        ("/game/5/round", GameChanged(4, 2), False),
        ("/game/4/round", PlayersChanged(), False),
        ("/new", GameChanged(4, 2), False),
        ("/table", GameChanged(4, 2), True),  # follows whichever game is newest
        ("/table/4", GameChanged(4, 2), True),
        ("/table/5", GameChanged(4, 2), False),
        ("/history", GameChanged(4, 2), True),
        ("/history/4", GameChanged(4, 2), True),
        ("/players/Ann", GameChanged(4, 2), True),
        ("/rules", GameChanged(4, 2), False),
        ("/share", GameChanged(4, 2), False),
        ("/players", PlayersChanged(), True),
        ("/", PlayersChanged(), False),
        ("/", GamesRestored(), True),
        ("/history", GamesRestored(), True),
        ("/players/Ann", GamesRestored(), True),
        ("/table", GamesRestored(), True),
        ("/table/4", GamesRestored(), False),
        ("/game/4", GamesRestored(), False),
        ("/share", DevicesChanged(), True),
        ("/game/4", DevicesChanged(), False),
        ("/game/4/round", RoleChanged(3), True),  # lost the right to enter: the form closes
        ("/game/4", RoleChanged(3), True),
        ("/game/4", RoleChanged(2), False),
        ("/?code=K7QM2XHD", GameChanged(4, 2), True),
        ("/game/4/referee", GameChanged(4, 2), False),
        ("/history/4/rules", GameChanged(4, 2), False),
        ("/event/2", GameChanged(4, 2), True),  # any table of the evening may have saved
        ("/event", GameChanged(4, 2), False),  # the form of a new evening is left alone
        ("/share", JoinCodeChanged(), True),  # the code to pass on is the new one
        ("/event/2", JoinCodeChanged(), True),  # the links to the evening's tables carry it
        ("/game/4", JoinCodeChanged(), False),
        ("/share", DeviceEnded(3), False),  # the ended device's own pages close instead (companion.ui.session)
        ("/game/4", DeviceEnded(2), False),
        ("/event/2", EveningChanged(2), True),  # drawn, checked in or out, closed
        ("/event/3", EveningChanged(2), False),
        ("/", EveningChanged(2), True),  # a draw starts the tables' games
        ("/table", EveningChanged(2), True),
        ("/game/4", EveningChanged(2), False),
    ],
)
def test_a_page_reloads_when_a_change_concerns_it(address, message, refresh):
    assert refresh_needed(parse(address), message, VIEWER) is refresh


@pytest.mark.parametrize(
    "address, stored",
    [
        ("/", True),
        ("/game/4", True),
        ("/table", True),
        ("/table/4", True),
        ("/history/4", True),
        ("/players/Ann", True),
        ("/share", True),
        ("/new", False),
        ("/game/4/round", False),
        ("/game/4/round/0", False),
        ("/game/4/referee", False),
        ("/rules", False),
        ("/rules/clubs/referee", False),
    ],
)
def test_pages_with_input_of_their_own_are_not_reloaded(address, stored):
    assert parse(address).shows_only_stored_state is stored
