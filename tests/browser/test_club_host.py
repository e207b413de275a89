"""A host's controls on a club server (``companion run --share --workers 2`` on PostgreSQL):
ending a device's access sends that device's page to the join screen, a new join code is
what every device's Share page shows and the old link lets nobody in, and the host is told
how sharing stops. (That each holds across processes whichever process a page is on is
held by tests/store/test_club_tables.py and tests/share/test_access.py; here the kernel
decides which worker takes each page.)"""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import phones
from tests.browser.test_club import club, club_database  # noqa: F401  # the club server, shared with that module

pytestmark = pytest.mark.browser


def test_a_host_takes_a_device_off_the_club_table_and_makes_a_new_join_code(club, chromium, output_dir):  # noqa: F811
    with phones(chromium, output_dir) as open_phone:
        host, leaving, staying = (open_phone(club["base"]) for _ in range(3))
        host.open(club["host"])
        host.wait("new-game")
        for phone in (leaving, staying):
            phone.open(club["join"])
            phone.wait("nav-history")
        leaving.tap("nav-history")  # no code in the address any more
        leaving.page.wait_for_url(re.compile(r".*/history$"), timeout=leaving.step_timeout_ms)
        staying.tap("share")
        old = re.search(r"\w{4}-\w{4}", staying.expect_text("share-code", r"Code \w{4}-\w{4}")).group()

        host.tap("share")
        host.expect_text("share-how-to-stop", r"stop Companion where it runs \(Ctrl\+C\)")
        host.expect_text("device-2", "Watches")
        host.tap("device-2")
        host.until("() => document.activeElement?.tagName === 'INPUT'")  # the dialog is open, its name field focused
        host.tap("device-end")
        leaving.wait("join-screen")  # out at once, whichever process it is on
        host.gone("device-end")
        host.gone("device-2")

        host.tap("new-join-code")
        new = re.search(r"\w{4}-\w{4}", host.expect_text("share-code", rf"Code (?!{old})\w{{4}}-\w{{4}}")).group()
        staying.expect_text("share-code", f"Code {new}")  # the code to pass on is the new one
        leaving.open(club["join"])  # the old link
        leaving.wait("join-error")
        leaving.wait("join-screen")
