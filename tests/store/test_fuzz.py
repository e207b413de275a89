"""Fuzzing the store: random and hostile backup files and random Store API calls.

Whatever comes in, the store answers with a success or a refusal in one sentence
(StoreError or RuleError), and a refusal leaves every saved game exactly as it was: no game
is ever half-saved, and every saved game still opens with a summary that agrees with it.
Runs on SQLite and PostgreSQL (see conftest); the example counts keep it to seconds.
"""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion import rules
from companion.rules import RuleError
from companion.store import Store, StoreError
from tests.store.games import beverbende, klaverjassen_boompje, members_only_one_hand

FUZZ = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

NAMES = ["Ann", "Bob", "Cy", "Dee"]
HOSTILE_TEXT = st.sampled_from(
    ["", " ", "Ann", "Ann ", "\x00", "Ann\x00", "\ud800", "Bob\udfff", "\x1b[2J", "\u202eAnn", "A" * 101,
     "x" * 5000, "💥", "Ann\nBob", "Zoë"]
)
HOSTILE_NUMBERS = st.sampled_from(
    [0, 1, -1, 162, 225, 226, 2**31 - 1, 2**31, 2**53, 2**63 - 1, 2**63, -(2**63) - 1, 10**19, 10**400]
)
SCALARS = (
    st.none() | st.booleans() | HOSTILE_NUMBERS | st.integers() | st.floats() | HOSTILE_TEXT | st.text(max_size=12)
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10) | HOSTILE_TEXT, inner, max_size=4),
    max_leaves=12,
)
TIMES = st.sampled_from(
    ["2024-05-01T20:00:00+00:00", "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59-23:59", "1999-12-31T23:59:59Z",
     "2024-05-01T20:00:00", "yesterday", "2999-12-31T23:59:59+14:00"]
)


def emptied(url: str) -> str:
    """The database at ``url`` without any game or player, so that each example starts afresh."""
    Store(url).close()  # the tables exist
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for table in ("rounds", "game_players", "games", "players"):
            conn.execute(sa.text(f"DELETE FROM {table}"))
    engine.dispose()
    return url


def snapshot(store: Store) -> tuple:
    """Everything saved: each game as its rounds, versions and times, and every player."""
    games = []
    for summary in store.history(page_size=1000):
        record = store.open_game(summary.id)
        games.append((record.uuid, record.version, record.status, record.game.rounds, record.round_times,
                      record.note, record.location))
    return tuple(games), tuple(p.name for p in store.players())


def assert_whole(store: Store) -> None:
    """Every saved game opens, and the summary the history lists agrees with its rounds."""
    for summary in store.history(page_size=1000):
        record = store.open_game(summary.id)
        assert summary.rounds_played == len(record.game.rounds)
        assert summary.totals == record.game.totals and summary.winners == record.game.winners


def assert_a_sentence(err: Exception) -> None:
    message = str(err)
    assert message and "\n" not in message and len(message) < 600, message


# --- backup files ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def valid_backup(tmp_path_factory) -> dict:
    """A backup of a game of every kind, read as the plain data the file holds."""
    path = tmp_path_factory.mktemp("backup") / "backup.json"
    with Store.memory() as store:
        beverbende(store, [{"Ann": 12, "Bob": 20}] * 2, note="birthday", location="Cafe")
        klaverjassen_boompje(store, us=100, deals=3)
        members_only_one_hand(store)
        store.create_game("clubs", ["Ann", "Bob", "Cy"], teams=None)
        store.export_json(path)
    return json.loads(path.read_text(encoding="utf-8"))


@st.composite
def mutated(draw, document: dict) -> str:
    """The backup with fresh game ids and a few random parts replaced, removed or added."""
    document = json.loads(json.dumps(document))
    for game in document["games"]:
        game["uuid"] = str(draw(st.uuids()))
    for _ in range(draw(st.integers(0, 3))):
        parent, key = document, None
        for _depth in range(draw(st.integers(1, 6))):
            children = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
            if not children:
                break
            key = draw(st.sampled_from(children))
            if not isinstance(parent[key], (dict, list)) or draw(st.booleans()):
                break
            parent, key = parent[key], None
        if key is None:
            continue
        action = draw(st.sampled_from(["replace", "replace", "time", "remove", "add"]))
        if action == "remove":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8) | HOSTILE_TEXT)] = draw(JSONISH)
        elif action == "time":
            parent[key] = draw(TIMES)
        else:
            parent[key] = draw(JSONISH)
    return json.dumps(document)


