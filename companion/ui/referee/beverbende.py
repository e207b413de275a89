"""Beverbende referee: may I knock yet, and what replaces the special cards at the end?

Knocking: the player sets how many players sit at the table, how many turns each has
finished this round (the current turn included) and who wants to knock;
``companion.rules.beverbende.may_knock`` and ``last_turns`` answer. Special cards: the
player taps the four cards of a row and the cards turned over from the draw pile, in
order; ``final_row`` shows what the row counts, and ``replacement_order`` who replaces
first.

Identifiers for browser tests (``[flt-semantics-identifier='...']``):
``referee-bever-players`` stepper, ``referee-bever-turns-<seat>`` steppers,
``referee-bever-knocker-<seat index>``, ``referee-bever-knock`` the answer;
``referee-bever-slot-<0..3>``, ``referee-bever-pile``, ``referee-bever-card-<0..9|swap|peek|draw_twice>``,
``referee-bever-drawn``, ``referee-bever-undo``, ``referee-bever-clear``,
``referee-bever-replacement`` the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from functools import partial
from typing import Callable, Final, Literal
import flet as ft

from companion.i18n import _, ngettext
from companion.rules import RuleError
from companion.rules.beverbende import (
    CARDS_PER_ROW,
    COPIES,
    SPECIAL_CARDS,
    final_row,
    last_turns,
    may_knock,
    replacement_order,
)
from companion.ui.format import join_names
from companion.ui.referee import widgets

MIN_PLAYERS, MAX_PLAYERS = 2, 6
NUMBER_CARDS = tuple(COPIES)
"""The values of the number cards, 0 to 9."""
PILE: Final = "pile"
MOST_DRAWN = 12
"""More cards than a player ever turns over to replace one row's special cards here."""


def card_name(card: int | str) -> str:
    if isinstance(card, int):
        return str(card)
    return {"swap": _("swap"), "peek": _("peek"), "draw_twice": _("draw twice")}[card]


@dataclass(frozen=True)
class Answer:
    good: bool
    headline: str
    lines: tuple[str, ...]


class BeverbendeReferee:
    """The table's turns for the knock question; one row and the draw pile for the replacement."""

    def __init__(self, players: int = 4):
        self.turns: list[int] = [0] * players
        self.knocker = 0
        self.row: list[int | str | None] = [None] * CARDS_PER_ROW
        self.drawn: list[int | str] = []
        self.target: int | Literal["pile"] = 0

    # --- knocking ---------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return [_("Player {n}").format(n=seat + 1) for seat in range(len(self.turns))]

    def step_players(self, delta: int) -> None:
        count = min(max(len(self.turns) + delta, MIN_PLAYERS), MAX_PLAYERS)
        self.turns = (self.turns + [0] * MAX_PLAYERS)[:count]
        self.knocker = min(self.knocker, count - 1)

    def step_turns(self, seat: int, delta: int) -> None:
        self.turns[seat] = max(self.turns[seat] + delta, 0)

    def choose_knocker(self, seat: int) -> None:
        if not 0 <= seat < len(self.turns):
            raise ValueError(seat)
        self.knocker = seat

    def knock(self) -> Answer:
        names = self.players
        knocker = names[self.knocker]
        if not may_knock(self.turns):
            waiting = [name for name, turns in zip(names, self.turns) if turns == 0]
            return Answer(
                False,
                _("{player} may not knock yet").format(player=knocker),
                (
                    _("Everyone must have had a turn this round first; {names} not yet.").format(
                        names=join_names(waiting)
                    ),
                ),
            )
        after = last_turns(names, knocker)
        return Answer(
            True,
            _("{player} may knock").format(player=knocker),
            (
                _("Everyone has had a turn this round."),
                _("After the knock {names} each play once more; {player} does not.").format(
                    names=join_names(after), player=knocker
                ),
            ),
        )

    # --- replacing special cards -------------------------------------------------------

    def select(self, target: int | Literal["pile"]) -> None:
        """Which card the next tap sets: a slot of the row (0 to 3) or the draw pile."""
        if target != PILE and target not in range(CARDS_PER_ROW):
            raise ValueError(target)
        self.target = target

    def tap(self, card: int | str) -> None:
        """Set the selected slot to ``card`` (then move on), or turn ``card`` over from the pile."""
        if card not in SPECIAL_CARDS and card not in NUMBER_CARDS:
            raise ValueError(card)
        if self.target == PILE:
            if len(self.drawn) < MOST_DRAWN:
                self.drawn.append(card)
            return
        self.row[self.target] = card
        empty = [slot for slot, value in enumerate(self.row) if value is None]
        self.target = empty[0] if empty else PILE

    def undo_drawn(self) -> None:
        if self.drawn:
            self.drawn.pop()

    def clear_row(self) -> None:
        self.row = [None] * CARDS_PER_ROW
        self.drawn.clear()
        self.target = 0

    def replacement(self) -> Answer | None:
        """What the row counts once its special cards are replaced; None until the row is complete."""
        if any(card is None for card in self.row):
            return None
        specials = [card for card in self.row if card in SPECIAL_CARDS]
        knocker, *others = replacement_order(self.players, self.players[self.knocker])
        order = _("{knocker} knocked, so {knocker} replaces first; then {names}.").format(
            knocker=knocker, names=join_names(others)
        )
        if not specials:
            total = sum(card for card in self.row if isinstance(card, int))
            return Answer(True, _("The row counts {total}").format(total=total),
                          (_("No special cards: nothing to replace."),))
        try:
            values, rest = final_row(self.row, self.drawn)
        except RuleError:
            placed = len([card for card in self.drawn if card not in SPECIAL_CARDS])
            return Answer(
                False,
                _("Keep drawing"),
                (
                    _("Each special card in the row is covered by the next number card from the draw pile; "
                      "special cards drawn are set aside too."),
                    ngettext(
                        "{placed} of {needed} special card covered so far.",
                        "{placed} of {needed} special cards covered so far.",
                        len(specials),
                    ).format(placed=placed, needed=len(specials)),
                    order,
                ),
            )
        used = self.drawn[: len(self.drawn) - len(rest)]
        aside = [card_name(card) for card in self.row + used if card in SPECIAL_CARDS]
        total = sum(values)
        lines = [
            " + ".join(str(v) for v in values) + f" = {total}",
            _("Set aside: {cards}.").format(cards=", ".join(aside)),
        ]
        if rest:
            lines.append(
                ngettext(
                    "The last card drawn was not needed: the next player goes on with it.",
                    "The last {n} cards drawn were not needed: the next player goes on with them.",
                    len(rest),
                ).format(n=len(rest))
            )
        lines.append(order)
        return Answer(True, _("The row counts {total}").format(total=total), tuple(lines))



