"""A game mode is the game, alone or in teams, and what ends it: each mode keeps its own average."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from companion.store import PlayerResult
from companion.ui.modes import by_mode, mode_of, wins_over_time

FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]}
WHEN = datetime(2026, 3, 14, tzinfo=timezone.utc)


def result(ruleset, options=None, teams=None, players=FOUR, score=0, won=False) -> PlayerResult:
    return PlayerResult(1, ruleset, list(players), dict(options or {}), teams, WHEN, score, won)


@pytest.mark.parametrize(
    "ruleset, options, teams, players, label",
    [
        ("clubs", {}, None, FOUR, "CLUBS · alone · to 50"),
        ("clubs", {}, TEAMS, FOUR, "CLUBS · in teams · to 100"),
        ("clubs", {"target": 75}, None, FOUR, "CLUBS · alone · to 75"),
        ("klaverjassen", {}, TEAMS, FOUR, "Klaverjassen · in teams · to 501"),
        ("klaverjassen", {"ending": "boompje"}, TEAMS, FOUR, "Klaverjassen · in teams · 16 deals"),
        ("beverbende", {}, None, FOUR, "Beverbende · alone · 4 rounds"),
        ("beverbende", {}, None, FOUR[:2], "Beverbende · alone · 4 rounds"),
        ("beverbende", {"ending": "rounds", "rounds": 7}, None, FOUR, "Beverbende · alone · 7 rounds"),
        ("beverbende", {"ending": "elimination"}, None, FOUR, "Beverbende · alone · out at 100"),
        ("beverbende", {"ending": "time"}, None, FOUR, "Beverbende · alone · until time is up"),
        ("members_only", {}, None, FOUR, "MEMBERS ONLY · alone"),
    ],
)
def test_each_mode_says_the_game_alone_or_in_teams_and_what_ends_it(ruleset, options, teams, players, label):
    assert mode_of(result(ruleset, options, teams, players)).label == label


def test_games_of_one_mode_share_an_average_and_other_modes_keep_theirs():
    lines = by_mode(
        [
            result("clubs", score=52, won=True),
            result("clubs", teams=TEAMS, score=113, won=True),
            result("clubs", score=30),
        ]
    )
    assert [(l.mode, l.played, l.wins, l.win_rate, l.average, l.best) for l in lines] == [
        ("CLUBS · alone · to 50", "2", "1", "50%", "41.0", "52"),
        ("CLUBS · in teams · to 100", "1", "1", "100%", "113.0", "113"),
    ]


def test_wins_are_counted_up_game_after_game():
    assert wins_over_time([result("clubs", won=w) for w in (True, False, True)]) == [0, 1, 1, 2]
    assert wins_over_time([]) == [0]
