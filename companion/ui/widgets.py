"""Flet building blocks every screen shares, so the screens look like one app."""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterator, Sequence, TypeVar

import flet as ft

from companion import i18n
from companion.i18n import _
from companion.ui.games import look
from companion.ui.summary import GameCard

if TYPE_CHECKING:
    from companion.rules import RuleError
    from companion.store import GameRecord, StoreError

PAD = 16


class FollowsGames(ABC):
    """A page kept while it is shown that shows a game changed elsewhere in place (the table
    view, a club evening's ranking): the app asks the page on top (``follower_of``) without
    knowing which page it is."""

    @abstractmethod
    def follow(self, record: GameRecord) -> list[ft.Control] | None:
        """The controls that ``record`` changed (none: the page does not show that game);
        None when the page must be built anew."""


def follower_of(view: ft.View | None) -> FollowsGames | None:
    """The page on ``view`` that follows games in place, if it is one."""
    data = view.data if view is not None else None
    return data if isinstance(data, FollowsGames) else None


Held = TypeVar("Held")


def on_screen(app, route: str, kind: type[Held]) -> Held | None:
    """What the page on screen holds (its ``data``), if that page is ``route``'s and holds a
    ``kind``: a page built again while it is on screen (a change elsewhere, the browser back
    after a lost connection, another language) goes on with it, what was typed on it too."""
    views = getattr(app.page, "views", None) or [None]
    shown = views[-1]
    return shown.data if shown is not None and shown.route == route and isinstance(shown.data, kind) else None


class ReadAgain(ABC):
    """A page read again in place while it is on screen (``shown_again``): what was chosen,
    typed and scrolled on it stays. A page in another language is built anew."""

    language: str
    """The language its words were built in."""
    view: ft.View

    @abstractmethod
    def read_again(self) -> None:
        """Read what the page shows from the store again, keeping what was chosen on it."""

    @abstractmethod
    def render(self) -> None:
        """Draw the page's state into it again."""


def shown_again(app, route: str, kind: type[ReadAgain]) -> ft.View | None:
    """The page on screen, read and drawn again in place, if it is ``route``'s, a ``kind``,
    and in the current language; else None (the page is then built)."""
    shown = on_screen(app, route, kind)
    if shown is None or shown.language != i18n.language():
        return None
    shown.read_again()
    shown.render()
    return shown.view


class Refusals:
    """What a page's state says of its last change's refusal (``error``). When the refusal was
    the database not answering, that word goes once it answers again (``database_answers``)."""

    error: str | None = None
    _away: str | None = None
    """The word ``error`` held when the database did not answer."""

    def refused(self, err: RuleError | StoreError) -> None:
        from companion.store.errors import UnreachableError

        self.error = err.message
        self._away = err.message if isinstance(err, UnreachableError) else None

    def database_answers(self) -> bool:
        """The database answers again: its word that it did not goes (any other refusal
        stays). Whether there was that word."""
        if self.error is None or self.error != self._away:
            return False
        self.error = self._away = None
        return True


class HearsTheDatabase(ABC):
    """A page that may say the database did not answer a change (a round's form, New game, a
    club evening): the app tells the page on top when it answers again (``App.database_answers``),
    without knowing which page it is."""

    @abstractmethod
    def database_answers(self) -> list[ft.Control]:
        """The controls that changed as the page stops saying that the database does not
        answer (none: it did not say so)."""


def tagged(control: ft.Control, identifier: str, label: str | None = None, settled: bool = False, **semantics: Any) -> ft.Semantics:
    """Give a control a stable identifier for browser tests (``[flt-semantics-identifier=...]``);
    ``label`` is what a screen reader says for it. Other Semantics fields pass through, e.g.
    ``expand`` to let the wrapped control share its Row's width (a Row expands its direct child).
    ``settled``: what it wraps changes only when it is sent on its own (``Settled``; e.g. a round's row)."""
    return (Settled if settled else ft.Semantics)(content=control, identifier=identifier, label=label, **semantics)


@ft.control(isolated=True)  # type: ignore[arg-type]  # Flet's decorator with arguments leaves its type unbound
class Settled(ft.Semantics):
    """A tagged control whose contents change only where their change is sent on its own
    (``control.update()``, or named in ``page.update``): an update of the page or of a list
    it is in compares the wrapper, not what it wraps (Flet's isolated controls), so a long
    list costs little on the server at every update of every device that shows it."""


@ft.control("Container")  # type: ignore[arg-type]  # as Settled
class Stowed(ft.Container):
    """A container that stays on its page while hidden (a round's form under the scoreboard,
    kept for the next round; the scoreboard under a round's form). Hidden, it is an isolated
    control to Flet: an update of the page compares it, not what it holds. Shown, what it
    holds is compared with the page and goes in the page's update: sent in messages of its
    own before the page's, the same changes took the browser 20 to 60 ms longer to show
    (bench/ui_bench.py's form, 6 games each way). Held (``held``), shown, an update of the
    page compares it alone too: what changed in it is sent as its parts, in the same message
    (``GameScreen.send``)."""

    _held = False

    def is_isolated(self) -> bool:
        return not self.visible or self._held


