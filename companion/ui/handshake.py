"""A browser page says, as it connects, what its device remembers: the first page asks nothing.

A page's language is the choice remembered on the device, else the device's own languages
(``companion.ui.settings.DeviceLanguage``), and its theme the one chosen on the device, else
the device's brightness. Asking the browser for the language took one round trip, 32 to
65 ms, after the page's websocket opened and before home could be built; the theme, asked
after home, came a round trip after it, and home showed in the other theme until then.
The web server's page runs ``SCRIPT`` as it loads: it copies what the device remembers, and
the browser's languages, into a cookie, which the browser sends with the websocket's
handshake, and the server reads it there (``said``). The server still asks the browser once
the first page is out, and follows its answers where they differ: the cookie is the page's
state when it loaded, and a page that chose another language since and then reconnected to
a new session would say the old one.

No Flet here: the web server's start (``companion.ui.theme.web_assets_dir``) writes the script
into the page, before any screen is imported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import unquote

LANGUAGE_KEY = "companion.language"
"""Key of the chosen language in the device's storage and in the session's store."""

THEME_KEY = "companion.theme"
"""Key of the chosen theme ("dark" or "light") in the device's storage."""

THEMES = ("dark", "light")

COOKIE = "companion-device"


def in_browser_storage(key: str) -> str:
    """Where a browser keeps ``key`` of the device's storage: Flutter's shared preferences are
    the page's local storage, each key prefixed with "flutter." and each value in JSON."""
    return f"flutter.{key}"


SCRIPT = f"""<script>
  // Companion: tell the server what this device remembers, with the websocket's handshake (companion/ui/handshake.py)
  (() => {{
    const kept = (key) => {{ try {{ return JSON.parse(localStorage.getItem(key)); }} catch (e) {{ return null; }} }};
    const said = {{
      host: location.host,
      chosen: kept("{in_browser_storage(LANGUAGE_KEY)}"),
      locales: navigator.languages || [navigator.language],
      theme: kept("{in_browser_storage(THEME_KEY)}"),
    }};
    document.cookie = "{COOKIE}=" + encodeURIComponent(JSON.stringify(said)) + "; path=/; SameSite=Strict";
  }})();
</script>
"""

MAX_LOCALES = 16
MAX_TAG = 35
"""The longest language tag a page may name (a tag as long as BCP 47 makes them in practice)."""


@dataclass(frozen=True)
class Said:
    """What a page said as it connected: the language chosen on the device (None: no choice),
    the device's languages, most preferred first (language codes), and the theme chosen on
    the device ("dark", "light", or None: no choice)."""

    chosen: str | None
    locales: list[str]
    theme: str | None = None


def with_script(index_html: str) -> str:
    """``index_html`` (Flet's web client's page) running ``SCRIPT`` before the client starts."""
    head_end = index_html.find("</head>")
    if head_end < 0:
        raise ValueError("Flet's index.html has no </head> to put the device's script before")
    return index_html[:head_end] + SCRIPT + index_html[head_end:]


def said(headers: dict[bytes, bytes]) -> Said | None:
    """What the page said in the cookie of its websocket's ``headers``, or None: no such
    cookie, one that is not the script's, or one set by a page of another address (cookies
    are shared by every port of a host, so another Companion's page may have set it)."""
    host = headers.get(b"host", b"").decode("latin-1")
    for pair in headers.get(b"cookie", b"").decode("latin-1").split(";"):
        name, _, value = pair.strip().partition("=")
        if name == COOKIE:
            return _parsed(unquote(value), host)
    return None


def _parsed(text: str, host: str) -> Said | None:
    try:
        fields = json.loads(text)
    except ValueError:
        return None
    if not isinstance(fields, dict) or fields.get("host") != host:
        return None
    chosen, locales, theme = fields.get("chosen"), fields.get("locales"), fields.get("theme")
    if not (chosen is None or isinstance(chosen, str) and len(chosen) <= MAX_TAG):
        return None
    if not isinstance(locales, list) or not all(isinstance(tag, str) and len(tag) <= MAX_TAG for tag in locales):
        return None
    codes = [tag.split("-", 1)[0] for tag in locales[:MAX_LOCALES]]
    return Said(chosen, [code for code in codes if code], theme if theme in THEMES else None)
