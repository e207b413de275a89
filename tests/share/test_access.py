"""Who reaches the running app, and until when (docs/security.md): the real web app on
127.0.0.1, driven by bare websocket clients that speak Flet's protocol as a page does."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from typing import Callable

import pytest

from companion.share import guard
from companion.share.live import LeftTableError
from companion.share.sharing import start_sharing
from companion.share.table import Device
from companion.ui import app, session
from companion.ui.join import JoinState
from tests.share.web import REGISTER_CLIENT, SESSION_CRASHED, TIMEOUT, FletClient, Served, refused

BEVER_ROUND = {"totals": {"Ann": 12, "Bob": 20}}
pytestmark = pytest.mark.usefixtures("not_shared")  # every test starts and ends with the app not shared

SENTENCE = "Companion does not answer at this address. Open the address Companion shows."




def eventually(condition, what: str):
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def session_of(device: Device) -> session.TableSession:
    return next(s for s in list(session._sessions) if s.device is device)


def get(served: Served, path: str, **headers) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}", headers={"Host": served.base, **headers})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(errors="replace")


# --- 1. Stop sharing takes access back, at once and for good --------------------------------


def test_after_stop_sharing_a_scorers_page_is_closed_forgotten_and_refused_and_a_new_share_needs_the_new_code(served):
    game = app.shared.get().create_game("beverbende", ["Ann", "Bob"])
    table = start_sharing("127.0.0.1", served.port)
    phone = FletClient(served)
    old_session = phone.register(f"/?code={table.invitation.code}")
    phone.wait_for(lambda: table.devices() and table.devices()[0].connected, "the phone joined")
    device = table.devices()[0]
    host = table.admit(table.invitation.host_code, "127.0.0.1")
    table.set_scorer(host, device.number, True)
    phone_store = session_of(device).app.store
    saved = phone_store.add_round(game.id, BEVER_ROUND, expected_version=game.version)  # a scorer saves

    served.run(session.stop_sharing())
    with pytest.raises(LeftTableError):  # at once: its page can save nothing more, nor read
        phone_store.add_round(game.id, BEVER_ROUND, expected_version=saved.version)
    with pytest.raises(LeftTableError):
        phone_store.open_game(game.id)
    phone.drain(TIMEOUT)  # its connection is closed by the server
    assert phone.ws.close_code is not None

    new_table = start_sharing("127.0.0.1", served.port)
    with pytest.raises(LeftTableError):  # and for good: not even under a new share
        phone_store.add_round(game.id, BEVER_ROUND, expected_version=saved.version)
    back = FletClient(served)
    assert back.register("/", session_id=old_session) != old_session  # its page is not given back
    assert new_table.rejoin(device.key) is None
    assert not JoinState(new_table, "127.0.0.1", "").submit(table.invitation.code)  # the old code is wrong now
    assert JoinState(new_table, "127.0.0.1", "").submit(new_table.invitation.code) is not None
    assert len(app.shared.get().open_game(game.id).game.rounds) == 1
    back.close()


def test_stop_sharing_leaves_the_hosts_own_page_in_as_this_machines_user(served):
    table = start_sharing("127.0.0.1", served.port)
    page = FletClient(served)
    page.register(f"/?code={table.invitation.host_code}")
    page.wait_for(lambda: table.devices() and table.devices()[0].connected, "the host joined")
    host_session = session_of(table.devices()[0])

    async def stop_from_the_hosts_page():
        await session.stop_sharing(keep=host_session)
        host_session.leave()

    served.run(stop_from_the_hosts_page())
    assert host_session.device.is_this_machine and host_session.app.store.history() is not None
    page.close()


@pytest.mark.parametrize("news", ["the relay's message", "a catch-up after the relay lost the channel"])
def test_a_device_a_host_ends_through_another_process_is_refused_at_once_and_its_page_closed_and_forgotten(served, monkeypatch, news):
    from companion.share import sharing
    from companion.share.live import DeviceEnded
    from companion.share.table import Table
    from companion.store import Store
    from companion.store.seats import Seats

    monkeypatch.setattr(sharing, "_store", app.OpeningStore(app.shared).opened)  # the table in the database, as on a club server
    game = app.shared.get().create_game("beverbende", ["Ann", "Bob"])
    table = start_sharing("127.0.0.1", served.port)
    phone = FletClient(served)
    old_session = phone.register(f"/?code={table.invitation.code}")
    phone.wait_for(lambda: table.devices() and table.devices()[0].connected, "the phone joined")
    device = table.devices()[0]
    phone_store = session_of(device).app.store
    with Store(app.shared.url) as elsewhere:  # the host's process
        other = Table(table.invitation, seats=Seats(lambda: elsewhere), table_id=table.table_id)
        host = other.admit(table.invitation.host_code, "127.0.0.1")
        other.set_scorer(host, device.number, True)
        saved = phone_store.add_round(game.id, BEVER_ROUND, expected_version=game.version)  # its new rights, before any message
        other.end_access(host, device.number)
    with pytest.raises(LeftTableError):  # at once, before any message: its page can save nothing more
        phone_store.add_round(game.id, BEVER_ROUND, expected_version=saved.version)
    if news == "the relay's message":
        session.hear_from_elsewhere(DeviceEnded(device.number))
    else:
        session.catch_up_everywhere()
    phone.drain(TIMEOUT)  # its connection is closed by the server
    assert phone.ws.close_code is not None
    with pytest.raises(LeftTableError):
        phone_store.open_game(game.id)
    back = FletClient(served)
    assert back.register("/", session_id=old_session) != old_session  # its page is not given back
    assert table.rejoin(device.key) is None  # its browser's key: the join screen
    assert len(app.shared.get().open_game(game.id).game.rounds) == 1
    back.close()


# --- 2. Only pages of the app's own addresses -----------------------------------------------


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:1", "https://127.0.0.1.evil.example", "null", "file://"])
def test_a_websocket_from_a_page_of_another_origin_is_refused(served, origin):
    assert refused(served, origin=origin)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8550", "localhost.evil.example", "", "[::1"])
def test_a_websocket_naming_a_foreign_host_is_refused(served, host):
    assert refused(served, host=host, origin=f"http://{host}")


@pytest.mark.parametrize("name", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"])
def test_a_page_of_this_machines_own_names_gets_in(served, name):
    address = f"{name}:{served.port}"
    client = FletClient(served, host=address, origin=f"http://{address}")
    assert client.register("/")
    client.close()
    assert get(served, "/", Host=address)[0] == 200


def test_a_script_without_an_origin_is_no_page_of_another_site_and_gets_in(served):
    client = FletClient(served)
    assert client.register("/")
    client.close()


def test_the_share_address_is_served_only_while_shared(served):
    address = f"192.0.2.7:{served.port}"  # the table's address, as the phones name it
    assert refused(served, host=address, origin=f"http://{address}")
    start_sharing("192.0.2.7", served.port)
    client = FletClient(served, host=address, origin=f"http://{address}")
    assert client.register("/")
    client.close()


@pytest.mark.parametrize(
    "headers",
    [{"Host": "evil.example"}, {"Origin": "http://evil.example"}, {"Host": "evil.example", "Origin": "http://evil.example"}],
    ids=["host", "origin", "both"],
)
def test_an_http_request_for_a_foreign_address_gets_one_sentence(served, headers):
    assert get(served, "/", **headers) == (403, SENTENCE)


@pytest.mark.parametrize("server, served_there", [(("127.0.0.1", 8550), True), (("192.168.1.5", 8550), False)])
def test_while_not_shared_only_connections_to_the_loopback_address_are_served(server, served_there):
    """The network listener opens a moment before the table is shared: nothing gets through it then."""
    seen = []

    async def app_(scope, receive, send):
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def forget(visit):
        pass

    sent = []

    async def send(message):
        sent.append(message)

    middleware = guard.Guard(app_, lambda: {"localhost", "127.0.0.1", "192.168.1.5"}, lambda: False, forget)
    scope = {"type": "http", "path": "/", "server": server, "headers": [(b"host", f"{server[0]}:8550".encode())]}
    asyncio.run(middleware(scope, None, send))
    assert (seen == ["/"]) is served_there
    assert sent[0]["status"] == (200 if served_there else 403)


# --- 3. Forwarding headers only from a named proxy ------------------------------------------


def client_seen(served_app_port: int, forwarded_for: str) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{served_app_port}/", headers={"X-Forwarded-For": forwarded_for})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return response.read().decode()


async def client_address(scope, receive, send):
    """Says which client address the app, and so the wrong-code limit, sees."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": scope["client"][0].encode()})


