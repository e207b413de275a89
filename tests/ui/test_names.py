"""Names are kept as typed, and a name the app could only show as a gap is refused."""

from __future__ import annotations

import struct
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest

from companion.ui.theme import ASSETS_DIR, FONT_FILE

from companion import i18n
from companion.ui.glyphs import BUNDLED, drawable
from companion.ui.new_game import NewGameScreen, NewGameState
from companion.ui.players import PlayersScreen, PlayersState

AS_TYPED = ["van der Zwaluwenburg", "ann-sophie", "McKenzie", "Zoë", "Σοφία", "Bob ☂"]
EMOJI = ["Ann 😀", "🃏", "Dee ❤️"]


def test_names_are_kept_as_typed_at_the_table():
    state = NewGameState([])
    state.choose("clubs")
    for name in AS_TYPED:
        assert state.add_player(name), state.name_error
    assert state.players == AS_TYPED


def test_name_fields_leave_the_capitals_to_the_player(store):
    """A field that capitalises words turns "van der Zwaluwenburg" into "Van Der Zwaluwenburg"."""
    app = SimpleNamespace(store=store, dark=False)
    fields = [NewGameScreen(app, NewGameState([])).name_field, PlayersScreen(app, PlayersState(store)).name_field]
    assert [f.capitalization in (None, ft.TextCapitalization.NONE) for f in fields] == [True, True]


@pytest.mark.parametrize("name", EMOJI)
def test_a_name_with_an_emoji_is_refused_with_a_reason_not_shown_as_a_gap(name, store):
    table = NewGameState([])
    table.choose("clubs")
    saved = PlayersState(store)
    with i18n.speaking("nl"):
        assert not table.add_player(name)
        assert not saved.add(name)
    assert table.players == [] and store.players() == []
    assert table.name_error == saved.name_error == (
        "Deze naam bevat een teken dat de app niet kan tonen (een emoji bijvoorbeeld): schrijf hem zonder."
    )


def test_the_bundled_font_answers_for_its_signs_and_letters_beyond_roboto():
    assert all(drawable(c) for c in "☂♣♦✓ĀŒ")
    assert not any(drawable(c) for c in "😀🃏李")


def test_what_the_app_says_the_bundled_font_draws_is_its_character_map():
    listed = {code for low, high in BUNDLED for code in range(low, high + 1)}
    assert listed == character_map(ASSETS_DIR / "fonts" / FONT_FILE)


def character_map(font: Path) -> frozenset[int]:
    """The code points the bundled font has a glyph for (its cmap's format 4 table)."""
    data = font.read_bytes()
    tables = {data[12 + 16 * i : 16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, 4)[0])}  # fmt: skip
    cmap = tables[b"cmap"]
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        table = cmap + offset
        if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack_from(">H", data, table)[0] == 4:
            return frozenset(format_4(data, table))
    raise ValueError(f"{font} has no Unicode BMP character map")


def format_4(data: bytes, table: int) -> list[int]:
    segments = struct.unpack_from(">H", data, table + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, table + 14)
    starts = struct.unpack_from(f">{segments}H", data, table + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, table + 16 + 4 * segments)
    ranges_at = table + 16 + 6 * segments
    offsets = struct.unpack_from(f">{segments}H", data, ranges_at)
    found = []
    for i, (start, end) in enumerate(zip(starts, ends)):
        for code in range(start, min(end, 0xFFFE) + 1):
            if offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                at = ranges_at + 2 * i + offsets[i] + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.append(code)
    return found


