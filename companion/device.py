"""What kind of device the app runs on: a computer's server, a native phone app, or a phone's browser.

A native build (``flet build apk/ipa``) runs the app inside Flet's phone host, which sets
``FLET_PLATFORM`` and names a durable folder in ``FLET_APP_STORAGE_DATA``; the offline web
app runs in the browser itself (Pyodide, ``sys.platform == "emscripten"``). Neither can
serve other devices, so neither can share a table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PHONE_PLATFORMS = ("android", "ios")

APP_STORAGE_DATA = "FLET_APP_STORAGE_DATA"
"""The variable in which a native phone build's host names the app's durable folder (also
its working directory); platformdirs knows nothing of it."""


def is_native_phone() -> bool:
    """Whether the app runs in a native phone build (Flet's Android or iOS host)."""
    return os.environ.get("FLET_PLATFORM", "").lower() in PHONE_PLATFORMS


def in_browser() -> bool:
    """Whether Python runs inside the browser (the offline web app, on Pyodide)."""
    return sys.platform == "emscripten"


def can_serve_others() -> bool:
    """Whether this device can serve other devices (share a table): only a computer's server can."""
    return not (is_native_phone() or in_browser())


def data_folder() -> Path:
    """Where this device keeps the app's data (the SQLite database): the folder the phone's
    host names, else the user's data folder (e.g. ``~/.local/share/companion``)."""
    named = os.environ.get(APP_STORAGE_DATA)
    if named:
        return Path(named)
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))
