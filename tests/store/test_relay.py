"""The club server's processes hear each other's changes through PostgreSQL's LISTEN/NOTIFY
(companion.share.relay): a message sent by one process reaches the others, not itself, nor a
store in another schema of the database, and nothing but the table's own messages is ever
delivered."""

from __future__ import annotations

import queue
import threading

import pytest

from companion.share import relay
from companion.share.live import (
    DeviceEnded,
    DevicesChanged,
    EveningChanged,
    GameChanged,
    GamesRestored,
    JoinCodeChanged,
    PlayersChanged,
    RoleChanged,
)

EVERY_MESSAGE = (GameChanged(7, 3), PlayersChanged(), GamesRestored(), EveningChanged(4), DevicesChanged(), RoleChanged(2), DeviceEnded(4), JoinCodeChanged())


@pytest.fixture
def postgres_url(store_url, backend):
    if backend != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's; with SQLite the server is one process")
    return store_url


def listening(url: str) -> tuple[relay.Relay, queue.Queue]:
    heard: queue.Queue = queue.Queue()
    process = relay.Relay(url, heard.put)
    process.start()
    assert process.listening.wait(10)
    return process, heard


@pytest.mark.postgres
def test_a_change_sent_by_one_process_reaches_the_other_and_not_itself(postgres_url):
    (one, heard_by_one), (other, heard_by_other) = listening(postgres_url), listening(postgres_url)
    try:
        for message in EVERY_MESSAGE:
            one.send(message)
            assert heard_by_other.get(timeout=10) == message
        other.send(GameChanged(7, 4))
        assert heard_by_one.get(timeout=10) == GameChanged(7, 4)
        assert heard_by_one.empty() and heard_by_other.empty()
    finally:
        one.stop()
        other.stop()


@pytest.mark.postgres
def test_a_store_in_another_schema_of_the_database_never_hears_this_one(postgres_url):
    """Two clubs (or two test workers) with stores in schemas of one database: a device ended
    at one is not ended at the other, where the same number is another device."""
    from tests.store.conftest import _fresh, _postgres_url

    elsewhere_url = _postgres_url("elsewhere", _fresh)
    (here, _), (also_here, heard_here) = listening(postgres_url), listening(postgres_url)
    (elsewhere, heard_elsewhere), (also_elsewhere, _) = listening(elsewhere_url), listening(elsewhere_url)
    try:
        here.send(DeviceEnded(4))
        assert heard_here.get(timeout=10) == DeviceEnded(4)
        also_elsewhere.send(GameChanged(1, 1))  # after it: NOTIFY delivers in the order of commit
        assert heard_elsewhere.get(timeout=10) == GameChanged(1, 1)
        assert heard_elsewhere.empty()
    finally:
        for process in (here, also_here, elsewhere, also_elsewhere):
            process.stop()


@pytest.mark.parametrize(
    "payload",
    ["", "null", "[]", '{"kind": "GameChanged"}', '{"kind": "Shutdown", "origin": "x"}',
     '{"kind": "GameChanged", "origin": "x", "game_id": "7", "version": 1}',
     '{"kind": "GameChanged", "origin": "x", "game_id": true, "version": 1}', '{"kind": "__class__", "origin": "x"}'],
)  # fmt: skip
def test_a_notification_that_is_not_one_of_the_tables_messages_is_ignored(payload):
    assert relay.decode(payload) is None


def test_every_message_survives_the_channel():
    assert {type(message) for message in EVERY_MESSAGE} == set(relay.MESSAGES.values())
    for message in EVERY_MESSAGE:
        assert relay.decode(relay.encode(message, "me")) == (message, "me")


@pytest.mark.postgres
def test_a_process_that_lost_the_channel_for_a_moment_catches_up_when_it_listens_again(postgres_url):
    import sqlalchemy as sa

    caught_up = queue.Queue()
    heard: queue.Queue = queue.Queue()
    process = relay.Relay(postgres_url, heard.put, catch_up=lambda: caught_up.put(True))
    process.start()
    try:
        assert process.listening.wait(10)
        lost = process.backend_pid
        engine = sa.create_engine(postgres_url)
        with engine.begin() as conn:  # as a database restart or a network hiccup would
            conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": lost})
        engine.dispose()
        assert caught_up.get(timeout=30) is True
        assert process.backend_pid != lost
        other, _ = listening(postgres_url)
        other.send(GameChanged(3, 2))
        assert heard.get(timeout=10) == GameChanged(3, 2)  # and hears what comes after
        other.stop()
    finally:
        process.stop()