def test_a_forged_forwarded_for_does_not_make_a_client_pass_for_another(monkeypatch):
    monkeypatch.delenv("COMPANION_TRUSTED_PROXY", raising=False)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    with Served(client_address) as server:
        assert client_seen(server.port, "10.9.9.9") == "127.0.0.1"


def test_a_named_proxy_says_which_client_it_carries(monkeypatch):
    monkeypatch.setenv("COMPANION_TRUSTED_PROXY", "127.0.0.1")
    with Served(client_address) as server:
        assert client_seen(server.port, "10.9.9.9") == "10.9.9.9"


def test_a_proxy_that_is_not_the_named_one_is_not_believed(monkeypatch):
    monkeypatch.setenv("COMPANION_TRUSTED_PROXY", "192.0.2.1")
    with Served(client_address) as server:
        assert client_seen(server.port, "10.9.9.9") == "127.0.0.1"


# --- 5. Pages without a code: few, short-lived, forgotten -----------------------------------


def test_a_codeless_page_that_goes_is_forgotten_at_once(served):
    table = start_sharing("127.0.0.1", served.port)
    page = FletClient(served)
    first = page.register("/")
    page.drain(0.3)
    page.close()
    eventually(lambda: served.guard.waiting == 0, "the page left")
    again = FletClient(served)
    assert again.register("/", session_id=first) != first
    again.close()
    assert table.devices() == []


