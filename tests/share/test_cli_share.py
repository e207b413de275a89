"""`companion run --share` listens on the network and shares; without it, this machine only."""

from __future__ import annotations

import pytest

from companion import cli
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
