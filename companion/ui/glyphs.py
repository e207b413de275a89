"""Which characters the app can draw, so that a name is never shown as blank space.

The web client draws text with its own fonts only (offline it cannot fetch a fallback
font): Roboto, which Flutter bundles, and the app's cut-down DejaVu Sans
(assets/fonts, see subset.sh). A character neither has, an emoji above all, would be an
empty gap in every list and scoreboard; a name that holds one is refused with a message
instead.
"""

from __future__ import annotations

from companion.i18n import _

ROBOTO = ((0x0020, 0x052F), (0x1E00, 0x1FFF), (0x2000, 0x206F), (0x20A0, 0x20BF))
"""What the web client's Roboto draws: Latin, Greek and Cyrillic, punctuation, currency signs."""

BUNDLED = (
    (0x0020, 0x007E), (0x00A0, 0x017F), (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC), (0x2122, 0x2122),
    (0x2190, 0x2195), (0x2212, 0x2212), (0x221E, 0x221E), (0x2248, 0x2248), (0x2260, 0x2265), (0x25A0, 0x2615),
    (0x2654, 0x2667), (0x2713, 0x2718),
)  # fmt: skip
"""What the bundled DejaVu Sans cut draws (assets/fonts/subset.sh; tests/ui/test_names.py
reads the font file's own character map to check that this is it): the font file is the
browser's, so a phone's Python never reads it."""


def drawable(character: str) -> bool:
    """Whether the app's fonts draw ``character``."""
    code = ord(character)
    return any(low <= code <= high for low, high in (*ROBOTO, *BUNDLED))


def undrawable_name(name: str) -> str | None:
    """Why ``name`` cannot be shown as typed, in the player's words (never quoting the
    character, which would be a gap again); None if it can."""
    if all(drawable(c) for c in name):
        return None
    return _("This name holds a sign the app cannot show (an emoji, say): write it without.")
