"""Sharing from inside a running app: an app started without ``--share`` opens itself to
the network from its Share this table page, a phone joins, and the host closes it again.

This machine's network address is played by 127.0.0.2 (COMPANION_SHARE_ADDRESS), which
Linux answers on like any loopback address, so the test needs no network.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import phones, start_app_with_a_game, stop
from tests.share.test_network import reachable

pytestmark = pytest.mark.browser

NETWORK_ADDRESS = "127.0.0.2"


@pytest.fixture(scope="module")
def local_app(tmp_path_factory, chromium):
    """An app started the default way (this machine only), with a Beverbende game in progress."""
    process, port, game_id, log, _database = start_app_with_a_game(
        tmp_path_factory, "share-in-app", [], {"COMPANION_SHARE_ADDRESS": NETWORK_ADDRESS}
    )
    yield {"port": port, "game": game_id, "log": log}
    stop(process)


@pytest.fixture
def browsers(chromium, local_app, output_dir):
    with phones(chromium, output_dir) as open_phone:
        yield lambda address: open_phone(f"http://{address}:{local_app['port']}")


def test_the_host_shares_a_running_app_a_phone_joins_and_sharing_stops_again(browsers, local_app):
    port, game = local_app["port"], local_app["game"]
    host = browsers("127.0.0.1")
    host.open("/")
    host.tap("share")
    host.wait("share-off")
    assert not reachable(NETWORK_ADDRESS, port)  # by default nobody else can reach the app

    host.tap("start-sharing")
    code = re.search(r"Code (\w{4}-\w{4})", host.expect_text("share-code", r"Code \w{4}-\w{4}")).group(1)
    join_url = host.expect_text("share-address", rf"http://{NETWORK_ADDRESS}:{port}/\?code=").strip()
    assert join_url == f"http://{NETWORK_ADDRESS}:{port}/?code={code.replace('-', '')}"
    host.expect_text("share-you", "you host this table")
    printed = local_app["log"].read_text()
    assert f"Join link: {join_url}" in printed and "Host link" in printed  # the terminal has the host link

    phone = browsers(NETWORK_ADDRESS)
    phone.open(join_url[len(phone.base_url):])
    phone.wait("nav-history")  # in, as a viewer: the games, not New game
    assert phone.el("new-game").count() == 0
    phone.open(f"/game/{game}")
    phone.expect_text("total-Ann", "Ann 0")
    host.expect_text("device-2", "Watches")

    host.open("/share")  # a reload: the host's browser comes back as the host
    host.expect_text("share-you", "you host this table")

    host.tap("stop-sharing")
    host.wait("share-off")
    host.wait("start-sharing")  # and it can be shared again
    assert not reachable(NETWORK_ADDRESS, port)
    assert reachable("127.0.0.1", port)
    host.open("/")  # this machine is its only user again, without a code
    host.wait("new-game")

    host.open("/share")  # shared again: a new code, and the phone that joined before is out
    host.tap("start-sharing")
    new_code = re.search(r"Code (\w{4}-\w{4})", host.expect_text("share-code", r"Code \w{4}-\w{4}")).group(1)
    assert new_code != code
    phone.open(f"/game/{game}")  # with its old device key, and its old code in no link
    phone.wait("join-screen")
