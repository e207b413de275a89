"""The store's service layer: the one way the UI and the CLI read and change saved games.

Only raw round entries are saved as the truth. Every change replays the game through
``companion.rules`` and rewrites the cached summary in the same transaction, so the
cache can never disagree with the entries. Each change is one committed transaction,
guarded by the game's ``version``: a save based on an old version changes nothing and
raises StaleError.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
import unicodedata
import uuid as uuid_module
from collections import OrderedDict
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import URL

from companion import rules
from companion.rules import Game, RuleError
from companion.rules.text import Phrase
from companion.share.codes import JOIN_CODE_LENGTH, new_code
from companion.store import backup
from companion.store.database import SILENT_S, WRITE, database_url, describe, make_engine, upgrade
from companion.store.errors import NotFoundError, StaleError, StoreError, UnreachableError
from companion.clock import utc_now
from companion.store.models import (
    EVENING_PLAYERS, EVENING_ROUNDS, EVENING_TABLES, EVENINGS, GAME_PLAYERS, GAMES, PLAYERS, ROUND_POSITION, ROUNDS,
)
from companion.store.records import (
    STATUSES, GameRecord, GameSummary, HeadToHead, ImportReport, PlayerProfile, PlayerResult, PlayerStats, RulesetStats,
)

NAME_LENGTH = 100
NOTE_LENGTH = 1000
PLACE_LENGTH = 100
LARGEST_ID = 2**31 - 1
"""No saved game has a larger id: PostgreSQL's id column is a 32-bit integer (SQLite's
would go on to 2^63 - 1), so every backup moves between the two."""
LARGEST_TOTAL = 2**31 - 1
"""The largest score PostgreSQL's integer columns hold; SQLite refuses what it would refuse too."""
ENTRY_DEPTH = 16
"""How deeply lists and name: value pairs may nest in a round entry (the rules need 3)."""
CACHED_GAMES = 64
PROBE_S = 1.0
"""How long the store waits between two tries to reach a silent host (each try waits up to
the connect timeout, companion.store.database.CONNECT_TIMEOUT_S)."""
Times = list[tuple[datetime, "datetime | None"]]


