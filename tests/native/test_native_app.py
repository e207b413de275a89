"""The native phone app (``flet build apk`` / ``ipa``), every step short of Flutter itself:
flet-cli accepts the project, the phone installs only what it runs, the compiled bundle
keeps its migrations, and the app started as the phone's host starts it reaches its main
over the host's socket and keeps its database where the host says."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from flet_cli.commands import build
from flet_cli.utils.project_dependencies import get_project_dependencies
from flet_cli.utils.pyproject_toml import load_pyproject_toml
from packaging.requirements import Requirement

from tests.native.phone import (
    ROOT,
    FlutterHost,
    block,
    excluded_from_bundle,
    package,
    phone_environment,
    socket_inodes,
    tcp_inodes,
    unix_socket_paths,
    with_path,
)

PYPROJECT = load_pyproject_toml(ROOT)
LAUNCH_TIMEOUT = 30.0
"""Seconds the app may take from start to its first page (imports on a busy 2-core machine)."""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    """The app folder as ``flet build`` packs it for the phone (tests.native.phone.package)."""
    return package(tmp_path_factory.mktemp("phone") / "app")


def _check_entry_point(app: Path):
    """Run flet-cli's own check, the one ``flet build apk`` runs before packaging (it stops
    the build when the entry module is not at the app's root): the command and its refusals."""
    command = build.Command(argparse.ArgumentParser())
    command.options = argparse.Namespace(module_name=None)
    command.python_app_path = app
    command.get_pyproject = load_pyproject_toml(app)
    refusals = []
    command.cleanup = lambda exit_code, message=None, **_: refusals.append(message)
    command.validate_entry_point()
    return command, refusals


def test_flet_build_accepts_the_entry_module():
    command, refusals = _check_entry_point(ROOT)
    assert refusals == []
    assert command.package_app_path.joinpath(command.python_module_filename) == ROOT / "main.py"


def test_flet_build_refuses_a_package_as_the_entry_module(tmp_path):
    """Why there is a main.py: the package itself is not accepted as the entry module."""
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "__main__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[tool.flet.app]\nmodule = "companion"\n')
    _command, refusals = _check_entry_point(tmp_path)
    assert len(refusals) == 1 and refusals[0].startswith("companion.py not found in the root of Flet app directory")


def _names(requirements) -> set[str]:
    return {Requirement(r).name.lower().replace("_", "-") for r in requirements}


def test_the_phone_installs_none_of_the_servers_packages():
    """What ``flet build`` installs as Android/iOS wheels (flet-cli reads it as below): no web
    server, no PostgreSQL driver (they have no phone wheels), no translation tools."""
    installed = _names(get_project_dependencies(PYPROJECT("project.dependencies")))
    installed |= _names(get_project_dependencies(PYPROJECT("tool.flet.android.dependencies")) or [])
    installed |= _names(get_project_dependencies(PYPROJECT("tool.flet.ios.dependencies")) or [])
    assert installed.isdisjoint({"flet-web", "uvicorn", "psycopg", "psycopg-binary", "babel"})
    assert {"flet-web", "uvicorn", "psycopg"} <= _names(PYPROJECT("project.optional-dependencies.server"))


def test_the_lock_pins_every_declared_requirement_at_its_version():
    """requirements.lock is the one pinned set `make run` and `make test` install: the app's
    dependencies and both extras are in it, at the versions pyproject.toml names."""
    pinned = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pinned[name.lower().replace("_", "-")] = version
    declared = [*PYPROJECT("project.dependencies")]
    for extra in PYPROJECT("project.optional-dependencies").values():
        declared += extra
    for requirement in map(Requirement, declared):
        name = requirement.name.lower().replace("_", "-")
        assert name in pinned, f"{name} is not in requirements.lock"
        assert pinned[name] in requirement.specifier, f"{name}: the lock has {pinned[name]}, pyproject.toml {requirement.specifier}"


def test_the_bundle_holds_the_app_and_none_of_the_tools(bundle):
    top = {p.name for p in bundle.iterdir()}
    assert {"main.pyc", "companion", "assets"} <= top
    assert top.isdisjoint({"tests", "bench", "docs", "scripts", ".venv", ".git", "build", "companion.egg-info"})
    assert not list(bundle.rglob("*.py")), "the build deletes every source"
    assert (bundle / "companion/store/migrations/versions/0001_first_schema.pyc").exists()
    assert ".venv" in excluded_from_bundle()


