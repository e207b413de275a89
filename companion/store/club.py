"""Club evenings in the store: an evening, its players, each round's draw and its tables' games.

A table's game is an ordinary saved game (history, statistics and sharing treat it like any
other); the evening only links to it. Rankings, prizes and the season are never saved:
``companion.rules.club`` derives them from the games each time, so a corrected deal
changes them at once.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from companion import rules
from companion.rules import RuleError
from companion.rules.club import (
    CLUB_GAME,
    ODD_PLAYERS,
    PRIZE_BOOBY,
    PRIZE_PITS,
    Draw,
    Prize,
    PrizeRule,
    RoundScores,
    SeasonStanding,
    SitOutScore,
    Standing,
    check_players,
    draw_round,
    fixed_pairs_schedule,
    prizes,
    ranking,
    season,
)
from companion.share.codes import JOIN_CODE_LENGTH, new_code
from companion.store.errors import NotFoundError, StoreError
from companion.store.models import EVENING_PLAYERS, EVENING_ROUNDS, EVENING_TABLES, EVENINGS, PLAYERS
from companion.clock import utc_now
from companion.rules.text import Phrase
from companion.store.service import LARGEST_ID, NAME_LENGTH, Store, _check_names, _check_text, _inserted_id

if TYPE_CHECKING:
    from companion.store.records import GameRecord


@dataclass(frozen=True)
class EveningPlayer:
    name: str
    present: bool


@dataclass(frozen=True)
class EveningRound:
    """One drawn round: the draw, each table's saved game id and each table's code."""

    number: int
    draw: Draw
    game_ids: Mapping[int, int]  # table number -> game id
    codes: Mapping[int, str] = field(default_factory=dict)
    """Table number -> the code a phone joins with to score that table's game (companion.share.table);
    a table restored from a backup has none."""


@dataclass(frozen=True)
class Evening:
    """One saved evening, as the organiser set it up, with its rounds so far."""

    id: int
    name: str
    season: str
    options: Mapping[str, Any]
    odd_players: str
    sit_out: SitOutScore
    prize_rule: PrizeRule
    fixed_pairs: bool
    seed: int
    created_at: datetime
    closed_at: datetime | None
    players: tuple[EveningPlayer, ...]
    rounds: tuple[EveningRound, ...]

    @property
    def present(self) -> list[str]:
        return [player.name for player in self.players if player.present]

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """A fixed-pairs evening's pairs (its players as listed, two by two); none otherwise."""
        if not self.fixed_pairs:
            return []
        names = [p.name for p in self.players]
        return [(names[i], names[i + 1]) for i in range(0, len(names), 2)]


@dataclass(frozen=True)
class EveningResult:
    """An evening's ranking and prizes, derived from its tables' games as they are now."""

    evening: Evening
    rounds: tuple[RoundScores, ...]
    standings: tuple[Standing, ...]
    prizes: tuple[Prize, ...]

    @property
    def playing(self) -> tuple[int, ...]:
        """The tables of the newest round still playing."""
        return self.rounds[-1].playing if self.rounds else ()

    @property
    def finished(self) -> bool:
        """Every table of the newest round has finished: the ranking's prizes can be told."""
        return bool(self.rounds) and not self.playing

    def following(self, record: GameRecord) -> EveningResult | None:
        """The result once ``record``, one table's game as changed elsewhere, is in it, the
        other tables' games as they were: a big screen follows each save without reading
        the whole evening again. None when the game is none of this evening's."""
        for index, one in enumerate(self.evening.rounds):
            table = next((number for number, game_id in one.game_ids.items() if game_id == record.id), None)
            if table is None:
                continue
            scores = self.rounds[index]
            stopped = scores.stopped | {table} if record.status == "abandoned" else scores.stopped - {table}
            changed = RoundScores(scores.draw, {**scores.games, table: record.game}, stopped)
            return _derived(self.evening, (*self.rounds[:index], changed, *self.rounds[index + 1 :]))
        return None


def _derived(evening: Evening, rounds: tuple[RoundScores, ...]) -> EveningResult:
    """The ranking and prizes of ``evening`` from each round's games."""
    standings = tuple(ranking(rounds, evening.sit_out, evening.pairs, evening.prize_rule.fewer_nats_first))
    return EveningResult(evening, rounds, standings, tuple(prizes(standings, evening.prize_rule, evening.pairs)))


