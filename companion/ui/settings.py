"""Settings: this device's language and theme, and a backup of the saved games.

The language belongs to the device, not to the server: one server serves every phone at
the table, each in its own session. ``DeviceLanguage`` keeps a session's language in that
session's store, where ``companion.i18n`` finds it through ``session_language()`` for every
``_()`` (Flet binds ``ft.context.page`` to the session whose event, task or main it runs).
The language is the one chosen here, remembered in the device's own storage
(``ft.SharedPreferences``: the browser's local storage), else the device's preferred
locales as the device reports them, else English; ``companion.i18n.choose`` decides.

Back up and Restore move the saved games between devices in the file ``companion export``
writes and ``companion import`` reads. A phone has no path to give: the file is saved from
its bytes (a download in a browser) and a restored file is read from the bytes picked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

import flet as ft

from companion import i18n
from companion.i18n import N_, _
from companion.store import StoreError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.handshake import LANGUAGE_KEY, Said

DEVICE_LANGUAGE_KEY = "companion.device_language"
"""Key of the session's DeviceLanguage in the session's store."""

DEVICE_STORAGE_KEY = "companion.device_storage"
"""Key of the session's handle on the device's storage in the session's store."""

FILE_PICKER_KEY = "companion.file_picker"
"""Key of the session's file picker (saves and picks backup files) in the session's store."""

URL_LAUNCHER_KEY = "companion.url_launcher"
"""Key of the session's URL launcher (opens another app's link, e.g. BG Stats) in the session's store."""

WAKELOCK_KEY = "companion.wakelock"
"""Key of the session's wakelock (keeps the screen on while a game is open) in the session's store."""

ENGLISH_NAMES = {"en": N_("English"), "nl": N_("Dutch"), "de": N_("German"), "fr": N_("French")}
"""Each language's name in the language being spoken, beside its name in itself."""


def session_language() -> str | None:
    """The language of the session the running code serves; None outside any Flet session."""
    try:
        return ft.context.page.session.store.get(LANGUAGE_KEY)
    except RuntimeError:  # no page in this context (command line, tests), or its session has ended
        return None


@dataclass(frozen=True)
class LanguageChoice:
    """One line of the language list: ``code`` None stands for "the device's language"."""

    code: str | None
    name: str
    note: str
    selected: bool


def language_choices(chosen: str | None, device_language: str) -> list[LanguageChoice]:
    """The device's language first, then each language named in itself; the one in force selected."""
    lines = [
        LanguageChoice(
            None,
            _("Device language"),
            i18n.LANGUAGE_NAMES[device_language],
            chosen is None,
        )
    ]
    for code in i18n.LANGUAGES:
        lines.append(LanguageChoice(code, i18n.LANGUAGE_NAMES[code], _(ENGLISH_NAMES[code]), chosen == code))
    return lines


class DeviceLanguage:
    """The language of one session: the remembered choice, else the device's locales, else English.

    Before the first screen is built, take what the page said as it connected (``take``),
    or else restore it from the device, so that screen already speaks it; set ``on_change``
    to show the screens again when it changes later (a choice in settings, a new device
    locale, the device's answers differing from what the page said). ``prefs`` is the
    device's storage (``ft.SharedPreferences`` unless a test gives another).
    """

    def __init__(self, page: ft.Page, prefs=None):
        self.page = page
        self.on_change: Callable[[], None] = lambda: None
        self.chosen: str | None = None
        self.device_locales: list[str] = []
        self._choices = 0  # choices made in this session, so that an answer asked before one does not undo it
        self._prefs = prefs if prefs is not None else device_storage(page)
        i18n.follow_sessions(session_language)
        page.on_locale_change = self._locale_changed

    @property
    def storage(self):
        """Where the choice is remembered: the device's storage (or the test's stand-in)."""
        return self._prefs

    @property
    def current(self) -> str:
        return i18n.choose(self.chosen, self.device_locales)

    @property
    def device_language(self) -> str:
        return i18n.choose(None, self.device_locales)

    def take(self, said: Said) -> None:
        """Speak what the page said as it connected (``companion.ui.handshake``)."""
        self.chosen = i18n.supported(said.chosen)
        self.device_locales = said.locales
        self._apply()

    async def restore(self, timeout: float = 2.0) -> None:
        """Ask the device for the remembered choice and its locales, and follow its answers.
        What it does not answer (in time) stays as it was: English, unless the page said more."""
        choices = self._choices
        asked = asyncio.gather(self._prefs.get(LANGUAGE_KEY), self.page.get_device_info(), return_exceptions=True)
        try:
            saved, info = await asyncio.wait_for(asked, timeout)
        except asyncio.TimeoutError:
            saved = info = asyncio.TimeoutError()
        if not isinstance(saved, BaseException) and self._choices == choices:
            self.chosen = i18n.supported(saved) if isinstance(saved, str) else None
        if not isinstance(info, BaseException):
            self.device_locales = _locale_tags(getattr(info, "locales", None) or [])
        self._apply()

    def choose(self, code: str | None) -> None:
        """Speak ``code`` on this device from now on; None follows the device's own language again."""
        self.chosen = i18n.supported(code)
        self._choices += 1
        if self.chosen is None:
            widgets.on_device(self.page, self._prefs.remove, LANGUAGE_KEY)
        else:
            widgets.on_device(self.page, self._prefs.set, LANGUAGE_KEY, self.chosen)
        self._apply()

    def _locale_changed(self, e: ft.LocaleChangeEvent) -> None:
        self.device_locales = _locale_tags(e.locales)
        self._apply()

    def _apply(self) -> None:
        store = self.page.session.store
        spoken = store.get(LANGUAGE_KEY) or i18n.language()  # the process language until the device answers
        store.set(LANGUAGE_KEY, self.current)
        if self.current != spoken:
            self.on_change()


