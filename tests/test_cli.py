"""The command line: `companion` is `companion run`; the rulesets listing; store commands wired in."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from companion import cli, i18n, rules
from companion.store import Store
from tests.store.games import beverbende


def test_rulesets_lists_a_range_typed_beside_quick_choices(capsys):
    cli.main(["rulesets"])
    assert "ending = '501' [501, 1000, 1500, boompje, boompje12, 100..10000]:" in capsys.readouterr().out


def test_rulesets_lists_every_game_with_its_options(capsys):
    assert cli.main(["rulesets"]) == 0
    out = capsys.readouterr().out
    for ruleset in rules.rulesets():
        assert f"{ruleset.name} ({ruleset.id})" in out
        for option in ruleset.options:
            assert f"  {option.name} = {option.default!r}" in out
    assert "Klaverjassen (klaverjassen): 4 players" in out
    assert "CLUBS (clubs): 2 to 6 players" in out


@pytest.mark.parametrize(
    "argv, expected",
    [
        ([], {"command": "run", "host": "127.0.0.1", "port": cli.DEFAULT_PORT}),
        (["--port", "9001"], {"command": "run", "port": 9001}),
        (["run", "--host", "0.0.0.0", "--port", "8123"], {"command": "run", "host": "0.0.0.0", "port": 8123}),
    ],
)
def test_bare_companion_means_run(monkeypatch, argv, expected):
    seen = {}
    monkeypatch.setattr(cli, "_run", lambda args: seen.update(vars(args)) or 0)
    assert cli.main(argv) == 0
    for key, value in expected.items():
        assert seen[key] == value


def test_store_commands_are_part_of_the_command_line(tmp_path, capsys):
    """`companion export`, `import`, `history` and `stats` do their work (a game carried from
    one database to another by a backup file, then listed and counted there)."""
    here, there = (f"sqlite:///{tmp_path / name}" for name in ("here.sqlite3", "there.sqlite3"))
    with Store(here) as store:
        beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
    backup = tmp_path / "backup.json"
    assert cli.main(["export", str(backup), "--database-url", here]) == 0
    assert cli.main(["import", str(backup), "--database-url", there]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Imported 1 game and 2 new players; 0 games already here."
    assert cli.main(["history", "--database-url", there]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[3:] == ["Beverbende", "finished", "4", "Ann", "40*,", "Bob", "80"]
    assert cli.main(["stats", "Ann", "--database-url", there]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Ann: 1 finished game, 1 win (100%)"


def test_python_dash_m_companion_runs_the_same_command_line():
    done = subprocess.run([sys.executable, "-m", "companion", "rulesets"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "MEMBERS ONLY (members_only): 3 to 5 players" in done.stdout


@pytest.fixture
def dutch_terminal(monkeypatch):
    """A terminal whose locale is Dutch; the process language is English again afterwards."""
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.set_language("en")


def test_messages_follow_the_terminals_locale(dutch_terminal, monkeypatch, capsys):
    monkeypatch.setattr(cli, "_rulesets", lambda args: rules.get("clubs").new_game(["Ann"]))
    assert cli.main(["rulesets"]) == 2
    assert capsys.readouterr().err == "companion: CLUBS is voor 2 tot 6 spelers, niet 1.\n"


def test_history_speaks_the_terminals_language(dutch_terminal, tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    with Store(url) as store:
        beverbende(store, [{"Ann": 10, "Bob": 20}] * 4)
        store.create_game("clubs", ["Ann", "Bob", "Cy"])
    assert cli.main(["history", "--database-url", url]) == 0
    heading, running, finished = capsys.readouterr().out.splitlines()
    assert heading.split() == ["#", "Datum", "Spel", "Status", "Rondes", "Uitslag"]
    assert running.split()[3:5] == ["CLUBS", "bezig"] and finished.split()[3:5] == ["Beverbende", "afgelopen"]


def test_a_refusal_of_the_store_speaks_the_terminals_language(dutch_terminal, tmp_path, capsys):
    assert cli.main(["stats", "Zed", "--database-url", f"sqlite:///{tmp_path / 'companion.sqlite3'}"]) == 1
    assert capsys.readouterr().err == "companion: Er is geen opgeslagen speler die 'Zed' heet.\n"


def test_help_speaks_the_terminals_language(dutch_terminal, capsys):
    with pytest.raises(SystemExit):
        cli.main(["history", "--help"])
    assert "alleen spellen met deze speler" in capsys.readouterr().out


def test_workers_serve_a_shared_table_only(capsys):
    assert cli.main(["run", "--workers", "2"]) == 2
    assert "--workers serves a shared table: add --share." in capsys.readouterr().err


def test_workers_need_postgresql_and_say_so_before_listening(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DATABASE_URL", "")  # the command sets it from --database-url
    with pytest.raises(SystemExit) as stopped:
        cli.main(["run", "--share", "--host", "127.0.0.1", "--workers", "2", "--database-url", f"sqlite:///{tmp_path / 'c.sqlite3'}"])
    assert stopped.value.code == 2
    assert "--workers needs a PostgreSQL database" in capsys.readouterr().err
    assert not (tmp_path / "c.sqlite3").exists()


@pytest.mark.parametrize(
    "argument, value, expected",
    [
        ("--port", "0", "0 is not a port: a port is a number from 1 to 65535."),
        ("--port", "65536", "65536 is not a port: a port is a number from 1 to 65535."),
        ("--port", "-5", "-5 is not a port"),
        ("--port", "eighty", "eighty is not a port"),
        ("--workers", "0", "0 is not a number of processes: give 1 or more."),
        ("--workers", "-2", "-2 is not a number of processes"),
    ],
)
def test_a_port_or_a_number_of_processes_that_cannot_be_is_refused_before_anything_starts(argument, value, expected, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["run", "--share", argument, value])
    assert stopped.value.code == 2
    assert f"argument {argument}: {expected}" in capsys.readouterr().err


@pytest.mark.parametrize("argument, value", [("--port", "1"), ("--port", "65535"), ("--workers", "1"), ("--workers", "12")])
def test_the_ends_of_the_ranges_are_taken(argument, value):
    assert getattr(cli.build_parser().parse_args(["run", argument, value]), argument[2:]) == int(value)


def test_every_command_and_option_the_documents_show_is_one_the_command_line_takes():
    """README.md and docs/ show `companion <command> [--option ...]`: each command is one of
    the command line's and takes each option shown with it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    commands = next(action for action in cli.build_parser()._actions if action.dest == "command").choices  # the subcommands' parsers
    shown = [
        usage
        for document in [root / "README.md", *sorted((root / "docs").glob("*.md"))]
        for usage in re.findall(r"`companion ([^`]+)`", document.read_text(encoding="utf-8"))
    ]
    assert len(shown) >= 10
    for usage in shown:
        command = usage.split()[0]
        assert command in commands, usage
        taken = {option for action in commands[command]._actions for option in action.option_strings}
        assert set(re.findall(r"--[a-z][\w-]*", usage)) <= taken, usage


