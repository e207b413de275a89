"""One registry of games: a game is its own modules plus its id in ``companion.rules.IDS``,
and the shared screens never name a game."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

from companion import rules
from companion.ui.games import UNKNOWN, Board, Look, look
from companion.ui.new_game import NewGameState
from companion.ui.referee import referee_state
from companion.ui.round_entry import entry_state
from companion.ui.round_entry.state import EntryState
from companion.ui.scoreboard import ScoreboardState
from companion.ui.summary import game_card
from tests.rules.tally import Tally
from tests.ui.conftest import NOW, play

PACKAGE = Path(rules.__file__).resolve().parents[1]


# --- a fifth game, added the way a newcomer would ------------------------------------------


class TallyBoard(Board):
    def target(self, game):
        return game.options["target"]


class TallyEntry(EntryState):
    """Points per player, typed in; blank until typed."""

    def __init__(self, game, index=None):
        super().__init__(game, index)
        self.points: dict[str, int | None] = dict.fromkeys(game.sides)

    def entry(self):
        return {"points": {side: value for side, value in self.points.items() if value is not None}}

    @property
    def missing(self):
        return [side for side, value in self.points.items() if value is None]

    @property
    def fields(self):
        return [f"points.{side}" for side in self.points]


class TallyReferee:
    def __init__(self, doubles: bool):
        self.doubles = doubles


def module(name: str, **attributes) -> types.ModuleType:
    made = types.ModuleType(name)
    made.__dict__.update(attributes)
    return made


@pytest.fixture
def tally(monkeypatch):
    """Tally's own modules, one per layer, and its one line in the registry."""
    files = {
        "companion.rules.tally": module("companion.rules.tally", RULESET=Tally()),
        "companion.ui.games.tally": module("companion.ui.games.tally", LOOK=Look("\u2605", "#00695C", TallyBoard())),
        "companion.ui.round_entry.tally": module("companion.ui.round_entry.tally", STATE=TallyEntry),
        "companion.ui.referee.tally": module(
            "companion.ui.referee.tally", new_state=lambda options: TallyReferee(options.get("doubles", False))
        ),
    }
    for name, made in files.items():
        monkeypatch.setitem(sys.modules, name, made)
    monkeypatch.setattr(rules, "IDS", (*rules.IDS, "tally"))
    return "tally"


def test_a_new_game_joins_through_the_registry_and_plays_through_store_board_and_form(store, tally):
    setup = NewGameState([])
    assert [r.id for r in setup.rulesets][-1] == "tally"
    setup.choose("tally")
    for player in ("Ann", "Bob"):
        assert setup.add_player(player)
    setup.set_option_text("target", "99")
    assert setup.problem.startswith("Target: ")  # the option's own label names it
    setup.set_option_text("target", "12")
    record = store.open_game(setup.start(store))

    form = entry_state(record.game)
    assert isinstance(form, TallyEntry) and form.missing == ["Ann", "Bob"] and not form.valid
    form.points.update(Ann=7, Bob=11)
    form.points["Bob"] = 12  # the rules refuse it; the form says so beside Bob's points
    assert form.error_at("points.Bob") and not form.valid
    form.points["Bob"] = 3
    assert form.valid and form.preview().scores == {"Ann": 7, "Bob": 3}
    record = play(store, record.id, [form.entry()])

    board = ScoreboardState(store, record.id)
    assert board.load()
    assert board.progress == "Playing to 12 points"
    assert [(row.name, row.total, row.progress) for row in board.sides()] == [
        ("Ann", 7, pytest.approx(7 / 12)),
        ("Bob", 3, pytest.approx(3 / 12)),
    ]
    assert [row.scores for row in board.rounds()] == [(7, 3)]

    last = entry_state(board.game)
    last.points.update(Ann=2, Bob=10)
    assert board.save(last.entry())
    assert board.status == "finished" and board.banner.title == "Bob wins!"
    assert store.open_game(record.id).game.winners == ["Bob"]
    assert look("tally").mark == "\u2605" and game_card(store.history()[0], NOW).title == "Tally"
    assert referee_state("tally", {"doubles": True}).doubles


@pytest.mark.parametrize("game", rules.IDS)
def test_every_registered_game_has_each_layers_module(game):
    """What the registry promises (companion.rules' docstring) holds for each game."""
    assert rules.get(game).id == game
    assert look(game) != UNKNOWN and isinstance(look(game).board, Board)
    form = rules.game_module("companion.ui.round_entry", game)
    assert issubclass(form.STATE, EntryState) and callable(form.view)
    referee = rules.game_module("companion.ui.referee", game)
    assert callable(referee.new_state) and callable(referee.view)
    assert all((PACKAGE / "reference" / "content" / lang / f"{game}.md").is_file() for lang in ("en", "nl", "de", "fr"))


def test_the_benchmarks_leave_out_a_game_without_a_driver(tally, capsys):
    from bench.long_games import benched

    assert list(benched()) == [game for game in rules.IDS if game != "tally"]
    assert "tally: no bench/long_games/tally.py, left out" in capsys.readouterr().out


def test_a_game_missing_from_the_registry_is_refused_by_name(store):
    with pytest.raises(rules.RuleError, match="no game called 'tally'"):
        store.create_game("tally", ["Ann", "Bob"])
    assert look("tally") == UNKNOWN


# --- shared screens name no game -----------------------------------------------------------


def per_game(path: Path) -> bool:
    """A game's own module: named after its id (``clubs.py``, ``klaverjassen_play.py``)."""
    return any(path.stem == game or path.stem.startswith(f"{game}_") for game in rules.IDS)


SHARED = sorted(
    path
    for path in [*(PACKAGE / "ui").rglob("*.py"), *(PACKAGE / "reference").glob("*.py")]
    if not per_game(path)
)


def test_the_shared_screens_are_found():
    names = {path.relative_to(PACKAGE).as_posix() for path in SHARED}
    assert {"ui/scoreboard.py", "ui/format.py", "ui/theme.py", "ui/new_game.py", "ui/history.py"} <= names
    assert {"ui/round_entry/__init__.py", "ui/referee/__init__.py", "reference/__init__.py"} <= names
    assert not names & {"ui/round_entry/clubs.py", "ui/games/members_only.py", "ui/referee/klaverjassen_play.py"}


@pytest.mark.parametrize("path", SHARED, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_no_shared_screen_names_a_game(path):
    """A fifth game must not need a change here: its id or its name would be a branch for it."""
    names = set(rules.IDS) | {ruleset.name for ruleset in rules.rulesets()}
    word = re.compile(
        r"(?<![A-Za-z0-9])(" + "|".join(re.escape(name) for name in names) + r")(?![A-Za-z0-9])", re.IGNORECASE
    )
    found = [
        f"line {number}: {match[0]}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for match in word.finditer(line)
    ]
    assert found == []