def prize_line(prize: Prize) -> str:
    """A prize in words, in the current language (the organiser's page and the page to print)."""
    from companion.i18n import _

    names = ", ".join(prize.players)
    if prize.kind == PRIZE_BOOBY:
        return _("Booby prize: {players}").format(players=names)
    if prize.kind == PRIZE_PITS:
        return _("Most pits: {players}").format(players=names)
    if prize.shared:
        return _("Prize for place {place}, shared: {players}").format(place=prize.position, players=names)
    return _("Prize for place {place}: {players}").format(place=prize.position, players=names)


class Evenings:
    """The organiser's changes to evenings and the read-outs; each change one transaction."""

    def __init__(self, store: Store):
        self.store = store

    def create(
        self,
        name: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        odd_players: str = "sit_out",
        sit_out: SitOutScore | None = None,
        prize_rule: PrizeRule | None = None,
        season_name: str = "",
        fixed_pairs: bool = False,
        seed: int | None = None,
    ) -> Evening:
        """A new evening with its players checked in (in pairs' order for fixed pairs)."""
        _check_text(name, Phrase("The evening's name"), NAME_LENGTH)
        _check_text(season_name, Phrase("The season's name"), NAME_LENGTH)
        if not name.strip():
            raise StoreError("The evening needs a name.")
        names = check_players(players)
        _check_names(names)
        checked_options = dict(rules.get(CLUB_GAME).new_game(["1", "2", "3", "4"], options).options)
        sit_out = sit_out or SitOutScore()
        prize_rule = prize_rule or PrizeRule()
        if odd_players not in ODD_PLAYERS:
            raise RuleError("Players left over are either sitting out or playing with a joker.", "odd_players")
        if fixed_pairs and len(names) % 2:
            raise RuleError("A fixed-pairs evening needs an even number of players.", "players")
        now = utc_now()
        with self.store._write() as conn:
            evening_id = _inserted_id(conn.execute(
                sa.insert(EVENINGS)
                .values(
                    name=name.strip(),
                    season=season_name.strip(),
                    options=checked_options,
                    odd_players=odd_players,
                    sit_out=sit_out.kind,
                    sit_out_fixed=sit_out.fixed,
                    prizes=asdict(prize_rule),
                    fixed_pairs=fixed_pairs,
                    seed=random.randrange(2**31) if seed is None else seed,
                    created_at=now,
                )
            ))
            ids = self.store._ensure_players(conn, names, now)
            conn.execute(
                sa.insert(EVENING_PLAYERS),
                [{"evening_id": evening_id, "player_id": ids[n], "position": i, "present": True} for i, n in enumerate(names)],
            )
        return self.evening(evening_id)

    def check_in(self, evening_id: int, name: str) -> Evening:
        """A late arrival (or a player coming back): present from the next draw on."""
        (checked,) = check_players([name])
        _check_names([checked])
        with self.store._write() as conn:
            evening = self._row(conn, evening_id)
            if evening.fixed_pairs:
                raise StoreError("Fixed pairs play by their schedule; a player cannot join the evening later.")
            player_id = self.store._ensure_players(conn, [checked], utc_now())[checked]
            known = conn.execute(
                sa.select(EVENING_PLAYERS.c.player_id).where(
                    EVENING_PLAYERS.c.evening_id == evening_id, EVENING_PLAYERS.c.player_id == player_id
                )
            ).first()
            if known:
                conn.execute(
                    sa.update(EVENING_PLAYERS)
                    .where(EVENING_PLAYERS.c.evening_id == evening_id, EVENING_PLAYERS.c.player_id == player_id)
                    .values(present=True)
                )
            else:
                count = conn.execute(
                    sa.select(sa.func.count()).select_from(EVENING_PLAYERS).where(EVENING_PLAYERS.c.evening_id == evening_id)
                ).scalar_one()
                conn.execute(
                    sa.insert(EVENING_PLAYERS).values(evening_id=evening_id, player_id=player_id, position=count, present=True)
                )
        return self.evening(evening_id)

    def check_out(self, evening_id: int, name: str) -> Evening:
        """An early leaver: kept in the ranking with the rounds played, left out of later draws."""
        with self.store._write() as conn:
            evening = self._row(conn, evening_id)
            if evening.fixed_pairs:
                raise StoreError("Fixed pairs play by their schedule; a player cannot leave it.")
            player_id = self.store._player_id(conn, name)
            result = conn.execute(
                sa.update(EVENING_PLAYERS)
                .where(EVENING_PLAYERS.c.evening_id == evening_id, EVENING_PLAYERS.c.player_id == player_id)
                .values(present=False)
            )
            if result.rowcount != 1:
                raise NotFoundError("{name} is not checked in to this evening.", name=name)
        return self.evening(evening_id)

    def draw_next(self, evening_id: int, rounds: int | None = None) -> Evening:
        """Draw the next round and start one game per table, all in one transaction.

        For fixed pairs the round comes from the evening's published schedule, whose
        length ``rounds`` is needed (pairs can meet each other at most once).
        """
        evening = self.evening(evening_id)
        if evening.closed_at is not None:
            raise StoreError("This evening is closed; no more rounds can be drawn.")
        earlier = [one.draw for one in evening.rounds]
        if evening.rounds:
            unfinished = self.result(evening_id).rounds[-1].playing
            if unfinished:
                raise StoreError(
                    "Tables {tables} are still playing; draw the next round when every table has finished.",
                    tables=", ".join(map(str, unfinished)),
                )
        if evening.fixed_pairs:
            pairs = evening.pairs
            schedule = fixed_pairs_schedule(pairs, rounds or len(pairs) - 1 + len(pairs) % 2)
            if len(earlier) >= len(schedule):
                raise StoreError("Every round of the pairs' schedule has been played.")
            draw = schedule[len(earlier)]
        else:
            draw = draw_round(evening.present, earlier, evening.seed, evening.odd_players)
        number = len(earlier) + 1
        ruleset = rules.get(CLUB_GAME)
        with self.store._write() as conn:
            conn.execute(sa.insert(EVENING_ROUNDS).values(evening_id=evening_id, number=number, draw=draw.as_json()))
            for table in draw.tables:
                game = ruleset.new_game(list(table.seats), evening.options)
                note = f"{evening.name}: {number}/{table.number}"[:1000]
                record = self.store._insert_game(conn, game, note, "")
                conn.execute(
                    sa.insert(EVENING_TABLES).values(
                        evening_id=evening_id, round_number=number, table_number=table.number, game_id=record.id,
                        code=new_code(JOIN_CODE_LENGTH),
                    )
                )
        return self.evening(evening_id)

    def close(self, evening_id: int) -> Evening:
        """The evening is over: its ranking is final (it can still be corrected through the
        games). Closed again (a second tap on Close), it keeps the moment it was closed."""
        with self.store._write() as conn:
            self._row(conn, evening_id)
            conn.execute(sa.update(EVENINGS).where(EVENINGS.c.id == evening_id, EVENINGS.c.closed_at.is_(None)).values(closed_at=utc_now()))
        return self.evening(evening_id)

    # --- read-outs -----------------------------------------------------------------------

    def evening(self, evening_id: int) -> Evening:
        with self.store._read() as conn:
            row = self._row(conn, evening_id)
            players = conn.execute(
                sa.select(PLAYERS.c.name, EVENING_PLAYERS.c.present)
                .join(PLAYERS, PLAYERS.c.id == EVENING_PLAYERS.c.player_id)
                .where(EVENING_PLAYERS.c.evening_id == evening_id)
                .order_by(EVENING_PLAYERS.c.position)
            ).all()
            draws = conn.execute(
                sa.select(EVENING_ROUNDS.c.number, EVENING_ROUNDS.c.draw)
                .where(EVENING_ROUNDS.c.evening_id == evening_id)
                .order_by(EVENING_ROUNDS.c.number)
            ).all()
            tables = conn.execute(
                sa.select(
                    EVENING_TABLES.c.round_number, EVENING_TABLES.c.table_number, EVENING_TABLES.c.game_id, EVENING_TABLES.c.code
                ).where(EVENING_TABLES.c.evening_id == evening_id)
            ).all()
        games: dict[int, dict[int, int]] = {}
        table_codes: dict[int, dict[int, str]] = {}
        for round_number, table_number, game_id, code in tables:
            games.setdefault(round_number, {})[table_number] = game_id
            if code is not None:
                table_codes.setdefault(round_number, {})[table_number] = code
        return Evening(
            row.id,
            row.name,
            row.season,
            dict(row.options),
            row.odd_players,
            SitOutScore(row.sit_out, row.sit_out_fixed),
            PrizeRule(**row.prizes),
            row.fixed_pairs,
            row.seed,
            row.created_at,
            row.closed_at,
            tuple(EveningPlayer(name, present) for name, present in players),
            tuple(
                EveningRound(number, Draw.from_json(draw), games.get(number, {}), table_codes.get(number, {}))
                for number, draw in draws
            ),
        )

    def evenings(self, season_name: str | None = None) -> list[Evening]:
        """Every evening (of one season, when named), newest first."""
        query = sa.select(EVENINGS.c.id).order_by(EVENINGS.c.created_at.desc(), EVENINGS.c.id.desc())
        if season_name is not None:
            query = query.where(EVENINGS.c.season == season_name)
        with self.store._read() as conn:
            ids = conn.execute(query).scalars().all()
        return [self.evening(evening_id) for evening_id in ids]

    def result(self, evening_id: int) -> EveningResult:
        """The ranking and prizes from the tables' games as saved now (a table whose game was
        abandoned is stopped: see ``RoundScores``)."""
        evening = self.evening(evening_id)
        rounds = []
        for one in evening.rounds:
            records = {table: self.store.open_game(game_id) for table, game_id in one.game_ids.items()}
            stopped = frozenset(table for table, record in records.items() if record.status == "abandoned")
            rounds.append(RoundScores(one.draw, {table: record.game for table, record in records.items()}, stopped))
        return _derived(evening, tuple(rounds))

    def season_table(self, season_name: str, best_of: int | None = None) -> list[SeasonStanding]:
        """The season: each player's total, average and best N evenings over its closed evenings."""
        evenings = [e for e in self.evenings(season_name) if e.closed_at is not None]
        return season([{s.player: s.total for s in self.result(e.id).standings} for e in evenings], best_of)

    def _row(self, conn: sa.Connection, evening_id: int) -> sa.Row[Any]:
        if isinstance(evening_id, bool) or not isinstance(evening_id, int) or not 1 <= evening_id <= LARGEST_ID:
            raise NotFoundError("There is no club evening {evening_id!r}.", evening_id=evening_id)
        row = conn.execute(sa.select(EVENINGS).where(EVENINGS.c.id == evening_id)).first()
        if row is None:
            raise NotFoundError("There is no club evening {evening_id!r}.", evening_id=evening_id)
        return row


