"""The backup file format and the CSV round table: parsing, checking and writing files.

A backup is one JSON document::

    {"format": "companion-backup", "version": 1, "exported_at": "...",
     "players": [{"name": "Ann", "created_at": "..."}],
     "games": [{"uuid": "...", "ruleset": "clubs", "players": [...], "options": {...},
                "teams": {...} | null, "status": "finished", "created_at": "...",
                "finished_at": "..." | null, "note": "", "location": "",
                "rounds": [{"entry": {...}, "entered_at": "...", "edited_at": null}]}],
     "evenings": [{"name": "Tuesday", "season": "2026", "options": {...},
                   "odd_players": "sit_out", "sit_out": {"kind": "average", "fixed": 0},
                   "prizes": {"places": 3, ...}, "fixed_pairs": false, "seed": 7,
                   "created_at": "...", "closed_at": "..." | null,
                   "players": [{"name": "Ann", "present": true}],
                   "rounds": [{"draw": {"tables": [[...4 names]], "sitting_out": [...]},
                               "games": ["<game uuid of table 1>", ...]}]}]}

Times are ISO 8601 with a UTC offset. Each game's ``uuid`` stays the same on every
device, so importing the same backup twice adds nothing the second time. A club evening is
the same evening when its name and creation time are, or when one of its tables' games is
already a table of an evening here. ``evenings`` is optional (backups from before club
evenings have none).
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
import uuid as uuid_module
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Literal, overload

from companion import rules
from companion.rules import Game, RuleError
from companion.rules.club import CLUB_GAME, ODD_PLAYERS, Draw, PrizeRule, SitOutScore, is_joker
from companion.rules.text import Phrase
from companion.store.errors import StoreError
from companion.store.records import STATUSES

FORMAT = "companion-backup"
VERSION = 1
DEPTH = 32
"""How deeply a backup's lists and name: value pairs may nest (its own format needs 8)."""
EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=timezone.utc), datetime(3000, 1, 1, tzinfo=timezone.utc)
"""Times a backup may hold: every time zone can show them (year 1 or 9999 cannot be)."""
CSV_COLUMNS = (
    "game_id", "game_uuid", "ruleset", "status", "created_at",
    "round", "entered_at", "edited_at", "side", "points", "total",
)


@dataclass(frozen=True)
class BackupPlayer:
    name: str
    created_at: datetime


@dataclass(frozen=True)
class BackupRound:
    entry: dict[str, Any]
    entered_at: datetime
    edited_at: datetime | None


@dataclass(frozen=True)
class BackupGame:
    """A game read from a backup, already replayed through its rules (``game``)."""

    uuid: str
    game: Game
    status: str
    created_at: datetime
    finished_at: datetime | None
    note: str
    location: str
    rounds: list[BackupRound]


@dataclass(frozen=True)
class BackupEvening:
    """A club evening read from a backup: its setup, players and rounds, each round's tables
    linked to games of the same backup by uuid (``games``, in table order)."""

    name: str
    season: str
    options: dict[str, Any]
    odd_players: str
    sit_out: SitOutScore
    prize_rule: PrizeRule
    fixed_pairs: bool
    seed: int
    created_at: datetime
    closed_at: datetime | None
    players: list[tuple[str, bool]]
    rounds: list[tuple[Draw, list[str]]]


def timestamp(value: datetime | None) -> str | None:
    return value.astimezone(timezone.utc).isoformat() if value is not None else None


def game_document(
    uuid: str, ruleset: str, players: list[str], options: dict[str, Any], teams: dict[str, list[str]] | None,
    status: str, created_at: datetime, finished_at: datetime | None,
    note: str, location: str, rounds: list[tuple[dict[str, Any], datetime, datetime | None]],
) -> dict[str, Any]:
    """One game as saved (its setup and raw rounds), whether or not the rules still accept it."""
    return {
        "uuid": uuid,
        "ruleset": ruleset,
        "players": list(players),
        "options": dict(options),
        "teams": {name: list(members) for name, members in teams.items()} if teams else None,
        "status": status,
        "created_at": timestamp(created_at),
        "finished_at": timestamp(finished_at),
        "note": note,
        "location": location,
        "rounds": [
            {"entry": entry, "entered_at": timestamp(entered), "edited_at": timestamp(edited)}
            for entry, entered, edited in rounds
        ],
    }


