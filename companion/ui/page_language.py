"""A browser page says its language as it connects, so the first page asks the browser nothing.

The language of a page is the choice remembered on the device, else the device's own
languages (``companion.ui.settings.DeviceLanguage``). Asking the browser for both took one
round trip, 32 to 65 ms, after the page's websocket opened and before home could be built.
The web server's page runs ``SCRIPT`` as it loads: it copies the two into a cookie, which the
browser sends with the websocket's handshake, and the server reads it there (``said``).
The server still asks the browser once the first page is out, and follows its answers
where they differ: the cookie is the page's state when it loaded, and a page that chose
another language since and then reconnected to a new session would say the old one.

No Flet here: the web server's start (``companion.ui.theme.web_assets_dir``) writes the script
into the page, before any screen is imported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import unquote

LANGUAGE_KEY = "companion.language"
"""Key of the chosen language in the device's storage and in the session's store."""

COOKIE = "companion-language"

BROWSER_STORAGE_KEY = f"flutter.{LANGUAGE_KEY}"
"""Where a browser keeps the chosen language: Flutter's shared preferences are the page's
local storage, each key prefixed with "flutter." and each value in JSON."""

SCRIPT = f"""<script>
  // Companion: tell the server this page's language with the websocket's handshake (companion/ui/page_language.py)
  (() => {{
    let chosen = null;
    try {{ chosen = JSON.parse(localStorage.getItem("{BROWSER_STORAGE_KEY}")); }} catch (e) {{}}
    const said = {{host: location.host, chosen: chosen, locales: navigator.languages || [navigator.language]}};
    document.cookie = "{COOKIE}=" + encodeURIComponent(JSON.stringify(said)) + "; path=/; SameSite=Strict";
  }})();
</script>
"""

MAX_LOCALES = 16
MAX_TAG = 35
"""The longest language tag a page may name (a tag as long as BCP 47 makes them in practice)."""


@dataclass(frozen=True)
class Said:
    """What a page said of its language: the choice remembered on the device (None: no
    choice), and the device's languages, most preferred first (language codes)."""

    chosen: str | None
    locales: list[str]


def with_script(index_html: str) -> str:
    """``index_html`` (Flet's web client's page) running ``SCRIPT`` before the client starts."""
    head_end = index_html.find("</head>")
    if head_end < 0:
        raise ValueError("Flet's index.html has no </head> to put the language script before")
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
    chosen, locales = fields.get("chosen"), fields.get("locales")
    if not (chosen is None or isinstance(chosen, str) and len(chosen) <= MAX_TAG):
        return None
    if not isinstance(locales, list) or not all(isinstance(tag, str) and len(tag) <= MAX_TAG for tag in locales):
        return None
    codes = [tag.split("-", 1)[0] for tag in locales[:MAX_LOCALES]]
    return Said(chosen, [code for code in codes if code])
