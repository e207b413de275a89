"""Drive a built screen without a browser: serve it on a page as a browser gets it, find
controls by their test identifier, tap them, read their text."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Callable, Iterator, TypeVar

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

if TYPE_CHECKING:
    from companion.ui.router import App

ENCODE = configure_encode_object_for_msgpack(BaseControl)
"""How flet_web writes controls to a browser (``msgpack.packb(..., default=ENCODE)``): Flet
notes what it wrote, so that an update sends only what changed since."""


def served_page(sent: list | None = None) -> tuple[Session, ft.Page]:
    """A page in a session whose messages are written out as flet_web writes them to a browser
    (Flet notes what it sent, to send only changes later), and kept in ``sent`` if given. Keep
    the session: its page holds it weakly."""

    def send(message) -> None:
        msgpack.packb([message.action, message.body], default=ENCODE)
        if sent is not None:
            sent.append(message)

    session = Session(SimpleNamespace(pubsubhub=PubSubHub(), send_message=send))
    msgpack.packb(session.page, default=ENCODE)
    return session, session.page


AppT = TypeVar("AppT", bound="App")


def served_app(make: Callable[[ft.Page], AppT], sent: list | None = None, tasks: list | None = None) -> tuple[AppT, ft.Page, Session]:
    """A session's app (``make(page)``: the router's ``App`` on a store) on a ``served_page``,
    with nothing that needs a browser: no address bar, no screen to keep awake, no event
    loop (the tasks it starts are kept in ``tasks`` if given, not run). Keep the session: the
    page holds it weakly."""
    session, page = served_page(sent)
    page.navigate = lambda route, **kwargs: None  # type: ignore[method-assign]
    page.run_task = lambda handler, *args: tasks.append(handler) if tasks is not None else None  # type: ignore[method-assign]
    app = make(page)
    app.awake.follow = lambda route: None  # type: ignore[method-assign]
    return app, page, session


def walk(control, visible_only: bool = False) -> Iterator[ft.Control]:
    if visible_only and not control.visible:
        return
    yield control
    for name in ("content", "controls", "label"):
        child = getattr(control, name, None)
        if isinstance(child, list):
            for c in child:
                yield from walk(c, visible_only)
        elif isinstance(child, ft.Control):
            yield from walk(child, visible_only)


def find_all(root: ft.Control, identifier: str) -> list[ft.Control]:
    """Every control wrapped by ``ft.Semantics(identifier=...)``: none, one or (a mistake) more.

    Every look checks the whole screen for a shown Semantics around nothing shown: the
    browser draws an error bar in its place ("Semantics.content must be provided and
    visible"); the wrapper is what must hide.
    """
    for c in walk(root, visible_only=True):
        if isinstance(c, ft.Semantics) and (c.content is None or not c.content.visible):
            raise AssertionError(f"Semantics {c.identifier!r} is shown around nothing shown: the browser draws an error")
    return [c.content for c in walk(root) if isinstance(c, ft.Semantics) and c.identifier == identifier]


def shown(root: ft.Control, identifier: str) -> bool:
    """Whether a control tagged ``identifier`` shows (it and all that hold it visible)."""
    return any(isinstance(c, ft.Semantics) and c.identifier == identifier for c in walk(root, visible_only=True))


def find(root: ft.Control, identifier: str) -> ft.Control:
    """The one control wrapped by ``ft.Semantics(identifier=...)``."""
    found = find_all(root, identifier)
    assert len(found) == 1, f"{len(found)} controls tagged {identifier!r}"
    return found[0]


def tap(root: ft.Control, identifier: str) -> None:
    control = find(root, identifier)
    assert not control.disabled, f"{identifier} is disabled"
    handler = getattr(control, "on_click", None) or getattr(control, "on_change", None) or control.on_delete
    handler(None)


def text(control: ft.Control) -> str:
    """All visible text inside ``control``, joined by spaces."""
    parts = []
    for c in walk(control, visible_only=True):
        if isinstance(c, ft.Text) and (c.value or c.spans):
            parts.append("".join([c.value or "", *(span.text or "" for span in c.spans or [])]))
        elif isinstance(c, (ft.Button, ft.OutlinedButton, ft.TextButton)) and isinstance(c.content, str):
            parts.append(c.content)
    return " ".join(parts)


def tap_through(screen: ft.Control) -> int:
    """Tap every control of ``screen`` (shown on a served page) that shows and is enabled,
    in order, twice, as a player could; after each tap, compare the whole screen as Flet
    would: what the tap sent must leave nothing unsent. How many taps there were."""
    tappable = [c.identifier for c in walk(screen) if isinstance(c, ft.Semantics) and c.identifier and getattr(c.content, "on_click", None)]
    tapped = 0
    for identifier in tappable * 2:
        found = find_all(screen, identifier)
        shown = {id(c) for c in walk(screen, visible_only=True)}
        if len(found) != 1 or found[0].disabled or id(found[0]) not in shown:
            continue
        found[0].on_click(None)
        tapped += 1
        patch, _added, _removed = ObjectPatch.from_diff(screen, screen, control_cls=BaseControl)
        assert patch.to_message() == [[0]], f"after {identifier}: {patch.to_message()[1:3]}"
    return tapped
