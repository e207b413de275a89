"""Each game's face on the shared screens: its mark, its colour and how its scoreboard reads.

A game's UI sits beside the other games' in each layer, in a module named after its id:
``games/<id>.py`` (this package: ``LOOK``), ``round_entry/<id>.py`` and ``referee/<id>.py``.
Side by side per layer rather than one package per game, because each layer then stays one
package that imports only downward (the rules know no screen, and the scoreboard, drawn on
the first page, loads no entry form or referee: those load when opened). The shared screens
find a game's module through ``companion.rules.game_module`` and never name a game; the
registry of games is ``companion.rules.IDS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from companion.i18n import _
from companion.rules import Game, RuleError, game_module


class Track(NamedTuple):
    """One marker track beside a side's total (a symbol's track on a board, say)."""

    label: str
    value: int
    counts: bool
    """Whether the track scores yet (drawn stronger)."""


class Board:
    """How a game's scoreboard reads: the shared scoreboard asks this for every line that
    depends on the game. The defaults suit a game with nothing to add; a game overrides
    what it has to say."""

    def target(self, game: Game) -> int | None:
        """The total that ends the game, for each side's progress bar; None without one."""
        return None

    def progress(self, game: Game) -> str:
        """How far the game is, while it is being played: the target by default."""
        target = self.target(game)
        return _("Playing to {target} points").format(target=target) if target else ""

    def goal(self, game: Game) -> str:
        """What ends the game, in a few words ('to 50'), for telling game modes apart in a
        player's statistics; empty for a game with one ending. The target by default."""
        target = self.target(game)
        return _("to {points}").format(points=target) if target else ""

    def side_note(self, game: Game, side: str) -> str:
        """A short line under a side's name (e.g. that it is out); empty for none."""
        return ""

    def tracks(self, game: Game, side: str) -> tuple[Track, ...]:
        """Marker tracks shown under a side's name."""
        return ()

    def round_notes(self, game: Game) -> list[str]:
        """Marks a scoresheet would carry, one per round played (or fewer: the rest blank)."""
        return []


@dataclass(frozen=True)
class Look:
    """A game's badge (a card symbol from the bundled font on its colour) and its scoreboard."""

    mark: str
    colour: str
    board: Board = field(default_factory=Board)


UNKNOWN = Look("\u2663", "#455A64")
"""The badge of a game this version does not know."""


def look(ruleset_id: str) -> Look:
    """The look of game ``ruleset_id`` (``UNKNOWN`` for an id that is no game)."""
    try:
        module = game_module(__name__, ruleset_id)
    except RuleError:
        return UNKNOWN
    found: Look = module.LOOK
    return found
