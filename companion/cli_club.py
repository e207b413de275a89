"""Command line for club evenings: an evening's result as CSV or JSON, and a season table."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from companion.cli_store import _with_store, database_option
from companion.i18n import _, ngettext

if TYPE_CHECKING:
    from companion.store import Store


def add_club_commands(subparsers: argparse._SubParsersAction) -> None:
    database = database_option()
    evening = subparsers.add_parser(
        "evening", parents=[database], help=_("print a club evening's ranking as CSV (or JSON, or a page to print)")
    )
    evening.add_argument("evening", type=int, metavar="ID", help=_("the evening's number (its page is /event/ID)"))
    form = evening.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help=_("print JSON: ranking, prizes and tables"))
    form.add_argument(
        "--html", action="store_true", help=_("print a page to print on A4: ranking, table cards, score slips")
    )
    evening.set_defaults(handler=evening_command)

    season = subparsers.add_parser(
        "season", parents=[database], help=_("print a season's table over its closed club evenings")
    )
    season.add_argument("season", help=_("the season's name, as given to its evenings"))
    season.add_argument("--best", type=int, metavar="N", help=_("rank by each player's best N evenings"))
    season.set_defaults(handler=season_command)


@_with_store
def evening_command(store: Store, args: argparse.Namespace) -> int:
    from companion.store.club import Evenings, result_csv, result_html, result_json

    result = Evenings(store).result(args.evening)
    if args.json:
        print(result_json(result))
    elif args.html:
        print(result_html(result))
    else:
        print(result_csv(result), end="")
    return 0


@_with_store
def season_command(store: Store, args: argparse.Namespace) -> int:
    from companion.store.club import Evenings

    for line in Evenings(store).season_table(args.season, args.best):
        print(
            _("{place}. {player}: {best} ({evenings}, total {total}, average {average:.0f})").format(
                place=line.place,
                player=line.player,
                best=line.best,
                evenings=ngettext("{count} evening", "{count} evenings", line.evenings).format(count=line.evenings),
                total=line.total,
                average=line.average,
            )
        )
    return 0
