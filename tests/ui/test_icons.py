"""The icon font the browser downloads is cut down to the app's icons: every icon the app
names, and every one Flutter's own widgets draw, is in it where Flet's client looks for it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from companion.ui import theme

SCRIPT = theme.ASSETS_DIR / "fonts" / "subset_icons.py"


def load_script():
    spec = importlib.util.spec_from_file_location("subset_icons", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


subset_icons = load_script()
CUT = TTFont(theme.ASSETS_DIR / "fonts" / theme.ICON_FONT_FILE).getBestCmap()
WHOLE = TTFont(subset_icons.full_font()).getBestCmap()
WHOLE_BY_GLYPH = {glyph: code for code, glyph in WHOLE.items()}


@pytest.mark.parametrize("icon", sorted(subset_icons.app_icons() | set(subset_icons.FLUTTER_ICONS)))
def test_each_icon_the_app_or_flutter_draws_is_in_the_cut_font_at_its_code_point(icon):
    """Flet's client draws ``ft.Icons.X`` as the code point Flutter gives it in the whole font:
    the cut font must have that glyph at that code point (else a phone shows a gap)."""
    glyph = subset_icons.glyph_name(icon)
    assert glyph in WHOLE_BY_GLYPH, f"{icon}: no glyph {glyph} in Flet's icon font (a Flet upgrade? run {SCRIPT.name})"
    assert CUT.get(WHOLE_BY_GLYPH[glyph]) == glyph, f"{icon} is not in {theme.ICON_FONT_FILE}: run .venv/bin/python assets/fonts/{SCRIPT.name}"


def test_the_app_names_its_icons_as_the_script_finds_them():
    icons = subset_icons.app_icons()
    assert {"ADD", "ARROW_BACK", "EMOJI_EVENTS", "BACKSPACE_OUTLINED"} <= icons
    assert subset_icons.glyph_name("ADD") == "add_baseline" and subset_icons.glyph_name("BACKSPACE_OUTLINED") == "backspace_outlined"


def test_the_cut_font_holds_the_app_s_icons_not_the_thousands_of_the_whole():
    assert len(CUT) < 100 and len(WHOLE) > 8000
    assert (theme.ASSETS_DIR / "fonts" / theme.ICON_FONT_FILE).stat().st_size < 20_000 < subset_icons.full_font().stat().st_size // 50


def test_the_web_assets_name_the_cut_icon_font_and_serve_it(tmp_path):
    folder = theme.web_assets_dir(tmp_path)
    manifest = json.loads((folder / "assets" / "FontManifest.json").read_text())
    icons = [family for family in manifest if family["family"] == theme.ICON_FONT]
    assert icons == [{"family": theme.ICON_FONT, "fonts": [{"asset": "fonts/" + theme.ICON_FONT_FILE}]}]
    served = folder / "assets" / "fonts" / theme.ICON_FONT_FILE
    assert served.read_bytes() == Path(theme.ASSETS_DIR / "fonts" / theme.ICON_FONT_FILE).read_bytes()
