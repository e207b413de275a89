"""`companion run --share` listens on the network and shares; without it, this machine only."""

from __future__ import annotations

import pytest

from companion import cli
from companion.share import address, sharing
from companion.ui import app


@pytest.mark.parametrize(
    "argv, host, share",
    [
        ([], "127.0.0.1", False),
        (["run"], "127.0.0.1", False),
        (["--share"], "0.0.0.0", True),
        (["run", "--share", "--port", "9000"], "0.0.0.0", True),
        (["run", "--share", "--host", "127.0.0.1"], "127.0.0.1", True),
        (["run", "--share", "--host", "192.168.1.5"], "192.168.1.5", True),
        (["run", "--host", "localhost"], "localhost", False),
        (["run", "--host", "::1"], "::1", False),
        # listening where others can reach it always asks them for the code
        (["run", "--host", "0.0.0.0"], "0.0.0.0", True),
        (["run", "--host", "192.168.1.5"], "192.168.1.5", True),
    ],
)
def test_the_table_is_shared_exactly_when_others_can_reach_it(monkeypatch, argv, host, share):
    started = {}
    monkeypatch.setattr(app, "serve", lambda **kwargs: started.update(kwargs))
    assert cli.main(argv) == 0
    assert (started["host"], started["share"]) == (host, share)


@pytest.mark.parametrize(
    "host, configured, reached",
    [
        ("0.0.0.0", "", "10.0.0.7"),  # the network address Companion finds
        ("0.0.0.0", "192.168.1.20", "192.168.1.20"),  # a machine with several networks: the one named
        ("192.168.1.5", "192.168.1.20", "192.168.1.5"),  # listening on one address: that one
    ],
)
def test_the_printed_links_name_the_address_the_phones_reach(monkeypatch, host, configured, reached):
    """docs/sharing.md: with several networks, $COMPANION_SHARE_ADDRESS names the right one,
    for `companion run --share` as for Share this table."""
    monkeypatch.setenv(address.ADDRESS_VARIABLE, configured)
    monkeypatch.setattr(address, "lan_address", lambda: "10.0.0.7")
    try:
        printed = sharing.announcement(sharing.start_sharing(host, 8550))
    finally:
        sharing.stop_sharing()
    assert f"open http://{reached}:8550 and type the code" in printed
