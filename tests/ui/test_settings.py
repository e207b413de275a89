"""Settings: each device's language (remembered choice, else the device's locales, else
English) and the list it is chosen from; the Flet page and the device storage are stand-ins."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import flet as ft
import pytest
from flet.messaging.session_store import SessionStore

from companion import i18n
from companion.ui import settings
from companion.ui.settings import LANGUAGE_KEY, DeviceLanguage, language_choices, session_language
from tests.ui.tree import find


class Prefs:
    """The device's storage: a dict, or a device that cannot answer (``broken``)."""

    def __init__(self, saved: dict | None = None, broken: bool = False):
        self.saved = dict(saved or {})
        self.broken = broken

    async def get(self, key):
        if self.broken:
            raise TimeoutError("no answer")
        return self.saved.get(key)

    async def set(self, key, value):
        self.saved[key] = value
        return True

    async def remove(self, key):
        return self.saved.pop(key, None) is not None


class Page:
    """A session's page: its store, the device's locales, tasks run at once."""

    def __init__(self, *locales: ft.Locale, broken: bool = False):
        self.session = SimpleNamespace(store=SessionStore())
        self.locales = list(locales)
        self.broken = broken
        self.on_locale_change = None

    async def get_device_info(self):
        if self.broken:
            raise TimeoutError("no answer")
        return SimpleNamespace(locales=self.locales)

    def run_task(self, handler, *args):
        return asyncio.run(handler(*args))

    @property
    def language(self) -> str | None:
        return self.session.store.get(LANGUAGE_KEY)


@pytest.fixture(autouse=True)
def process_language():
    """Leave the process as the tests found it (DeviceLanguage installs the session lookup)."""
    with i18n.speaking(i18n.SOURCE_LANGUAGE):
        yield


def test_a_session_has_one_handle_on_the_device_storage_and_its_language_uses_it():
    """Flet sends each new service to the browser in a message of its own, before the first page."""
    page, other = Page(), Page()
    storage = settings.device_storage(page)
    assert isinstance(storage, ft.SharedPreferences)
    assert settings.device_storage(page) is storage
    assert settings.device_language(page).storage is storage
    assert settings.device_language(page) is settings.device_language(page)
    assert settings.device_storage(other) is not storage


def started(page: Page, prefs: Prefs) -> tuple[DeviceLanguage, list[str]]:
    changes: list[str] = []
    language = DeviceLanguage(page, prefs=prefs)
    language.on_change = lambda: changes.append(page.language)
    asyncio.run(language.restore())
    return language, changes


def test_a_new_device_speaks_its_own_locale():
    page = Page(ft.Locale("nl", "BE"))
    _language, changes = started(page, Prefs())
    assert page.language == "nl" and changes == ["nl"]


def test_the_remembered_choice_wins_over_the_device_locale():
    page = Page(ft.Locale("nl", "NL"))
    language, changes = started(page, Prefs({LANGUAGE_KEY: "fr"}))
    assert page.language == "fr" and changes == ["fr"] and language.chosen == "fr"


def test_a_device_in_a_language_the_app_lacks_gets_english_without_a_redraw():
    page = Page(ft.Locale("pt", "BR"))
    _language, changes = started(page, Prefs())
    assert page.language == "en" and changes == []


def test_a_device_that_cannot_answer_gets_english():
    page = Page(ft.Locale("de", "DE"), broken=True)
    _language, changes = started(page, Prefs(broken=True))
    assert page.language == "en" and changes == []


def test_a_device_that_answers_too_late_gets_english():
    class Slow(Prefs):
        async def get(self, key):
            await asyncio.sleep(60)

    page = Page(ft.Locale("de", "DE"))
    language = DeviceLanguage(page, prefs=Slow())
    asyncio.run(language.restore(timeout=0.01))
    assert page.language == "en"


def test_a_choice_is_remembered_on_the_device_and_spoken_at_once():
    page, prefs = Page(ft.Locale("nl", "NL")), Prefs()
    language, changes = started(page, prefs)
    language.choose("de")
    assert prefs.saved == {LANGUAGE_KEY: "de"}
    assert page.language == "de" and changes == ["nl", "de"]


def test_choosing_the_device_language_forgets_the_choice():
    page, prefs = Page(ft.Locale("nl", "NL")), Prefs({LANGUAGE_KEY: "fr"})
    language, changes = started(page, prefs)
    language.choose(None)
    assert prefs.saved == {} and language.chosen is None
    assert page.language == "nl" and changes == ["fr", "nl"]


def test_a_changed_device_locale_is_followed_until_a_language_is_chosen():
    page = Page(ft.Locale("en", "GB"))
    language, changes = started(page, Prefs())
    page.on_locale_change(SimpleNamespace(locales=[ft.Locale("de", "AT")]))
    assert page.language == "de"
    language.choose("fr")
    page.on_locale_change(SimpleNamespace(locales=[ft.Locale("nl", "NL")]))
    assert page.language == "fr" and changes == ["de", "fr"]


def test_choosing_the_language_already_spoken_redraws_nothing():
    page = Page(ft.Locale("nl", "NL"))
    language, changes = started(page, Prefs())
    language.choose("nl")
    assert changes == ["nl"]


def test_the_list_starts_with_the_device_language_then_each_language_named_in_itself():
    lines = language_choices(None, "de")
    assert [(line.code, line.name, line.note, line.selected) for line in lines] == [
        (None, "Device language", "Deutsch", True),
        ("en", "English", "English", False),
        ("nl", "Nederlands", "Dutch", False),
        ("de", "Deutsch", "German", False),
        ("fr", "Français", "French", False),
    ]


def test_a_chosen_language_is_the_one_selected():
    assert [line.code for line in language_choices("fr", "en") if line.selected] == ["fr"]


def test_outside_any_session_there_is_no_session_language():
    assert session_language() is None


# --- the screen ---------------------------------------------------------------------------


class App:
    """What the settings screen needs of the app shell: the session's language and the theme."""

    def __init__(self, language: DeviceLanguage):
        self.language = language
        self.dark = False

    def toggle_theme(self) -> None:
        self.dark = not self.dark


def press(control: ft.Control, handler: str = "on_click") -> None:
    """Call the handler as Flet does: without the event when it takes none."""
    call = getattr(control, handler)
    call() if call.__code__.co_argcount == 0 else call(None)


def screen(page: Page, prefs: Prefs):
    language, changes = started(page, prefs)
    app = App(language)
    return app, settings.show(app), changes


def test_the_screen_lists_the_languages_with_the_one_in_force_selected():
    _app, view, _changes = screen(Page(ft.Locale("de", "DE")), Prefs({LANGUAGE_KEY: "nl"}))
    assert [find(view, f"language-{code}").selected for code in ("device", "en", "nl", "de", "fr")] == [
        False, False, True, False, False,
    ]  # fmt: skip


def test_tapping_a_language_chooses_it_on_this_device():
    page, prefs = Page(ft.Locale("en", "US")), Prefs()
    _app, view, changes = screen(page, prefs)
    press(find(view, "language-fr"))
    assert page.language == "fr" and prefs.saved == {LANGUAGE_KEY: "fr"} and changes == ["fr"]


def test_the_theme_is_switched_here_and_only_here():
    app, view, _changes = screen(Page(), Prefs())
    switch = find(view, "dark-theme").trailing
    press(find(view, "dark-theme"))
    assert app.dark and switch.value is True
    switch.value = False  # the player flips the switch itself
    press(switch, "on_change")
    assert not app.dark
    assert not [a for a in view.appbar.actions if getattr(a, "identifier", None) == "theme-switch"]
