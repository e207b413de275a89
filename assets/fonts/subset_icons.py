"""Rebuild MaterialIcons-Companion.otf: Flutter's icon font cut down to the icons the app
names (``ft.Icons.X`` in its source) and those Flutter's own widgets draw (``FLUTTER_ICONS``),
so a phone downloads about 10 KB instead of 1.2 MB before its first screen.

Flet's web client lists the whole font (every icon, as a Flet app may name any) in its font
manifest, and Flutter downloads every font listed there before it draws anything. Run with
the venv's Python after a Flet upgrade or a new icon (tests/ui/test_icons.py says when):

    .venv/bin/python assets/fonts/subset_icons.py
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "companion"
OUTPUT = HERE / "MaterialIcons-Companion.otf"

FLUTTER_ICONS = (
    "ACCESS_TIME", "ARROW_BACK", "ARROW_BACK_IOS", "ARROW_BACK_IOS_NEW", "ARROW_DOWNWARD",
    "ARROW_DROP_DOWN", "ARROW_DROP_UP", "ARROW_FORWARD_IOS", "ARROW_UPWARD", "CALENDAR_TODAY",
    "CANCEL", "CHECK", "CHEVRON_LEFT", "CHEVRON_RIGHT", "CLEAR", "CLOSE", "DRAG_HANDLE", "EDIT",
    "ERROR", "ERROR_OUTLINE", "EXPAND_LESS", "EXPAND_MORE", "KEYBOARD", "KEYBOARD_ARROW_DOWN",
    "KEYBOARD_ARROW_LEFT", "KEYBOARD_ARROW_RIGHT", "KEYBOARD_ARROW_UP", "MENU", "MORE_HORIZ",
    "MORE_VERT", "SEARCH", "VISIBILITY", "VISIBILITY_OFF",
)  # fmt: skip
"""Icons that Flutter's Material widgets and Flet's client draw by themselves: back and close
buttons (iOS's too), menus, dropdowns, date and time pickers, chips, search, a password's
eye, sort arrows, expanding tiles, error signs."""


def app_icons(source: Path = SOURCE) -> set[str]:
    """Every ``ft.Icons`` name in the app's source."""
    return {name for path in source.rglob("*.py") for name in re.findall(r"\bft\.Icons\.([A-Z0-9_]+)", path.read_text(encoding="utf-8"))}


def glyph_name(icon: str) -> str:
    """The glyph of ``ft.Icons.<icon>`` in Flutter's font: ``ADD`` is ``add_baseline``,
    ``BACKSPACE_OUTLINED`` is ``backspace_outlined``."""
    name = icon.lower()
    return name if name.endswith(("_outlined", "_rounded", "_sharp")) else name + "_baseline"


def full_font() -> Path:
    """Flet's web client's icon font, whose code points the client draws."""
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]  # no type information

    return Path(get_package_web_dir()) / "assets" / "fonts" / "MaterialIcons-Regular.otf"


def kept_glyphs() -> set[str]:
    return {glyph_name(icon) for icon in app_icons() | set(FLUTTER_ICONS)}


def main() -> None:
    from fontTools import subset  # type: ignore[import-untyped]  # the tests' extra (pyproject.toml)
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    font = TTFont(full_font())
    wanted = kept_glyphs()
    unknown = wanted - set(font.getGlyphOrder())
    if unknown:
        raise SystemExit(f"not in Flutter's icon font: {sorted(unknown)}")
    options = subset.Options()
    options.desubroutinize = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(glyphs=sorted(wanted))
    subsetter.subset(font)
    font.save(OUTPUT)
    print(f"{OUTPUT.name}: {len(wanted)} icons, {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
