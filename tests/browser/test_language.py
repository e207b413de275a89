"""The app's language at phone size: chosen in settings and remembered by the device, taken
from the device's locale otherwise, and one per device when several share the server."""

from __future__ import annotations

import pytest

from companion.ui.handshake import LANGUAGE_KEY
from tests.browser.conftest import Phone, phones

pytestmark = pytest.mark.browser


@pytest.fixture
def device(chromium, app_url, output_dir):
    """Open a phone of its own (its own storage) whose browser prefers ``locale``."""
    with phones(chromium, output_dir) as open_phone:
        yield lambda locale="en-US": open_phone(app_url, locale=locale)


def back(phone: Phone) -> None:
    phone.tap("back")


def test_switching_to_dutch_in_settings_shows_home_in_dutch(phone):
    phone.open("/")
    phone.expect_text("new-game", "New game")
    phone.tap("nav-settings")
    phone.tap("language-nl")
    phone.expect_text("language-device", "Taal van het apparaat")
    phone.expect_text("back", r"^\s*Terug\s*$")  # the back arrow speaks Dutch too
    back(phone)
    phone.expect_text("new-game", "Nieuw spel")
    phone.expect_text("nav-rules", "Spelregels")
    phone.screenshot("home-dutch")
    phone.open("/")  # this phone remembers the choice
    phone.expect_text("new-game", "Nieuw spel")


SETTINGS_AND_HOME_IN = {
    "de": ("Gerätesprache", "Neues Spiel", "Regeln"),
    "fr": ("Langue de l'appareil", "Nouvelle partie", "Règles"),
    "en": ("Device language", "New game", "Rules"),
}
"""What settings and home say in each language the test switches to (from the catalogues)."""


def test_switching_to_german_then_french_then_english_shows_home_in_each(phone):
    phone.open("/")
    for code, (device_language, new_game, rules) in SETTINGS_AND_HOME_IN.items():
        phone.tap("nav-settings")
        phone.tap(f"language-{code}")
        phone.expect_text("language-device", device_language)
        back(phone)
        phone.expect_text("new-game", new_game)
        phone.expect_text("nav-rules", rules)


def test_a_phone_set_to_dutch_opens_in_dutch_until_another_language_is_chosen(device):
    dutch = device("nl-NL")
    dutch.open("/")
    dutch.expect_text("new-game", "Nieuw spel")
    dutch.tap("nav-settings")
    dutch.expect_text("language-device", "Nederlands")
    dutch.tap("language-en")
    dutch.expect_text("language-device", "Device language")


def test_each_phone_at_the_table_keeps_its_own_language(device):
    dutch, english = device(), device()
    dutch.open("/settings")
    english.open("/")
    dutch.tap("language-nl")
    dutch.expect_text("language-device", "Taal van het apparaat")
    english.tap("nav-settings")  # built for the English phone after the Dutch one switched
    english.expect_text("language-device", "Device language")
    back(english)
    back(dutch)
    english.expect_text("new-game", "New game")
    dutch.expect_text("new-game", "Nieuw spel")


def as_bytes(frame: bytes | str) -> bytes:
    """A websocket message as Playwright reports it (Flet's are binary), in bytes."""
    return frame if isinstance(frame, bytes) else frame.encode()


def test_a_page_says_what_its_device_remembers_as_it_connects_and_gets_home_before_the_device_is_asked(phone):
    """The page's script puts the remembered language and theme in a cookie of its websocket's
    handshake (companion.ui.handshake): a new tab gets home in Dutch and dark at once, and the
    device's storage is asked only after it (the language's questions took a round trip before
    home, and home showed light until the theme's answer came)."""
    phone.open("/settings")
    phone.tap("language-nl")
    phone.expect_text("language-device", "Taal van het apparaat")
    back(phone)
    phone.tap("theme-switch")
    phone.expect_text("theme-switch", "Wissel naar het lichte thema")
    received: list[bytes] = []
    sockets = []

    def connected(socket) -> None:
        sockets.append(socket)
        socket.on("framereceived", lambda frame: received.append(as_bytes(frame)))

    tab = Phone(phone.page.context.new_page(), phone.base_url, phone.output_dir)  # a session of its own, the same device
    tab.page.on("websocket", connected)
    tab.open("/")
    tab.expect_text("new-game", "Nieuw spel")
    asked = LANGUAGE_KEY.encode()
    if not any(asked in frame for frame in received):
        sockets[-1].wait_for_event("framereceived", predicate=lambda frame: asked in as_bytes(frame))
    home = next(i for i, frame in enumerate(received) if b"new-game" in frame)
    questions = [i for i, frame in enumerate(received) if asked in frame]
    assert home < questions[0], (home, questions)
    assert "Wissel naar het lichte thema".encode() in received[home]  # home's first page is the dark one
