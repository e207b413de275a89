"""A club server whose PostgreSQL restarts mid-evening (``companion run --share --workers 2``,
its database reached through a link the test cuts: every connection closed, each new one
closed as it comes, to this server alone). A save meanwhile is refused in words and kept; a
phone arriving is told the table cannot be reached; both processes restart meanwhile, and
the devices that were in are asked for no code. Once the database answers, every phone comes
back by itself, the kept round is saved once, and the terminal shows no traceback."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from bench.link import DelayedLink
from tests.browser.phone import STEP_TIMEOUT_MS, phones
from tests.browser.test_club import club_database, club_server, enter, kill_a_worker, stored_totals, workers  # noqa: F401  # club_database: the fixture

pytestmark = pytest.mark.browser

BACK_TIMEOUT_MS = 60_000
"""How long a phone may take to come back once the database answers: a process tries to open
its store again 5 s after it could not, and a join screen tries again every 5 s."""


@pytest.fixture(scope="module")
def club_behind_a_link(club_database, chromium):  # noqa: F811
    url, game = club_database
    database = make_url(url)
    with DelayedLink(database.port or 5432, 0) as link:
        linked = database.set(host="127.0.0.1", port=link.port).render_as_string(hide_password=False)
        with club_server(linked, game, name="club-away") as club:
            yield {**club, "url": url, "link": link}


def test_a_club_whose_database_restarts_mid_evening_loses_nothing_and_every_phone_comes_back(club_behind_a_link, chromium, output_dir):
    club = club_behind_a_link
    game, link = club["game"], club["link"]
    with phones(chromium, output_dir) as open_phone:
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

        link.cut()
        host.tap("enter-round")
        host.wait("entry-key-0")
        host.keys("1230" + "0123")  # Ann 6, Bob 6
        host.tap("entry-save")
        host.expect_text("error", "The database does not answer just now. Try again in a moment.")
        newcomer.open(club["join"])
        newcomer.expect_text("join-error", "The table cannot be reached just now. Try again in a moment.")
        for pid in workers(club["process"]):  # every page now on a process that has not met its device
            kill_a_worker(club["process"], pid)
        for phone in (host, viewer):
            phone.expect_text("join-error", "This page goes back to it by itself as soon as it can.")
            assert phone.el("join-code").count() == 0  # a device that was in needs no code

        link.mend()
        for phone in (host, viewer, newcomer):  # no tap: each comes back by itself
            phone.step_timeout_ms = BACK_TIMEOUT_MS
        host.wait("entry-save")  # back at its form, the round kept on the device
        viewer.expect_text("total-Ann", "Ann 4")
        newcomer.wait("nav-history")
        for phone in (host, viewer, newcomer):
            phone.step_timeout_ms = STEP_TIMEOUT_MS
        host.tap("entry-save")
        host.expect_text("enter-round", "Enter round 3")
        viewer.expect_text("total-Ann", "Ann 10")
        assert stored_totals(club["url"], game) == (10, 14)  # the kept round, saved once
