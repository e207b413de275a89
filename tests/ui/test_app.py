import pytest

from companion.ui.app import SharedStore
from companion.ui.router import stack


@pytest.mark.parametrize(
    "route, pages",
    [
        ("/", ["/"]),
        ("", ["/"]),
        ("/new", ["/", "/new"]),
        ("/game/7", ["/", "/game/7"]),
        ("/game/7/round", ["/", "/game/7/round"]),  # the game's one page, showing the form
        ("/game/7/round/2", ["/", "/game/7/round/2"]),
        ("/history", ["/", "/history"]),
        ("/history/7", ["/", "/history", "/history/7"]),
        ("/players", ["/", "/players"]),
        ("/players/Ann%20Marie", ["/", "/players", "/players/Ann%20Marie"]),
        ("/rules", ["/", "/rules"]),
        ("/settings", ["/", "/settings"]),
        ("/rules/clubs/referee", ["/", "/rules", "/rules/clubs/referee"]),
        ("/rules/poker/referee", ["/"]),
        ("/game/7/rules", ["/", "/game/7", "/game/7/rules"]),
        ("/game/7/referee", ["/", "/game/7", "/game/7/referee"]),
        ("/history/7/rules", ["/", "/history", "/history/7", "/history/7/rules"]),
        ("/history/7/round", ["/"]),
        ("/game/seven", ["/"]),
        ("/game/7/round/x", ["/"]),
        ("/history/old", ["/"]),
        ("/nowhere", ["/"]),
    ],
)
def test_each_route_sits_on_a_stack_that_the_back_arrow_walks_down(route, pages):
    assert stack(route) == pages


def test_the_store_opens_in_the_background_and_is_shared(tmp_path):
    shared = SharedStore()
    shared.start(f"sqlite:///{tmp_path / 'companion.sqlite3'}")
    store = shared.get()
    assert store is not None and shared.problem is None
    assert shared.get() is store  # every session gets the same store
    store.close()


def test_a_database_that_cannot_be_opened_is_explained(tmp_path, capsys):
    shared = SharedStore()
    shared.start(f"sqlite:///{tmp_path / 'missing' / 'companion.sqlite3'}")
    assert shared.get() is None
    assert "cannot be written" in shared.problem  # the store's own words, shown in the page
    assert shared.problem in capsys.readouterr().err  # and printed where the server was started
