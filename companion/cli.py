"""Command line: `companion` (same as `companion run`) and its subcommands."""

from __future__ import annotations

import argparse
import os
import sys

from companion import __version__, i18n, rules
from companion.cli_club import add_club_commands
from companion.cli_store import add_store_commands
from companion.i18n import _
from companion.rules.text import brief
from companion.ui.format import number, player_count

DEFAULT_HOST = "127.0.0.1"
SHARE_HOST = "0.0.0.0"
DEFAULT_PORT = 8550


def _run(args: argparse.Namespace) -> int:
    from companion.share.address import is_loopback
    from companion.ui.app import serve

    if args.database_url:
        os.environ["COMPANION_DATABASE_URL"] = args.database_url
    share = args.share or not is_loopback(args.host)  # reachable from the network: only with a code
    if args.workers > 1 and not args.share:
        print(_("companion: --workers serves a shared table: add --share."), file=sys.stderr)
        return 2
    problem = _environment_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    serve(host=args.host, port=args.port, desktop=args.desktop, share=share, workers=args.workers)
    return 0


def _environment_problem() -> str | None:
    """Why a variable of the environment the server reads cannot be used, in the user's
    words; None when each is usable or unset. Taken as written, either would fail without a
    word: a proxy never trusted, links that lead nowhere."""
    from companion.share.address import ADDRESS_VARIABLE, configured_address, is_host
    from companion.share.network import TRUSTED_PROXY_VARIABLE, every_client, unknown_proxies

    proxies = os.environ.get(TRUSTED_PROXY_VARIABLE, "")
    unknown = unknown_proxies(proxies)
    if unknown:
        return _(
            "companion: {variable} names {entry}, which is neither an address nor a network (e.g. 10.0.0.2 or 10.0.0.0/24)."
        ).format(variable=TRUSTED_PROXY_VARIABLE, entry=brief(unknown[0]))
    everyone = every_client(proxies)
    if everyone is not None:
        return _(
            "companion: {variable} names {entry}, which is every address: any phone could then pass for another and try codes without end. Name the reverse proxy's address or network (e.g. 10.0.0.2 or 10.0.0.0/24)."
        ).format(variable=TRUSTED_PROXY_VARIABLE, entry=everyone)
    configured = configured_address()
    if configured is not None and not is_host(configured):
        return _(
            "companion: {variable} names {value}, which is neither an address nor a machine's name (e.g. 192.168.1.20 or companion.local)."
        ).format(variable=ADDRESS_VARIABLE, value=brief(configured))
    return None


def _port(text: str) -> int:
    """A port to listen on, as argparse reads it: refused in the user's words unless 1 to 65535
    (the socket library would end in a traceback)."""
    port = number(text)
    if port is None or not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("{value} is not a port: a port is a number from 1 to 65535.").format(value=brief(text)))
    return port


def _processes(text: str) -> int:
    """A number of server processes, as argparse reads it: 1 or more."""
    count = number(text)
    if count is None or count < 1:
        raise argparse.ArgumentTypeError(_("{value} is not a number of processes: give 1 or more.").format(value=brief(text)))
    return count


def _rulesets(args: argparse.Namespace) -> int:
    for ruleset in rules.rulesets():
        print(f"{ruleset.name} ({ruleset.id}): {player_count(ruleset.min_players, ruleset.max_players)}")
        for option in ruleset.options:
            choices = []
            if option.allowed is not None:
                choices = [str(v) for v in option.allowed]
            if option.minimum is not None or option.maximum is not None:  # a range, or one beside the choices
                choices.append(f"{option.minimum if option.minimum is not None else ''}..{option.maximum if option.maximum is not None else ''}")
            allowed = " [" + ", ".join(choices) + "]" if choices else ""
            print(f"  {option.name} = {option.default!r}{allowed}: {_(option.description)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=_("Scorekeeping companion for card and board games."))
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command")

    run = sub.add_parser("run", help=_("start the app (the default)"))
    run.add_argument(
        "--share",
        action="store_true",
        help=_(
            "share the table: listen on the local network (default {host}) and print the address, a QR code "
            "and the codes that let phones join (see docs/sharing.md)"
        ).format(host=SHARE_HOST),
    )
    run.add_argument(
        "--host",
        help=_("address to listen on (default {host}: this machine only; any other address shares the table)").format(
            host=DEFAULT_HOST
        ),
    )
    run.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=_("port to listen on (default {port})").format(port=DEFAULT_PORT)
    )
    run.add_argument(
        "--workers",
        type=_processes,
        default=1,
        help=_("server processes for a club (with --share, on PostgreSQL; default 1)"),
    )
    run.add_argument(
        "--desktop",
        action="store_true",
        help=_("open a desktop window instead of serving a web app (needs the Flet desktop client)"),
    )
    run.add_argument(
        "--database-url",
        help=_("SQLAlchemy URL of the database (default: $COMPANION_DATABASE_URL, else a SQLite file in your data folder)"),
    )
    run.set_defaults(handler=_run)

    rs = sub.add_parser("rulesets", help=_("list the games and their options"))
    rs.set_defaults(handler=_rulesets)

    add_store_commands(sub)
    add_club_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    i18n.set_language(i18n.environment_language())  # messages follow the terminal's locale
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["run", *argv]  # `companion [--port N ...]` is `companion run [--port N ...]`
    args = parser.parse_args(argv)
    if args.command == "run" and args.host is None:
        args.host = SHARE_HOST if args.share else DEFAULT_HOST
    try:
        return args.handler(args)
    except rules.RuleError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
