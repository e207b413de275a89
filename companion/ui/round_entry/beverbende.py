"""Beverbende round entry: each player's four cards, or their total, on one keypad.

Every row has four card slots and a total slot. The player taps a slot (the first empty
card is already selected) and then taps values on the keypad; after each card the
cursor jumps to the next empty card, so a whole round is four taps per player and no
adding up. Typing into a total slot instead takes that player's total as given (for
tables that add up themselves). When every row is made of cards the entry carries the
cards, so the rules can check them against the deck; otherwise it carries totals.

Identifiers for browser tests (beside those of every form, ``companion.ui.round_entry``):
``bever-card-<player>-<0..3>`` a card slot, ``bever-total-<player>`` the player's total
(tap it, then type the total on the keypad), ``bever-error-<player>`` the row's
message, ``bever-last`` "last round" switch (only when playing against the clock).
Four keypad taps per player: the first empty card is selected, each digit moves on. The
keypad is always shown.
"""

from __future__ import annotations

from functools import partial
from typing import Final, Literal

import flet as ft

from companion.i18n import _
from companion.rules.base import Game
from companion.rules.beverbende import CARDS_PER_ROW as CARDS
from companion.rules.beverbende import ROW_MAX, BeverbendeDetail
from companion.ui.round_entry import widgets
from companion.ui.round_entry.state import EntryState, Keypad

TOTAL: Final = "total"
"""The cursor slot for a player's total (card slots are 0..3)."""


class BeverbendeEntry(Keypad, EntryState):
    """Four card values or a total per player still in the game."""

    def __init__(self, game: Game, index: int | None = None):
        super().__init__(game, index)
        detail: BeverbendeDetail = self.before.detail
        self.players: list[str] = list(detail["still_in"])
        self.against_the_clock = detail["ending"] == "time"
        self.cards: dict[str, list[int | None]] = {p: [None] * CARDS for p in self.players}
        self.totals: dict[str, int | None] = {p: None for p in self.players}
        self.last = False
        self.cursor: tuple[str, int | Literal["total"]] | None = (self.players[0], 0)
        if self.original is not None:
            self._prefill(self.original)

    def _prefill(self, entry: dict) -> None:
        for player, row in entry.get("cards", {}).items():
            if player in self.cards:  # a carried-over draft may name a player out since
                self.cards[player] = list(row)
        for player, total in entry.get("totals", {}).items():
            if player in self.totals:
                self.totals[player] = total
        self.last = bool(entry.get("last", False))
        self.cursor = None

    def layout(self) -> tuple:
        return (*super().layout(), tuple(self.players), self.against_the_clock)

    # --- intents ----------------------------------------------------------------------

    def select(self, player: str, slot: int | Literal["total"]) -> None:
        """Put the cursor on one of ``player``'s card slots (0..3) or their total."""
        self.select_input((player, slot))

    def typed(self, cursor: tuple[str, int | Literal["total"]]) -> int | None:
        return self.totals[cursor[0]]

    def store_typed(self, cursor: tuple[str, int | Literal["total"]], value: int | None) -> None:
        self.totals[cursor[0]] = value

    def most_typed(self, cursor: tuple[str, int | Literal["total"]]) -> int:
        return ROW_MAX

    def press(self, digit: int) -> None:
        """A keypad digit: the selected card's value, or the next digit of the total."""
        if self.cursor is None:
            return
        player, slot = self.cursor
        if slot == TOTAL:
            self.cards[player] = [None] * CARDS  # a typed total stands for the cards
            super().press(digit)
            return
        self.cards[player][slot] = digit
        self.totals[player] = None
        self.cursor = self._next_empty_card(player, slot)

    def backspace(self) -> None:
        """Clear the selected card (or, if empty, the one before), or the total's last digit."""
        if self.cursor is None:
            return
        player, slot = self.cursor
        if slot == TOTAL:
            super().backspace()
            return
        if self.cards[player][slot] is None and slot > 0:
            slot -= 1
            self.cursor = (player, slot)
        self.cards[player][slot] = None

    def next(self) -> None:
        """Move on: from a total to the next player's total, from a card to the next empty card."""
        if self.cursor is None:
            return
        player, slot = self.cursor
        if slot == TOTAL:
            at = self.players.index(player)
            self.select_input((self.players[at + 1], TOTAL) if at + 1 < len(self.players) else None)
        else:
            self.cursor = self._next_empty_card(player, slot)

    def toggle_last(self) -> None:
        """Against the clock: mark this round as the last one (time is up)."""
        self.last = not self.last

    def _next_empty_card(self, player: str, slot: int) -> tuple[str, int] | None:
        """The first empty card slot after (player, slot) in reading order, wrapping once."""
        slots = [(p, s) for p in self.players for s in range(CARDS)]
        at = slots.index((player, slot))
        for p, s in slots[at + 1 :] + slots[: at + 1]:
            if self.cards[p][s] is None and self.totals[p] is None:
                return (p, s)
        return None

    # --- read-outs --------------------------------------------------------------------

    def row_sum(self, player: str) -> int | None:
        """The player's score this round: the typed total, or the sum of four cards."""
        if self.totals[player] is not None:
            return self.totals[player]
        cards = [card for card in self.cards[player] if card is not None]
        return sum(cards) if len(cards) == len(self.cards[player]) else None

    def entry(self) -> dict:
        complete = [p for p in self.players if self.row_sum(p) is not None]
        if all(self.totals[p] is None for p in complete) and complete:
            entry: dict = {"cards": {p: list(self.cards[p]) for p in complete}}
        else:
            entry = {"totals": {p: self.row_sum(p) for p in complete}}
        if self.last:
            entry["last"] = True
        return entry

    def everything_typed(self) -> dict:
        """Every card and total typed, a row of one to three cards too (``entry`` holds whole rows only)."""
        typed: dict = {
            "cards": {p: list(row) for p, row in self.cards.items() if row != [None] * CARDS},
            "totals": {p: total for p, total in self.totals.items() if total is not None},
        }
        if self.last:
            typed["last"] = True
        return typed

    @property
    def missing(self) -> list[str]:
        return [f"cards.{p}" for p in self.players if self.row_sum(p) is None]

    @property
    def fields(self) -> list[str]:
        return [f"{part}.{p}" for p in self.players for part in ("cards", "totals")]

    def row_error(self, player: str) -> str | None:
        return self.error_at(f"cards.{player}") or self.error_at(f"totals.{player}")

    def _notes(self, result: Game) -> list[str]:
        before_out = set(self.before.detail["out_in_round"])
        return [
            _("{player} reaches {limit} and is out.").format(player=p, limit=result.detail["elimination_limit"])
            for p in result.detail["out_in_round"]
            if p not in before_out and p in self.players
        ]