@ft.control("Container")  # type: ignore[arg-type]  # as Settled
class Deferred(ft.Container):
    """A container whose contents can go to the browser after the rest of the page's
    change: while it is held (``sent_after``), an update of the page compares the container,
    not what it holds, and what changed in there waits for the container's own update."""

    _held = False

    def is_isolated(self) -> bool:
        return self._held


@contextlib.contextmanager
def sent_after(controls: Sequence[ft.Control]) -> Iterator[None]:
    """Hold the ``Deferred`` among ``controls`` meanwhile: updates then leave what they
    hold for later, when the containers are updated themselves."""
    with held([control for control in controls if isinstance(control, Deferred)]):
        yield


@contextlib.contextmanager
def held(containers: Sequence[Deferred | Stowed]) -> Iterator[None]:
    """Meanwhile, an update of the page compares each of ``containers``, not what it holds."""
    for container in containers:
        container._held = True
    try:
        yield
    finally:
        for container in containers:
            container._held = False


class SteadyStyle(ft.Button):
    """A button whose style is sent once, not again at every comparison: Flet's Button
    (FilledButton, FilledTonalButton) makes a new copy of its style each time it is
    compared (``before_update``), and the copy, a new object, went to the browser again in
    every update that compared the button: every key of a round's keypad at every tap, the
    Enter round button at every round on every device. The copy is kept while it equals
    the one sent, and a new style is noted as a change. Every FilledButton given a style,
    colour or elevation is one of these."""

    def before_update(self):
        sent = self._internals.get("style")
        super().before_update()
        if sent is not None and self._internals.get("style") == sent:
            self._internals["style"] = sent

    def __setattr__(self, name: str, value: Any) -> None:
        # Flet notes no change of these four (it finds one only when it compares the button):
        # noted here, so that an update of what changed (synced.unsent) includes the button
        if name in UNNOTED and hasattr(self, "_dirty") and value != getattr(self, name, None):
            self._dirty[name] = None
        super().__setattr__(name, value)


UNNOTED = frozenset({"style", "color", "bgcolor", "elevation"})
"""A Button's fields whose change Flet does not note (no ``_dirty``): it folds them into the
style it sends when it compares the button."""


@ft.control("FilledButton")  # type: ignore[arg-type]  # as Settled
class SteadyFilledButton(SteadyStyle, ft.FilledButton):
    """A FilledButton with a style of its own, sent once."""


@ft.control("FilledTonalButton")  # type: ignore[arg-type]  # as Settled
class SteadyTonalButton(SteadyStyle, ft.FilledTonalButton):
    """A FilledTonalButton with a style of its own, sent once."""


Unchanging = TypeVar("Unchanging")


def frozen(control: Unchanging) -> Unchanging:
    """A control that never changes once shown (a changed one is replaced), marked as Flet's
    components mark what they render: when the page or a list it is in is compared at an
    update, it and all it holds cost one check, and the server keeps no copy of what it
    sent of them. Changing one raises. For what stays put at every round, as a chart's drawn
    points (the chart's part of a device's update, in the process: 2.6 ms with the points
    settled, 1.4 ms frozen) or a table's header. A round's row is settled instead: a device
    that follows the game fills in again the row that scrolls out, and Flet walks every field
    of a frozen control it takes off a page (a row has hundreds)."""
    object.__setattr__(control, "_frozen", True)
    return control


def screen(
    app,
    route: str,
    title: str,
    body: Sequence[ft.Control],
    *,
    actions: Sequence[ft.Control] = (),
    home: bool = False,
    floating: ft.FloatingActionButton | None = None,
) -> ft.View:
    """A full-screen page with an app bar (back arrow unless ``home``) and the theme switch."""
    bar = ft.AppBar(
        title=bar_title(title),
        leading=None if home else back_button(app),
        automatically_imply_leading=False,
        actions=[*actions, theme_switch(app), ft.Container(width=4)],
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )
    return ft.View(
        route=route,
        appbar=bar,
        controls=[constrained(body)],
        scroll=ft.ScrollMode.AUTO,
        padding=0,
        floating_action_button=floating,
        bgcolor=ft.Colors.SURFACE,
    )


def app_bar(view: ft.View) -> ft.AppBar:
    """The app bar of a page ``screen`` built, to change its title and buttons."""
    bar = view.appbar
    if not isinstance(bar, ft.AppBar):
        raise TypeError("this page was not built by screen(): it has no app bar")
    return bar


def bar_title(title: str) -> ft.Text:
    """An app bar's title: two lines of it fit in the bar, so a long title wraps instead of
    ending in an ellipsis (the app bar allows one line unless told otherwise)."""
    return ft.Text(title, weight=ft.FontWeight.W_600, size=18, max_lines=2)


