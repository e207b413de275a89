"""A bare Flet app showing only the referee and reference screens, for browser tests.

Routes: ``/referee/<ruleset_id>``, ``/reference`` and ``/reference/<ruleset_id>`` (the
latter with that game's default options highlighted). Run with
``python -m tests.browser.referee_harness`` under FLET_SERVER_PORT, FLET_WEB_NO_CDN=1 and
FLET_FORCE_WEB_SERVER=1; the browser tests start it themselves.
"""

from __future__ import annotations

import flet as ft

from companion import rules
from companion.ui import theme
from companion.ui.referee import referee_view
from companion.ui.reference import reference_view


def content(route: str) -> ft.Control:
    parts = [p for p in route.split("/") if p]
    if parts[:1] == ["referee"] and len(parts) == 2:
        return referee_view(parts[1])
    if parts[:1] == ["reference"] and len(parts) == 2:
        ruleset = rules.get(parts[1])
        return reference_view(ruleset.id, {o.name: o.default for o in ruleset.options})
    return reference_view()


def main(page: ft.Page) -> None:
    theme.apply(page)

    def show(route: str) -> None:
        page.views.clear()
        page.views.append(
            ft.View(route=route, controls=[ft.Container(content(route), padding=16)], scroll=ft.ScrollMode.AUTO, padding=0)
        )
        page.update()

    page.on_route_change = lambda e: show(e.route)
    show(page.route)


if __name__ == "__main__":
    ft.run(main, assets_dir=str(theme.web_assets_dir()), no_cdn=True)