# --- view -------------------------------------------------------------------------------


def view(state: BeverbendeEntry, on_save, on_cancel=None) -> widgets.EntryForm:
    """Rows of card slots with a total each, and a keypad within thumb reach."""
    form = widgets.EntryForm(state, on_save, on_cancel)
    rows = [_player_row(form, state, p) for p in state.players]
    body: list[ft.Control] = [*rows]
    if state.against_the_clock:
        body.append(form.switch(_("Last round: time is up"), "bever-last", lambda: state.last, state.toggle_last))
    return form.build(body, footer=[form.keypad()], subtitle=lambda: _("{dealer} deals").format(dealer=state.before.next_round.dealer))


def _player_row(form: widgets.EntryForm, state: BeverbendeEntry, player: str) -> ft.Control:
    def selected(slot):
        return lambda: state.cursor == (player, slot)

    def card_text(slot):
        return lambda: "" if state.cards[player][slot] is None else str(state.cards[player][slot])

    slots = [
        form.slot(
            identifier=f"bever-card-{player}-{slot}",
            label=_("{player} card {n}").format(player=player, n=slot + 1),
            text=card_text(slot),
            selected=selected(slot),
            on_tap=partial(state.select, player, slot),
            expand=2,
        )
        for slot in range(CARDS)
    ]

    def total_text():
        value = state.row_sum(player)
        return "" if value is None else str(value)

    total = form.slot(
        identifier=f"bever-total-{player}",
        label=_("{player} total").format(player=player),
        text=total_text,
        selected=selected(TOTAL),
        on_tap=lambda: state.select(player, TOTAL),
        strong=True,
        expand=3,
    )
    name = ft.Text(player, size=16, weight=ft.FontWeight.W_500)  # above the cards: a long name has the whole width
    row = ft.Row([*slots, ft.Text("="), total], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column([name, row, form.error_line(lambda: state.row_error(player), f"bever-error-{player}")], spacing=0)


STATE = BeverbendeEntry
"""The form's plain-Python state (``companion.ui.round_entry.entry_state``)."""
