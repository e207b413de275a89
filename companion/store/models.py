"""The tables. Round entries are the truth; the summary columns are a cache.

``games.sides/totals/winners/rounds_played`` and ``game_players.score/won`` are rebuilt
from the rules on every change of a game, so history lists and statistics need no
replay. Everything else is what the players entered.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, MetaData, String, UniqueConstraint
from sqlalchemy.orm import registry
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that always comes back timezone-aware in UTC (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


# A game's rounds are numbered 0, 1, 2, ... once each: two devices saving the same
# position at once break it, and the later save is stale.
ROUND_POSITION = "uq_rounds_game_id_position"


class StoreModel(SQLModel, registry=registry(metadata=MetaData(naming_convention=NAMING))):
    """Base of the store's tables: their own metadata, so nothing else shares it."""


class PlayerRow(StoreModel, table=True):
    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column_kwargs={"unique": True}, max_length=100)
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))


class GameRow(StoreModel, table=True):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_created_at", "created_at"), Index("ix_games_status", "status"))

    id: int | None = Field(default=None, primary_key=True)
    uuid: str = Field(sa_column_kwargs={"unique": True}, max_length=36)
    ruleset: str = Field(max_length=40)
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seating: list[str] = Field(sa_column=Column(JSON, nullable=False))
    teams: dict[str, list[str]] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    status: str = Field(max_length=20)
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    finished_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))
    note: str = ""
    location: str = ""
    version: int = 1
    # cache, rebuilt from the rules on every change
    sides: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    totals: dict[str, int] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    winners: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    rounds_played: int | None = None


class GamePlayerRow(StoreModel, table=True):
    __tablename__ = "game_players"
    __table_args__ = (Index("ix_game_players_player_id", "player_id"),)

    game_id: int = Field(
        sa_column=Column(Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    seat: int
    # cache: the player's score (their team's total in team play) and whether they won
    score: int | None = None
    won: bool | None = None


class RoundRow(StoreModel, table=True):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "position", name=ROUND_POSITION),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(sa_column=Column(Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False))
    position: int
    entry: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    entered_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    edited_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))


class SharedTableRow(StoreModel, table=True):
    """A table shared on the network (``companion run --share``, Share this table): its codes.
    Kept in the database so that every server process of a club admits with the same codes."""

    __tablename__ = "shared_tables"

    id: int | None = Field(default=None, primary_key=True)
    join_code: str = Field(max_length=32)
    host_code: str = Field(max_length=64)
    address: str = Field(max_length=255)
    port: int
    started_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    stopped_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))


class TableDeviceRow(StoreModel, table=True):
    """A device that joined a shared table: its secret key, number, rights and name, and when
    it was last connected (to any process of the server)."""

    __tablename__ = "table_devices"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=Column(Integer, ForeignKey("shared_tables.id", ondelete="CASCADE"), nullable=False))
    number: int
    key: str = Field(sa_column_kwargs={"unique": True}, max_length=64)
    browser: str = Field(max_length=40)
    system: str = Field(max_length=40)
    role: str = Field(max_length=10)
    name: str = Field(default="", max_length=40)
    connections: int = 0
    seen_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    game_id: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    """The one game a device that joined with a club table's code may change (None: any game its role allows)."""


class EveningRow(StoreModel, table=True):
    """A club evening (companion.rules.club): the options every table plays by and the club's choices."""

    __tablename__ = "club_evenings"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    season: str = Field(default="", max_length=100)
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    odd_players: str = Field(max_length=20)
    sit_out: str = Field(max_length=20)
    sit_out_fixed: int = 0
    prizes: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    fixed_pairs: bool = False
    seed: int
    created_at: datetime = Field(sa_column=Column(UTCDateTime, nullable=False))
    closed_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime, nullable=True))


class EveningPlayerRow(StoreModel, table=True):
    """A player checked in to an evening; ``present`` is false once they left (or before they came)."""

    __tablename__ = "club_evening_players"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("club_evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    position: int
    present: bool = True


class EveningTableRow(StoreModel, table=True):
    """One table of one round of an evening, and its game (an ordinary saved game)."""

    __tablename__ = "club_evening_tables"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("club_evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    round_number: int = Field(primary_key=True)
    table_number: int = Field(primary_key=True)
    game_id: int = Field(sa_column=Column(Integer, ForeignKey("games.id"), nullable=False, unique=True))
    code: str | None = Field(default=None, sa_column=Column(String(32), nullable=True, unique=True))
    """The table's code, made when the round is drawn: a phone that joins with it scores this
    table's game only (companion.share.table); None for tables restored from a backup."""


class EveningRoundRow(StoreModel, table=True):
    """One round's draw as drawn (companion.rules.club.Draw.as_json): who sat where, who sat out."""

    __tablename__ = "club_evening_rounds"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("club_evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    number: int = Field(primary_key=True)
    draw: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


METADATA = StoreModel.metadata
# The tables the classes above declare (read from the metadata: SQLModel's types do not
# declare a class's ``__table__``).
PLAYERS = METADATA.tables[PlayerRow.__tablename__]
GAMES = METADATA.tables[GameRow.__tablename__]
GAME_PLAYERS = METADATA.tables[GamePlayerRow.__tablename__]
ROUNDS = METADATA.tables[RoundRow.__tablename__]
SHARED_TABLES = METADATA.tables[SharedTableRow.__tablename__]
TABLE_DEVICES = METADATA.tables[TableDeviceRow.__tablename__]


EVENINGS = METADATA.tables[EveningRow.__tablename__]
EVENING_PLAYERS = METADATA.tables[EveningPlayerRow.__tablename__]
EVENING_ROUNDS = METADATA.tables[EveningRoundRow.__tablename__]
EVENING_TABLES = METADATA.tables[EveningTableRow.__tablename__]