class Store:
    """Saved games and players in one database (see module docstring).

    Safe to share between threads. ``url`` is any SQLAlchemy URL; None means
    $COMPANION_DATABASE_URL, else a SQLite file in the user's data folder.
    """

    def __init__(self, url: str | URL | None = None):
        self.url = database_url(url)
        self._engine = make_engine(self.url)
        self._postgres = self._engine.dialect.name == "postgresql"
        self._games: OrderedDict[tuple[int, str, int], tuple[Game, Times]] = OrderedDict()
        self._games_lock = threading.Lock()
        self._silent: UnreachableError | None = None
        """Why the database's host is silent, while it is: said at once to every caller."""
        self._silence_lock = threading.Lock()
        self._closed = threading.Event()
        self.answers_again: Callable[[], None] = lambda: None
        """Called once the host answers again after it went silent (from a thread of the
        store's): pages refused meanwhile read again."""
        try:
            with self._translate():
                upgrade(self._engine, self.url)
            self._rebuild_missing_summaries()
        except BaseException:
            self.close()  # and its probe of a silent host, if it started one
            raise

    @classmethod
    def memory(cls) -> Store:
        """A private database in memory, gone when closed (for tests and trying things)."""
        return cls("sqlite://")

    def close(self) -> None:
        self._closed.set()
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- games ------------------------------------------------------------------------

    def create_game(
        self,
        ruleset: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        note: str = "",
        location: str = "",
    ) -> GameRecord:
        """Start a game; new player names become saved profiles. RuleError on a bad setup."""
        game = rules.get(ruleset).new_game(players, options, teams)
        _check_game_text(game, note, location)
        with self._write() as conn:
            return self._insert_game(conn, game, note, location)

    def _insert_game(self, conn: sa.Connection, game: Game, note: str, location: str) -> GameRecord:
        """Save a new game within the caller's transaction (a club draw saves its tables together)."""
        now = utc_now()
        game_uuid = str(uuid_module.uuid4())
        player_ids = self._ensure_players(conn, game.players, now)
        game_id = _inserted_id(conn.execute(
            sa.insert(GAMES).values(
                uuid=game_uuid, ruleset=game.ruleset.id, options=dict(game.options),
                seating=list(game.players), teams=_teams_json(game), status="in_progress",
                created_at=now, finished_at=None, note=note, location=location, version=1,
                **_summary(game),
            )
        ))
        conn.execute(sa.insert(GAME_PLAYERS), _seats(game_id, game, player_ids))
        self._remember((game_id, game_uuid, 1), game, [])
        return GameRecord(game_id, game_uuid, 1, "in_progress", game.ruleset.id, game, now, None, note, location, [])

    def add_round(self, game_id: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        """Save one more round. RuleError if the rules refuse it; nothing is saved then."""
        entry = _plain(entry)
        now = utc_now()
        with self._write() as conn:
            row, game, times = self._for_change(conn, game_id, expected_version)
            new = game.add_round(entry)
            changed = self._save(conn, row, new, now)
            self._insert_rounds(conn, row.id, [(len(times), entry, now, None)])
        return self._changed(changed, new, [*times, (now, None)])

    def edit_round(self, game_id: int, index: int, entry: Mapping[str, Any], expected_version: int) -> GameRecord:
        """Replace round ``index`` (from 0); every later round is checked again."""
        entry = _plain(entry)
        now = utc_now()
        with self._write() as conn:
            row, game, times = self._for_change(conn, game_id, expected_version)
            new = game.replace_round(index, entry)
            changed = self._save(conn, row, new, now)
            conn.execute(
                sa.update(ROUNDS)
                .where(ROUNDS.c.game_id == row.id, ROUNDS.c.position == index)
                .values(entry=entry, edited_at=now)
            )
        times = list(times)
        times[index] = (times[index][0], now)
        return self._changed(changed, new, times)

    def undo_round(self, game_id: int, expected_version: int) -> GameRecord:
        """Take back the last round (a finished game goes back in progress if need be)."""
        now = utc_now()
        with self._write() as conn:
            row, game, times = self._for_change(conn, game_id, expected_version)
            new = game.undo()
            changed = self._save(conn, row, new, now)
            conn.execute(sa.delete(ROUNDS).where(ROUNDS.c.game_id == row.id, ROUNDS.c.position == len(times) - 1))
        return self._changed(changed, new, times[:-1])

    def abandon(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        """Stop a game in progress for good (it stays in the history, out of statistics)."""
        return self._set_status(game_id, expected_version, "abandoned")

    def reopen(self, game_id: int, expected_version: int | None = None) -> GameRecord:
        """Take an abandoned game up again."""
        return self._set_status(game_id, expected_version, "in_progress")

    def set_details(self, game_id: int, note: str, location: str) -> GameRecord:
        """Keep a game's note and place. Its rounds and version stay as they are: a round
        being entered on another device meanwhile is still saved."""
        _check_text(note, Phrase("The note"), NOTE_LENGTH, lines=True)
        _check_text(location, Phrase("The place"), PLACE_LENGTH)
        values = dict(note=note.strip(), location=location.strip())
        with self._write() as conn:
            row = self._game_row(conn, game_id)
            conn.execute(sa.update(GAMES).where(GAMES.c.id == row.id).values(**values))
            game, times = self._loaded(conn, row)
        return _record({**row._mapping, **values}, game, times)

    def open_game(self, game_id: int) -> GameRecord:
        with self._read() as conn:
            row = self._game_row(conn, game_id)
            game, times = self._loaded(conn, row)
        return _record(row._mapping, game, times)

    def in_progress(self) -> list[GameSummary]:
        """Every game in progress, newest first."""
        with self._read() as conn:
            rows = conn.execute(
                _summary_query().where(GAMES.c.status == "in_progress").order_by(*_NEWEST_FIRST)
            ).all()
        return [_game_summary(r) for r in rows]

    def history(
        self,
        ruleset: str | None = None,
        player: str | None = None,
        status: str | None = None,
        page: int = 0,
        page_size: int = 50,
        since: datetime | None = None,
    ) -> list[GameSummary]:
        """Saved games, newest first, ``page_size`` at a time, optionally filtered
        (``since``: only games started at that moment or later)."""
        if isinstance(page, bool) or not isinstance(page, int) or page < 0:
            raise StoreError("The page number must be 0 or more.")
        if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= 1000:
            raise StoreError("A page holds 1 to 1000 games.")
        if page * page_size > LARGEST_ID:
            return []  # far past the last game
        query = _summary_query()
        if ruleset is not None:
            if ruleset not in rules.IDS:
                raise NotFoundError(
                    "There is no game called {ruleset!r}; choose one of {choices}.",
                    ruleset=ruleset, choices=", ".join(rules.IDS),
                )
            query = query.where(GAMES.c.ruleset == ruleset)
        if status is not None:
            if status not in STATUSES:
                raise StoreError(
                    "A game's status is one of {choices}, not {status!r}.", choices=", ".join(STATUSES), status=status
                )
            query = query.where(GAMES.c.status == status)
        if since is not None:
            if not isinstance(since, datetime) or since.tzinfo is None:
                raise StoreError("A date to search from must be a moment with its time zone.")
            query = query.where(GAMES.c.created_at >= since)
        with self._read() as conn:
            if player is not None:
                player_id = self._player_id(conn, player)
                query = query.where(
                    GAMES.c.id.in_(sa.select(GAME_PLAYERS.c.game_id).where(GAME_PLAYERS.c.player_id == player_id))
                )
            rows = conn.execute(query.order_by(*_NEWEST_FIRST).limit(page_size).offset(page * page_size)).all()
        return [_game_summary(r) for r in rows]

    # --- players ----------------------------------------------------------------------

    def players(self) -> list[PlayerProfile]:
        """Saved player profiles, by name."""
        with self._read() as conn:
            rows = conn.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.created_at)).all()
        return sorted((PlayerProfile(*r) for r in rows), key=lambda p: (p.name.casefold(), p.name))

    def add_player(self, name: str) -> PlayerProfile:
        """Save a profile; a name that is already saved returns that profile."""
        if not isinstance(name, str) or not name.strip():
            raise StoreError("A player needs a name.")
        name = name.strip()
        _check_names([name])
        with self._write() as conn:
            self._ensure_players(conn, [name], utc_now())
            row = conn.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.created_at).where(PLAYERS.c.name == name)).one()
        return PlayerProfile(*row)

    def player_stats(self, name: str) -> PlayerStats:
        """Finished games only; a player's score is their side's total (their team's)."""
        gp = GAME_PLAYERS
        won = sa.func.sum(sa.case((gp.c.won.is_(True), 1), else_=0))
        with self._read() as conn:
            player_id = self._player_id(conn, name)
            rows = conn.execute(
                sa.select(
                    GAMES.c.ruleset, sa.func.count(), won, sa.func.avg(gp.c.score),
                    sa.func.min(gp.c.score), sa.func.max(gp.c.score),
                )
                .select_from(gp.join(GAMES, GAMES.c.id == gp.c.game_id))
                .where(gp.c.player_id == player_id, GAMES.c.status == "finished")
                .group_by(GAMES.c.ruleset)
            ).all()
        by_ruleset = {}
        for ruleset_id, played, wins, average, lowest, highest in sorted(rows, key=lambda r: _ruleset_order(r[0])):
            lowest_wins = rules.get(ruleset_id).lowest_wins
            by_ruleset[ruleset_id] = RulesetStats(
                ruleset_id, played, int(wins), int(wins) / played, float(average),
                int(lowest if lowest_wins else highest), lowest_wins,
            )
        played = sum(s.played for s in by_ruleset.values())
        wins = sum(s.wins for s in by_ruleset.values())
        return PlayerStats(name.strip(), played, wins, wins / played if played else 0.0, by_ruleset)

    def player_results(self, name: str) -> list[PlayerResult]:
        """The player's finished games, oldest first, each with how its game was set up
        (so statistics can keep game modes apart) and the player's score in it."""
        gp = GAME_PLAYERS
        with self._read() as conn:
            player_id = self._player_id(conn, name)
            rows = conn.execute(
                sa.select(
                    GAMES.c.id, GAMES.c.ruleset, GAMES.c.seating, GAMES.c.options, GAMES.c.teams,
                    GAMES.c.created_at, GAMES.c.finished_at, gp.c.score, gp.c.won,
                )
                .select_from(gp.join(GAMES, GAMES.c.id == gp.c.game_id))
                .where(gp.c.player_id == player_id, GAMES.c.status == "finished")
                .order_by(GAMES.c.created_at, GAMES.c.id)
            ).all()
        return [
            PlayerResult(
                r.id, r.ruleset, list(r.seating), dict(r.options), r.teams and {k: list(v) for k, v in r.teams.items()},
                r.finished_at or r.created_at, int(r.score or 0), bool(r.won),
            )
            for r in rows
        ]

    def head_to_head(self, name: str, other: str) -> HeadToHead:
        """How two players fared in the finished games they played together."""
        for given in (name, other):
            if not isinstance(given, str):
                raise NotFoundError("There is no saved player {name!r}.", name=given)
        if name.strip() == other.strip():
            raise StoreError("Choose two different players.")
        a, b = GAME_PLAYERS.alias("a"), GAME_PLAYERS.alias("b")

        def count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
            return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

        with self._read() as conn:
            first, second = self._player_id(conn, name), self._player_id(conn, other)
            together, wins, other_wins, shared = conn.execute(
                sa.select(
                    sa.func.count(), count(a.c.won.is_(True)), count(b.c.won.is_(True)),
                    count(sa.and_(a.c.won.is_(True), b.c.won.is_(True))),
                )
                .select_from(a.join(b, a.c.game_id == b.c.game_id).join(GAMES, GAMES.c.id == a.c.game_id))
                .where(a.c.player_id == first, b.c.player_id == second, GAMES.c.status == "finished")
            ).one()
        return HeadToHead(name.strip(), other.strip(), together, int(wins), int(other_wins), int(shared))

    # --- backup -----------------------------------------------------------------------

    def export_json(self, path: str | os.PathLike[str]) -> list[StoreError]:
        """Write every player and game to a backup file (complete, or not at all).

        Every game goes in as saved, raw round entries and all, even one the rules no
        longer accept: nothing blocks a backup. The errors returned name those games.
        """
        text, problems = self._backup()
        with backup.atomic_file(path) as file:
            file.write(text)
        return problems

    def export_text(self) -> str:
        """Every player and game as a backup document: what ``export_json`` writes, and what
        a phone saves (it has no path to give)."""
        return self._backup()[0]

    def _backup(self) -> tuple[str, list[StoreError]]:
        """The backup document, and the games in it that the rules no longer accept."""
        now = utc_now()
        with self._read() as conn:
            players = [
                backup.BackupPlayer(name, created)
                for name, created in conn.execute(sa.select(PLAYERS.c.name, PLAYERS.c.created_at).order_by(PLAYERS.c.id))
            ]
            rounds = self._raw_rounds(conn)
            rows = conn.execute(sa.select(GAMES).order_by(GAMES.c.created_at, GAMES.c.id)).all()
            evenings = self._evening_documents(conn)
        games, problems = [], []
        for row in rows:
            own = rounds.get(row.id, [])
            try:
                _replay(row, [entry for entry, _, _ in own])
            except StoreError as err:
                problems.append(err)
            games.append(
                backup.game_document(
                    row.uuid, row.ruleset, row.seating, row.options, row.teams, row.status,
                    row.created_at, row.finished_at, row.note, row.location, own,
                )
            )
        return json.dumps(backup.document(players, games, now, evenings), ensure_ascii=False, indent=1), problems

    @staticmethod
    def _evening_documents(conn: sa.Connection) -> list[dict[str, Any]]:
        """Every club evening as a backup holds it, its tables' games named by uuid."""
        players: dict[int, list[tuple[str, bool]]] = {}
        for evening_id, name, present in conn.execute(
            sa.select(EVENING_PLAYERS.c.evening_id, PLAYERS.c.name, EVENING_PLAYERS.c.present)
            .join(PLAYERS, PLAYERS.c.id == EVENING_PLAYERS.c.player_id)
            .order_by(EVENING_PLAYERS.c.evening_id, EVENING_PLAYERS.c.position)
        ):
            players.setdefault(evening_id, []).append((name, present))
        games: dict[tuple[int, int], list[str]] = {}
        for evening_id, number, game_uuid in conn.execute(
            sa.select(EVENING_TABLES.c.evening_id, EVENING_TABLES.c.round_number, GAMES.c.uuid)
            .join(GAMES, GAMES.c.id == EVENING_TABLES.c.game_id)
            .order_by(EVENING_TABLES.c.evening_id, EVENING_TABLES.c.round_number, EVENING_TABLES.c.table_number)
        ):
            games.setdefault((evening_id, number), []).append(game_uuid)
        draws: dict[int, list[tuple[dict[str, Any], list[str]]]] = {}
        for evening_id, number, draw in conn.execute(
            sa.select(EVENING_ROUNDS.c.evening_id, EVENING_ROUNDS.c.number, EVENING_ROUNDS.c.draw)
            .order_by(EVENING_ROUNDS.c.evening_id, EVENING_ROUNDS.c.number)
        ):
            draws.setdefault(evening_id, []).append((draw, games.get((evening_id, number), [])))
        return [
            backup.evening_document(
                row.name, row.season, row.options, row.odd_players, row.sit_out, row.sit_out_fixed, row.prizes,
                row.fixed_pairs, row.seed, row.created_at, row.closed_at, players.get(row.id, []), draws.get(row.id, []),
            )
            for row in conn.execute(sa.select(EVENINGS).order_by(EVENINGS.c.created_at, EVENINGS.c.id))
        ]

    def import_json(self, path: str | os.PathLike[str]) -> ImportReport:
        """Add the games of a backup file that are not here yet (see ``import_text``)."""
        return self.import_text(backup.read_text(path), str(path))

    def import_text(self, text: str | bytes, source: str) -> ImportReport:
        """Add the games of a backup that are not here yet, all of them or none.

        ``text`` is the document, or its bytes as a file picked on a phone gives them;
        ``source`` names it in messages. Every game is replayed through its rules first;
        players are merged by name.
        """
        if isinstance(text, bytes):
            text = backup.decode(text, source)
        players, games, evenings = backup.parse(text, source)
        names = {p.name: p.created_at for p in players}
        for imported in games:
            for name in imported.game.players:
                names.setdefault(name, imported.created_at)
            _check_game_text(imported.game, imported.note, imported.location)
        for evening in evenings:
            _check_text(evening.name, Phrase("The evening's name"), NAME_LENGTH)
            _check_text(evening.season, Phrase("The season's name"), NAME_LENGTH)
            for name, _present in evening.players:
                names.setdefault(name, evening.created_at)
        _check_names(names)
        with self._write() as conn:
            known = set(conn.execute(sa.select(PLAYERS.c.name).where(PLAYERS.c.name.in_(list(names)))).scalars())
            for name, created in names.items():
                if name not in known:
                    conn.execute(sa.insert(PLAYERS).values(name=name, created_at=created))
            ids = dict(conn.execute(sa.select(PLAYERS.c.name, PLAYERS.c.id).where(PLAYERS.c.name.in_(list(names)))).all())
            present = set(
                conn.execute(sa.select(GAMES.c.uuid).where(GAMES.c.uuid.in_([g.uuid for g in games]))).scalars()
            )
            added = 0
            for imported in games:
                if imported.uuid in present:
                    continue
                game = imported.game
                game_id = _inserted_id(conn.execute(
                    sa.insert(GAMES).values(
                        uuid=imported.uuid, ruleset=game.ruleset.id, options=dict(game.options),
                        seating=list(game.players), teams=_teams_json(game), status=imported.status,
                        created_at=imported.created_at, finished_at=imported.finished_at,
                        note=imported.note, location=imported.location, version=1, **_summary(game),
                    )
                ))
                conn.execute(sa.insert(GAME_PLAYERS), _seats(game_id, game, ids))
                self._insert_rounds(
                    conn, game_id,
                    [(i, r.entry, r.entered_at, r.edited_at) for i, r in enumerate(imported.rounds)],
                )
                added += 1
            evenings_added = self._insert_evenings(conn, evenings, ids)
        return ImportReport(added, len(games) - added, len(set(names) - known), evenings_added)

    @staticmethod
    def _insert_evenings(conn: sa.Connection, evenings: list[backup.BackupEvening], ids: Mapping[str, int]) -> int:
        """Add the backup's evenings not here yet: one is here when an evening of its name and
        creation time is, or when one of its tables' games is already a table here. How many
        were added. Each table gets a new code, as a draw gives it (a backup holds no codes:
        they are secrets of the machine that drew them)."""
        added = 0
        uuids = [link for evening in evenings for _, links in evening.rounds for link in links]
        game_ids = dict(conn.execute(sa.select(GAMES.c.uuid, GAMES.c.id).where(GAMES.c.uuid.in_(uuids))).all())
        linked = set(conn.execute(sa.select(EVENING_TABLES.c.game_id).where(EVENING_TABLES.c.game_id.in_(list(game_ids.values())))).scalars())
        for evening in evenings:
            own = {game_ids[link] for _, links in evening.rounds for link in links}
            same = conn.execute(
                sa.select(EVENINGS.c.id).where(EVENINGS.c.name == evening.name, EVENINGS.c.created_at == evening.created_at)
            ).first()
            if same or own & linked:
                continue
            linked |= own
            added += 1
            evening_id = _inserted_id(conn.execute(
                sa.insert(EVENINGS).values(
                    name=evening.name, season=evening.season, options=evening.options, odd_players=evening.odd_players,
                    sit_out=evening.sit_out.kind, sit_out_fixed=evening.sit_out.fixed,
                    prizes=dataclasses.asdict(evening.prize_rule), fixed_pairs=evening.fixed_pairs, seed=evening.seed,
                    created_at=evening.created_at, closed_at=evening.closed_at,
                )
            ))
            if evening.players:
                conn.execute(sa.insert(EVENING_PLAYERS), [
                    {"evening_id": evening_id, "player_id": ids[name], "position": i, "present": present}
                    for i, (name, present) in enumerate(evening.players)
                ])
            for number, (draw, links) in enumerate(evening.rounds, 1):
                conn.execute(sa.insert(EVENING_ROUNDS).values(evening_id=evening_id, number=number, draw=draw.as_json()))
                if links:
                    conn.execute(sa.insert(EVENING_TABLES), [
                        {
                            "evening_id": evening_id, "round_number": number, "table_number": table.number,
                            "game_id": game_ids[link], "code": new_code(JOIN_CODE_LENGTH),
                        }
                        for table, link in zip(draw.tables, links)
                    ])
        return added

    def export_csv(self, path: str | os.PathLike[str], game_id: int | None = None) -> None:
        """The round table (points per round and side, with running totals) of one game or all."""
        with self._read() as conn:
            if game_id is None:
                games = list(self._all_games(conn))
            else:
                row = self._game_row(conn, game_id)
                games = [(row, *self._loaded(conn, row))]
        backup.write_csv(
            path,
            (
                line
                for row, game, times in games
                for line in backup.csv_rows(row.id, row.uuid, row.status, row.created_at, game, times)
            ),
        )

    # --- internals --------------------------------------------------------------------

    @contextmanager
    def _translate(self) -> Iterator[None]:
        """Turn driver errors, and saved values that cannot be read, into a StoreError that
        says what went wrong, in words. While the database's host is silent, say so at once:
        every try would hold its caller, and a server's pages with it, for the connect timeout."""
        silent = self._silent
        if silent is not None:
            raise UnreachableError(silent.where, silent.reason)
        began = time.monotonic()
        try:
            yield
        except sa.exc.DBAPIError as err:
            error = _explain(err, describe(self.url))
            if isinstance(error, UnreachableError) and time.monotonic() - began > SILENT_S:
                self._fall_silent(error)
            raise error from None
        except json.JSONDecodeError:  # SQLite keeps JSON as text, which another program can break
            raise StoreError(
                "{where} is damaged: a saved value is not valid JSON. Restore it from a backup.",
                where=describe(self.url),
            ) from None

    @property
    def silent(self) -> bool:
        """Whether the database's host is silent, as this store last found it."""
        return self._silent is not None

    def _fall_silent(self, error: UnreachableError) -> None:
        """Note that the host is silent, and try it in the background until it answers."""
        with self._silence_lock:
            if self._silent is not None:
                return
            self._silent = error
        threading.Thread(target=self._wait_for_answer, name="store-probe", daemon=True).start()

    def _wait_for_answer(self) -> None:
        while not self._closed.wait(PROBE_S):
            try:
                with self._engine.connect() as conn:
                    conn.execute(sa.text("SELECT 1"))
            except sa.exc.DBAPIError:
                continue
            self._silent = None
            try:
                self.answers_again()
            except StoreError:  # away again already: its next failure is noted as this one was
                pass
            return

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        """A consistent snapshot for reading (one game row and its rounds agree)."""
        with self._translate(), self._engine.connect() as conn:
            if self._postgres:
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """One committed transaction; SQLite writers queue for the lock before reading."""
        with self._translate(), self._engine.connect().execution_options(**{WRITE: True}) as conn:
            try:
                with conn.begin():
                    yield conn
            except sa.exc.IntegrityError as err:
                if _breaks_round_order(err):
                    raise StaleError() from None
                raise

    def _game_row(self, conn: sa.Connection, game_id: int) -> sa.Row[Any]:
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise NotFoundError("There is no saved game {game_id!r}.", game_id=game_id)
        if not 1 <= game_id <= LARGEST_ID:
            raise NotFoundError("There is no saved game number {game_id}.", game_id=game_id)
        row = conn.execute(sa.select(GAMES).where(GAMES.c.id == game_id)).first()
        if row is None:
            raise NotFoundError("There is no saved game number {game_id}.", game_id=game_id)
        return row

    def _player_id(self, conn: sa.Connection, name: str) -> int:
        if not isinstance(name, str):
            raise NotFoundError("There is no saved player {name!r}.", name=name)
        if len(name.strip()) > NAME_LENGTH or _unsaveable(name, lines=False):
            raise NotFoundError("There is no saved player called {name!r}.", name=name.strip())  # none could be saved
        player_id: int | None = conn.execute(sa.select(PLAYERS.c.id).where(PLAYERS.c.name == name.strip())).scalar()
        if player_id is None:
            raise NotFoundError("There is no saved player called {name!r}.", name=name.strip())
        return player_id

    def _loaded(self, conn: sa.Connection, row: sa.Row[Any]) -> tuple[Game, Times]:
        """The game and its round times, replayed once per version and kept a while."""
        key = (row.id, row.uuid, row.version)
        with self._games_lock:
            if key in self._games:
                self._games.move_to_end(key)
                return self._games[key]
        rounds = conn.execute(
            sa.select(ROUNDS.c.entry, ROUNDS.c.entered_at, ROUNDS.c.edited_at)
            .where(ROUNDS.c.game_id == row.id)
            .order_by(ROUNDS.c.position)
        ).all()
        game = _replay(row, [r.entry for r in rounds])
        times = [(r.entered_at, r.edited_at) for r in rounds]
        self._remember(key, game, times)
        return game, times

    def _remember(self, key: tuple[int, str, int], game: Game, times: Times) -> None:
        with self._games_lock:
            self._games[key] = (game, times)
            self._games.move_to_end(key)
            while len(self._games) > CACHED_GAMES:
                self._games.popitem(last=False)

    @staticmethod
    def _raw_rounds(conn: sa.Connection) -> dict[int, list[tuple[Any, datetime, datetime | None]]]:
        """Every game's saved rounds in order, (entry, entered_at, edited_at), by game id."""
        rounds: dict[int, list[tuple[Any, datetime, datetime | None]]] = {}
        for game_id, entry, entered, edited in conn.execute(
            sa.select(ROUNDS.c.game_id, ROUNDS.c.entry, ROUNDS.c.entered_at, ROUNDS.c.edited_at).order_by(
                ROUNDS.c.game_id, ROUNDS.c.position
            )
        ):
            rounds.setdefault(game_id, []).append((entry, entered, edited))
        return rounds

    def _all_games(self, conn: sa.Connection) -> Iterator[tuple[sa.Row[Any], Game, Times]]:
        rounds = self._raw_rounds(conn)
        for row in conn.execute(sa.select(GAMES).order_by(GAMES.c.created_at, GAMES.c.id)):
            own = rounds.get(row.id, [])
            yield row, _replay(row, [r[0] for r in own]), [(r[1], r[2]) for r in own]

    def _for_change(self, conn: sa.Connection, game_id: int, expected_version: int) -> tuple[sa.Row[Any], Game, Times]:
        row = self._game_row(conn, game_id)
        if row.version != expected_version:
            raise StaleError()
        if row.status == "abandoned":
            raise StoreError("This game was abandoned; reopen it to change it.")
        return (row, *self._loaded(conn, row))

    def _save(self, conn: sa.Connection, row: sa.Row[Any], game: Game, now: datetime) -> dict[str, Any]:
        """Write the new status and summary, if the game is still at the version read."""
        status, finished_at = ("finished", row.finished_at or now) if game.over else ("in_progress", None)
        values = dict(version=row.version + 1, status=status, finished_at=finished_at, **_summary(game))
        result = conn.execute(
            sa.update(GAMES).where(GAMES.c.id == row.id, GAMES.c.version == row.version).values(**values)
        )
        if result.rowcount != 1:
            raise StaleError()
        self._update_seats(conn, row.id, game)
        return {**row._mapping, **values}

    def _changed(self, values: dict[str, Any], game: Game, times: Times) -> GameRecord:
        self._remember((values["id"], values["uuid"], values["version"]), game, times)
        return _record(values, game, times)

    def _set_status(self, game_id: int, expected_version: int | None, wanted: str) -> GameRecord:
        with self._write() as conn:
            row = self._game_row(conn, game_id)
            if expected_version is not None and row.version != expected_version:
                raise StaleError()
            game, times = self._loaded(conn, row)
            if wanted == "abandoned" and row.status == "finished":
                raise StoreError("This game is already finished; only a game in progress can be abandoned.")
            if wanted == "abandoned" and row.status == "abandoned" or wanted == "in_progress" and row.status != "abandoned":
                return _record(row._mapping, game, times)
            status = "finished" if game.over else wanted
            values = dict(version=row.version + 1, status=status)
            result = conn.execute(
                sa.update(GAMES).where(GAMES.c.id == row.id, GAMES.c.version == row.version).values(**values)
            )
            if result.rowcount != 1:
                raise StaleError()
        return self._changed({**row._mapping, **values}, game, times)

    def _insert_rounds(self, conn: sa.Connection, game_id: int, rounds: list[tuple[int, Any, datetime, datetime | None]]) -> None:
        if rounds:
            conn.execute(
                sa.insert(ROUNDS),
                [
                    {"game_id": game_id, "position": position, "entry": entry, "entered_at": entered, "edited_at": edited}
                    for position, entry, entered, edited in rounds
                ],
            )

    def _ensure_players(self, conn: sa.Connection, names: Sequence[str], now: datetime) -> dict[str, int]:
        """Ids of these players, saving new profiles (concurrent savers may race: no error)."""
        if self._postgres:
            from sqlalchemy.dialects import postgresql  # imported only where it is used: it takes a while

            insert: sa.Insert = postgresql.insert(PLAYERS).on_conflict_do_nothing(index_elements=["name"])
        elif self._engine.dialect.name == "sqlite":
            from sqlalchemy.dialects import sqlite

            insert = sqlite.insert(PLAYERS).on_conflict_do_nothing(index_elements=["name"])
        else:
            insert = sa.insert(PLAYERS)
        known = dict(conn.execute(sa.select(PLAYERS.c.name, PLAYERS.c.id).where(PLAYERS.c.name.in_(list(names)))).all())
        missing = [n for n in names if n not in known]
        if missing:
            conn.execute(insert, [{"name": n, "created_at": now} for n in missing])
            known = dict(conn.execute(sa.select(PLAYERS.c.name, PLAYERS.c.id).where(PLAYERS.c.name.in_(list(names)))).all())
        return known

    def _rebuild_missing_summaries(self) -> None:
        """Fill the cached summaries of games saved before the cache existed (schema 0001).

        One transaction for all of them. A game the rules no longer accept keeps an empty
        summary (opening it says why) rather than keeping every other game from opening.
        """
        with self._write() as conn:
            missing = conn.execute(sa.select(GAMES).where(GAMES.c.rounds_played.is_(None))).all()
            for row in missing:
                try:
                    game, _ = self._loaded(conn, row)
                except StoreError:
                    continue
                conn.execute(sa.update(GAMES).where(GAMES.c.id == row.id).values(**_summary(game)))
                self._update_seats(conn, row.id, game)

    def _update_seats(self, conn: sa.Connection, game_id: int, game: Game) -> None:
        conn.execute(
            sa.update(GAME_PLAYERS)
            .where(GAME_PLAYERS.c.game_id == game_id, GAME_PLAYERS.c.seat == sa.bindparam("b_seat"))
            .values(score=sa.bindparam("b_score"), won=sa.bindparam("b_won")),
            [{"b_seat": s["seat"], "b_score": s["score"], "b_won": s["won"]} for s in _seats(game_id, game, None)],
        )


