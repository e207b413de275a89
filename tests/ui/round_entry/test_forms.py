"""entry_form: one form per ruleset, each with Save disabled until its entry is valid."""

import dataclasses
from types import SimpleNamespace

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from bench.long_games import benched
from companion import rules
from companion.ui.round_entry import RoundForm, entry_form, entry_state
from companion.ui.synced import unsent
from tests.ui.tree import ENCODE, find, served_page, tap, tap_through, text, walk

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_every_ruleset_has_a_form_that_starts_unsaveable(ruleset_id):
    game = rules.get(ruleset_id).new_game(PLAYERS)
    form = entry_form(game, lambda entry: None, on_cancel=lambda: None)
    assert find(form, "entry-save").disabled
    find(form, "entry-cancel")
    assert not entry_state(game).valid


def test_editing_a_round_that_does_not_exist_is_refused():
    game = rules.get("beverbende").new_game(PLAYERS)
    with pytest.raises(IndexError):
        entry_form(game, lambda entry: None, index=0)


def patched_from_now(monkeypatch, page: ft.Page) -> list[BaseControl]:
    """The controls ``page``'s session compares or patches from now on: each control Flet's
    ``page.update`` compares (whether or not it finds a change), and the control each message
    patches (with what it holds), as the browser gets it."""
    roots: list[BaseControl] = []
    connection = page.session.connection
    send, compare = connection.send_message, Session.patch_control

    def sent(message) -> None:
        roots.append(page.session.index[message.body.id])
        send(message)

    def compared(session, control, *args, **kwargs) -> None:
        roots.append(control)
        compare(session, control, *args, **kwargs)

    monkeypatch.setattr(connection, "send_message", sent)
    monkeypatch.setattr(Session, "patch_control", compared)
    return roots


def test_a_key_on_a_shown_form_updates_what_it_changed_in_the_form_and_not_the_pages_around_it(monkeypatch):
    _session, page = served_page()
    form = entry_form(rules.get("beverbende").new_game(PLAYERS), lambda entry: None, on_cancel=lambda: None)
    page.views.extend([ft.View(route="/", controls=[ft.Text("Home")]), ft.View(route="/game/1/round", controls=[ft.Column([form])])])
    page.update()  # the form shown on top of home
    updated = patched_from_now(monkeypatch, page)
    tap(form, "entry-key-3")
    inside = {id(c) for c in walk(form)}
    assert updated and all(id(c) in inside for c in updated)  # what the tap changed in the form: home is not compared
    assert find(form, "bever-card-Ann-0") in [c for u in updated for c in walk(u)]
    assert text(find(form, "bever-card-Ann-0")) == "3"


