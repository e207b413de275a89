"""CLUBS round entry: tap players in the order they went out; bonus cards follow by themselves.

Each tap on a player who still held cards puts them next in the going-out order, and the
bonus card they take shows beside their name at once; a second tap takes them out of the
order again. When only one player (in team play: one team) still holds cards, the round
is over and those players are marked as holding. Club points have a stepper per player
(or tap the number and type it on the keypad); Double Cards is a toggle per player.

Identifiers for browser tests (beside those of every form, ``companion.ui.round_entry``):
``clubs-out-<player>`` tap in going-out order (tap again to take back; its caption
shows the place and bonus card), ``clubs-points-<player>`` club points (tap, then the
keypad), ``clubs-points-<player>-minus`` / ``-plus`` the stepper, ``clubs-double-<player>``
Double Cards toggle (only when the option is on), ``clubs-error-<player>`` and
``clubs-error-out`` messages.
"""

from __future__ import annotations

import flet as ft

from companion.i18n import _
from companion.rules.base import Game
from companion.rules.clubs import ClubsDetail
from companion.ui.format import join_names
from companion.ui.round_entry import widgets
from companion.ui.round_entry.state import EntryState, Keypad

MOST_TYPED_POINTS = 99
"""Club points are typed with at most two digits (the keypad moves on after two)."""


class ClubsEntry(Keypad, EntryState):
    """The going-out order, club points and Double Cards calls of one round."""

    def __init__(self, game: Game, index: int | None = None):
        super().__init__(game, index)
        self.players: list[str] = list(game.players)
        teams = game.teams
        self.team_of: dict[str, str] | None = (
            {p: team for team, members in teams.items() for p in members} if teams is not None else None
        )
        detail: ClubsDetail = self.before.detail
        self.bonus_cards: list[int] = list(detail["bonus_cards"])
        self.double_cards = bool(game.options["double_cards"])
        self.dealer = self.before.next_round.dealer
        self.out_order: list[str] = []
        self.club_points: dict[str, int] = dict.fromkeys(self.players, 0)
        self.double: set[str] = set()
        if self.original is not None:
            self._prefill(self.original)

    def _prefill(self, entry: dict) -> None:
        self.out_order = [p for p in entry.get("out_order", []) if p in self.players]
        self.club_points.update({p: n for p, n in entry.get("club_points", {}).items() if p in self.players})
        self.double = set(entry.get("double", [])) & set(self.players)

    def layout(self) -> tuple:
        return (*super().layout(), tuple(self.players), self.double_cards)

    # --- intents ----------------------------------------------------------------------

    def tap_out(self, player: str) -> None:
        """Next out, or (tapped again) back among the players who held cards."""
        if player in self.out_order:
            self.out_order.remove(player)
        elif not self.round_over:
            self.out_order.append(player)

    def step(self, player: str, delta: int) -> None:
        self.club_points[player] = max(self.club_points[player] + delta, 0)

    def select(self, player: str) -> None:
        """Put the keypad on ``player``'s club points."""
        self.select_input(player)

    def typed(self, cursor: str) -> int:
        return self.club_points[cursor]

    def store_typed(self, cursor: str, value: int | None) -> None:
        self.club_points[cursor] = value or 0

    def most_typed(self, cursor: str) -> int:
        return MOST_TYPED_POINTS

    def next(self) -> None:
        """On to the next player's club points (the keypad closes after the last)."""
        if self.cursor is None:
            return
        at = self.players.index(self.cursor)
        self.select_input(self.players[at + 1] if at + 1 < len(self.players) else None)

    def toggle_double(self, player: str) -> None:
        self.double ^= {player}

    # --- read-outs --------------------------------------------------------------------

    @property
    def holding(self) -> list[str]:
        """Players not (yet) out, in seating order."""
        return [p for p in self.players if p not in self.out_order]

    @property
    def round_over(self) -> bool:
        """Whether those still holding cards all sit on one side, which ends the round."""
        side = self.team_of.get if self.team_of is not None else (lambda p: p)
        return len({side(p) for p in self.holding}) <= 1

    def place(self, player: str) -> int | None:
        """1 for the first out, 2 for the next...; None while holding cards."""
        return self.out_order.index(player) + 1 if player in self.out_order else None

    def bonus(self, player: str) -> int | None:
        """The bonus card the player takes; the last player holding takes the next one (0)."""
        place = self.place(player)
        if place is not None:
            return self.bonus_cards[place - 1] if place <= len(self.bonus_cards) else None
        holding = self.holding
        if self.round_over and holding == [player] and len(self.out_order) < len(self.bonus_cards):
            return self.bonus_cards[len(self.out_order)]
        return None

    def entry(self) -> dict:
        return {
            "out_order": list(self.out_order),
            "club_points": {p: n for p, n in self.club_points.items() if n},
            "double": [p for p in self.players if p in self.double],
        }

    @property
    def missing(self) -> list[str]:
        return [] if self.round_over else ["out_order"]

    def describe(self, field: str) -> str:
        return _("who went out, in order")

    @property
    def fields(self) -> list[str]:
        return ["out_order", *(f"club_points.{p}" for p in self.players)]

    def _notes(self, result: Game) -> list[str]:
        last = self.detail_after(result)["last_round"]
        notes = []
        if last["doubled"]:
            notes.append(_("{player} went out first with Double Cards: points doubled.").format(player=last["doubled"]))
        for player in last["failed_doubles"]:
            notes.append(_("{player} called Double Cards without going out first: 0.").format(player=player))
        held = last["held_cards"]
        if self.team_of is not None:
            notes.append(_("{team} still held cards and score nothing.").format(team=self.team_of[held[0]]))
        elif len(self.players) > 2:
            notes.append(_("{players} still held cards and scores nothing.").format(players=join_names(held)))
        return notes