@pytest.mark.parametrize("value, named", [("proxy.local", "proxy.local"), ("127.0.0.1, 10.0.0.300", "10.0.0.300"), ("192.168.1.5/24", "192.168.1.5/24"), ("10.0.0.2, *", "*")])
def test_a_trusted_proxy_that_is_no_address_is_refused_before_anything_starts(monkeypatch, capsys, value, named):
    """uvicorn would keep such an entry as a name no request comes from: the proxy meant
    would not be trusted, and every client behind it would count as one."""
    from companion.ui import app

    monkeypatch.setenv("COMPANION_TRUSTED_PROXY", value)
    monkeypatch.setattr(app, "serve", lambda **kwargs: pytest.fail("served"))
    assert cli.main(["run"]) == 2
    assert f"COMPANION_TRUSTED_PROXY names {named}, which is neither an address nor a network" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["*", " * ", "0.0.0.0/0", "10.0.0.2, ::/0"])
def test_a_trusted_proxy_of_every_address_is_refused_before_anything_starts(monkeypatch, capsys, value):
    """Every client could then say, in X-Forwarded-For, that it is another, and get fresh
    tries at the code without end (docs/security.md, "Wrong codes are slowed down")."""
    from companion.ui import app

    monkeypatch.setenv("COMPANION_TRUSTED_PROXY", value)
    monkeypatch.setattr(app, "serve", lambda **kwargs: pytest.fail("served"))
    assert cli.main(["run"]) == 2
    assert "which is every address: any phone could then pass for another" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["", "127.0.0.1", "10.0.0.2, 10.1.0.0/16", "::1", "172.16.0.0/12"])
def test_a_trusted_proxy_of_addresses_and_networks_is_taken(monkeypatch, value):
    from companion.ui import app

    started: dict = {}
    monkeypatch.setenv("COMPANION_TRUSTED_PROXY", value)
    monkeypatch.setattr(app, "serve", lambda **kwargs: started.update(kwargs))
    assert cli.main(["run"]) == 0 and started


def test_a_port_of_thousands_of_digits_is_refused_in_words(capsys):
    """``int`` refuses thousands of digits with an error argparse would name its type function in."""
    with pytest.raises(SystemExit):
        cli.main(["run", "--port", "9" * 5000])
    assert "is not a port: a port is a number from 1 to 65535." in capsys.readouterr().err


def test_a_refusal_quotes_at_most_a_short_part_of_the_value(monkeypatch, capsys):
    """As every refusal of the store and the rules does (``companion.rules.text.brief``)."""
    monkeypatch.setenv("COMPANION_SHARE_ADDRESS", "x" * 5000)
    assert cli.main(["run"]) == 2
    assert len(capsys.readouterr().err) < 300


def test_a_store_command_on_a_database_that_does_not_answer_names_it_and_the_drivers_words(capsys):
    """A device's page says only that the database does not answer; whoever runs the command
    line gets which database, and why (the password hidden)."""
    assert cli.main(["history", "--database-url", "postgresql+psycopg://nobody:secret@127.0.0.1:9/nothing"]) == 1
    printed = capsys.readouterr().err
    assert printed.startswith("companion: Cannot reach the database at postgresql+psycopg://nobody:***@127.0.0.1:9/nothing: ")
    assert "secret" not in printed
