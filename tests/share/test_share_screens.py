"""The sharing screens' states, without a browser: the join screen, the Share this table
page and the table view."""

from __future__ import annotations

from types import SimpleNamespace

import flet as ft
import pytest

from companion.share.limiter import WrongTries
from companion.share.table import Device, Invitation, Role, Table
from companion.store import Store
from companion.share.sharing import announcement
from companion.ui.join import JoinState
from companion.ui.share_panel import SharePanelState, device_name
from companion.ui.table_view import TableViewState
from tests.share.fakes import Clock

CODE = "K7QM2XHD"
HOST_CODE = "0123456789ABCDEFGHJKMNPQRS"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def table(clock):
    return Table(Invitation("192.168.1.5", 8550, code=CODE, host_code=HOST_CODE), WrongTries(free=1, first_wait=4), clock)


@pytest.fixture
def store(tmp_path):
    with Store(f"sqlite:///{tmp_path / 'companion.sqlite3'}") as s:
        yield s


def test_the_right_code_lets_the_browser_in(table):
    join = JoinState(table, "192.168.1.20", PHONE)
    device = join.submit("k7qm 2xhd")
    assert device is not None and device.role is Role.VIEWER
    assert join.message is None


def test_nothing_typed_asks_for_the_code_without_counting_a_wrong_try(table):
    join = JoinState(table, "192.168.1.20", PHONE)
    for _ in range(3):
        assert join.submit("  ") is None
    assert join.message == "Type the code shown on the host's screen."
    assert join.submit(CODE) is not None


def test_wrong_codes_are_refused_then_slowed_down(table, clock):
    join = JoinState(table, "192.168.1.20", PHONE)
    assert join.submit("AAAA-BBBB") is None
    assert join.message == "That code is not right. Check it on the host's screen."
    assert join.submit("AAAA-BBBC") is None
    assert join.message == "That code is not right. Too many wrong codes: wait 4 s before the next try."
    clock.now += 1
    assert join.submit(CODE) is None
    assert join.message == "Too many wrong codes: try again in 3 s."
    clock.now += 3
    assert join.submit(CODE) is not None


def test_the_host_sees_every_device_and_may_let_guests_keep_score(table):
    host = table.admit(HOST_CODE, "192.168.1.5", PHONE)
    guest = table.admit(CODE, "192.168.1.20", PHONE)
    table.connected(guest, +1)
    panel = SharePanelState(table, host)
    rows = panel.rows()
    assert [(r.number, r.grantable, r.scorer) for r in rows] == [(1, False, True), (2, True, False)]
    assert rows[0].name == "Device 1 · Chrome on Android (this device)"
    assert (rows[1].role, rows[1].status) == ("Watches", "Connected")
    assert (rows[0].role, rows[0].status) == ("Host", "Not connected")
    panel.set_scorer(2, True)
    assert guest.can_score
    assert panel.rows()[1].role == "Keeps score"


def test_a_guest_sees_the_code_to_pass_on_but_not_the_devices(table):
    table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    panel = SharePanelState(table, guest)
    assert panel.rows() == []
    assert panel.code == "K7QM-2XHD"
    assert panel.join_url == f"http://192.168.1.5:8550/?code={CODE}"
    assert panel.qr_png().startswith(b"\x89PNG")
    assert panel.you == "This is device 2: you watch. The host can let this device keep score."
    with pytest.raises(PermissionError):
        panel.set_scorer(2, True)


