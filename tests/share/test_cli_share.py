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


@pytest.mark.parametrize(
    "value, host",
    [
        ("192.168.1.20", True),
        ("fe80::1", True),
        ("companion.local", True),
        ("my-laptop", True),
        ("http://192.168.1.20", False),  # a link, not an address
        ("192.168.1.20:8550", False),  # with a port: the links add their own
        ("999.1.1.1", False),
        ("two words", False),
        ("-dash.example", False),
        ("x" * 64 + ".example", False),  # a label is at most 63 characters
    ],
)
def test_an_address_for_the_phones_is_an_address_or_a_machines_name(value, host):
    assert address.is_host(value) is host


def test_a_share_address_that_is_no_address_is_refused_before_anything_starts(monkeypatch, capsys):
    """The links printed and shown would be broken (http://http://...:8550), and nothing said why."""
    monkeypatch.setenv(address.ADDRESS_VARIABLE, "http://192.168.1.20")
    monkeypatch.setattr(app, "serve", lambda **kwargs: pytest.fail("served"))
    assert cli.main(["run", "--share"]) == 2
    assert "COMPANION_SHARE_ADDRESS names http://192.168.1.20, which is neither an address nor a machine's name" in capsys.readouterr().err
