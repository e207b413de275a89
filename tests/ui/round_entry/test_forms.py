"""entry_form: one form per ruleset, each with Save disabled until its entry is valid."""

from types import SimpleNamespace

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion import rules
from companion.ui.round_entry import entry_form, entry_state
from tests.ui.tree import find, tap, text

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


def test_a_key_on_a_shown_form_updates_the_form_and_not_the_pages_around_it(monkeypatch):
    session = Session(SimpleNamespace(pubsubhub=PubSubHub(), send_message=lambda message: None))
    page = session.page  # the page holds its session weakly
    msgpack.packb(page, default=configure_encode_object_for_msgpack(BaseControl))  # sent to a browser, as Flet does first
    game = rules.get("beverbende").new_game(PLAYERS)
    form = entry_form(game, lambda entry: None, on_cancel=lambda: None)
    page.views.extend([ft.View(route="/", controls=[ft.Text("Home")]), ft.View(route="/game/1/round", controls=[ft.Column([form])])])
    page.update()  # the form shown on top of home
    updated: list[BaseControl] = []
    monkeypatch.setattr(Session, "patch_control", lambda session, control: updated.append(control))
    tap(form, "entry-key-3")
    assert updated == [form]
    assert text(find(form, "bever-card-Ann-0")) == "3"
