"""What users read when the store refuses something, in their own language.

A store error keeps its English template and values and is translated when its message is
read (as ``RuleError`` is): every template is a literal the catalogue extraction finds, it
gets exactly its placeholders, and the Dutch catalogue turns a stale save, an unknown
player or game and a refused backup into Dutch, each device in its own language. The
English wording is pinned by the other store tests.
"""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest

import companion
from companion import i18n
from companion.store import NotFoundError, StaleError, Store, StoreError
from tests.rules.test_messages import extracted_messages
from tests.store.games import beverbende

PACKAGE = Path(companion.__file__).parent
STORE_ERRORS = {"StoreError", "StaleError", "NotFoundError"}
STALE_NL = "Deze ronde is op een ander apparaat gewijzigd; laad opnieuw."


def store_error_calls():
    """Every construction of a store error in the package, with where it is."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in STORE_ERRORS:
                yield f"{path.relative_to(PACKAGE.parent)}:{node.lineno}", node


def test_every_store_error_is_made_from_a_literal_template_the_catalogues_hold():
    """Babel extracts ``StoreError:1`` (and the subclasses) only from a string literal."""
    calls = list(store_error_calls())
    assert len(calls) > 40  # the store, its backup and database modules and the command line
    not_literal, not_extracted = [], []
    for where, call in calls:
        if not call.args:  # StaleError() says what its default says
            template = StaleError().template if call.func.id == "StaleError" else None
        elif isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            template = call.args[0].value
        else:
            template = None
        if template is None:
            not_literal.append(where)
        elif template not in extracted_messages():
            not_extracted.append((where, template))
    assert (not_literal, not_extracted) == ([], [])


def test_every_store_error_template_gets_exactly_its_placeholders():
    """A placeholder without a value fails only when the message is shown; a value without one is lost."""
    mismatched = []
    for where, call in store_error_calls():
        if not call.args or not isinstance(call.args[0], ast.Constant):
            continue  # no template of its own, or not a literal (the test above says so)
        wanted = {field for _, field, _, _ in string.Formatter().parse(call.args[0].value) if field is not None}
        given = {keyword.arg for keyword in call.keywords}
        if wanted != given:
            mismatched.append((where, sorted(wanted), sorted(given)))
    assert mismatched == []


@pytest.fixture
def dutch():
    i18n.set_language("nl")
    yield
    i18n.set_language("en")


@pytest.fixture
def memory_store():
    with Store.memory() as opened:
        yield opened


def test_a_save_on_an_old_version_is_refused_in_dutch(dutch, memory_store):
    record = beverbende(memory_store, [{"Ann": 12, "Bob": 20}])
    memory_store.add_round(record.id, {"totals": {"Ann": 10, "Bob": 10}}, expected_version=record.version)
    with pytest.raises(StaleError) as caught:
        memory_store.add_round(record.id, {"totals": {"Ann": 11, "Bob": 11}}, expected_version=record.version)
    assert caught.value.message == STALE_NL
    assert str(caught.value) == STALE_NL


def test_an_unknown_player_or_game_is_not_found_in_dutch(dutch, memory_store):
    with pytest.raises(NotFoundError) as player:
        memory_store.player_stats(" Zed ")
    with pytest.raises(NotFoundError) as game:
        memory_store.open_game(999)
    assert player.value.message == "Er is geen opgeslagen speler die 'Zed' heet."
    assert game.value.message == "Er is geen opgeslagen spel met nummer 999."


def test_an_error_is_translated_when_read_so_each_device_reads_its_own_language():
    err = StaleError()
    device = {"language": None}
    i18n.follow_sessions(lambda: device["language"])
    try:
        assert err.message == "This round changed on another device; reload."
        device["language"] = "nl"
        assert err.message == STALE_NL
        device["language"] = "de"
        assert err.message == "Diese Runde wurde auf einem anderen Gerät geändert; lade neu."
    finally:
        i18n.follow_sessions(lambda: None)
    assert err.message == "This round changed on another device; reload."


def test_a_refused_backup_names_the_game_and_the_rule_in_dutch(dutch, memory_store, tmp_path):
    beverbende(memory_store, [{"Ann": 12, "Bob": 20}])
    path = tmp_path / "backup.json"
    memory_store.export_json(path)
    document = json.loads(path.read_text(encoding="utf-8"))
    game_id = document["games"][0]["uuid"]
    document["games"][0]["rounds"][0]["entry"] = {"totals": {"Ann": 99, "Bob": 1}}
    path.write_text(json.dumps(document), encoding="utf-8")
    with Store.memory() as other, pytest.raises(StoreError) as caught:
        other.import_json(path)
    assert caught.value.message == (
        f"{path}, spel 1 ({game_id}) is in strijd met de regels: De vier kaarten van Ann tellen samen 0 tot en met "
        "36, niet 99."
    )