def new_state(options: Mapping[str, Any]) -> BeverbendeReferee:
    """A fresh referee (the table is set on the screen; no option changes its answers)."""
    return BeverbendeReferee()


def view(state: BeverbendeReferee) -> ft.Control:
    """Two parts: the knock question and the replacement of special cards."""
    screen = widgets.Binder()
    return screen.rooted(ft.Column([*_knock_part(state, screen), ft.Divider(), *_replacement_part(state, screen)], spacing=12))


def _knock_part(state: BeverbendeReferee, screen: widgets.Binder) -> list[ft.Control]:
    seats = range(MAX_PLAYERS)
    turns = []

    def turns_stepper(seat: int) -> ft.Control:
        return screen.stepper(
            lambda: _("{player}: turns taken this round").format(player=_("Player {n}").format(n=seat + 1)),
            lambda: state.turns[seat] if seat < len(state.turns) else 0,
            partial(state.step_turns, seat),
            f"referee-bever-turns-{seat + 1}",
            0,
            99,
        )

    for seat in seats:
        stepper = turns_stepper(seat)

        def sync(stepper=stepper, seat=seat):
            stepper.visible = seat < len(state.turns)

        screen.bind(sync)
        turns.append(stepper)

    def answer() -> list[ft.Control]:
        knock = state.knock()
        return [widgets.verdict(knock.good, knock.headline, knock.lines, "referee-bever-knock")]

    return [
        widgets.heading(_("May I knock?")),
        screen.stepper(_("Players"), lambda: len(state.turns), state.step_players, "referee-bever-players", MIN_PLAYERS,
                       MAX_PLAYERS),
        ft.Text(_("Count the current turn as taken."), italic=True),
        *turns,
        ft.Text(_("Who wants to knock?")),
        screen.choice(
            [(str(seat), _("Player {n}").format(n=seat + 1)) for seat in seats],
            lambda: str(state.knocker),
            lambda seat: state.choose_knocker(int(seat)),
            "referee-bever-knocker",
            visible=lambda seat: int(seat) < len(state.turns),
        ),
        screen.section(answer),
    ]


def _replacement_part(state: BeverbendeReferee, screen: widgets.Binder) -> list[ft.Control]:
    def targets(slot: int) -> Callable[[], bool]:
        return lambda: state.target == slot

    slots: list[ft.Control] = []
    for slot in range(CARDS_PER_ROW):
        key = screen.key("?", f"referee-bever-slot-{slot}", partial(state.select, slot),
                         selected=targets(slot), width=72)
        button = key.content

        def sync(button=button, slot=slot):
            card = state.row[slot]
            button.content = "?" if card is None else card_name(card)

        screen.bind(sync)
        slots.append(key)
    pile = screen.key(_("Drawn from the pile"), "referee-bever-pile", lambda: state.select(PILE),
                      selected=lambda: state.target == PILE)
    cards: tuple[int | str, ...] = (*NUMBER_CARDS, *SPECIAL_CARDS)
    keys: list[ft.Control] = [
        screen.key(card_name(card), f"referee-bever-card-{card}", partial(state.tap, card),
                   width=None if card in SPECIAL_CARDS else 44)
        for card in cards
    ]

    def drawn() -> list[ft.Control]:
        cards = ", ".join(card_name(card) for card in state.drawn) or _("nothing yet")
        return [widgets.tagged(ft.Text(_("Drawn: {cards}").format(cards=cards)), "referee-bever-drawn")]

    def result() -> list[ft.Control]:
        answer = state.replacement()
        if answer is None:
            return [widgets.tagged(ft.Text(_("Tap the four cards of the row.")), "referee-bever-replacement")]
        return [widgets.verdict(answer.good, answer.headline, answer.lines, "referee-bever-replacement")]

    return [
        widgets.heading(_("Special cards at the end of the round")),
        ft.Text(_("Tap a place in the row or the draw pile, then the card.")),
        ft.Row(slots, wrap=True, spacing=6),
        pile,
        ft.Row(keys, wrap=True, spacing=6, run_spacing=6),
        screen.section(drawn),
        ft.Row(
            [
                widgets.tagged(ft.TextButton(_("Take back the last drawn card"), on_click=screen.intent(state.undo_drawn)),
                               "referee-bever-undo"),
                widgets.tagged(
                    ft.TextButton(_("Start over"), icon=ft.Icons.RESTART_ALT, on_click=screen.intent(state.clear_row)),
                    "referee-bever-clear",
                ),
            ],
            wrap=True,
        ),
        screen.section(result),
    ]
