"""Rules: the searchable rules reference of every game and the referee of each, for settling
disputes at the table.

Routes (see companion.ui.router): ``/rules`` the reference with a referee button per game;
``/rules/<ruleset>/referee`` that game's referee; ``<game route>/rules`` and
``<game route>/referee`` the same for a game being scored (``/game/<id>`` or
``/history/<id>``): its rules with its options highlighted, its referee set up like it.
"""

from __future__ import annotations

import flet as ft

from companion import rules
from companion.i18n import _
from companion.store import StoreError
from companion.ui import widgets
from companion.ui.referee import referee_view
from companion.ui.reference import reference_view
from companion.ui.routes import Page, Route


def show(app) -> ft.View:
    """Every game's rules, and a way into each game's referee."""
    buttons: list[ft.Control] = [
        widgets.tagged(
            ft.OutlinedButton(
                r.name,
                icon=ft.Icons.GAVEL,
                on_click=lambda _e=None, route=Route(Page.REFEREE, ruleset=r.id).path: app.go(route),
            ),
            f"open-referee-{r.id}",
        )
        for r in rules.rulesets()
    ]
    body: list[ft.Control] = [
        widgets.section_title(_("Settle a dispute")),
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        widgets.section_title(_("Rules")),
        reference_view(),
    ]
    return widgets.screen(app, "/rules", _("Rules"), body)


def show_referee(app, route: str, ruleset_id: str) -> ft.View:
    """The referee of a game, set up with the rulebook's defaults."""
    ruleset = rules.get(ruleset_id)
    return widgets.screen(app, route, _("Referee: {game}").format(game=ruleset.name), [referee_view(ruleset.id)])


def show_for_game(app, route: str, game_id: int, referee: bool) -> ft.View:
    """The rules (its options highlighted) or the referee (set up like it) of a saved game."""
    try:
        game = app.store.open_game(game_id).game
    except StoreError as err:
        return widgets.screen(app, route, _("Rules"), [widgets.error_banner(err.message)])
    name = game.ruleset.name
    if referee:
        return widgets.screen(
            app, route, _("Referee: {game}").format(game=name), [referee_view(game.ruleset.id, game.options)]
        )
    return widgets.screen(
        app, route, _("Rules of {game}").format(game=name), [reference_view(game.ruleset.id, game.options)]
    )
