"""Settings: each device's language (remembered choice, else the device's locales, else
English) and the list it is chosen from; Back up and Restore of the saved games. The Flet
page, the device storage and the device's file dialogs are stand-ins."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import date
from types import SimpleNamespace

import flet as ft
import pytest
from flet.messaging.session_store import SessionStore

from companion import i18n
from companion.share.table import Device, Role
from companion.store import Store, StoreError
from companion.ui import settings
from companion.ui.settings import (
    FILE_PICKER_KEY, LANGUAGE_KEY, BackupState, DeviceLanguage, language_choices, session_language,
)
from companion.ui.handshake import Said
from tests.store.games import beverbende
from tests.ui.tree import find, text


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
        self.web = True
        self.dialogs: list[ft.Control] = []

    def show_dialog(self, dialog: ft.Control) -> None:
        self.dialogs.append(dialog)

    def pop_dialog(self) -> ft.Control | None:
        return self.dialogs.pop() if self.dialogs else None

    async def get_device_info(self):
        if self.broken:
            raise TimeoutError("no answer")
        return SimpleNamespace(locales=self.locales)

    def run_task(self, handler, *args):
        try:
            return asyncio.get_running_loop().create_task(handler(*args))
        except RuntimeError:  # no loop running: the task is run at once
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


def said_by_the_page(page: Page, prefs: Prefs, said: Said) -> tuple[DeviceLanguage, list[str]]:
    """A session that took what its page said as it connected; the device is asked after."""
    changes: list[str] = []
    language = DeviceLanguage(page, prefs=prefs)
    language.on_change = lambda: changes.append(page.language)
    language.take(said)
    return language, changes


def test_what_the_page_said_as_it_connected_is_spoken_before_the_device_is_asked():
    page, prefs = Page(ft.Locale("de", "DE")), Prefs({LANGUAGE_KEY: "nl"})
    language, changes = said_by_the_page(page, prefs, Said("nl", ["de"]))
    assert page.language == "nl" and changes == ["nl"] and language.device_language == "de"
    asyncio.run(language.restore())  # the device agrees: nothing is shown again
    assert page.language == "nl" and changes == ["nl"]


def test_the_device_s_answers_win_over_what_the_page_said():
    """A page that chose another language, and reconnected to a new session, says the old one."""
    page, prefs = Page(ft.Locale("de", "DE")), Prefs({LANGUAGE_KEY: "fr"})
    language, changes = said_by_the_page(page, prefs, Said("nl", ["de"]))
    asyncio.run(language.restore())
    assert page.language == "fr" and changes == ["nl", "fr"]


def test_a_device_that_cannot_answer_keeps_what_the_page_said():
    page = Page(ft.Locale("de", "DE"), broken=True)
    language, changes = said_by_the_page(page, Prefs(broken=True), Said("nl", ["fr"]))
    asyncio.run(language.restore())
    assert page.language == "nl" and changes == ["nl"] and language.device_language == "fr"


def test_a_choice_made_while_the_device_was_asked_is_not_undone_by_its_answer():
    class Late(Prefs):
        async def get(self, key):
            language.choose("de")  # tapped in settings before the device's answer came
            return await super().get(key)

    page, prefs = Page(ft.Locale("nl", "NL")), Late({LANGUAGE_KEY: "fr"})
    language, changes = said_by_the_page(page, prefs, Said("fr", ["nl"]))
    asyncio.run(language.restore())
    assert page.language == "de" and changes == ["fr", "de"]


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
    """What the settings screen needs of the app shell: the session's page, language, store
    and device (this machine, the host, unless a test says otherwise) and the theme."""

    def __init__(self, language: DeviceLanguage, store=None, device: Device | None = None):
        self.page = language.page
        self.language = language
        self.store = store
        self.device = device or Device.this_machine()
        self.dark = False

    def toggle_theme(self) -> None:
        self.dark = not self.dark


def press(control: ft.Control, handler: str = "on_click") -> None:
    """Call the handler as Flet does: without the event when it takes none."""
    call = getattr(control, handler)
    call() if call.__code__.co_argcount == 0 else call(None)


def screen(page: Page, prefs: Prefs, **app):
    language, changes = started(page, prefs)
    app = App(language, **app)
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


# --- back up and restore ------------------------------------------------------------------

TODAY = date(2026, 11, 24)


def a_finished_game(store: Store) -> None:
    beverbende(store, [{"Ann": 12, "Bob": 20}] * 4, note="birthday")


def saved_games(store: Store) -> list[tuple]:
    """Each saved game as the history and its scoreboard show it: setup, status, rounds, note."""
    return [
        (r.ruleset, r.game.players, r.status, r.game.rounds, r.note)
        for r in (store.open_game(s.id) for s in store.history(page_size=1000))
    ]


def backup_of(store: Store) -> tuple[str, bytes]:
    file = BackupState(store, today=lambda: TODAY).backup_file()
    assert file is not None
    return file


def test_back_up_gives_the_export_document_named_after_the_day():
    with Store.memory() as store:
        a_finished_game(store)
        name, data = backup_of(store)
    document = json.loads(data.decode("utf-8"))
    assert name == "companion-backup-2026-11-24.json"
    assert (document["format"], document["version"], len(document["games"])) == ("companion-backup", 1, 1)


def test_a_backup_restored_on_an_empty_device_brings_every_game_with_its_rounds():
    with Store.memory() as phone, Store.memory() as new_phone:
        a_finished_game(phone)
        name, data = backup_of(phone)
        state = BackupState(new_phone)
        state.restore(name, data() if callable(data) else data)
        assert saved_games(new_phone) == saved_games(phone)
        assert state.notice == "Imported 1 game and 2 new players; 0 games already here."
        assert state.refusal is None


def test_restoring_the_same_file_again_adds_nothing_and_says_so():
    with Store.memory() as store:
        a_finished_game(store)
        state = BackupState(store)
        state.restore(*backup_of(store))
        assert len(store.history()) == 1
        assert state.notice == "Imported 0 games and 0 new players; 1 game already here."


def a_new_game_and_one_that_breaks_the_rules() -> bytes:
    """A backup of another device: a valid game not here yet, then a game the rules refuse."""
    with Store.memory() as other:
        beverbende(other, [{"Cy": 12, "Dee": 20}] * 4)
        document = json.loads(backup_of(other)[1])
    cheat = json.loads(json.dumps(document["games"][0]))
    cheat.update(uuid="00000000-0000-4000-8000-000000000001")
    cheat["rounds"][0]["entry"] = {"totals": {"Cy": 99, "Dee": 1}}
    document["games"].append(cheat)
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    "name, data, refusal",
    [
        ("notes.txt", b"shopping: milk, eggs", r"^notes.txt is not a Companion backup: its JSON is broken at line 1, column 1\.$"),
        ("photo.jpg", b"\xff\xd8\xff\xe0JFIF", r"^photo.jpg is not a Companion backup: it is not text\.$"),
        ("settings.json", b'{"theme": "dark"}', r"^settings.json is not a Companion backup\.$"),
        ("cheat.json", a_new_game_and_one_that_breaks_the_rules, r"^cheat.json, game 2 .* breaks the rules: "),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_whole_and_changes_nothing(name, data, refusal):
    with Store.memory() as store:
        a_finished_game(store)
        before = saved_games(store), store.players()
        state = BackupState(store)
        state.restore(name, data() if callable(data) else data)
        assert re.search(refusal, state.refusal) and state.notice is None
        assert (saved_games(store), store.players()) == before


def test_a_picked_file_the_device_could_not_read_is_refused():
    with Store.memory() as store:
        state = BackupState(store)
        state.restore("backup.json", None)
        assert state.refusal == "Companion could not read backup.json." and store.history() == []


def test_a_refusal_is_in_the_language_of_the_device():
    with Store.memory() as store:
        state = BackupState(store)
        i18n.set_language("nl")
        try:
            state.restore("notes.txt", b"{}")
        finally:
            i18n.set_language("en")
        assert state.refusal == "notes.txt is geen Companion-back-up."


def test_saved_says_where_the_file_went_and_nothing_when_the_dialog_was_closed():
    state = BackupState(None)
    state.saved("companion-backup-2026-11-24.json", None, download=True)
    assert state.notice == "Saved a backup of every game and player as companion-backup-2026-11-24.json."
    state.saved("companion-backup-2026-11-24.json", "/storage/emulated/0/Download/games.json", download=False)
    assert state.notice == "Saved a backup of every game and player as games.json."
    state.not_saved()
    assert state.refusal == "This device could not save the backup file." and state.notice is None
    state.saved("companion-backup-2026-11-24.json", None, download=False)
    assert (state.notice, state.refusal) == (None, None)


def test_a_store_that_cannot_be_read_gives_no_file_but_the_reason():
    class Broken:
        def export_text(self):
            raise StoreError("The saved games cannot be opened: {reason}", reason="disk full")

    state = BackupState(Broken())
    assert state.backup_file() is None
    assert state.refusal == "The saved games cannot be opened: disk full"


def device_dialog(path: str | None = None, broken: bool = False) -> tuple[ft.FilePicker, dict]:
    """The session's file picker with the device's save dialog stood in for: it answers
    ``path`` (or fails, ``broken``) and keeps what it was given."""
    picker, given = ft.FilePicker(), {}

    async def save_file(**arguments):
        if broken:
            raise RuntimeError("no storage permission")
        given.update(arguments)
        return path

    picker.save_file = save_file
    return picker, given


def settings_with_picker(store: Store, picker: ft.FilePicker | None = None, **app) -> tuple[ft.View, Page]:
    page = Page()
    if picker is not None:
        page.session.store.set(FILE_PICKER_KEY, picker)
    return screen(page, Prefs(), store=store, **app)[1], page


def told(page: Page, identifier: str) -> str:
    """What the dialog on top says, by its identifier (backup-done or backup-refused)."""
    return text(find(page.dialogs[-1], identifier))


def test_back_up_hands_the_file_to_the_device_and_says_so(store):
    a_finished_game(store)
    picker, given = device_dialog()
    view, page = settings_with_picker(store, picker)
    find(view, "back-up").on_click()
    assert given["file_name"] == f"companion-backup-{date.today().isoformat()}.json"
    assert json.loads(given["src_bytes"])["games"][0]["note"] == "birthday"
    assert told(page, "backup-done") == f"Saved a backup of every game and player as {given['file_name']}."
    find(ft.Row(page.dialogs[-1].actions), "backup-ok").on_click()
    assert page.dialogs == []


def test_closing_the_save_dialog_on_a_phone_says_nothing(store):
    view, page = settings_with_picker(store, device_dialog(path=None)[0])
    page.web = False  # a native phone app: its save dialog answers no path when closed
    find(view, "back-up").on_click()
    assert page.dialogs == []


def test_a_failing_save_dialog_is_a_sentence_not_a_traceback(store):
    view, page = settings_with_picker(store, device_dialog(broken=True)[0])
    find(view, "back-up").on_click()
    assert told(page, "backup-refused") == "This device could not save the backup file."


def test_restore_opens_the_picker_in_the_tap_and_merges_the_picked_file(store):
    with Store.memory() as other:
        a_finished_game(other)
        name, data = backup_of(other)
    view, page = settings_with_picker(store)
    action = find(view, "restore").action
    assert isinstance(action, ft.PickFiles) and action.with_data
    picker = action.file_picker
    picker.on_result(SimpleNamespace(files=[ft.FilePickerFile(id=1, name=name, size=len(data), bytes=data)]))
    assert told(page, "backup-done") == "Imported 1 game and 2 new players; 0 games already here."
    assert len(store.history()) == 1
    picker.on_result(SimpleNamespace(files=[ft.FilePickerFile(id=2, name="notes.txt", size=5, bytes=b"notes")]))
    assert told(page, "backup-refused").startswith("notes.txt is not a Companion backup")
    assert len(store.history()) == 1


def test_a_picked_file_whose_bytes_come_as_numbers_is_read_the_same(store):
    with Store.memory() as other:
        a_finished_game(other)
        name, data = backup_of(other)
    view, page = settings_with_picker(store)
    picker = find(view, "restore").action.file_picker
    picker.on_result(SimpleNamespace(files=[ft.FilePickerFile(id=1, name=name, size=len(data), bytes=list(data))]))
    assert told(page, "backup-done") == "Imported 1 game and 2 new players; 0 games already here."


def test_a_guest_at_a_shared_table_can_neither_back_up_nor_restore_the_hosts_games(store):
    guest = Device(number=2, key="k", browser="Chrome", system="Android", role=Role.SCORER)
    view, _page = settings_with_picker(store, device=guest)
    for identifier in ("back-up", "restore"):
        with pytest.raises(AssertionError, match="0 controls"):
            find(view, identifier)