HOSTILE_FILES = st.sampled_from(
    ["", "{", "[" * 5000 + "]" * 5000, '{"format": "companion-backup", "version": ' + "9" * 5000 + "}",
     '{"format": "companion-backup", "version": 1, "players": [], "games": [' + "[" * 900 + "]" * 900 + "]}"]
) | st.text(max_size=200) | JSONISH.map(json.dumps)


@FUZZ
@given(data=st.data())
def test_an_imported_file_is_added_whole_or_refused_in_a_sentence_changing_nothing(store_url, tmp_path, valid_backup, data):
    text = data.draw(mutated(valid_backup) | HOSTILE_FILES)
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with Store(emptied(store_url)) as store:
        beverbende(store, [{"Ann": 12, "Bob": 20}])  # a game already here, which a refusal leaves as it is
        before = snapshot(store)
        try:
            report = store.import_json(path)
        except (StoreError, RuleError) as err:
            event("refused")
            assert_a_sentence(err)
            assert snapshot(store) == before
        else:
            event("imported")
            after = snapshot(store)
            assert len(after[0]) == len(before[0]) + report.games_added
        assert_whole(store)


def test_the_backup_the_fuzzing_starts_from_imports_and_exports_again(valid_backup, tmp_path):
    """The untouched backup imports (so the fuzzing also reaches successes), and what the
    store then exports imports elsewhere."""
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(valid_backup), encoding="utf-8")
    with Store.memory() as first, Store.memory() as second:
        assert first.import_json(path).games_added == len(valid_backup["games"])
        assert first.export_json(tmp_path / "again.json") == []
        assert second.import_json(tmp_path / "again.json").games_added == len(valid_backup["games"])
        assert snapshot(second) == snapshot(first)


# --- Store API calls ---------------------------------------------------------------------------

KNOWN_GAME = st.tuples(st.just("known"), st.integers(0, 5))
GAME_ID = KNOWN_GAME | KNOWN_GAME | KNOWN_GAME | st.tuples(st.just("raw"), HOSTILE_NUMBERS | SCALARS)
CURRENT = st.tuples(st.just("current"), st.just(0))
VERSION = CURRENT | CURRENT | CURRENT | st.tuples(st.just("raw"), HOSTILE_NUMBERS | SCALARS)
POINTS = st.integers(2, 36) | st.integers(2, 36) | HOSTILE_NUMBERS | SCALARS
PLAUSIBLE = st.fixed_dictionaries(
    {
        "beverbende": st.fixed_dictionaries({"totals": st.fixed_dictionaries({"Ann": POINTS, "Bob": POINTS})}),
        "clubs": st.fixed_dictionaries(
            {"out_order": st.permutations(NAMES[:3]).map(lambda order: list(order[:2])),
             "club_points": st.dictionaries(st.sampled_from(NAMES[:3]), POINTS, max_size=3)}
        ),
        "klaverjassen": st.tuples(st.integers(0, 162), st.sampled_from([0, 0, 20, 50, 100, 220]) | POINTS).map(
            lambda a: {"card_points": {"Ann & Cy": a[0], "Bob & Dee": 162 - a[0]}, "roem": {"Ann & Cy": a[1]}}
        ),
        "members_only": st.fixed_dictionaries(
            {"counts": st.fixed_dictionaries({s: st.integers(0, 11) for s in ("umbrella", "crown", "teacup", "big_ben", "hat")})}
        ),
    }
)
ENTRY = st.tuples(st.sampled_from(["plausible", "plausible", "junk"]), PLAUSIBLE, JSONISH)
"""A round that fits the game's rules more often than not, or anything at all."""
SETUPS = [("beverbende", NAMES[:2]), ("clubs", NAMES[:3]), ("klaverjassen", NAMES), ("members_only", NAMES[:3])]
SETUP = st.sampled_from(SETUPS)
NAME = st.sampled_from(NAMES) | HOSTILE_TEXT | SCALARS
CALLS = st.one_of(
    st.tuples(st.just("create_game"), SETUP, st.none() | st.none() | JSONISH, st.just("") | HOSTILE_TEXT | SCALARS,
              st.just("") | HOSTILE_TEXT | st.text(max_size=20)),
    st.tuples(st.just("create_game_raw"), st.sampled_from([*rules.IDS, "poker"]) | SCALARS, JSONISH, JSONISH),
    *[st.tuples(st.just("add_round"), GAME_ID, ENTRY, VERSION)] * 4,
    st.tuples(st.just("edit_round"), GAME_ID, st.integers(-1, 3) | HOSTILE_NUMBERS, ENTRY, VERSION),
    st.tuples(st.just("undo_round"), GAME_ID, VERSION),
    st.tuples(st.just("abandon"), GAME_ID, VERSION | st.tuples(st.just("raw"), st.none())),
    st.tuples(st.just("reopen"), GAME_ID, VERSION | st.tuples(st.just("raw"), st.none())),
    st.tuples(st.just("open_game"), GAME_ID),
    st.tuples(st.just("add_player"), NAME),
    st.tuples(st.just("player_stats"), NAME),
    st.tuples(st.just("head_to_head"), NAME, NAME),
    st.tuples(st.just("history"), st.sampled_from([None, *rules.IDS]) | SCALARS, st.none() | NAME,
              st.sampled_from([None, "finished", "in_progress", "abandoned"]) | SCALARS,
              st.integers(0, 3) | HOSTILE_NUMBERS | SCALARS, st.integers(1, 50) | HOSTILE_NUMBERS | SCALARS),
    st.tuples(st.just("export"), GAME_ID),
)
CHANGES = {"create_game", "create_game_raw", "add_round", "edit_round", "undo_round", "abandon", "reopen", "add_player"}