_NEWEST_FIRST = (GAMES.c.created_at.desc(), GAMES.c.id.desc())


def _summary_query() -> sa.Select[Any]:
    return sa.select(
        GAMES.c.id, GAMES.c.uuid, GAMES.c.ruleset, GAMES.c.status, GAMES.c.created_at, GAMES.c.finished_at,
        GAMES.c.sides, GAMES.c.totals, GAMES.c.winners, GAMES.c.rounds_played, GAMES.c.seating,
        GAMES.c.note, GAMES.c.location,
    )


def _game_summary(row: sa.Row[Any]) -> GameSummary:
    return GameSummary(
        row.id, row.uuid, row.ruleset, row.status, row.created_at, row.finished_at,
        list(row.sides or ()), dict(row.totals or {}), list(row.winners or ()), row.rounds_played or 0,
        list(row.seating), row.note, row.location,
    )


def _inserted_id(result: sa.CursorResult[Any]) -> int:
    """The id the database gave the row just inserted."""
    key = result.inserted_primary_key
    assert key is not None  # one row inserted into a table with a primary key: always there
    return int(key[0])


def _record(values: Mapping[Any, Any], game: Game, times: Times) -> GameRecord:
    return GameRecord(
        values["id"], values["uuid"], values["version"], values["status"], values["ruleset"], game,
        values["created_at"], values["finished_at"], values["note"], values["location"], list(times),
    )


