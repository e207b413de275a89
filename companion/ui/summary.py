"""One line about a game for lists (home, history): who leads or who won."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion import rules
from companion.i18n import _
from companion.ui.format import join_names, points, rounds_played, when


@dataclass(frozen=True)
class GameCard:
    """What a list shows about one stored game; tapping it opens ``game_id``."""

    game_id: int
    ruleset: str
    title: str
    players: str
    result: str
    started: str
    details: str = ""
    """Where the game was played and its note's first line, as far as they are set."""


def leaders(ruleset_id: str, sides: list[str], totals: dict[str, int]) -> list[str]:
    """The sides sharing first place (lowest total first where the ruleset says so)."""
    if not sides:
        return []
    best = (min if rules.get(ruleset_id).lowest_wins else max)(totals.get(s, 0) for s in sides)
    return [s for s in sides if totals.get(s, 0) == best]


def result_line(summary) -> str:
    """'Ann leads with 42 after 3 rounds', 'Ann won with 54', 'Abandoned after 2 rounds'."""
    played = summary.rounds_played
    teams = list(summary.sides) != list(summary.players)  # a team is named as many: "Ann & Cy lead"
    if summary.status == "abandoned":
        return _("Abandoned after {rounds}").format(rounds=rounds_played(played))
    if summary.status == "finished":
        winners = list(summary.winners)
        if len(winners) > 1:
            return _("{names} shared the win with {points}").format(
                names=join_names(winners), points=points(summary.totals[winners[0]])
            )
        if winners:
            won = _("{team} won with {points}") if teams else _("{name} won with {points}")
            return won.format(team=winners[0], name=winners[0], points=points(summary.totals[winners[0]]))
        return _("Finished after {rounds}").format(rounds=rounds_played(played))
    if played == 0:
        return _("No rounds yet")
    top = leaders(summary.ruleset, list(summary.sides), dict(summary.totals))
    if len(top) > 1:
        return _("{names} share the lead with {points} after {rounds}").format(
            names=join_names(top), points=points(summary.totals[top[0]]), rounds=rounds_played(played)
        )
    line = _("{name} lead with {points} after {rounds}") if teams else _("{name} leads with {points} after {rounds}")
    return line.format(name=top[0], points=points(summary.totals[top[0]]), rounds=rounds_played(played))


def game_card(summary, now: datetime) -> GameCard:
    return GameCard(
        game_id=summary.id,
        ruleset=summary.ruleset,
        title=rules.get(summary.ruleset).name,
        players=join_names(list(summary.players)),
        result=result_line(summary),
        started=when(summary.created_at, now),
        details=" · ".join(t for t in (summary.location, summary.note.partition("\n")[0]) if t),
    )
