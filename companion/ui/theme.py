"""Look of the app: the bundled font, light and dark themes, and one colour per side."""

from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import tempfile
from dataclasses import field
from pathlib import Path

import flet as ft
from flet.controls.base_control import value

from companion.ui import handshake

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"
"""The repository's assets folder (fonts); served by Flet at the site root."""

FONT = "DejaVu Sans"
FONT_FILE = "DejaVuSans-Companion.ttf"
FONTS = {FONT: "/fonts/" + FONT_FILE}
"""DejaVu Sans draws the card suits (♠♥♦♣) that Flutter's built-in Roboto lacks. The file is
cut down to the glyphs the app uses (assets/fonts/subset.sh), and bold text is drawn from
the same file, so one small download serves every weight."""

ICON_FONT = "MaterialIcons"
ICON_FONT_FILE = "MaterialIcons-Companion.otf"
"""Flutter's icon font cut down to the icons the app and Flutter's own widgets draw
(assets/fonts/subset_icons.py): about 10 KB where the whole font is 1.2 MB, which a browser
downloads before it draws the first screen."""

SEED = "#2E7D5B"
"""Card-table green; Material derives every other colour of both themes from it."""

SIDE_COLORS = ("#1E88E5", "#E53935", "#43A047", "#FB8C00", "#8E24AA", "#00ACC1")
"""Chart and badge colour of each side in seating order; readable on light and dark."""

def side_color(index: int) -> str:
    return SIDE_COLORS[index % len(SIDE_COLORS)]


def web_assets_dir(cache: Path | None = None) -> Path:
    """The assets folder for the web server: the repository's assets plus Flutter's font
    manifest with the bundled font in it. The browser then fetches the font along with the
    client's own fonts, instead of after the first page arrives (which held back its first draw).
    Flet's page is there too, with a script that says as it connects what the device
    remembers (``companion.ui.handshake``), so the first page needs no question to the browser.

    The folder is kept in ``cache`` (the user's cache folder by default), named after what it
    holds, and shared by every server process with the same assets: a temporary folder
    removed at exit stayed behind whenever a server was stopped by a signal (as a service
    manager stops it), one at every start. Where the cache cannot be written, a temporary
    folder it is."""
    from platformdirs import user_cache_dir

    root = cache if cache is not None else Path(user_cache_dir("companion"))
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="web-assets-new-", dir=root))
    except OSError:
        temporary = Path(tempfile.mkdtemp(prefix="companion-web-"))
        atexit.register(shutil.rmtree, temporary, ignore_errors=True)
        _fill_web_assets(temporary)
        return temporary
    _fill_web_assets(staging)
    folder = root / f"web-assets-{_content_key(staging)}"
    try:
        staging.rename(folder)
    except OSError:  # there already, from an earlier start or another process
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _fill_web_assets(folder: Path) -> None:
    shutil.copytree(ASSETS_DIR, folder, dirs_exist_ok=True)
    add_to_font_manifest(folder)
    index = (_flet_web_dir() / "index.html").read_text(encoding="utf-8")
    (folder / "index.html").write_text(handshake.with_script(index), encoding="utf-8")


def _content_key(folder: Path) -> str:
    """A short digest of every file's path and bytes in ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


UNUSED_PACKAGES = ("flutter_math_fork", "media_kit", "cupertino_icons")
"""Flutter packages in Flet's web client whose assets the app never shows (TeX fonts, a video
player's script, iOS-style icons). Their fonts stay out of the font manifest: the client
downloads every font the manifest names before it draws the first page (19 TeX fonts and
the iOS icons were 20 of its 23 requests for fonts)."""


def _flet_web_dir() -> Path:
    """Where Flet's web client is installed."""
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]  # flet-web ships no type information

    return Path(get_package_web_dir())


def add_to_font_manifest(folder: Path) -> None:
    """Write into ``folder`` Flet's web client's font manifest (``assets/FontManifest.json``)
    without the fonts of ``UNUSED_PACKAGES``, with the icon font cut down (``ICON_FONT_FILE``)
    and the bundled font added, and those two fonts beside it; the offline web app's build
    (scripts/build_phone_app.py) does the same."""
    unused = tuple(f"packages/{package}/" for package in UNUSED_PACKAGES)
    manifest = [
        family for family in json.loads((_flet_web_dir() / "assets" / "FontManifest.json").read_text())
        if not any(font["asset"].startswith(unused) for font in family["fonts"])
    ]  # fmt: skip
    for family in manifest:
        if family["family"] == ICON_FONT:
            family["fonts"] = [{"asset": "fonts/" + ICON_FONT_FILE}]
    manifest.append({"family": FONT, "fonts": [{"asset": "fonts/" + FONT_FILE}]})
    (folder / "assets" / "fonts").mkdir(parents=True, exist_ok=True)
    (folder / "assets" / "FontManifest.json").write_text(json.dumps(manifest))
    for name in (ICON_FONT_FILE, FONT_FILE):
        shutil.copy(ASSETS_DIR / "fonts" / name, folder / "assets" / "fonts" / name)


@value
class _NoPageTransitions:
    """``ft.Theme``'s page transitions as it sends them when none is set: an empty map."""


@value
class SeededTheme:
    """A theme of a seed colour and a font, sent to the page as ``ft.Theme(color_scheme_seed=...,
    font_family=...)`` is (tests/ui/test_app.py compares the two). ``ft.Theme``'s module and the
    controls it names take about 0.1 s of CPU to import (a few times that in the phone's browser),
    all of it before the first page, for two of its hundreds of fields."""

    color_scheme_seed: str
    font_family: str
    page_transitions: _NoPageTransitions = field(default_factory=_NoPageTransitions)


def apply(page: ft.Page, dark: bool = False) -> None:
    """Fonts and both themes on the page; ``dark`` picks the starting mode. In a browser the
    font comes with the client (``web_assets_dir``)."""
    if not page.web:
        page.fonts = dict(FONTS)
    page.theme = SeededTheme(color_scheme_seed=SEED, font_family=FONT)  # type: ignore[assignment]  # sent as the ft.Theme it stands for
    page.dark_theme = SeededTheme(color_scheme_seed=SEED, font_family=FONT)  # type: ignore[assignment]  # as above
    page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