def test_a_page_that_goes_while_it_starts_leaves_no_traceback_in_the_servers_log(served, caplog):
    """It goes before its browser has said its language (a phone that opened the join link
    and left at once): its session is closed while the start waits for the answer."""
    caplog.set_level(logging.INFO, logger="flet_web.fastapi")
    start_sharing("127.0.0.1", served.port)
    page = FletClient(served)
    page.send([REGISTER_CLIENT, {"session_id": None, "page_name": "", "page": {"route": "/", "width": 360, "height": 740}}])
    page.ws.recv(timeout=TIMEOUT)  # registered; the language's questions go unanswered
    page.close()
    ended = ("Session handler terminated", "Unhandled error processing page session")  # flet_web's words for either end
    eventually(lambda: any(record.getMessage().startswith(ended) for record in caplog.records), "the start ended")
    assert [record.getMessage() for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR] == []


def test_a_page_that_does_not_get_in_is_closed_after_the_waiting_time(served, monkeypatch):
    monkeypatch.setattr(guard, "WAITING_SECONDS", 0.5)
    start_sharing("127.0.0.1", served.port)
    page = FletClient(served)
    page.register("/")
    page.drain(TIMEOUT)
    assert page.ws.close_code == 1000


def test_no_more_than_the_cap_of_codeless_pages_wait_at_once(served):
    start_sharing("127.0.0.1", served.port)
    waiting = [FletClient(served) for _ in range(guard.MAX_WAITING)]
    assert refused_busy(served)
    waiting.pop().close()
    eventually(lambda: served.guard.waiting < guard.MAX_WAITING, "a place freed")
    waiting.append(FletClient(served))
    for client in waiting:
        client.close()


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="measures memory through /proc (Linux)")
def test_a_thousand_codeless_pages_leave_the_servers_memory_bound(served, caplog):
    """Each page registers (Flet makes it a session, ~40 to 135 KiB) and goes without a
    code: kept for Flet's hour, 800 of them would add some 30 MiB or more."""
    for logger in ("flet_web.fastapi", "asyncio"):  # Flet's reports of pages gone mid-start: kept, they are memory too
        caplog.set_level(logging.CRITICAL, logger=logger)
    start_sharing("127.0.0.1", served.port)

    def visits(count: int) -> None:
        for n in range(count):
            page = FletClient(served)
            if n % 100:
                page.send([REGISTER_CLIENT, {"session_id": None, "page_name": "", "page": {"route": "/"}}])
            else:  # every hundredth waits for its session, so the others surely got one too
                page.register("/")
            page.close()
        eventually(lambda: served.guard.waiting == 0, "every page gone")
        time.sleep(0.2)  # the last pages' sessions are forgotten just after they go
        gc.collect()

    visits(200)  # the server's own first growth: imports, caches, allocator arenas
    before = resident_bytes()
    visits(800)
    assert resident_bytes() - before < 8 * 2**20


def refused_busy(served: Served) -> bool:
    from websockets.exceptions import InvalidStatus

    try:
        FletClient(served).close()
    except InvalidStatus:
        return True
    return False


# --- 6. Nothing the app does not use --------------------------------------------------------


@pytest.mark.parametrize("path", sorted(guard.UNUSED_PATHS))
def test_the_web_api_pages_are_not_served(served, path):
    status, body = get(served, path)
    assert "swagger" not in body.lower() and "openapi" not in body.lower() and "redoc" not in body.lower()
    assert status == 404 or (status, body) == get(served, "/")  # the app's own page, as for any unknown address