class BackupState:
    """Back up and Restore: the backup file to save, and a picked file merged into the saved games.

    The file is the versioned document of ``companion export``; a restore adds the games
    that are not here yet, as ``companion import`` does, or refuses the whole file and
    changes nothing. ``notice`` says what was done, ``refusal`` why not (one at a time).
    """

    def __init__(self, store: GameStore, today: Callable[[], date] = date.today):
        self._store = store
        self._today = today
        self.notice: str | None = None
        self.refusal: str | None = None

    def backup_file(self) -> tuple[str, bytes] | None:
        """The file to save: its name and its bytes; None, the reason in ``refusal``, when
        the saved games cannot be read."""
        try:
            text = self._store.export_text()
        except StoreError as err:
            self._say(refusal=err.message)
            return None
        return f"companion-backup-{self._today().isoformat()}.json", text.encode("utf-8")

    def saved(self, file_name: str, path: str | None, download: bool) -> None:
        """The device has the file: at ``path``, or as a browser's ``download`` (no path);
        with neither, the player closed the save dialog and nothing is said."""
        if path is None and not download:
            self._say()
            return
        name = PurePath(path).name if path else file_name
        self._say(notice=_("Saved a backup of every game and player as {file}.").format(file=name))

    def not_saved(self) -> None:
        self._say(refusal=_("This device could not save the backup file."))

    def restore(self, file_name: str, data: bytes | None) -> None:
        """Add the games of the picked file that are not here yet, or refuse the whole file."""
        if data is None:
            self._say(refusal=_("Companion could not read {file}.").format(file=file_name))
            return
        try:
            report = self._store.import_text(data, file_name)
        except StoreError as err:
            self._say(refusal=err.message)
            return
        self._say(notice=report.message)

    def _say(self, notice: str | None = None, refusal: str | None = None) -> None:
        self.notice, self.refusal = notice, refusal


def device_storage(page: ft.Page) -> ft.SharedPreferences:
    """The session's handle on the device's storage (the browser's local storage). One per
    session: Flet sends each new service to the browser in a message of its own, which the
    browser draws the page again for, and that while the first page is on its way."""
    return _one_per_session(page, DEVICE_STORAGE_KEY, ft.SharedPreferences)


def device_language(page: ft.Page) -> DeviceLanguage:
    """The session's DeviceLanguage (one per session)."""
    return _one_per_session(page, DEVICE_LANGUAGE_KEY, lambda: DeviceLanguage(page))


def file_picker(page: ft.Page) -> ft.FilePicker:
    """The session's file picker (one per session, like ``device_storage``)."""
    return _one_per_session(page, FILE_PICKER_KEY, ft.FilePicker)


def url_launcher(page: ft.Page) -> ft.UrlLauncher:
    """The session's URL launcher (one per session, like ``device_storage``)."""
    return _one_per_session(page, URL_LAUNCHER_KEY, ft.UrlLauncher)


def wakelock(page: ft.Page) -> ft.Wakelock:
    """The session's wakelock (one per session, like ``device_storage``)."""
    return _one_per_session(page, WAKELOCK_KEY, ft.Wakelock)


def _one_per_session(page: ft.Page, key: str, make: Callable[[], object]):
    """What the session's store keeps under ``key``, made the first time it is asked for."""
    store = page.session.store
    kept = store.get(key)
    if kept is None:
        kept = make()
        store.set(key, kept)
    return kept


def _locale_tags(locales: Sequence[ft.Locale]) -> list[str]:
    return [locale.language_code for locale in locales if locale.language_code]


# --- the screen ---------------------------------------------------------------------------