def test_the_phone_launch_reaches_main_over_the_hosts_socket_and_opens_no_tcp_port(bundle, tmp_path):
    """Started as the phone's host starts it (FLET_PLATFORM=android, its storage folders,
    ``python -m main`` with no arguments, in the compiled bundle, with no server packages and
    no threads), the app listens on the host's Unix socket only, draws home for the page the
    host registers, and has created and migrated its database in FLET_APP_STORAGE_DATA."""
    with tempfile.TemporaryDirectory(prefix="companion-uds-") as short:  # a socket path has at most 107 bytes
        uds_path = Path(short) / "flet.sock"
        env = with_path(phone_environment(tmp_path, uds_path), block(tmp_path / "site"), bundle)
        log = (tmp_path / "app.log").open("w+")
        app = subprocess.Popen([sys.executable, "-m", "main"], cwd=env["FLET_APP_STORAGE_DATA"], env=env, stdout=log, stderr=log)
        host = None
        try:
            host = FlutterHost(uds_path, timeout=LAUNCH_TIMEOUT)
            host.open_page()
            host.wait_for_control("new-game")
            host.wait_for_control("no-games")  # then the store has opened: home lists the games (none yet)
            sockets = socket_inodes(app.pid)
            assert sockets and sockets.isdisjoint(tcp_inodes()), "the app has a TCP socket open"
            assert str(uds_path) in unix_socket_paths(sockets)
        except AssertionError as err:
            log.seek(0)
            raise AssertionError(f"{err}\n--- the app's output ---\n{log.read()}") from None
        finally:
            if host is not None:
                host.close()
            app.terminate()
            app.wait(timeout=10)
            log.close()
    database = tmp_path / "data" / "companion.sqlite3"
    assert database.exists()
    with sa.create_engine(f"sqlite:///{database}").connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == _head()


def _head() -> str:
    from alembic.script import ScriptDirectory

    from companion.store.database import MIGRATIONS

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


COMPILED_STORE_ROUND_TRIP = """
import json, sys
import companion.store.database as database
from alembic.script import ScriptDirectory
from companion.store import Store

assert database.__file__.endswith(".pyc") and database.__file__.startswith(sys.argv[1]), database.__file__
with Store() as store:
    record = store.create_game("beverbende", ["Ann", "Bob"], options={"ending": "seed", "rounds": 2})
    store.add_round(record.id, {"totals": {"Ann": 7, "Bob": 12}}, expected_version=record.version)
    where = store.url.database
with Store() as store:
    game = store.open_game(record.id)
    print(json.dumps({
        "where": where,
        "rounds": game.game.rounds, "totals": game.game.totals,
        "quick_head": database._newest_revision(),
        "alembic_head": ScriptDirectory(str(database.MIGRATIONS), sourceless=True).get_current_head(),
    }))
"""


def test_a_compiled_bundle_migrates_a_fresh_database_and_reads_a_saved_game_back(bundle, tmp_path):
    """The bundle holds only .pyc files: a fresh database still gets its whole schema, a game
    saved in it reads back, and the quick check on open knows the newest migration."""
    env = with_path(phone_environment(tmp_path), block(tmp_path / "site"), bundle)
    done = subprocess.run(
        [sys.executable, "-c", COMPILED_STORE_ROUND_TRIP, str(bundle)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["where"] == str(tmp_path / "data" / "companion.sqlite3")
    assert result["rounds"] == [{"totals": {"Ann": 7, "Bob": 12}}]
    assert result["totals"] == {"Ann": 7, "Bob": 12}  # replayed by the rules
    assert result["quick_head"] == result["alembic_head"] == _head()


def test_the_database_is_in_the_folder_the_phones_host_names(tmp_path, monkeypatch):
    from companion.store.database import database_url

    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path))
    assert database_url().database == str(tmp_path / "companion.sqlite3")


def test_every_module_of_the_app_imports_without_the_servers_packages(tmp_path):
    """A screen the first page does not open would otherwise fail only on a phone, later."""
    script = (
        "import importlib, pkgutil, companion\n"
        "for module in pkgutil.walk_packages(companion.__path__, 'companion.'):\n"
        "    if module.name != 'companion.__main__' and not module.name.startswith('companion.store.migrations'):\n"
        "        importlib.import_module(module.name)  # the migrations run under Alembic only\n"
        "try:\n"
        "    import uvicorn\n"
        "except ImportError:\n"
        "    print('uvicorn is missing here, as on a phone')\n"
    )
    env = with_path(phone_environment(tmp_path), block(tmp_path / "site"), ROOT)
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "uvicorn is missing here, as on a phone\n"