def _replay(row: sa.Row[Any], entries: list[Any]) -> Game:
    """Rebuild a saved game through its rules; a game they refuse is reported, not guessed at."""
    try:
        ruleset = rules.get(row.ruleset)
        start = ruleset.new_game(row.seating, row.options, row.teams)
        return Game.replay(ruleset, start.setup, entries)
    except RuleError as err:
        raise StoreError(
            "Saved game number {game_id} no longer passes the rules: {reason}", game_id=row.id, reason=err
        ) from None


def _summary(game: Game) -> dict[str, Any]:
    """The cached read-out of a game; StoreError for a total no database column can hold."""
    for side, total in game.totals.items():
        if not -LARGEST_TOTAL <= total <= LARGEST_TOTAL:
            raise StoreError(
                "{side} would have {total} points; a total must stay between -{most} and {most}.",
                side=side, total=total, most=LARGEST_TOTAL,
            )
    return {
        "sides": list(game.sides),
        "totals": game.totals,
        "winners": game.winners,
        "rounds_played": len(game.round_scores),
    }


def _seats(game_id: int, game: Game, player_ids: Mapping[str, int] | None) -> list[dict[str, Any]]:
    """Link rows: seat, and the cached score (the side's total) and win of each player."""
    totals, winners = game.totals, set(game.winners)
    seats = []
    for seat, player in enumerate(game.players):
        side = game.setup.team_of(player) if game.setup.teams else player
        line = {"game_id": game_id, "seat": seat, "score": totals[side], "won": side in winners}
        if player_ids is not None:
            line["player_id"] = player_ids[player]
        seats.append(line)
    return seats


