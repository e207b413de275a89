"""A club server whose PostgreSQL goes away mid-evening (``companion run --share --workers 2``,
its database reached through a link the test breaks, to this server alone): the database
restarting (every connection closed, each new one closed as it comes), or its host falling
silent (every connection closed, each new one held unanswered). A save meanwhile is refused
in words and kept; a phone arriving is told the table cannot be reached. Once the database
answers, every phone comes back by itself, the kept round is saved once, and the terminal
shows no traceback."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from bench.link import DelayedLink
from companion.store import Store
from companion.store.database import CONNECT_TIMEOUT_S
from tests.browser.phone import STEP_TIMEOUT_MS, phones
from tests.browser.test_club import club_database, club_server, enter, kill_a_worker, stored_totals, workers  # noqa: F401  # club_database: the fixture

pytestmark = pytest.mark.browser

BACK_TIMEOUT_MS = 60_000
"""How long a phone may take to come back once the database answers: a process tries to open
its store again 5 s after it could not, and a join screen tries again every 5 s."""

SILENT_STEP_TIMEOUT_MS = STEP_TIMEOUT_MS + 3 * CONNECT_TIMEOUT_S * 1000
"""A step while the host is silent: a process's first try to reach it waits the connect
timeout, twice that on a connection already open (and its relay may wait once more)."""


@pytest.fixture(scope="module")
def club_behind_a_link(club_database, chromium):  # noqa: F811
    url, game = club_database
    database = make_url(url)
    with DelayedLink(database.port or 5432, 0) as link:
        linked = database.set(host="127.0.0.1", port=link.port).render_as_string(hide_password=False)
        with club_server(linked, game, name="club-away") as club:
            yield {**club, "url": url, "link": link}


def test_a_club_whose_database_restarts_mid_evening_loses_nothing_and_every_phone_comes_back(club_behind_a_link, chromium, output_dir):
    """Both processes restart while it is away: every page is then on a process that has not
    met its device, and the devices that were in are asked for no code."""
    club = club_behind_a_link
    with phones(chromium, output_dir) as open_phone:
        game, host, viewer, newcomer = at_the_table(club, open_phone)
        refused_while_away(club, club["link"].cut, STEP_TIMEOUT_MS, host, newcomer)
        for pid in workers(club["process"]):
            kill_a_worker(club["process"], pid)
        for phone in (host, viewer):
            phone.expect_text("join-error", "This page goes back to it by itself as soon as it can.")
            assert phone.el("join-code").count() == 0  # a device that was in needs no code
        back_by_themselves(club, game, host, viewer, newcomer)


def test_a_club_whose_database_host_falls_silent_loses_nothing_and_every_phone_comes_back(club_behind_a_link, chromium, output_dir):
    """The host silent (its network down): each process waits for it once, then says at once
    that it does not answer, and hears it again by itself; the round's form then no longer
    says that it does not."""
    club = club_behind_a_link
    with phones(chromium, output_dir) as open_phone:
        game, host, viewer, newcomer = at_the_table(club, open_phone)
        refused_while_away(club, club["link"].silence, SILENT_STEP_TIMEOUT_MS, host, newcomer)
        back_by_themselves(club, game, host, viewer, newcomer)


def at_the_table(club: dict, open_phone) -> tuple:
    """A new game, the host and a viewer on its scoreboard, its first round saved; a
    newcomer's phone, not opened yet."""
    with Store(club["url"]) as store:  # a game of its own: the tests share the server
        game = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "rounds", "rounds": 20}).id
    host, viewer, newcomer = (open_phone(club["base"]) for _ in range(3))
    host.open(club["host"])
    host.wait("new-game")
    viewer.open(club["join"])
    viewer.wait("nav-history")
    for phone in (host, viewer):
        phone.open(f"/game/{game}")
        phone.wait("total-Ann")
    enter(host, "1111" + "2222", 2)  # Ann 4, Bob 8
    viewer.expect_text("total-Ann", "Ann 4")
    return game, host, viewer, newcomer


def refused_while_away(club: dict, go_away, timeout_ms: float, host, newcomer) -> None:
    """The database goes away: the host's save is refused in words, the round kept on its
    form, and the newcomer is told the table cannot be reached."""
    go_away()
    for phone in (host, newcomer):
        phone.step_timeout_ms = timeout_ms
    host.tap("enter-round")
    host.wait("entry-key-0")
    host.keys("1230" + "0123")  # Ann 6, Bob 6
    host.tap("entry-save")
    host.expect_text("error", "The database does not answer just now. Try again in a moment.")
    newcomer.open(club["join"])
    newcomer.expect_text("join-error", "The table cannot be reached just now. Try again in a moment.")


def back_by_themselves(club: dict, game: int, host, viewer, newcomer) -> None:
    """The database answers again: with no tap, the host is on its form with the round kept
    and no word that the database does not answer, the viewer on the board, the newcomer in.
    The kept round saves once."""
    club["link"].mend()
    for phone in (host, viewer, newcomer):
        phone.step_timeout_ms = BACK_TIMEOUT_MS
    host.wait("entry-save")
    host.gone("error")
    viewer.expect_text("total-Ann", "Ann 4")
    newcomer.wait("nav-history")
    for phone in (host, viewer, newcomer):
        phone.step_timeout_ms = STEP_TIMEOUT_MS
    host.tap("entry-save")
    host.expect_text("enter-round", "Enter round 3")
    viewer.expect_text("total-Ann", "Ann 10")
    assert stored_totals(club["url"], game) == (10, 14)  # the kept round, saved once
