"""The store's subcommands: `companion export FILE`, `import FILE`, `history`, `stats PLAYER`.

``add_store_commands(subparsers)`` adds them to the main parser; each handler takes the
parsed arguments and returns the exit code (0 done, 1 the store refused, with the
reason on stderr).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Callable

from companion import rules
from companion.i18n import N_, _, ngettext, pgettext
from companion.store import GameSummary, StoreError
from companion.store.records import STATUSES

if TYPE_CHECKING:
    from companion.store import Store

STATUS_WORDS = {"in_progress": N_("in progress"), "finished": N_("finished"), "abandoned": N_("abandoned")}
"""How the history table names each game status (translated where printed)."""


def database_option() -> argparse.ArgumentParser:
    """The ``--database-url`` option every store command takes (a parent parser)."""
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--database-url",
        help=_("SQLAlchemy URL of the database (default: $COMPANION_DATABASE_URL, else a SQLite file in your data folder)"),
    )
    return database


def add_store_commands(subparsers: argparse._SubParsersAction) -> None:
    database = database_option()

    export = subparsers.add_parser(
        "export", parents=[database], help=_("save all history to a backup file (.json) or a round table (.csv)")
    )
    export.add_argument(
        "file", help=_("where to write; a name ending in .csv writes the round table, anything else a JSON backup")
    )
    export.add_argument("--game", type=int, metavar="ID", help=_("with a .csv file: only this game's rounds"))
    export.set_defaults(handler=export_command)

    import_ = subparsers.add_parser(
        "import", parents=[database], help=_("add the games of a backup file that are not here yet")
    )
    import_.add_argument("file", help=_("a JSON backup made by `companion export`"))
    import_.set_defaults(handler=import_command)

    history = subparsers.add_parser("history", parents=[database], help=_("list saved games, newest first"))
    history.add_argument("--ruleset", choices=rules.IDS, help=_("only this game"))
    history.add_argument("--player", help=_("only games with this player"))
    history.add_argument("--status", choices=STATUSES, help=_("only games in this state"))
    history.add_argument("--page", type=int, default=1, help=_("which page of games (default 1: the newest)"))
    history.add_argument("--page-size", type=int, default=20, help=_("games per page (default 20)"))
    history.set_defaults(handler=history_command)

    stats = subparsers.add_parser(
        "stats", parents=[database], help=_("a player's record per game, or against another player")
    )
    stats.add_argument("player", help=_("the player's saved name"))
    stats.add_argument("--against", metavar="OTHER", help=_("also show how PLAYER fared against OTHER"))
    stats.set_defaults(handler=stats_command)


def _with_store(work: Callable[[Store, argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Open the store for one command and turn its refusals (the store's or the rules') into
    a message and exit code 1."""

    def handler(args: argparse.Namespace) -> int:
        try:
            from companion.store import Store  # loads the database libraries only for store commands

            with Store(args.database_url) as store:
                return work(store, args)
        except StoreError as err:
            print(f"companion: {err.detail}", file=sys.stderr)
            return 1
        except rules.RuleError as err:
            print(f"companion: {err.message}", file=sys.stderr)
            return 1

    handler.__doc__ = work.__doc__
    return handler


@_with_store
def export_command(store: Store, args: argparse.Namespace) -> int:
    """Write a JSON backup of everything, or a CSV round table (all games or --game)."""
    if args.file.lower().endswith(".csv"):
        store.export_csv(args.file, game_id=args.game)
        if args.game is not None:
            done = _("Wrote the rounds of game {game} to {file}.").format(game=args.game, file=args.file)
        else:
            done = _("Wrote the rounds of every game to {file}.").format(file=args.file)
    else:
        if args.game is not None:
            raise StoreError("--game works with a .csv file only; a backup always holds every game.")
        for problem in store.export_json(args.file):  # written as saved all the same
            print(f"companion: {problem.message}", file=sys.stderr)
        done = _("Wrote a backup of every game and player to {file}.").format(file=args.file)
    print(done)
    return 0


@_with_store
def import_command(store: Store, args: argparse.Namespace) -> int:
    print(store.import_json(args.file).message)
    return 0


@_with_store
def history_command(store: Store, args: argparse.Namespace) -> int:
    if args.page < 1:
        raise StoreError("Pages are numbered from 1.")
    games = store.history(
        ruleset=args.ruleset, player=args.player, status=args.status, page=args.page - 1, page_size=args.page_size
    )
    if not games:
        print(_("No saved games.") if args.page == 1 else _("No games on page {page}.").format(page=args.page))
        return 0
    rows = [("#", _("Date"), _("Game"), _("Status"), pgettext("a column: how many rounds a game has had", "Rounds"), _("Result"))]
    rows += [
        (
            str(g.id), _local(g.created_at), _ruleset_name(g.ruleset), _(STATUS_WORDS[g.status]), str(g.rounds_played),
            _result(g),
        )
        for g in games
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    return 0


@_with_store
def stats_command(store: Store, args: argparse.Namespace) -> int:
    stats = store.player_stats(args.player)
    print(
        _("{player}: {played}, {wins} ({rate})").format(
            player=stats.player,
            played=_finished_games(stats.played),
            wins=ngettext("{n} win", "{n} wins", stats.wins).format(n=stats.wins),
            rate=f"{stats.win_rate:.0%}",
        )
    )
    if stats.by_ruleset:
        rows = [(_("Game"), _("Played"), _("Wins"), _("Win rate"), _("Average"), _("Best"))]
        for line in stats.by_ruleset.values():
            name = _ruleset_name(line.ruleset) + (" *" if line.lowest_wins else "")
            rows.append((name, str(line.played), str(line.wins), f"{line.win_rate:.0%}", f"{line.average:.1f}", str(line.best)))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
        if any(line.lowest_wins for line in stats.by_ruleset.values()):
            print("  * " + _("the lowest total wins, so the best score is the lowest"))
    if args.against:
        duel = store.head_to_head(args.player, args.against)
        print(
            _(
                "{player} against {other}: {games} together; {player} won {wins}, {other} won {other_wins}, "
                "both won {shared}."
            ).format(
                player=duel.player, other=duel.other, games=_finished_games(duel.games_together),
                wins=duel.wins, other_wins=duel.other_wins, shared=duel.shared_wins,
            )
        )
    return 0


def _finished_games(count: int) -> str:
    return ngettext("{n} finished game", "{n} finished games", count).format(n=count)


def _local(moment: datetime) -> str:
    """The time on this machine's clock; in UTC if the local zone cannot show it (a time
    near the year 1 or 9999, saved before imports refused such times)."""
    try:
        return moment.astimezone().strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return moment.isoformat(sep=" ", timespec="minutes")[:16] + " UTC"


def _ruleset_name(ruleset_id: str) -> str:
    try:
        return rules.get(ruleset_id).name
    except rules.RuleError:
        return ruleset_id


def _result(game: GameSummary) -> str:
    """Each side with its total, winners marked with a star."""
    return ", ".join(f"{side} {game.totals.get(side, 0)}{'*' if side in game.winners else ''}" for side in game.sides)