def evening_document(
    name: str, season: str, options: dict[str, Any], odd_players: str, sit_out: str, sit_out_fixed: int,
    prizes: dict[str, Any], fixed_pairs: bool, seed: int, created_at: datetime, closed_at: datetime | None,
    players: list[tuple[str, bool]], rounds: list[tuple[dict[str, Any], list[str]]],
) -> dict[str, Any]:
    """One club evening as saved; its rounds' tables name their games by uuid."""
    return {
        "name": name,
        "season": season,
        "options": dict(options),
        "odd_players": odd_players,
        "sit_out": {"kind": sit_out, "fixed": sit_out_fixed},
        "prizes": dict(prizes),
        "fixed_pairs": fixed_pairs,
        "seed": seed,
        "created_at": timestamp(created_at),
        "closed_at": timestamp(closed_at),
        "players": [{"name": player, "present": present} for player, present in players],
        "rounds": [{"draw": draw, "games": list(games)} for draw, games in rounds],
    }


def document(
    players: list[BackupPlayer], games: list[dict[str, Any]], exported_at: datetime,
    evenings: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timestamp(exported_at),
        "players": [{"name": p.name, "created_at": timestamp(p.created_at)} for p in players],
        "games": games,
        "evenings": evenings or [],
    }


def parse(text: str, source: str) -> tuple[list[BackupPlayer], list[BackupGame], list[BackupEvening]]:
    """Read and check a whole backup; StoreError says what is wrong and where."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise StoreError(
            "{source} is not a Companion backup: its JSON is broken at line {line}, column {column}.",
            source=source, line=err.lineno, column=err.colno,
        ) from None
    except RecursionError:
        raise StoreError("{source} is not a Companion backup: it nests far too deeply.", source=source) from None
    except ValueError:  # a number of thousands of digits
        raise StoreError("{source} is not a Companion backup: it holds a number far too long.", source=source) from None
    if nesting(data) > DEPTH:
        raise StoreError("{source} is not a Companion backup: it nests far too deeply.", source=source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoreError("{source} is not a Companion backup.", source=source)
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StoreError("{source} has no valid backup format version.", source=source)
    if version > VERSION:
        raise StoreError(
            "{source} was made by a newer Companion (backup format {version}); "
            "this one reads format {readable}. Update Companion to import it.",
            source=source, version=version, readable=VERSION,
        )
    players_data = _field(data, "players", list, source)
    games_data = _field(data, "games", list, source)
    players = [
        _player(p, Phrase("{source}, player {number}", source=source, number=i)) for i, p in enumerate(players_data, 1)
    ]
    games = [_game(g, Phrase("{source}, game {number}", source=source, number=i)) for i, g in enumerate(games_data, 1)]
    seen: set[str] = set()
    for i, game in enumerate(games, 1):
        if game.uuid in seen:
            raise StoreError(
                "{source}, game {number}: the game id {game_id} appears twice.",
                source=source, number=i, game_id=game.uuid,
            )
        seen.add(game.uuid)
    by_uuid = {game.uuid: game.game for game in games}
    evenings = [
        _evening(e, Phrase("{source}, club evening {number}", source=source, number=i), by_uuid)
        for i, e in enumerate(_field(data, "evenings", list, source, optional=True) or [], 1)
    ]
    links = [link for evening in evenings for _, own in evening.rounds for link in own]
    if len(set(links)) != len(links):
        raise StoreError("{source}: a game is the table of more than one club evening round.", source=source)
    return players, games, evenings


def _field(data: Any, name: str, kind: type | tuple[type, ...], where: str | Phrase, optional: bool = False) -> Any:
    if not isinstance(data, dict):
        raise StoreError("{where}: expected name: value pairs.", where=where)
    if name not in data:
        if optional:
            return None
        raise StoreError("{where}: {name!r} is missing.", where=where, name=name)
    value = data[name]
    if optional and value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise StoreError("{where}: {name!r} has the wrong type.", where=where, name=name)
    return value


@overload
def _time(data: Any, name: str, where: str | Phrase, optional: Literal[False] = False) -> datetime: ...
@overload
def _time(data: Any, name: str, where: str | Phrase, optional: Literal[True]) -> datetime | None: ...
def _time(data: Any, name: str, where: str | Phrase, optional: bool = False) -> datetime | None:
    text = _field(data, name, str, where, optional)
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise StoreError(
            "{where}: {name!r} is not a date and time: {text!r}.", where=where, name=name, text=text
        ) from None
    if value.tzinfo is None:
        raise StoreError("{where}: {name!r} has no time zone: {text!r}.", where=where, name=name, text=text)
    in_utc: datetime | None
    try:
        in_utc = value.astimezone(timezone.utc)
    except OverflowError:  # e.g. 9999-12-31T23:59:59-23:59 is past the year 9999 in UTC
        in_utc = None
    if in_utc is None or not EARLIEST <= in_utc < LATEST:
        raise StoreError(
            "{where}: {name!r} must be a time between the years {first} and {last}, not {text!r}.",
            where=where, name=name, first=EARLIEST.year, last=LATEST.year - 1, text=text,
        )
    return in_utc


def _player(data: Any, where: Phrase) -> BackupPlayer:
    name = _field(data, "name", str, where).strip()
    if not name:
        raise StoreError("{where}: a player has no name.", where=where)
    return BackupPlayer(name, _time(data, "created_at", where))


def _round(data: Any, where: Phrase) -> BackupRound:
    return BackupRound(
        _field(data, "entry", dict, where),
        _time(data, "entered_at", where),
        _time(data, "edited_at", where, optional=True),
    )


def _game(data: Any, where: Phrase) -> BackupGame:
    game_uuid = _field(data, "uuid", str, where)
    try:
        game_uuid = str(uuid_module.UUID(game_uuid))
    except ValueError:
        raise StoreError("{where}: {game_id!r} is not a game id.", where=where, game_id=game_uuid) from None
    where = Phrase("{where} ({game_id})", where=where, game_id=game_uuid)
    status = _field(data, "status", str, where)
    if status not in STATUSES:
        raise StoreError("{where}: unknown status {status!r}.", where=where, status=status)
    rounds = [
        _round(r, Phrase("{where}, round {number}", where=where, number=i))
        for i, r in enumerate(_field(data, "rounds", list, where), 1)
    ]
    try:
        ruleset = rules.get(_field(data, "ruleset", str, where))
        start = ruleset.new_game(
            _field(data, "players", list, where),
            _field(data, "options", dict, where),
            _field(data, "teams", dict, where, optional=True),
        )
        game = Game.replay(ruleset, start.setup, [r.entry for r in rounds])
    except RuleError as err:
        raise StoreError("{where} breaks the rules: {reason}", where=where, reason=err) from None
    created_at = _time(data, "created_at", where)
    finished_at = _time(data, "finished_at", where, optional=True)
    if game.over:
        status = "finished"
        finished_at = finished_at or (rounds[-1].entered_at if rounds else created_at)
    else:
        status = "abandoned" if status == "abandoned" else "in_progress"
        finished_at = None
    return BackupGame(
        game_uuid, game, status, created_at, finished_at,
        _field(data, "note", str, where), _field(data, "location", str, where), rounds,
    )


def _evening(data: Any, where: Phrase, games: dict[str, Game]) -> BackupEvening:
    """One evening, checked as the organiser's screens check a new one, its tables against
    their games: each table's game is in the backup and seats the table's four players."""
    name = _field(data, "name", str, where).strip()
    if not name:
        raise StoreError("{where}: the evening has no name.", where=where)
    where = Phrase("{where} ({name})", where=where, name=name)
    players = []
    for i, player in enumerate(_field(data, "players", list, where), 1):
        at = Phrase("{where}, player {number}", where=where, number=i)
        players.append((_field(player, "name", str, at).strip(), _field(player, "present", bool, at)))
    sit_out = _field(data, "sit_out", dict, where)
    try:
        options = dict(rules.get(CLUB_GAME).new_game(["1", "2", "3", "4"], _field(data, "options", dict, where)).options)
        sit_out_score = SitOutScore(_field(sit_out, "kind", str, where), _field(sit_out, "fixed", int, where))
        prizes = _field(data, "prizes", dict, where)
        prize_rule = PrizeRule(
            _field(prizes, "places", int, where), _field(prizes, "formule_van_4", bool, where),
            _field(prizes, "booby", bool, where), _field(prizes, "most_pits", bool, where),
            bool(_field(prizes, "fewer_nats_first", bool, where, optional=True)),  # not in backups before it
        )
    except RuleError as err:
        raise StoreError("{where} breaks the rules: {reason}", where=where, reason=err) from None
    odd_players = _field(data, "odd_players", str, where)
    if odd_players not in ODD_PLAYERS:
        raise StoreError("{where}: unknown choice for players left over {choice!r}.", where=where, choice=odd_players)
    names = {player for player, _ in players}
    if len(names) != len(players) or "" in names:
        raise StoreError("{where}: every player is checked in once, by name.", where=where)
    rounds = []
    for number, one in enumerate(_field(data, "rounds", list, where), 1):
        at = Phrase("{where}, round {number}", where=where, number=number)
        draw_data = _field(one, "draw", dict, at)
        tables = _field(draw_data, "tables", list, at)
        sitting_out = _field(draw_data, "sitting_out", list, at)
        links = _field(one, "games", list, at)
        if not all(isinstance(seats, list) and len(seats) == 4 for seats in tables) or len(links) != len(tables):
            raise StoreError("{where}: each table needs four seats and one game.", where=at)
        if not all(isinstance(player, str) for player in [*sitting_out, *(p for seats in tables for p in seats)]):
            raise StoreError("{where}: the draw seats a player who is not checked in.", where=at)
        draw = Draw.from_json({"tables": tables, "sitting_out": sitting_out})
        if len(set(draw.seated) | set(draw.sitting_out)) != len(draw.seated) + len(draw.sitting_out):
            raise StoreError("{where}: the draw seats a player twice.", where=at)
        if not all(player in names or is_joker(player) for player in (*draw.seated, *draw.sitting_out)):
            raise StoreError("{where}: the draw seats a player who is not checked in.", where=at)
        for table, link in zip(draw.tables, links):
            game = games.get(link) if isinstance(link, str) else None
            if game is None or game.ruleset.id != CLUB_GAME or tuple(game.players) != table.seats:
                raise StoreError(
                    "{where}: table {table}'s game is not in the backup with the table's four players.",
                    where=at, table=table.number,
                )
        rounds.append((draw, [str(link) for link in links]))
    seed = _field(data, "seed", int, where)
    if not 0 <= seed < 2**31:
        raise StoreError("{where}: the draw's seed must be a whole number from 0 to {most}.", where=where, most=2**31 - 1)
    return BackupEvening(
        name, _field(data, "season", str, where).strip(), options, odd_players, sit_out_score, prize_rule,
        _field(data, "fixed_pairs", bool, where), seed, _time(data, "created_at", where),
        _time(data, "closed_at", where, optional=True), players, rounds,
    )


def nesting(value: Any) -> int:
    """How deeply lists and name: value pairs nest in ``value`` (a plain number or text: 0).

    Counted without recursion, so that no depth can exhaust Python's stack."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