def show(app) -> ft.View:
    language: DeviceLanguage = app.language
    lines = [_language_tile(app, choice) for choice in language_choices(language.chosen, language.device_language)]
    body: list[ft.Control] = [
        widgets.section_title(_("Language")),
        ft.Card(content=ft.Column(lines, spacing=0), margin=0),
        widgets.section_title(_("Theme")),
        ft.Card(content=_theme_tile(app), margin=0),
    ]
    if app.device.is_host:  # the saved games are the host's: a guest at a shared table neither takes nor changes them
        body += _backup_section(app, BackupState(app.store))
    view = widgets.screen(app, "/settings", _("Settings"), body)
    # the theme is set by the switch here; a second switch in the bar would leave this one stale
    bar = widgets.app_bar(view)
    bar.actions = [a for a in bar.actions or [] if getattr(a, "identifier", None) != "theme-switch"]
    return view


def _theme_tile(app) -> ft.Control:
    switch = ft.Switch(value=app.dark)

    def toggle() -> None:
        app.toggle_theme()
        switch.value = app.dark

    switch.on_change = toggle
    return widgets.tagged(
        ft.ListTile(
            leading=ft.Icon(ft.Icons.DARK_MODE, color=ft.Colors.PRIMARY),
            title=ft.Text(_("Dark theme")),
            trailing=switch,
            on_click=toggle,
        ),
        "dark-theme",
    )


def _language_tile(app, choice: LanguageChoice) -> ft.Control:
    return widgets.tagged(
        ft.ListTile(
            leading=ft.Icon(
                ft.Icons.RADIO_BUTTON_CHECKED if choice.selected else ft.Icons.RADIO_BUTTON_UNCHECKED,
                color=ft.Colors.PRIMARY,
            ),
            title=ft.Text(choice.name),
            subtitle=ft.Text(choice.note),
            selected=choice.selected,
            on_click=lambda: app.language.choose(choice.code),
        ),
        f"language-{choice.code or 'device'}",
        selected=choice.selected,
    )


def _backup_section(app, state: BackupState) -> list[ft.Control]:
    """Back up and Restore; what each did is told in a dialog, which shows wherever the page is scrolled."""
    picker = file_picker(app.page)

    def back_up() -> None:  # a plain handler: on a server, Flet runs it beside the other sessions, not in their way
        file = state.backup_file()
        if file is None:
            _tell(app, state)
        else:
            app.page.run_task(save, *file)

    async def save(name: str, data: bytes) -> None:
        try:
            path = await picker.save_file(file_name=name, src_bytes=data)
        except Exception:  # the device's own save dialog failed: say so, never a traceback
            state.not_saved()
        else:
            state.saved(name, path, download=app.page.web)
        _tell(app, state)

    def restored(e: ft.FilePickerResultEvent) -> None:
        if e.files:  # none: the player closed the picker
            picked = e.files[0]
            # the bytes may come as a list of numbers, as FilePicker.pick_files also allows for
            state.restore(picked.name, None if picked.bytes is None else bytes(picked.bytes))
            _tell(app, state)

    picker.on_result = restored  # the picker is the session's; the screen on show gets its files
    tiles: list[ft.Control] = [
        widgets.tagged(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.DOWNLOAD, color=ft.Colors.PRIMARY),
                title=ft.Text(_("Back up")),
                subtitle=ft.Text(_("Save every game and player in a file")),
                on_click=back_up,
            ),
            "back-up",
        ),
        widgets.tagged(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.UPLOAD_FILE, color=ft.Colors.PRIMARY),
                title=ft.Text(_("Restore")),
                subtitle=ft.Text(_("Add the games of a backup file that are not here yet")),
                action=ft.PickFiles(picker, with_data=True),  # opened in the tap itself, as phones' browsers require
            ),
            "restore",
        ),
    ]
    return [widgets.section_title(_("Backup")), ft.Card(content=ft.Column(tiles, spacing=0), margin=0)]


def _tell(app, state: BackupState) -> None:
    """Show what the last Back up or Restore did, or why it did nothing (a closed dialog says nothing)."""
    if state.refusal:
        identifier, icon, color, message = "backup-refused", ft.Icons.ERROR_OUTLINE, ft.Colors.ERROR, state.refusal
    elif state.notice:
        identifier, icon, color, message = "backup-done", ft.Icons.CHECK_CIRCLE_OUTLINE, ft.Colors.PRIMARY, state.notice
    else:
        return
    app.page.show_dialog(
        ft.AlertDialog(
            icon=ft.Icon(icon, color=color),
            content=widgets.tagged(ft.Text(message), identifier, live_region=True),
            actions=[widgets.tagged(ft.TextButton(_("OK"), on_click=lambda: app.page.pop_dialog()), "backup-ok")],
        )
    )