@pytest.mark.postgres
def test_a_catch_up_the_store_could_not_read_is_tried_again_and_the_channel_still_heard(postgres_url):
    """The database away for a moment: the relay's connection is lost, and reading what was
    missed may fail too. The relay then listens and catches up again; it does not stop."""
    import sqlalchemy as sa

    from companion.store.errors import StoreError

    tries: queue.Queue = queue.Queue()
    count = [0]

    def catch_up() -> None:
        count[0] += 1
        tries.put(count[0])
        if count[0] == 1:
            raise StoreError("Cannot reach the database at {where}.", where="db.club.example")

    heard: queue.Queue = queue.Queue()
    process = relay.Relay(postgres_url, heard.put, catch_up=catch_up)
    process.start()
    try:
        assert process.listening.wait(10)
        engine = sa.create_engine(postgres_url)
        with engine.begin() as conn:  # as a database restart would
            conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": process.backend_pid})
        engine.dispose()
        assert [tries.get(timeout=30), tries.get(timeout=30)] == [1, 2]  # the failed catch-up, and the one after it
        other, _ = listening(postgres_url)
        other.send(GameChanged(3, 2))
        assert heard.get(timeout=10) == GameChanged(3, 2)
        other.stop()
    finally:
        process.stop()


def test_changes_that_cannot_be_told_are_said_once_in_the_terminal_and_so_is_their_return(postgres_url, caplog):
    """While the database is away every change fails to reach the other processes (they read
    the table again when they listen again): the host's terminal says so once, not at every
    change of a hundred phones, and says when changes reach them again."""
    process = relay.Relay("postgresql+psycopg://nobody:secret@127.0.0.1:9/nothing", lambda message: None)
    for _change in range(3):
        process.send(DevicesChanged())
    process._conninfo = relay.conninfo(postgres_url)  # the database answers again
    process.send(DevicesChanged())
    process.send(DevicesChanged())
    assert [r.getMessage() for r in caplog.records if r.name == relay.log.name] == [
        "companion: a change could not be told to the other server processes.",
        "companion: changes reach the other server processes again.",
    ]


@pytest.mark.postgres
def test_while_the_database_host_is_silent_a_change_is_not_waited_for_and_is_told_once_it_answers(postgres_url, monkeypatch, caplog):
    """Each try to reach a silent host waits the connect timeout, and the page that saved
    waits with it: after one such try the relay keeps the changes to tell, until its
    listening connection hears the host again."""
    import psycopg
    from sqlalchemy.engine import make_url

    from bench.link import DelayedLink
    from companion.store import database

    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)
    server = make_url(postgres_url)
    with DelayedLink(server.port or 5432, 0.0) as link:
        linked = server.set(host="127.0.0.1", port=link.port).render_as_string(hide_password=False)
        process, _ = listening(linked)
        other, heard_by_other = listening(postgres_url)
        try:
            link.silence()
            process.send(DevicesChanged())  # waits the connect timeout
            tries: list[int] = []  # by the thread that sends (the listening thread tries the host meanwhile)
            connect = psycopg.connect
            monkeypatch.setattr(psycopg, "connect", lambda *args, **kwargs: tries.append(threading.get_ident()) or connect(*args, **kwargs))
            process.send(GameChanged(3, 2))
            process.send(DevicesChanged())
            assert threading.get_ident() not in tries, "the silent host was asked again, and the page that saved waited for it"

            link.mend()  # the messages kept meanwhile are told, each once, in their order
            assert [heard_by_other.get(timeout=60), heard_by_other.get(timeout=10)] == [DevicesChanged(), GameChanged(3, 2)]
            process.send(GameChanged(3, 3))
            assert heard_by_other.get(timeout=10) == GameChanged(3, 3)
            assert heard_by_other.empty()
        finally:
            process.stop()
            other.stop()
    assert [r.getMessage() for r in caplog.records if r.name == relay.log.name] == [
        "companion: a change could not be told to the other server processes.",
        "companion: changes reach the other server processes again.",
    ]


@pytest.mark.postgres
def test_a_change_made_while_the_store_finds_the_host_silent_is_kept_at_once_and_told_once_the_store_hears_it(postgres_url, monkeypatch):
    """The store has waited for a silent host once already (a page's connection counted, say):
    the relay's message that follows is kept at once, not sent after one more wait."""
    import psycopg

    host_silent = [True]
    process = relay.Relay(postgres_url, lambda message: None, host_silent=lambda: host_silent[0])
    process.start()
    other, heard_by_other = listening(postgres_url)
    try:
        assert process.listening.wait(10)
        tries: list[int] = []
        connect = psycopg.connect
        monkeypatch.setattr(psycopg, "connect", lambda *args, **kwargs: tries.append(threading.get_ident()) or connect(*args, **kwargs))
        process.send(GameChanged(3, 2))
        assert threading.get_ident() not in tries, "the relay tried the host the store finds silent"
        host_silent[0] = False  # the store hears it again
        assert heard_by_other.get(timeout=10) == GameChanged(3, 2)
        assert heard_by_other.empty()
    finally:
        process.stop()
        other.stop()