def set_title(view: ft.View, title: str) -> None:
    """Change the title of a page ``screen`` built, in place (a new Text would be sent whole)."""
    text = app_bar(view).title
    if not isinstance(text, ft.Text):
        raise TypeError("this page's title was not built by bar_title()")
    text.value = title


def on_device(page: ft.Page, call: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Ask the device for ``call(*args)`` without waiting: remember a choice in its storage,
    keep a copy of a round being entered, put the keyboard back in a field, open a link in
    another app. A courtesy or a copy, never the player's only record: a device that cannot
    (no local storage), a page gone meanwhile (Flet: "Session closed") or a browser that
    never answers (a timeout) changes nothing on the screen and logs no traceback."""

    async def ask() -> None:
        with contextlib.suppress(RuntimeError, TimeoutError):
            await call(*args)

    page.run_task(ask)


def constrained(body: Sequence[ft.Control]) -> ft.Control:
    """The body in a column no wider than CONTENT_WIDTH, centred on wide screens."""
    return ft.ResponsiveRow(
        [
            ft.Container(
                content=ft.Column(list(body), spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                padding=ft.Padding.only(left=PAD, right=PAD, top=12, bottom=96),
                col={"xs": 12, "md": 10, "lg": 8, "xl": 6},
            )
        ],
        alignment=ft.MainAxisAlignment.CENTER,
    )


def set_body(view: ft.View | ft.Column, body: Sequence[ft.Control]) -> ft.Control:
    """Replace what a screen shows after its state changed; the control that shows it is returned."""
    shown = constrained(body)
    view.controls = [shown]
    return shown


def back_button(app) -> ft.Control:
    """The app bar's back arrow, one page down (Flutter's own would say "Back" in English
    whatever the app's language)."""
    return tagged(ft.IconButton(ft.Icons.ARROW_BACK, tooltip=_("Back"), on_click=lambda: app.back()), "back")


def theme_switch(app) -> ft.Control:
    """Switches between the light and the dark theme; its label says which way."""
    return tagged(
        ft.IconButton(icon=ft.Icons.CONTRAST, tooltip=theme_switch_label(app.dark), on_click=lambda: app.toggle_theme()),
        "theme-switch",
    )


def theme_switch_label(dark: bool) -> str:
    return _("Switch to the light theme") if dark else _("Switch to the dark theme")


def section_title(text: str) -> ft.Control:
    return ft.Container(
        ft.Text(text, size=13, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY),
        padding=ft.Padding.only(left=4, top=8),
    )


def error_banner(message: str, identifier: str = "error") -> ft.Control:
    """A message the player must read (a refused entry, a store problem)."""
    return tagged(
        ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ON_ERROR_CONTAINER),
                    ft.Text(message, color=ft.Colors.ON_ERROR_CONTAINER, expand=True),
                ],
                spacing=12,
            ),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            border_radius=12,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
        ),
        identifier,
        live_region=True,
    )


def empty_state(icon, message: str) -> ft.Control:
    return ft.Container(
        ft.Column(
            [
                ft.Icon(icon, size=40, color=ft.Colors.OUTLINE),
                ft.Text(message, text_align=ft.TextAlign.CENTER, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=8,
        ),
        padding=ft.Padding.symmetric(vertical=24, horizontal=16),
        alignment=ft.Alignment.CENTER,
    )


def game_mark(ruleset_id: str, size: int = 40) -> ft.Control:
    """A game's badge: its card symbol on its colour."""
    badge = look(ruleset_id)
    return ft.Container(
        ft.Text(badge.mark, size=size * 0.55, color=ft.Colors.WHITE, text_align=ft.TextAlign.CENTER),
        width=size,
        height=size,
        bgcolor=badge.colour,
        border_radius=size / 2,
        alignment=ft.Alignment.CENTER,
    )


def game_tile(card: GameCard, on_open: Callable, icon=ft.Icons.CHEVRON_RIGHT) -> ft.Control:
    """One stored game in a list; the whole card opens it."""
    return tagged(
        ft.Card(
            content=ft.ListTile(
                leading=game_mark(card.ruleset),
                title=ft.Row(
                    [
                        ft.Text(card.title, weight=ft.FontWeight.W_600),
                        ft.Text(card.started, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                    ],
                    alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                ),
                subtitle=ft.Column(
                    [
                        ft.Text(card.players),
                        ft.Text(card.result, color=ft.Colors.ON_SURFACE_VARIANT),
                        *([ft.Text(card.details, italic=True, color=ft.Colors.ON_SURFACE_VARIANT)] if card.details else []),
                    ],
                    spacing=2,
                ),
                trailing=ft.Icon(icon, color=ft.Colors.PRIMARY),
                on_click=on_open,
            ),
            margin=0,
        ),
        f"game-{card.game_id}",
    )


def pill(text: str, color, on_color) -> ft.Container:
    return ft.Container(
        ft.Text(text, size=12, color=on_color, weight=ft.FontWeight.W_600),
        bgcolor=color,
        border_radius=12,
        padding=ft.Padding.symmetric(horizontal=10, vertical=4),
    )
