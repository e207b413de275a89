"""A finished game as a play for BG Stats, the app many players log their plays in.

BG Stats documents a "create play" link: ``bgstats://app.bgstatsapp.com/createPlay.html``
with one query parameter, ``data``, holding the play as URL-encoded JSON. ``sourceName``
and ``sourcePlayId`` name where a play comes from: BG Stats matches a play sent again by
them and does not log it twice, so the game's stored uuid (never reused, kept by backups)
is the play's id. Players are matched by ``sourcePlayerId``: a saved name is unique here.
"""

from __future__ import annotations

import json
from datetime import timezone
from urllib.parse import quote

from companion.store import GameRecord

CREATE_PLAY = "bgstats://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Companion"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
"""BG Stats reads ``playDate`` as UTC in this form, not ISO 8601."""


def play(record: GameRecord) -> dict:
    """The play BG Stats logs for a finished game: game, date, players, scores, winners."""
    game = record.game
    ended = record.finished_at or record.created_at
    winners = set(game.winners)
    team_of = {member: team for team, members in (game.teams or {}).items() for member in members}
    players = []
    for name in game.players:
        side = team_of.get(name, name)
        player = {"name": name, "sourcePlayerId": name, "score": game.totals[side], "winner": side in winners}
        if name in team_of:
            player["team"] = side
        players.append(player)
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.uuid,
        "playDate": ended.astimezone(timezone.utc).strftime(DATE_FORMAT),
        "game": {
            "name": game.ruleset.name,
            "sourceGameId": game.ruleset.id,
            "highestWins": not game.ruleset.lowest_wins,
            "noPoints": False,
            "cooperative": False,
        },
        "players": players,
    }
    if record.location:
        data["location"] = record.location
    if record.note:
        data["comments"] = record.note
    return data


def create_play_link(record: GameRecord) -> str:
    """The link that opens BG Stats with the finished game filled in as a new play."""
    text = json.dumps(play(record), ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(text, safe='')}"
