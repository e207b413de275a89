"""The backup file format and the CSV round table: parsing, checking and writing files.

A backup is one JSON document::

    {"format": "companion-backup", "version": 1, "exported_at": "...",
     "players": [{"name": "Ann", "created_at": "..."}],
     "games": [{"uuid": "...", "ruleset": "clubs", "players": [...], "options": {...},
                "teams": {...} | null, "status": "finished", "created_at": "...",
                "finished_at": "..." | null, "note": "", "location": "",
                "rounds": [{"entry": {...}, "entered_at": "...", "edited_at": null}]}]}

Times are ISO 8601 with a UTC offset. Each game's ``uuid`` stays the same on every
device, so importing the same backup twice adds nothing the second time.
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


def document(players: list[BackupPlayer], games: list[dict[str, Any]], exported_at: datetime) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timestamp(exported_at),
        "players": [{"name": p.name, "created_at": timestamp(p.created_at)} for p in players],
        "games": games,
    }


def parse(text: str, source: str) -> tuple[list[BackupPlayer], list[BackupGame]]:
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
    return players, games


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