def test_a_page_comes_without_the_embedder_policy_so_that_flutter_draws_it_in_one_thread(served):
    """Flet's server asks for cross-origin isolation, under which Flutter's renderer runs in
    two threads that corrupt each other (``guard.page_headers``)."""
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}/", headers={"Host": served.base})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        assert response.status == 200 and "flutter_bootstrap.js" in response.read().decode()
        assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert "Cross-Origin-Embedder-Policy" not in response.headers


def test_a_page_runs_scripts_of_this_site_only(served):
    """Flet's client asks cdn.jsdelivr.net for a script at each start; the page's policy
    keeps the browser from asking (tests/browser/test_screens.py sees it in a browser)."""
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}/", headers={"Host": served.base})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        policy = response.headers["Content-Security-Policy"]
    sources = policy.removeprefix("script-src ").split()
    assert policy.startswith("script-src ") and ";" not in policy
    assert [source for source in sources if not source.startswith("'")] == ["blob:"]  # no other site


# --- 7. Never a traceback -------------------------------------------------------------------


def test_a_failing_handler_shows_the_device_one_sentence_not_a_traceback(served):
    page = FletClient(served)
    page.register("/")
    page.drain(0.5)
    page.send([3, {"target": 1, "name": "resize", "data": {"no such field": 1}}])  # Flet fails on it
    crashed = page.until(SESSION_CRASHED)
    assert crashed[1] == {"message": "Something went wrong on this page. Reload the page to go on."}
    page.close()


def arrived_while_away(served: Served, monkeypatch, retry_s: float) -> tuple[session.TableSession, FletClient, Callable[[], None]]:
    """A club's database away (restarting) as a phone opens the join link, its join screen
    trying again by itself every ``retry_s``: the phone's session once the screen says the
    table cannot be reached, the phone, and what brings the database back."""
    from companion.store.errors import StoreError

    monkeypatch.setattr(session, "AWAY_RETRY_S", retry_s)
    table = start_sharing("127.0.0.1", served.port)
    seats = table._seats
    store = seats._open

    def away():
        raise StoreError("The saved games cannot be opened: {reason}", reason="Cannot reach the database at db.club.example")

    monkeypatch.setattr(seats, "_open", away)
    phone = FletClient(served)
    phone.register(f"/?code={table.invitation.code}")

    def waiting() -> session.TableSession | None:
        return next((s for s in list(session._sessions) if s.table is table and s.device is None and s.join.away), None)

    phone.wait_for(waiting, "the join screen says the table cannot be reached")
    arrived = waiting()
    assert arrived is not None
    return arrived, phone, lambda: monkeypatch.setattr(seats, "_open", store)


def let_in(arrived: session.TableSession) -> bool:
    table = arrived.table
    assert table is not None
    return bool(table.devices()) and table.devices()[0].connected


def test_a_phone_arriving_while_the_database_is_away_is_told_so_and_let_in_when_it_tries_again(served, monkeypatch, caplog):
    """A club's database restarting as a phone opens the join link: the join screen says the
    table cannot be reached (no traceback where the server was started, no page left hanging);
    Try again, once the database answers, lets it in with the link's code."""
    arrived, phone, back = arrived_while_away(served, monkeypatch, retry_s=3600)  # the tap lets it in, not the screen's own try
    assert arrived.join_screen.button.content == "Try again"
    back()

    async def try_again() -> None:
        arrived.join_screen.button.on_click()

    served.run(try_again())
    phone.wait_for(lambda: let_in(arrived), "the phone let in")
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
    phone.close()


def test_a_phone_told_the_table_cannot_be_reached_comes_in_by_itself_once_the_database_answers(served, monkeypatch):
    """The join screen that says the table cannot be reached tries again by itself: a club's
    phones come back when its database has restarted, without a tap on Try again."""
    arrived, phone, back = arrived_while_away(served, monkeypatch, retry_s=0.05)  # not 5 s: the test waits for the phone, not for the clock
    back()
    phone.wait_for(lambda: let_in(arrived), "the phone let in, with no tap")
    phone.close()


def test_a_join_screen_that_could_not_reach_the_table_tries_at_once_when_its_process_hears_the_database_again(served, monkeypatch):
    """A club's database back (the relay listens again, or the store opens or hears its host):
    the phones on a join screen come in then, not at their next try some seconds later."""
    arrived, phone, back = arrived_while_away(served, monkeypatch, retry_s=3600)  # no try of its own before the test ends
    back()
    threading.Thread(target=session.catch_up_everywhere).start()  # as the relay's or the store's thread calls it
    phone.wait_for(lambda: let_in(arrived), "the phone let in when its process heard the database again")
    phone.close()