def test_a_key_sends_the_boxes_it_changed_and_no_keys_style_again():
    sent: list[bytes] = []
    session = Session(SimpleNamespace(pubsubhub=PubSubHub(), send_message=lambda m: sent.append(msgpack.packb([m.action, m.body], default=ENCODE))))
    msgpack.packb(session.page, default=ENCODE)
    form = entry_form(rules.get("beverbende").new_game(PLAYERS), lambda entry: None)
    session.page.views.append(ft.View(route="/game/1/round", controls=[form]))
    session.page.update()
    sent.clear()
    tap(form, "entry-key-3")
    update = b"".join(sent)
    assert b"\xa5value\xa13" in update  # the first card box now says 3
    assert b"\xa5style" not in update  # no "style": the twelve keys look as they did: Flet's copy of each one's style stays at home


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_after_each_tap_nothing_changed_on_the_form_is_left_unsent(ruleset_id):
    """A tap sends the controls whose fields changed, not the whole form compared: were a
    change missed, comparing the whole form afterwards (as every tap once did) would find it."""
    _session, page = served_page()
    teams = {"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]} if ruleset_id == "klaverjassen" else None
    form = entry_form(rules.get(ruleset_id).new_game(PLAYERS, None, teams), lambda entry: None)
    page.views.append(ft.View(route="/game/1/round", controls=[form]))
    page.update()
    assert tap_through(form) >= 10


def test_a_tap_that_changes_nothing_updates_nothing(monkeypatch):
    _session, page = served_page()
    form = entry_form(rules.get("clubs").new_game(PLAYERS), lambda entry: None)
    page.views.extend([ft.View(route="/", controls=[ft.Text("Home")]), ft.View(route="/game/1/round", controls=[form])])
    page.update()
    tap(form, "clubs-points-Ann-minus")  # no points yet: still none
    updated = patched_from_now(monkeypatch, page)
    tap(form, "clubs-points-Ann-minus")
    assert updated == []  # Flet's update of the whole page (page.update() with nothing named) would compare home too


def test_a_key_on_a_form_taken_off_the_page_updates_nothing_itself(monkeypatch):
    _session, page = served_page()
    form = entry_form(rules.get("beverbende").new_game(PLAYERS), lambda entry: None, on_cancel=lambda: None)
    shown = ft.View(route="/game/1/round", controls=[form])
    page.views.append(shown)
    page.update()
    shown.controls = [ft.Text("Scoreboard")]  # the round saved meanwhile
    page.update()
    updated = patched_from_now(monkeypatch, page)
    tap(form, "entry-key-3")  # a tap already on its way
    assert updated == []


def described(value):
    """What a control shows and does, as plain values: every public field, its controls'
    too; a handler as only that there is one."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (f.name for f in dataclasses.fields(value) if not f.name.startswith("_"))
        return (type(value).__name__, {name: described(getattr(value, name)) for name in fields})
    if isinstance(value, (list, tuple)):
        return [described(item) for item in value]
    if isinstance(value, dict):
        return {key: described(item) for key, item in value.items()}
    return "a handler" if callable(value) else value


def games_played_through(ruleset_id: str, rounds: int):
    """The game before each of the first ``rounds`` rounds of the ruleset's longest game, and
    for Beverbende also of one where players go out (the form then has fewer rows)."""
    spec = benched()[ruleset_id].long_game()
    plays = [(spec["players"], spec.get("options"), spec.get("teams"), spec["entries"][:rounds])]
    if ruleset_id == "beverbende":
        three = [{"totals": {"Ann": 36, "Bob": 30, "Cy": 2, "Dee": 3}}] * 3  # Ann out at 108
        outs = [*three, {"totals": {"Bob": 30, "Cy": 2, "Dee": 3}}, {"totals": {"Cy": 2, "Dee": 3}}]  # then Bob at 120
        plays.append((PLAYERS, {"ending": "elimination"}, None, outs))
    for players, options, teams, entries in plays:
        game = rules.get(ruleset_id).new_game(players, options, teams)
        for entry in entries:
            yield game
            game = game.add_round(entry)
        yield game


@pytest.mark.parametrize("ruleset_id", rules.IDS)
def test_a_form_kept_for_the_next_round_shows_it_as_a_form_built_for_it_would(ruleset_id):
    """The game page shows each next round in the form it entered the last one in
    (``RoundForm.show``): whatever was tapped there, it then shows what a new form shows and
    sends all of it, and a round its controls are not built for (a player out) is refused."""
    _session, page = served_page()
    kept: RoundForm | None = None
    shown = refused = 0
    for number, game in enumerate(games_played_through(ruleset_id, rounds=8)):
        if kept is not None and kept.show(entry_state(game)):
            shown += 1
            assert described(kept.control) == described(RoundForm(entry_state(game), lambda entry: None).control)
            page.update()
            assert unsent(kept.control) == []  # the page's update sent what the next round changed
        else:
            refused += kept is not None
            kept = RoundForm(entry_state(game), lambda entry: None)
            page.views[:] = [ft.View(route="/game/1/round", controls=[kept.control])]
            page.update()
        if number % 3 == 0:
            tap_through(kept.control)  # what a scorer typed is gone from the next round
    assert shown >= 7
    assert refused == (3 if ruleset_id == "beverbende" else 0)  # Beverbende: another game, then a player out twice


def test_a_pinned_line_of_scores_says_too_that_the_round_ends_the_game():
    """``pin_scores``: the round's points and totals in one line, and the end of the game
    when the round brings it, where a tall form's preview below its body is out of sight."""
    from companion.ui.round_entry.clubs import ClubsEntry
    from companion.ui.round_entry.widgets import EntryForm

    state = ClubsEntry(rules.get("clubs").new_game(PLAYERS, {"target": 10}))
    form = EntryForm(state, lambda entry: None).build([], pin_scores=True)
    for player in ("Bob", "Ann", "Cy"):
        state.tap_out(player)
    state.step("Bob", 2)
    form.refresh()
    assert text(find(form.root, "entry-scores")).replace("\u00a0", " ") == (
        "Ann +5 → 5 · Bob +10 → 10 · Cy +2 → 2 · Dee 0 → 0 This round ends the game: Bob wins."
    )
