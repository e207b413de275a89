"""MEMBERS ONLY referee: what does this bet pay, or is the stone lost?

The player sets the field the stone is on, which stone (single or double), whether it
sits on the risk stone, and the symbol's final count (face-up symbol cards and face-up
minus cards). ``companion.rules.members_only`` says whether the bet is right and what it
pays.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):
``referee-members-field-<field>`` (e.g. ``<=3``), ``referee-members-stone-<single|double>``,
``referee-members-risk``, steppers ``referee-members-shown`` and ``referee-members-minus``
(with ``-minus`` / ``-plus``), ``referee-members-verdict``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.i18n import _
from companion.rules.members_only import (
    FIELDS,
    MINUS_CARDS,
    MULTIPLIERS,
    PAYOUTS,
    STONES,
    SYMBOL_CARDS,
    TRACK_TOP,
    bet_wins,
    payout,
    symbol_count,
)
from companion.ui.games.members_only import field_name
from companion.ui.referee import widgets


def stone_label(stone: str) -> str:
    return {"single": _("single stone"), "double": _("double stone")}[stone]


@dataclass(frozen=True)
class Settlement:
    """The bet settled: right or wrong, the count, and the lines that explain it."""

    right: bool
    count: int
    points: int
    headline: str
    lines: tuple[str, ...]


class MembersOnlyReferee:
    """One bet and the final count of its symbol."""

    def __init__(self):
        self.field = "<=3"
        self.stone = "single"
        self.risk = False
        self.shown = 3
        self.minus = 0

    # --- intents ----------------------------------------------------------------------

    def choose_field(self, field: str) -> None:
        if field not in FIELDS:
            raise ValueError(field)
        self.field = field

    def choose_stone(self, stone: str) -> None:
        if stone not in STONES:
            raise ValueError(stone)
        self.stone = stone

    def toggle_risk(self) -> None:
        self.risk = not self.risk

    def step_shown(self, delta: int) -> None:
        """Face-up cards of the symbol: 0 to 11, the symbol cards the deck holds."""
        self.shown = min(max(self.shown + delta, 0), SYMBOL_CARDS)

    def step_minus(self, delta: int) -> None:
        """Face-up minus cards of the symbol: 0 to 2."""
        self.minus = min(max(self.minus + delta, 0), MINUS_CARDS)

    # --- read-outs --------------------------------------------------------------------

    @property
    def count(self) -> int:
        return symbol_count(self.shown, self.minus)

    def settle(self) -> Settlement:
        count = self.count
        words = {"count": count, "field": field_name(self.field)}
        if self.minus:
            counted = _("The count is {count}: {shown} face up, less {minus} minus.").format(
                count=count, shown=self.shown, minus=self.minus
            )
        else:
            counted = _("The count is {count}.").format(count=count)
        if not bet_wins(self.field, count):
            lost = {
                "single": _("The single stone is lost for the rest of the game."),
                "double": _("The double stone is lost for the rest of the game."),
            }[self.stone]
            lines = [counted, lost]
            if self.risk:
                lines.append(_("The risk stone is never lost: it comes back."))
            return Settlement(False, count, 0, _("Wrong: {count} is not {field}").format(**words), tuple(lines))
        points = payout(self.field, count, self.stone, self.risk)
        multiplier = MULTIPLIERS[(self.stone, self.risk)]
        how = {
            1: _("A single stone pays the field's value."),
            2: _("A double stone pays double.") if self.stone == "double" else _("A single stone on the risk stone pays double."),
            3: _("The double stone on the risk stone pays triple."),
        }[multiplier]
        lines = [
            counted,
            how,
            _("{base} x {multiplier} = {points} points up the symbol's track (it stops at {top}).").format(
                base=PAYOUTS[self.field], multiplier=multiplier, points=points, top=TRACK_TOP
            ),
            _("The stone comes back."),
        ]
        return Settlement(True, count, points, _("Right: the bet pays {points}").format(points=points), tuple(lines))



def new_state(options: Mapping[str, Any]) -> MembersOnlyReferee:
    """A fresh referee (no option changes what a bet pays)."""
    return MembersOnlyReferee()


def view(state: MembersOnlyReferee) -> ft.Control:
    """Field, stone and risk choices, the count steppers and the settlement."""
    screen = widgets.Binder()

    def settlement() -> list[ft.Control]:
        settled = state.settle()
        return [widgets.verdict(settled.right, settled.headline, settled.lines, "referee-members-verdict")]

    return screen.rooted(ft.Column(
        [
            widgets.heading(_("Field")),
            screen.choice([(field, field_name(field)) for field in FIELDS], lambda: state.field, state.choose_field,
                          "referee-members-field"),
            widgets.heading(_("Stone")),
            screen.choice([(stone, stone_label(stone)) for stone in STONES], lambda: state.stone, state.choose_stone,
                          "referee-members-stone"),
            screen.switch(_("On the risk stone"), "referee-members-risk", lambda: state.risk, state.toggle_risk),
            widgets.heading(_("Final count of the symbol")),
            screen.stepper(_("Symbol cards face up"), lambda: state.shown, state.step_shown, "referee-members-shown", 0,
                           SYMBOL_CARDS),
            screen.stepper(_("Minus cards face up"), lambda: state.minus, state.step_minus, "referee-members-minus", 0,
                           MINUS_CARDS),
            screen.section(settlement),
        ],
        spacing=12,
    ))