# --- export ------------------------------------------------------------------------------


def result_json(result: EveningResult) -> str:
    """The evening's ranking, prizes and tables as JSON (for a club's own records)."""
    evening = result.evening
    data = {
        "evening": evening.name,
        "season": evening.season,
        "date": evening.created_at.isoformat(),
        "options": dict(evening.options),
        "ranking": [
            {
                "place": s.place,
                "player": s.player,
                "total": s.total,
                "rounds": list(s.rounds),
                "sat_out": s.sat_out,
                "nats": s.nats,
                "pits": s.pits,
            }
            for s in result.standings
        ],
        "prizes": [
            {"kind": p.kind, "position": p.position, "players": list(p.players), "shared": p.shared} for p in result.prizes
        ],
        "rounds": [
            {
                "number": one.number,
                "tables": [
                    {"table": t.number, "seats": list(t.seats), "game_id": one.game_ids.get(t.number)} for t in one.draw.tables
                ],
                "sitting_out": list(one.draw.sitting_out),
            }
            for one in evening.rounds
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


def result_csv(result: EveningResult) -> str:
    """The ranking as CSV: place, player, total, one column per round, nats, pits."""
    out = io.StringIO()
    writer = csv.writer(out)
    rounds = len(result.evening.rounds)
    writer.writerow(["place", "player", "total", *[f"round {n}" for n in range(1, rounds + 1)], "nats", "pits"])
    for s in result.standings:
        writer.writerow([s.place, s.player, s.total, *["" if r is None else r for r in s.rounds], s.nats, s.pits])
    return out.getvalue()


PRINT_STYLE = """
@page { size: A4; margin: 15mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; color: #000; }
h1 { font-size: 18pt; margin: 0 0 4mm; } h2 { font-size: 14pt; margin: 6mm 0 2mm; }
table { border-collapse: collapse; width: 100%; margin-bottom: 4mm; }
th, td { border: 0.3mm solid #000; padding: 1mm 2mm; text-align: left; }
td.n, th.n { text-align: right; }
.card, .slip { break-inside: avoid; page-break-inside: avoid; margin-bottom: 6mm; }
.card { border: 0.6mm solid #000; padding: 4mm; font-size: 14pt; }
.card .number { font-size: 28pt; font-weight: bold; }
.round { break-before: page; page-break-before: always; }
"""


def result_html(result: EveningResult, table_codes: Mapping[int, tuple[str, str | None]] | None = None) -> str:
    """A page to print from a browser on A4: the ranking and prizes, then per round its table
    cards (who sits where) and each table's score slip (the deals saved, blank lines to go).

    ``table_codes``: the newest round's tables' codes, each with the address a phone opens
    (table number -> (code, address or None)), printed with a QR code on the table cards; only
    the organiser's page passes them, as a table's code lets a phone score that table's game."""
    from base64 import b64encode
    from html import escape

    from companion.i18n import _
    from companion.share import qr
    from companion.share.codes import grouped

    evening = result.evening
    ranking, player, total = escape(_("Ranking")), escape(_("Player")), escape(_("Total"))

    def round_title(number: int) -> str:
        return escape(_("Round {number}").format(number=number))

    def table_title(number: int) -> str:
        return escape(_("Table {number}").format(number=number))

    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{escape(evening.name)}</title><style>{PRINT_STYLE}</style></head><body>",
        f"<h1>{escape(evening.name)}</h1>",
        f"<h2>{ranking}</h2><table><tr><th class='n'>#</th><th>{player}</th>",
        *[f"<th class='n'>{round_title(n)}</th>" for n in range(1, len(result.rounds) + 1)],
        f"<th class='n'>{total}</th></tr>",
    ]
    for s in result.standings:
        cells = "".join(f"<td class='n'>{'' if r is None else r}</td>" for r in s.rounds)
        parts.append(f"<tr><td class='n'>{s.place}</td><td>{escape(s.player)}</td>{cells}<td class='n'>{s.total}</td></tr>")
    parts.append("</table>")
    if result.finished and result.prizes:
        parts.append(f"<h2>{escape(_('Prizes'))}</h2><ul>")
        parts.extend(f"<li>{escape(prize_line(prize))}</li>" for prize in result.prizes)
        parts.append("</ul>")
    for one, scores in zip(evening.rounds, result.rounds):
        parts.append(f"<section class='round'><h2>{round_title(one.number)}</h2>")
        for table in one.draw.tables:
            seats = "<br>".join(f"{seat}. {escape(name)}" for seat, name in enumerate(table.seats, start=1))
            code, address = (table_codes or {}).get(table.number, ("", None)) if one is evening.rounds[-1] else ("", None)
            if code:
                seats += "<br>" + escape(_("Table code: {code}").format(code=grouped(code)))
            if address:
                seats += f"<br><img alt='' width='160' height='160' src='data:image/png;base64,{b64encode(qr.png(address)).decode()}'>"
            parts.append(f"<div class='card'><span class='number'>{table_title(table.number)}</span><br>{seats}</div>")
        if one.draw.sitting_out:
            sitting = escape(_("Sitting out: {players}").format(players=", ".join(one.draw.sitting_out)))
            parts.append(f"<p>{sitting}</p>")
        for table in one.draw.tables:
            game = scores.games.get(table.number)
            if game is None:
                continue
            first, second = game.sides
            rows = [
                f"<tr><td class='n'>{n}</td><td class='n'>{deal[first]}</td><td class='n'>{deal[second]}</td></tr>"
                for n, deal in enumerate(game.round_scores, start=1)
            ]
            to_play = game.detail.get("deals_to_play") or len(rows)
            rows += [f"<tr><td class='n'>{n}</td><td></td><td></td></tr>" for n in range(len(rows) + 1, to_play + 1)]
            totals = game.totals
            parts.append(
                f"<div class='slip'><h2>{table_title(table.number)}</h2><table>"
                f"<tr><th class='n'>#</th><th class='n'>{escape(first)}</th><th class='n'>{escape(second)}</th></tr>"
                + "".join(rows)
                + f"<tr><th class='n'>{total}</th><th class='n'>{totals[first]}</th><th class='n'>{totals[second]}</th></tr>"
                "</table></div>"
            )
        parts.append("</section>")
    parts.append("</body></html>")
    return "".join(parts)