# --- view -------------------------------------------------------------------------------


def view(state: ClubsEntry, on_save, on_cancel=None) -> widgets.EntryForm:
    """A row per player: going-out button with its bonus card, club points stepper, Double."""
    form = widgets.EntryForm(state, on_save, on_cancel)
    hint = ft.Text(_("Tap players in the order they went out."), size=14, color=ft.Colors.ON_SURFACE_VARIANT)
    heads: list[ft.Control] = [
        ft.Text(_("Went out"), size=12, expand=True),
        ft.Text(_("Club points"), size=12, width=128, text_align=ft.TextAlign.CENTER),
    ]
    if state.double_cards:
        heads.append(ft.Text(_("Double"), size=12, width=56, text_align=ft.TextAlign.CENTER))
    headings = ft.Row(heads)
    rows = [_player_row(form, state, p) for p in state.players]
    out_error = form.error_line(lambda: state.error_at("out_order"), "clubs-error-out")

    def sync():
        # While points are typed the preview sits above the keypad: the rows get the room.
        hint.visible = headings.visible = state.cursor is None

    form.bind(sync)
    body = [hint, headings, *rows, out_error]
    footer = [form.keypad(hide_when_idle=True)]
    return form.build(body, footer=footer, subtitle=lambda: _("{dealer} deals").format(dealer=state.dealer), pin_preview=True)


def _out_button(form: widgets.EntryForm, state: ClubsEntry, player: str) -> ft.Control:
    place = ft.Text(size=18, weight=ft.FontWeight.BOLD, width=28, text_align=ft.TextAlign.CENTER)
    name = ft.Text(player, size=16, weight=ft.FontWeight.W_600)
    caption = ft.Text(size=12)
    box = ft.Container(
        content=ft.Row(
            [place, ft.Column([name, caption], spacing=0, expand=True), ft.Container(height=widgets.TAP)],
            spacing=4,
        ),  # the empty container keeps the button a finger high when the name takes one line
        padding=ft.Padding.symmetric(horizontal=6, vertical=4),
        border_radius=ft.BorderRadius.all(8),
        on_click=form.intent(lambda: state.tap_out(player)),
        ink=True,
    )

    def sync():
        n = state.place(player)
        bonus = state.bonus(player)
        place.value = str(n) if n else ""
        if n:
            text = _("bonus {card}").format(card=bonus) if bonus is not None else _("out")
        elif state.round_over:
            text = _("held · bonus {card}").format(card=bonus) if bonus is not None else _("held cards")
        else:
            text = state.team_of[player] if state.team_of else _("tap when out")
        caption.value = text
        box.bgcolor = ft.Colors.PRIMARY_CONTAINER if n else ft.Colors.SURFACE_CONTAINER_HIGHEST
        box.border = ft.Border.all(2, ft.Colors.PRIMARY if n else ft.Colors.OUTLINE_VARIANT)
        box.opacity = 0.6 if not n and state.round_over else 1.0

    form.bind(sync)
    return widgets.tagged(box, f"clubs-out-{player}", label=_("{player} went out").format(player=player), button=True, expand=True)


def _player_row(form: widgets.EntryForm, state: ClubsEntry, player: str) -> ft.Control:
    minus = ft.IconButton(icon=ft.Icons.REMOVE, on_click=form.intent(lambda: state.step(player, -1)))
    plus = ft.IconButton(icon=ft.Icons.ADD, on_click=form.intent(lambda: state.step(player, 1)))
    points = form.slot(
        identifier=f"clubs-points-{player}",
        label=_("Club points of {player}").format(player=player),
        text=lambda: str(state.club_points[player]),
        selected=lambda: state.cursor == player,
        on_tap=lambda: state.select(player),
        width=48,
        strong=True,
    )
    stepper = ft.Row(
        [
            widgets.tagged(minus, f"clubs-points-{player}-minus", label=_("Fewer club points")),
            points,
            widgets.tagged(plus, f"clubs-points-{player}-plus", label=_("More club points")),
        ],
        spacing=0,
        width=128,
    )
    controls: list[ft.Control] = [stepper]
    if state.double_cards:
        controls.append(
            ft.Container(
                content=form.button(
                    _("×2"), f"clubs-double-{player}", lambda: state.toggle_double(player), pressed=lambda: player in state.double
                ),
                width=56,
            )
        )
    # The going-out button has the row's whole width, so a long name wraps between its words.
    row = ft.Row(controls, spacing=4, alignment=ft.MainAxisAlignment.END)
    return ft.Column([_out_button(form, state, player), row, form.error_line(lambda: state.error_at(f"club_points.{player}"), f"clubs-error-{player}")], spacing=0)


STATE = ClubsEntry
"""The form's plain-Python state (``companion.ui.round_entry.entry_state``)."""
