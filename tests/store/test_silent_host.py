"""A database host gone silent (its network down, its machine frozen): it answers no
connection, and each try waits for a timeout. The store and the relay say so in words,
wait seconds and not for ever, and after one such wait stop asking it from the pages'
thread until it answers again (companion.store.database.SILENT_S)."""

from __future__ import annotations

import socket
import threading

import pytest
from sqlalchemy.engine import make_url

from bench.link import DelayedLink
from companion.store import Store, StoreError
from companion.store.errors import UnreachableError


@pytest.fixture
def silent_server(monkeypatch):
    """The address of a database host gone silent: it takes connections and never answers (its
    machine frozen); the connect timeout at libpq's shortest, 2 s."""
    from companion.store import database

    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        yield f"postgresql+psycopg://companion:secret@127.0.0.1:{silent.getsockname()[1]}/companion"


def finished(call) -> BaseException | None:
    """What ``call`` raised, or None; it must end within a minute (before, it waited for ever)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
        except BaseException as err:  # the outcome under test
            outcome.append(err)
        else:
            outcome.append(None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    assert outcome, "still waiting for the database after a minute"
    return outcome[0]


def test_a_database_host_gone_silent_is_said_to_be_unreachable_and_not_waited_for(silent_server):
    """A club's database host whose network went down, or whose machine froze, answers no
    connection: the store says it does not answer, where every page that opened it waited."""
    refused = finished(lambda: Store(silent_server))
    assert isinstance(refused, StoreError) and refused.message == "The database does not answer just now. Try again in a moment."
    assert "timeout" in refused.detail
    for probe in [thread for thread in threading.enumerate() if thread.name == "store-probe"]:
        probe.join(10)
        assert not probe.is_alive(), "the store that could not be opened still tries the host"


def test_a_change_told_to_the_other_processes_while_the_database_host_is_silent_is_not_waited_for(silent_server, caplog):
    """The relay's message after a saved change goes to the same host: it gives up after the
    connect timeout and says so, where the page that saved waited for ever."""
    from companion.share import relay
    from companion.share.live import DevicesChanged

    assert finished(lambda: relay.Relay(silent_server, lambda message: None).send(DevicesChanged())) is None
    assert [r.getMessage() for r in caplog.records] == ["companion: a change could not be told to the other server processes."]


def tcp_options(connection) -> tuple[int, int, int]:
    """What the operating system does with a psycopg connection's socket: how long sent data
    may go unacknowledged (ms), whether it is probed when idle, and after how long (s)."""
    held = socket.socket(fileno=connection.pgconn.socket)
    try:
        return (
            held.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT),
            held.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE),
            held.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE),
        )
    finally:
        held.detach()


def test_a_connection_open_when_the_database_host_goes_silent_is_given_up_in_seconds(store_url, backend):
    """Its network gone, a PostgreSQL server acknowledges nothing: the store's and the relay's
    connections are given up by the operating system 10 s after what they sent went
    unanswered, and probed after 10 s idle, where they waited a quarter of an hour."""
    if backend != "postgresql":
        pytest.skip("a PostgreSQL server's connections")
    from companion.share import relay
    from companion.share.live import DevicesChanged

    with Store(store_url) as store:
        raw = store._engine.raw_connection()
        try:
            assert tcp_options(raw.driver_connection) == (10_000, 1, 10)
        finally:
            raw.close()
    sender = relay.Relay(store_url, lambda message: None)
    sender.send(DevicesChanged())
    try:
        assert tcp_options(sender._sender) == (10_000, 1, 10)
    finally:
        sender._sender.close()


def test_an_address_that_sets_a_timeout_of_its_own_keeps_it():
    from companion.store.database import with_timeouts

    url = with_timeouts(make_url("postgresql+psycopg://club@db.example/companion?connect_timeout=30&tcp_user_timeout=0"))
    assert url.query["connect_timeout"] == "30" and url.query["tcp_user_timeout"] == "0"
    assert url.query["keepalives_idle"] == "10"


def test_while_the_database_host_is_silent_the_store_says_so_at_once_and_pages_read_again_when_it_answers(
    store_url, backend, monkeypatch
):
    """Each try to reach a silent host waits the connect timeout, and a club server's pages
    wait with it: after one such try the store says at once that the database does not
    answer, tries the host in the background, and says when it answers again."""
    if backend != "postgresql":
        pytest.skip("a database server's host")
    from companion.store import database

    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)
    server = make_url(store_url)
    with DelayedLink(server.port or 5432, 0.0) as link:
        with Store(server.set(host="127.0.0.1", port=link.port)) as store:
            game = store.create_game("beverbende", ["Ann", "Bob"])
            answered = threading.Event()
            store.answers_again = answered.set
            asked_by_caller = []
            connect = store._engine.connect

            def counted_connect():
                if threading.current_thread().name != "store-probe":
                    asked_by_caller.append(1)
                return connect()

            monkeypatch.setattr(store._engine, "connect", counted_connect)
            link.silence()
            first = finished(store.in_progress)
            assert isinstance(first, UnreachableError) and "timeout" in first.detail
            asked = len(asked_by_caller)
            for _ in range(3):
                again = finished(lambda: store.open_game(game.id))
                assert isinstance(again, UnreachableError) and again.detail == first.detail
            assert len(asked_by_caller) == asked, "the silent host was asked again, and the caller waited for it"
            assert not answered.is_set()

            link.mend()
            assert answered.wait(60), "the store did not notice the host answering again"
            assert [summary.id for summary in store.in_progress()] == [game.id]


def test_the_pages_refused_while_the_host_was_silent_read_again_once_it_answers(store_url, backend, monkeypatch):
    """A club server's pages said the database does not answer: once its store hears the host
    again, every page that shows stored state reads again, with no tap."""
    if backend != "postgresql":
        pytest.skip("a database server's host")
    from companion.store import database
    from companion.ui.app import SharedStore

    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)
    pages_read_again = threading.Event()
    monkeypatch.setattr("companion.ui.session.catch_up_everywhere", pages_read_again.set)
    server = make_url(store_url)
    with DelayedLink(server.port or 5432, 0.0) as link:
        shared = SharedStore()
        shared.start(server.set(host="127.0.0.1", port=link.port).render_as_string(hide_password=False))
        store = shared.get()
        assert store is not None
        try:
            link.silence()
            assert isinstance(finished(store.in_progress), UnreachableError)
            link.mend()
            assert pages_read_again.wait(60), "the pages were not told that the database answers again"
        finally:
            store.close()
