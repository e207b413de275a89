"""What kind of device the app runs on: a computer's server, a native phone app, or a phone's browser.

A native build (``flet build apk/ipa``) runs the app inside Flet's phone host, which sets
``FLET_PLATFORM`` and names a durable folder in ``FLET_APP_STORAGE_DATA``; the offline web
app runs in the browser itself (Pyodide, ``sys.platform == "emscripten"``). Neither can
serve other devices, so neither can share a table.
"""

from __future__ import annotations

import os
import sys

PHONE_PLATFORMS = ("android", "ios")


def is_native_phone() -> bool:
    """Whether the app runs in a native phone build (Flet's Android or iOS host)."""
    return os.environ.get("FLET_PLATFORM", "").lower() in PHONE_PLATFORMS


def in_browser() -> bool:
    """Whether Python runs inside the browser (the offline web app, on Pyodide)."""
    return sys.platform == "emscripten"


def can_serve_others() -> bool:
    """Whether this device can serve other devices (share a table): only a computer's server can."""
    return not (is_native_phone() or in_browser())