@contextmanager
def atomic_file(path: str | os.PathLike[str], newline: str | None = None) -> Iterator[Any]:
    """A text file that appears at ``path`` complete, or not at all."""
    target = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as err:
        raise StoreError("Cannot write {path}: {reason}.", path=target, reason=err.strerror) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline=newline) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError as err:
        os.unlink(temporary)
        raise StoreError("Cannot write {path}: {reason}.", path=target, reason=err.strerror) from None
    except BaseException:
        os.unlink(temporary)
        raise


def read_text(path: str | os.PathLike[str]) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise StoreError("Cannot read {path}: {reason}.", path=path, reason=err.strerror) from None
    return decode(data, path)


def decode(data: bytes, source: str | os.PathLike[str]) -> str:
    """A backup's text from its bytes (a file read here, or picked on a phone)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError("{path} is not a Companion backup: it is not text.", path=source) from None


def csv_rows(
    game_id: int, game_uuid: str, status: str, created_at: datetime, game: Game,
    times: list[tuple[datetime, datetime | None]],
) -> Iterator[tuple[Any, ...]]:
    """One CSV row per round and side: the points that round and the running total."""
    running = {side: 0 for side in game.sides}
    for number, (scores, (entered, edited)) in enumerate(zip(game.round_scores, times), 1):
        for side in game.sides:
            running[side] += scores.get(side, 0)
            yield (
                game_id, game_uuid, game.ruleset.id, status, timestamp(created_at),
                number, timestamp(entered), timestamp(edited), side, scores.get(side, 0), running[side],
            )


def write_csv(path: str | os.PathLike[str], rows: Iterator[tuple[Any, ...]]) -> None:
    with atomic_file(path, newline="") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(rows)