def test_each_device_is_told_its_place_at_the_table(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    table.set_scorer(host, guest.number, True)
    assert SharePanelState(table, host).you == "This is device 1: you host this table."
    assert SharePanelState(table, guest).you == "This is device 2: you keep score."
    guest.game_id = 7  # as if it had joined with the code of the club table that plays game 7
    assert SharePanelState(table, guest).you == "This is device 2: you keep score for your table's game."


def test_an_unshared_app_says_it_is_not_shared():
    assert not SharePanelState(None, Device.this_machine()).sharing
    assert SharePanelState(None, Device.this_machine()).rows() == []


@pytest.mark.parametrize(
    "browser, system, name",
    [("Chrome", "Android", "Device 4 · Chrome on Android"), ("Firefox", "", "Device 4 · Firefox"), ("", "", "Device 4")],
)
def test_a_device_is_named_by_its_number_and_browser(browser, system, name):
    assert device_name(Device(4, "k", browser, system, Role.VIEWER)) == name


def test_the_terminal_gets_the_join_link_its_qr_code_and_the_host_link(table):
    text = announcement(table)
    assert f"Join link: http://192.168.1.5:8550/?code={CODE}" in text
    assert "type the code K7QM-2XHD" in text
    assert f"http://192.168.1.5:8550/?code={HOST_CODE}" in text
    assert "\u2588" in text  # the QR code's blocks


def test_the_table_view_follows_the_newest_game_in_progress(store):
    first = store.create_game("beverbende", ["Ann", "Bob"])
    view = TableViewState(store)
    view.load()
    assert view.board.game_id == first.id
    second = store.create_game("clubs", ["Ann", "Bob", "Cy"])
    view.load()
    assert view.board.game_id == second.id
    assert view.board.read_only


def test_the_table_view_of_one_game_stays_on_it(store):
    first = store.create_game("beverbende", ["Ann", "Bob"])
    store.create_game("clubs", ["Ann", "Bob", "Cy"])
    view = TableViewState(store, first.id)
    view.load()
    assert view.board.game_id == first.id
    assert view.empty_message is None


def test_the_table_view_without_a_game_says_one_appears_when_started(store):
    view = TableViewState(store)
    view.load()
    assert view.board is None
    assert view.empty_message == "No game in progress. It appears here as soon as one starts."


def test_the_table_view_of_a_missing_game_says_so(store):
    view = TableViewState(store, 42)
    view.load()
    assert view.board is None
    assert view.error == "There is no saved game number 42."
    assert view.empty_message is None


@pytest.mark.parametrize(
    "route, pages",
    [
        ("/share", ["/", "/share"]),
        ("/table", ["/", "/table"]),
        ("/table/7", ["/", "/table/7"]),
        ("/table?code=K7QM2XHD", ["/", "/table"]),
        ("/table/seven", ["/"]),
        ("/share/more", ["/"]),
    ],
)
def test_the_share_page_and_the_table_view_sit_on_home(route, pages):
    from companion.ui.router import stack

    assert stack(route) == pages


@pytest.mark.parametrize("platform", ["android", "ios"])
def test_a_phone_app_says_in_one_sentence_that_it_cannot_share(platform, monkeypatch):
    """A phone serves no other device: no button that would try, no command line to type."""
    from companion.ui.share_panel import _not_shared_body, sharing_unavailable

    monkeypatch.setenv("FLET_PLATFORM", platform)
    body = _not_shared_body(app=None)  # the phone's page needs nothing of the app
    assert [control.identifier for control in body] == ["share-unavailable"]
    assert body[0].content.value == sharing_unavailable()
    assert sharing_unavailable().count(".") == 1 and "companion run" not in sharing_unavailable()


def test_a_computer_can_share(monkeypatch):
    from companion.ui.share_panel import sharing_unavailable

    monkeypatch.delenv("FLET_PLATFORM", raising=False)
    assert sharing_unavailable() is None


def a_host_and_a_guest(table) -> tuple[Device, Device]:
    host = table.admit(HOST_CODE, "192.168.1.20", PHONE)
    guest = table.admit(CODE, "192.168.1.21", PHONE)
    return host, guest


def test_the_host_names_a_device_and_the_list_says_whose_it_is(table):
    host, guest = a_host_and_a_guest(table)
    panel = SharePanelState(table, host)
    assert panel.rename(guest.number, "  Bob's   phone ") is None
    assert [row.name for row in panel.rows()][1] == "Bob's phone · Chrome on Android"
    assert panel.name_of(guest.number) == "Bob's phone"
    assert panel.rename(guest.number, "") is None  # no name: its number again
    assert [row.name for row in panel.rows()][1] == "Device 2 · Chrome on Android"


@pytest.mark.parametrize(
    "typed, message",
    [("x" * 41, "A device name has at most 40 characters."), ("Bob\x00", "A device name cannot hold control characters.")],
)
def test_a_name_that_cannot_be_kept_is_refused_with_the_reason_and_nothing_changes(table, typed, message):
    host, guest = a_host_and_a_guest(table)
    panel = SharePanelState(table, host)
    assert panel.rename(guest.number, typed) == message
    assert panel.name_of(guest.number) == ""


def test_only_a_host_names_devices(table):
    host, guest = a_host_and_a_guest(table)
    with pytest.raises(PermissionError):
        table.rename(guest, host.number, "Mine now")


def test_a_device_gone_for_a_while_drops_off_the_list_and_one_connected_stays(table):
    from datetime import timedelta

    from companion.share.table import GONE_AFTER
    from companion.clock import utc_now

    host, guest = a_host_and_a_guest(table)
    third = table.admit(CODE, "192.168.1.22", PHONE)
    for device in (guest, third):
        table.connected(device, +1)
    table.connected(guest, -1)  # the guest left; the third phone is still here
    later = utc_now() + GONE_AFTER + timedelta(minutes=1)
    assert [row.number for row in SharePanelState(table, host, now=lambda: later).rows()] == [host.number, third.number]
    soon = utc_now() + GONE_AFTER - timedelta(minutes=1)
    assert [row.number for row in SharePanelState(table, host, now=lambda: soon).rows()] == [1, 2, 3]
    assert table.rejoin(guest.key) is guest  # gone from the list, not from the table: it may come back


def test_the_host_ends_a_devices_access_and_the_list_leaves_it_out(table):
    host = table.admit(HOST_CODE, "192.168.1.5", PHONE)
    guest = table.admit(CODE, "192.168.1.20", PHONE)
    panel = SharePanelState(table, host)
    panel.end_access(guest.number)
    assert [r.number for r in panel.rows()] == [host.number]
    assert not table.seats(guest)
    with pytest.raises(PermissionError):  # and only a host may
        SharePanelState(table, table.admit(CODE, "192.168.1.21")).end_access(host.number)


def test_a_new_join_code_is_shown_and_the_old_one_lets_nobody_in(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    panel = SharePanelState(table, host)
    panel.new_join_code()
    assert panel.code != "K7QM-2XHD" and panel.join_url.endswith(f"code={table.invitation.code}")
    assert SharePanelState(table, guest).code == panel.code  # the guests pass the new one on
    assert JoinState(table, "192.168.1.21", "").submit(CODE) is None
    assert table.seats(guest)


def test_a_host_of_a_table_shared_from_the_command_line_is_told_how_sharing_stops(table):
    host = table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    told = SharePanelState(table, host).how_to_stop(can_stop_here=False)
    assert told is not None and "Ctrl+C" in told and "every device is out" in told
    assert SharePanelState(table, host).how_to_stop(can_stop_here=True) is None  # the page has Stop sharing
    assert SharePanelState(table, guest).how_to_stop(can_stop_here=False) is None


def test_the_join_screen_shown_again_speaks_the_language_in_force_then(table):
    """A page's language can come after its join screen (the device's answer differs from
    what the page said as it connected): the screen shown again says everything in it."""
    from companion import i18n
    from companion.ui.join import JoinScreen
    from tests.ui.tree import text

    join = JoinState(table, "192.168.1.20", PHONE)
    join.checking = False  # the device's saved key was looked for: the code is asked for
    with i18n.speaking("en"):
        screen = JoinScreen(join, lambda code: None)
        assert "Join the table" in text(screen.view) and screen.button.content == "Join"
        with i18n.speaking("de"):
            screen.render()
            assert screen.button.content == "Beitreten" and "Join" not in text(screen.view)
            assert screen.field.label == i18n._("Code")


def test_a_table_that_cannot_be_reached_is_said_in_words_that_name_no_server_and_tried_again_with_the_saved_key(table, monkeypatch):
    """A club's database away as a phone comes back (its process opening the store then, or
    the database restarting): the join screen says so without naming the database to a browser
    that may have no code, and offers to try again; a device that was in is asked for no code
    and told it goes back by itself. Tried again, the browser's saved key brings it back as the
    device it was. Before, the page hung and the server printed a traceback."""
    from companion.store.errors import StoreError
    from companion.ui.join import JoinScreen
    from tests.ui.tree import find_all, text

    known = table.admit(CODE, "192.168.1.20", PHONE)
    seats = table._seats
    store = seats._open

    def away():
        raise StoreError("The saved games cannot be opened: {reason}", reason="Cannot reach the database at db.club.example")

    monkeypatch.setattr(table, "_devices", {})  # this process has not met the device: the database knows it
    monkeypatch.setattr(seats, "_open", away)
    join = JoinState(table, "192.168.1.20", PHONE)
    join.checking = False
    assert join.arrive(known.key, None) is None and join.away and join.returning
    assert join.message == "The table cannot be reached just now. This page goes back to it by itself as soon as it can."
    screen = JoinScreen(join, lambda code: None)
    assert screen.button.content == "Try again" and "db.club.example" not in text(screen.view)
    assert screen.button.icon == ft.Icons.AUTORENEW  # as every Try again
    assert find_all(screen.view, "join-code") == [] and "Back to the table" in text(screen.view)  # a device that was in needs no code
    assert join.submit(CODE) is None and join.away and not join.returning  # a browser without a key, its code typed
    assert join.message == "The table cannot be reached just now. Try again in a moment."
    screen.render()
    assert find_all(screen.view, "join-code") != [] and "Join the table" in text(screen.view)
    monkeypatch.setattr(seats, "_open", store)  # the database answers again
    back = join.arrive(known.key, None)
    assert back is not None and back.key == known.key and not join.away
    screen.render()
    assert screen.button.content == "Join" and screen.button.icon == ft.Icons.LOGIN


def test_a_browser_with_neither_key_nor_code_is_asked_for_one_once_the_table_answers_again(table, monkeypatch):
    """Tried again once the database answers, a browser that brings no device key and no code
    (its code was typed, and the field emptied) is asked for one: "cannot be reached" no
    longer shows under the field."""
    from companion.store.errors import StoreError

    seats = table._seats
    store = seats._open

    def away():
        raise StoreError("The saved games cannot be opened: {reason}", reason="Cannot reach the database at db.club.example")

    monkeypatch.setattr(seats, "_open", away)
    join = JoinState(table, "192.168.1.20", PHONE)
    assert join.submit(CODE) is None and join.away
    monkeypatch.setattr(seats, "_open", store)
    assert join.arrive(None, None) is None
    assert join.message is None and not join.away


def test_a_page_the_store_cannot_be_read_for_says_so_with_try_again_and_a_hosts_change_it_refused_is_said(table, store, monkeypatch):
    """A club's database away for a moment as a host opens Share this table, then taps a
    device's switch: the page says so and offers Try again; the tap is refused in words. The
    session went on: before, both ended it ("Something went wrong on this page")."""
    from companion.share import sharing
    from companion.store.errors import StoreError
    from companion.ui.router import App
    from tests.ui.tree import find, find_all, served_app, text

    host = table.admit(HOST_CODE, "192.168.1.5")
    guest = table.admit(CODE, "192.168.1.20")
    table.connected(guest, +1)  # listed: not gone for a while
    monkeypatch.setattr(sharing, "_table", table)
    app, page, _session = served_app(lambda page: App(page, store, device=host))
    notified: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, *args, **kwargs: notified.append(message))
    seats = table._seats
    opened = seats._open

    def away():
        raise StoreError("Cannot reach the database at {where}.", where="db.club.example")

    monkeypatch.setattr(seats, "_open", away)
    app.go("/share")
    view = page.views[-1]
    assert "Cannot reach the database at db.club.example." in text(find(view, "page-error"))
    monkeypatch.setattr(seats, "_open", opened)
    find(view, "page-try-again").on_click()
    switch = find(page.views[-1], f"device-{guest.number}").trailing.content  # the tile's switch (tree.walk leaves a tile's trailing out)
    assert find_all(page.views[-1], "page-error") == []
    monkeypatch.setattr(seats, "_open", away)
    switch.on_change(SimpleNamespace(control=SimpleNamespace(value=True)))
    assert notified == ["Cannot reach the database at db.club.example."]
    monkeypatch.setattr(seats, "_open", opened)
    assert not table.reload(guest.number).can_score
    table.stop()


def test_a_game_opened_while_the_database_is_away_says_so_with_try_again_and_opens_on_it(store, monkeypatch):
    """A phone opens its game as the club's database restarts: nothing has been read to show
    the message on, so the page says it with Try again, as every page the store cannot be
    read for does, and shows the board on it once the database answers. Before, the page
    said it with no way on but back."""
    from companion.store.errors import UnreachableError
    from companion.ui.router import App
    from tests.ui.tree import find, find_all, served_app, text

    game = store.create_game("beverbende", ["Ann", "Bob"])
    app, page, _session = served_app(lambda page: App(page, store))
    opened = store.open_game

    def away(game_id):
        raise UnreachableError("db.club.example", "connection refused")

    monkeypatch.setattr(store, "open_game", away)
    app.go(f"/game/{game.id}")
    shown = text(find(page.views[-1], "page-error"))
    assert shown == "The database does not answer just now. Try again in a moment."
    monkeypatch.setattr(store, "open_game", opened)
    find(page.views[-1], "page-try-again").on_click()
    assert find_all(page.views[-1], "page-error") == []
    assert find_all(page.views[-1], "total-Ann") != []