def _teams_json(game: Game) -> dict[str, list[str]] | None:
    return {name: list(members) for name, members in game.teams.items()} if game.teams else None


def _plain(entry: Any) -> Any:
    """The entry exactly as it will be stored (JSON), so what is checked is what is saved."""
    try:
        plain = json.loads(json.dumps(entry, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise RuleError("A round entry must be made of plain numbers, text, lists and name: value pairs.") from None
    if backup.nesting(plain) > ENTRY_DEPTH:
        raise RuleError("A round entry cannot nest lists and name: value pairs {most} deep.", most=ENTRY_DEPTH)
    return plain


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text after them: a name could pose as another."""


def _unsaveable(text: str, lines: bool) -> str | None:
    """The first character of ``text`` that a name (or, with ``lines``, a note) may not hold:
    control characters (a terminal obeys ANSI escapes; PostgreSQL refuses NUL), lone
    surrogates (no database can encode them) and text-reordering marks. None if all is well."""
    if text.isprintable():
        return None
    for character in text:
        if lines and character in "\t\n\r":
            continue
        if unicodedata.category(character) in ("Cc", "Cs") or character in _BIDI_CONTROLS:
            return character
    return None


def _check_text(text: Any, field: Phrase, limit: int, lines: bool = False) -> None:
    """StoreError unless ``text`` is text of at most ``limit`` characters that every database can save."""
    if not isinstance(text, str):
        raise StoreError("{field} must be text.", field=field)
    if len(text) > limit:
        raise StoreError(
            "{field} can have at most {limit} characters; {start}... is longer.", field=field, limit=limit, start=text[:20]
        )
    character = _unsaveable(text, lines)
    if character is not None:
        raise StoreError(
            "{field} cannot hold the character {character}; {text!r} must be plain text.",
            field=field, character=repr(character)[1:-1], text=text,
        )


def _check_names(names: Iterable[Any]) -> None:
    for name in names:
        _check_text(name, Phrase("A player name"), NAME_LENGTH)


def _check_game_text(game: Game, note: Any, location: Any) -> None:
    """The names, team names, note and place of a game are text every database saves."""
    _check_names(game.players)
    for team in game.teams or ():
        _check_text(team, Phrase("A team name"), NAME_LENGTH)
    _check_text(note, Phrase("The note"), NOTE_LENGTH, lines=True)
    _check_text(location, Phrase("The place"), PLACE_LENGTH)


def _ruleset_order(ruleset_id: str) -> tuple[int, str]:
    return (rules.IDS.index(ruleset_id) if ruleset_id in rules.IDS else len(rules.IDS), ruleset_id)


def _breaks_round_order(err: sa.exc.IntegrityError) -> bool:
    """Whether ``err`` is a second round saved at a game's position (another device saved
    first). PostgreSQL names the constraint; SQLite names none, only its columns, in its
    fixed "UNIQUE constraint failed: table.column, ..." form."""
    diagnosis = getattr(err.orig, "diag", None)  # psycopg
    if diagnosis is not None:
        return bool(diagnosis.constraint_name == ROUND_POSITION)
    constraint = next(c for c in ROUNDS.constraints if c.name == ROUND_POSITION)
    assert isinstance(constraint, sa.UniqueConstraint)
    columns = ", ".join(f"{ROUNDS.name}.{column.name}" for column in constraint.columns)
    return getattr(err.orig, "sqlite_errorname", None) == "SQLITE_CONSTRAINT_UNIQUE" and str(err.orig) == f"UNIQUE constraint failed: {columns}"


def _explain(err: sa.exc.DBAPIError, where: str | Phrase) -> StoreError:
    """The store's words for a driver error at ``where`` (the database as ``describe`` names it)."""
    detail = str(err.orig).strip().splitlines()[0] if err.orig is not None else str(err)
    lowered = detail.lower()
    if "file is not a database" in lowered or "file is encrypted" in lowered or "malformed" in lowered:
        return StoreError(
            "{where} is not a Companion database (it is not a database at all, or it is damaged).", where=where
        )
    if "unable to open database file" in lowered:
        return StoreError("Cannot open {where}: the folder is missing or cannot be written.", where=where)
    if "database is locked" in lowered or "database is busy" in lowered:
        return StoreError("The database is busy: another Companion is saving to it. Try again.")
    if "readonly" in lowered or "read-only" in lowered:
        return StoreError("{where} can only be read, not written.", where=where)
    server = isinstance(where, str) and not where.endswith((".sqlite3", ".db")) and "://" in where
    if isinstance(err, sa.exc.OperationalError) and server:
        return UnreachableError(where, detail)
    return StoreError("The database at {where} failed: {detail}", where=where, detail=detail)
