"""The saved games in the phone's browser (the offline web app): kept in IndexedDB.

Python on Pyodide writes files to memory only. The data folder is mounted on IndexedDB
(Emscripten's IDBFS) and read back from it when the app starts; after each commit the
database file is written to IndexedDB again. The page's Python worker
(scripts/phone_app/worker-storage.js) does that writing and holds every message to the page
until it is done, so a save the screen confirms is already kept, even if the tab is closed
a moment later.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.store.errors import StoreError


async def open_folder(folder: Path) -> None:
    """Mount ``folder`` on IndexedDB with what it kept from earlier visits; StoreError when
    the browser keeps nothing. The store, opened later, keeps each commit there
    (``keep_each_commit``)."""
    # These modules exist only inside the browser's Python (Pyodide), with no type information.
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable, to_js  # type: ignore[import-not-found]

    fs = pyodide_js.FS
    folder.mkdir(parents=True, exist_ok=True)
    fs.mount(fs.filesystems.IDBFS, to_js({}), str(folder))
    loaded = asyncio.get_running_loop().create_future()

    def done(error: object) -> None:
        if error:  # e.g. a private window that allows no storage
            loaded.set_exception(StoreError("This browser does not let Companion keep its saved games: {reason}", reason=str(error)))
        else:
            loaded.set_result(None)

    fs.syncfs(True, create_once_callable(done))  # True: from IndexedDB into memory
    await loaded


def keep_each_commit() -> None:
    """Write each commit of a database to IndexedDB from now on: called before the store opens,
    as the database libraries come with it (importing them before the first page held it back)."""
    from companion.store import database

    database.after_commit = save


def save() -> None:
    """Write the folder's changes to IndexedDB once Python hands control back to the page
    (the commit that asked is complete by then); the page hears nothing more until they are."""
    import flet_js  # type: ignore[import-not-found]  # the page's worker, in the browser only

    flet_js.saveToBrowserStorage()
