"""Look of the app: the bundled font, light and dark themes, and one colour per side."""

from __future__ import annotations

from pathlib import Path

import flet as ft

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"
"""The repository's assets folder (fonts); served by Flet at the site root."""

FONT = "DejaVu Sans"
FONTS = {FONT: "/fonts/DejaVuSans-Companion.ttf"}
"""DejaVu Sans draws the card suits (♠♥♦♣) that Flutter's built-in Roboto lacks. The file is
cut down to the glyphs the app uses (assets/fonts/subset.sh), and bold text is drawn from
the same file, so one small download serves every weight."""

SEED = "#2E7D5B"
"""Card-table green; Material derives every other colour of both themes from it."""

SIDE_COLORS = ("#1E88E5", "#E53935", "#43A047", "#FB8C00", "#8E24AA", "#00ACC1")
"""Chart and badge colour of each side in seating order; readable on light and dark."""

GAME_MARKS = {
    "clubs": ("\u2663", "#2E7D32"),
    "klaverjassen": ("\u2660", "#1565C0"),
    "members_only": ("\u265B", "#6A1B9A"),
    "beverbende": ("\u2666", "#BF360C"),
}
"""Each game's badge: a card symbol from the bundled font and its colour."""


def side_color(index: int) -> str:
    return SIDE_COLORS[index % len(SIDE_COLORS)]


def apply(page: ft.Page, dark: bool = False) -> None:
    """Fonts and both themes on the page; ``dark`` picks the starting mode."""
    page.fonts = dict(FONTS)
    page.theme = ft.Theme(color_scheme_seed=SEED, font_family=FONT)
    page.dark_theme = ft.Theme(color_scheme_seed=SEED, font_family=FONT)
    page.theme_mode = ft.ThemeMode.DARK if dark else ft.ThemeMode.LIGHT
