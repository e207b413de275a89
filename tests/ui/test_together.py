"""update_together: the changes of several controls go to the browser as one message, the
same changes Flet would have sent for each control on its own."""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.object_patch import Operation
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session

from companion.ui.together import update_together
from tests.ui.tree import served_page


def replaced(patch: list) -> list[tuple[list[Any], Any]]:
    """A patch's replaced values, each with its path from the patched control."""
    table, *operations = patch
    paths: dict[int, list[Any]] = {}

    def name(node: list, path: list[Any]) -> None:
        paths[node[0]] = path
        for key, child in (node[1] if len(node) > 1 else {}).items():
            name(child, [*path, key])

    name(table, [])
    return [(paths[node] + [key], value) for kind, node, key, value, *_ in operations if kind == Operation.Replace]


def board() -> tuple[Session, list, ft.Column, ft.Text, ft.Text]:
    sent: list = []
    session, _page = served_page(sent)
    left, right = ft.Text("1"), ft.Text("2")
    column = ft.Column([left, ft.Row([ft.Container(right)])])
    session.page.views.append(ft.View(route="/", controls=[column]))
    session.page.update()
    sent.clear()
    return session, sent, column, left, right


def test_changes_in_two_branches_go_as_one_patch_of_the_control_that_holds_both():
    session, sent, column, left, right = board()
    left.value, right.value = "10", "20"
    update_together(session.page, [left, right])
    assert len(sent) == 1 and sent[0].action == MessageAction.PATCH_CONTROL
    assert sent[0].body.id == column._i
    assert replaced(sent[0].body.patch) == [(["controls", 0, "value"], "10"), (["controls", 1, "controls", 0, "content", "value"], "20")]


def test_they_are_the_changes_flet_sends_for_each_control_on_its_own():
    session, sent, _column, left, right = board()
    left.value, right.value = "10", "20"
    session.page.update(left, right)
    assert [(message.body.id, replaced(message.body.patch)) for message in sent] == [
        (left._i, [(["value"], "10")]),
        (right._i, [(["value"], "20")]),
    ]


def test_a_control_added_to_one_of_them_is_known_to_the_session_and_told_it_was_mounted():
    session, sent, column, left, _right = board()
    mounted: list[ft.Text] = []

    class Noting(ft.Text):
        def did_mount(self) -> None:
            mounted.append(self)

    added = Noting("new")
    column.controls.append(added)
    left.value = "10"
    update_together(session.page, [left, column])
    assert len(sent) == 1
    assert session.index[added._i] is added and mounted == [added]


def test_a_control_taken_off_goes_from_the_session():
    session, sent, column, left, right = board()
    row = column.controls[1]
    column.controls.remove(row)
    right.value = "20"
    update_together(session.page, [column, left])
    assert len(sent) == 1
    assert row._i not in session.index and right._i not in session.index


def test_nothing_changed_sends_nothing():
    session, sent, _column, left, right = board()
    update_together(session.page, [left, right])
    assert sent == []


def test_one_control_goes_as_flet_sends_it():
    session, sent, _column, left, _right = board()
    left.value = "10"
    update_together(session.page, [left])
    assert [(message.body.id, replaced(message.body.patch)) for message in sent] == [(left._i, [(["value"], "10")])]


def test_controls_on_no_common_page_go_each_on_its_own():
    session, sent, _column, left, _right = board()
    elsewhere = ft.Text("not shown")
    left.value, elsewhere.value = "10", "x"
    update_together(session.page, [left, elsewhere])
    assert [(message.body.id, replaced(message.body.patch)) for message in sent] == [
        (left._i, [(["value"], "10")]),
        (elsewhere._i, [(["value"], "x")]),
    ]