def perform(store: Store, call: tuple, folder) -> None:
    """One call, with "known" game ids and "current" versions resolved against what is saved."""
    saved = [g.id for g in store.history(page_size=1000)]

    def game_id(choice):
        kind, value = choice
        return (saved[value % len(saved)] if saved else 1) if kind == "known" else value

    def entry(choice, of):
        kind, plausible, junk = choice
        try:
            return plausible[store.open_game(of).ruleset] if kind == "plausible" else junk
        except StoreError:
            return junk

    def version(choice, of):
        kind, value = choice
        if kind == "raw":
            return value
        try:
            return store.open_game(of).version
        except StoreError:
            return 1

    name, *args = call
    if name == "create_game":
        (ruleset, players), options, note, location = args
        store.create_game(ruleset, players, options, note=note, location=location)
    elif name == "create_game_raw":
        store.create_game(*args)
    elif name == "add_round":
        target = game_id(args[0])
        store.add_round(target, entry(args[1], target), version(args[2], target))
    elif name == "edit_round":
        target = game_id(args[0])
        store.edit_round(target, args[1], entry(args[2], target), version(args[3], target))
    elif name in ("undo_round", "abandon", "reopen"):
        target = game_id(args[0])
        getattr(store, name)(target, version(args[1], target))
    elif name == "open_game":
        store.open_game(game_id(args[0]))
    elif name == "history":
        ruleset, player, status, page, page_size = args
        store.history(ruleset, player, status, page, page_size)
    elif name == "export":
        store.export_json(folder / "backup.json")
        store.export_csv(folder / "rounds.csv", game_id(args[0]))
    else:
        getattr(store, name)(*args)


@FUZZ
@given(calls=st.lists(CALLS, min_size=3, max_size=8))
def test_random_store_calls_succeed_or_are_refused_in_a_sentence_changing_nothing(store_url, tmp_path, calls):
    with Store(emptied(store_url)) as store:
        for ruleset, players in SETUPS:  # a game of each kind to play on
            store.create_game(ruleset, players)
        for call in calls:
            before = snapshot(store) if call[0] in CHANGES else None
            try:
                perform(store, call, tmp_path)
                event(f"{call[0]} done")
            except (StoreError, RuleError) as err:
                event(f"{call[0]} refused")
                assert_a_sentence(err)
                if before is not None:
                    assert snapshot(store) == before
        assert_whole(store)
