"""MEMBERS ONLY hand entry: the board itself, then the count per symbol.

The form shows the 5 x 8 board as it lies on the table. Pick whose stone it is (the
player who starts the hand is picked first) and which stone (single or double, with the
risk stone under it only on a player's first stone), then tap the field: the stone shows
the player's initial, and the next player in turn is picked by itself. Tapping a placed
stone takes it back. Under the board, the count of each symbol is typed on the keypad,
either as counted or as face-up symbol cards and minus cards. The preview settles every
bet: its payout, or the stone that is lost.

Identifiers for browser tests (beside those of every form, ``companion.ui.round_entry``;
``<symbol>`` and ``<field>`` as in the entry: ``crown``, ``<=3``, ``>=5``):
``mo-player-<player>`` whose stone (the starter is picked first; after each stone the
next player in turn is picked), ``mo-stone-single`` / ``mo-stone-double`` which stone,
``mo-risk`` the risk stone (only on a player's first stone), ``mo-cell-<symbol>-<field>``
a board field (tap to place, tap again to take back), ``mo-count-<symbol>`` the count
(tap, then the keypad), ``mo-count-mode`` switch to ``mo-shown-<symbol>`` and
``mo-minus-<symbol>``, ``mo-error-bets`` and ``mo-error-counts`` messages.
"""

from __future__ import annotations

from functools import partial
import flet as ft

from companion.i18n import _
from companion.rules.base import Game
from companion.rules.members_only import (
    FIELDS,
    MINUS_CARDS,
    PAYOUTS,
    STONES,
    SYMBOL_CARDS,
    SYMBOLS,
    TRACK_TOP,
    MembersOnlyDetail,
)
from companion.ui import theme
from companion.ui.games.members_only import field_name, symbol_name
from companion.ui.round_entry import widgets
from companion.ui.round_entry.state import EntryState, Keypad

COUNTS, SHOWN, MINUS = "counts", "shown", "minus"
"""Count rows: the count itself, or the face-up symbol cards and minus cards."""
MOST = {COUNTS: SYMBOL_CARDS, SHOWN: SYMBOL_CARDS, MINUS: MINUS_CARDS}


def stone_name(stone: str) -> str:
    return _("single") if stone == "single" else _("double")


def initials(players: list[str]) -> dict[str, str]:
    """The shortest start of each name (up to 3 letters) that no other name starts with."""
    result = {}
    for player in players:
        for length in range(1, 4):
            start = player[:length]
            if not any(other != player and other.startswith(start) for other in players):
                break
        result[player] = start
    return result


class MembersOnlyEntry(Keypad, EntryState):
    """One hand: the stones on the board and the count of each symbol."""

    def __init__(self, game: Game, index: int | None = None):
        super().__init__(game, index)
        detail: MembersOnlyDetail = self.before.detail
        self.players: list[str] = list(game.players)
        self.owned: dict[str, dict[str, int]] = detail["stones"]
        self.turns: int = detail["turns_per_hand"]
        self.starter: str = detail["starter"]
        self.initials = initials(self.players)
        # (symbol, field) -> {"player", "stone", "risk"}, in the order placed.
        self.board: dict[tuple[str, str], dict] = {}
        self.count_mode = COUNTS
        self.values: dict[str, dict[str, int | None]] = {
            COUNTS: dict.fromkeys(SYMBOLS),
            SHOWN: dict.fromkeys(SYMBOLS),
            MINUS: dict.fromkeys(SYMBOLS, 0),
        }
        self.cursor: tuple[str, str] | None = None
        self._settled: tuple[Game | None, dict] = (None, {})
        self.current = self.starter
        self.stone = "single"
        self.risk = False
        if self.original is not None:
            self._prefill(self.original)
        self._pick_stone()

    def _prefill(self, entry: dict) -> None:
        for bet in entry.get("bets", []):
            self.board[(bet["symbol"], bet["field"])] = {
                "player": bet["player"],
                "stone": bet.get("stone", "single"),
                "risk": bet.get("risk", False),
            }
        if SHOWN in entry:
            self.count_mode = SHOWN
            self.values[SHOWN].update(entry[SHOWN])
            self.values[MINUS].update(entry.get(MINUS, {}))
        else:
            self.values[COUNTS].update(entry.get(COUNTS, {}))

    def layout(self) -> tuple:
        return (*super().layout(), tuple(self.players))

    # --- intents: the board -----------------------------------------------------------

    def choose_player(self, player: str) -> None:
        """Whose stone goes down next; a single unless they have none left."""
        self.current = player
        self.stone = "single"
        self.risk = False
        self._pick_stone()

    def choose_stone(self, stone: str) -> None:
        self.stone = stone

    def toggle_risk(self) -> None:
        """The risk stone goes only under a player's first stone of the hand."""
        self.risk = not self.risk and self.may_risk(self.current)

    def tap_field(self, symbol: str, field: str) -> None:
        """Place the picked stone on a free field, or take a placed stone back."""
        placed = self.board.pop((symbol, field), None)
        if placed is not None:
            self.current, self.stone, self.risk = placed["player"], placed["stone"], placed["risk"]
            return
        self.board[(symbol, field)] = {"player": self.current, "stone": self.stone, "risk": self.risk}
        self._next_player()

    def _next_player(self) -> None:
        """Clockwise to the next player who can still place a stone this hand."""
        at = self.players.index(self.current)
        for step in range(1, len(self.players) + 1):
            player = self.players[(at + step) % len(self.players)]
            if self.can_place(player):
                self.choose_player(player)
                return
        self.risk = False

    def _pick_stone(self) -> None:
        """Keep the picked stone if the player still has one, else take the other kind."""
        if not self.stones_left(self.current, self.stone):
            self.stone = next((s for s in STONES if self.stones_left(self.current, s)), self.stone)

    # --- intents: the counts ----------------------------------------------------------

    def set_count_mode(self, mode: str) -> None:
        """Count per symbol (COUNTS), or face-up symbol and minus cards (SHOWN)."""
        self.count_mode = mode
        self.cursor = None

    def select(self, row: str, symbol: str) -> None:
        """Put the keypad on one count: ``row`` is COUNTS, SHOWN or MINUS."""
        self.select_input((row, symbol))

    def typed(self, cursor: tuple[str, str]) -> int | None:
        row, symbol = cursor
        return self.values[row][symbol]

    def store_typed(self, cursor: tuple[str, str], value: int | None) -> None:
        row, symbol = cursor
        self.values[row][symbol] = 0 if value is None and row == MINUS else value

    def most_typed(self, cursor: tuple[str, str]) -> int:
        return MOST[cursor[0]]

    def next(self) -> None:
        """On to the next symbol's count in the same row (the keypad closes after the last)."""
        if self.cursor is None:
            return
        row, symbol = self.cursor
        at = SYMBOLS.index(symbol)
        self.select_input((row, SYMBOLS[at + 1]) if at + 1 < len(SYMBOLS) else None)

    # --- read-outs --------------------------------------------------------------------

    def placed(self, player: str, stone: str | None = None) -> int:
        return sum(
            1 for bet in self.board.values() if bet["player"] == player and (stone is None or bet["stone"] == stone)
        )

    def stones_left(self, player: str, stone: str) -> int:
        return self.owned[player][stone] - self.placed(player, stone)

    def can_place(self, player: str) -> bool:
        return self.placed(player) < self.turns and any(self.stones_left(player, s) for s in STONES)

    def may_risk(self, player: str) -> bool:
        return self.placed(player) == 0

    @property
    def count_rows(self) -> list[str]:
        return [COUNTS] if self.count_mode == COUNTS else [SHOWN, MINUS]

    def entry(self) -> dict:
        bets = [
            {"player": bet["player"], "symbol": symbol, "field": field, "stone": bet["stone"], "risk": bet["risk"]}
            for (symbol, field), bet in self.board.items()
        ]
        entry: dict = {"bets": bets}
        for row in self.count_rows:
            entry[row] = {s: v for s, v in self.values[row].items() if v is not None}
        return entry

    @property
    def missing(self) -> list[str]:
        row = self.count_rows[0]
        return [f"{row}.{s}" for s in SYMBOLS if self.values[row][s] is None]

    def describe(self, field: str) -> str:
        return symbol_name(field.split(".")[1])

    @property
    def fields(self) -> list[str]:
        return ["bets", COUNTS, SHOWN, MINUS] + [f"{row}.{s}" for row in (COUNTS, SHOWN, MINUS) for s in SYMBOLS]

    def count_error(self) -> str | None:
        """The message about the counts, whichever count it names."""
        for field in self.fields[1:]:
            message = self.error_at(field)
            if message:
                return message
        return None

    @property
    def faulty_cell(self) -> tuple[str, str] | None:
        """The board field whose stone the rules object to, to mark it."""
        field = self.error.field if self.error is not None else None
        if field is None or not field.startswith("bets."):
            return None
        index = int(field.split(".")[1])
        cells = list(self.board)
        return cells[index] if index < len(cells) else None

    def settled(self) -> dict[tuple[str, str], dict]:
        """Each bet of the previewed hand by its field: count, won and points."""
        result = self.result
        if result is None:
            return {}
        if self._settled[0] is not result:  # every board cell asks; settle once per entry
            bets = self.detail_after(result)["last_hand"]["bets"]
            self._settled = (result, {(b["symbol"], b["field"]): b for b in bets})
        return self._settled[1]

    def _notes(self, result: Game) -> list[str]:
        hand = self.detail_after(result)["last_hand"]
        notes = []
        for bet in hand["bets"]:
            where = _("{symbol} {field}").format(symbol=symbol_name(bet["symbol"]), field=field_name(bet["field"]))
            stone = stone_name(bet["stone"]) + (" " + _("on risk") if bet["risk"] else "")
            if bet["won"]:
                if bet["moved"] == bet["points"]:
                    line = _("{player}: {where} ({stone}) wins {points}.")
                elif bet["moved"]:
                    line = _("{player}: {where} ({stone}) wins {points}; the track stops at {top}, so it moves up {moved}.")
                else:
                    line = _("{player}: {where} ({stone}) wins {points}; the track is at {top} already and stays there.")
                notes.append(
                    line.format(
                        player=bet["player"], where=where, stone=stone, points=bet["points"], moved=bet["moved"], top=TRACK_TOP
                    )
                )
            else:
                line = _("{player}: {where} is wrong; the {stone} stone is lost.")
                notes.append(line.format(player=bet["player"], where=where, stone=stone_name(bet["stone"])))
        notes.extend(_("{player} gets all betting stones back.").format(player=p) for p in hand["refilled"])
        return notes


# --- view -------------------------------------------------------------------------------

CELL_H, LABEL_W = 44, 48
"""Board cells share the width left of the field labels, so the board fits any phone."""
CHIP_EDGE = (10, 7)
"""A player chip's border and padding together, across and down, whether the chip is picked
(a thicker border) or not: a tap moves no chip."""


def view(state: MembersOnlyEntry, on_save, on_cancel=None) -> widgets.EntryForm:
    """Stone picker, the board with count rows under it, and a keypad for the counts."""
    form = widgets.EntryForm(state, on_save, on_cancel)
    colours = {p: theme.side_color(i) for i, p in enumerate(state.players)}
    # Each chip as wide as its name, on as many lines as the names need (as the history's
    # filter chips): chips sharing one line's width broke a long name mid-word, and Flet has
    # no text that shrinks to fit.
    players = ft.Row([_player_chip(form, state, p, colours[p]) for p in state.players], wrap=True, spacing=6, run_spacing=6)
    def stone_button(s: str) -> ft.Control:
        return form.button(
            lambda: _("{stone} ({n} left)").format(stone=stone_name(s), n=state.stones_left(state.current, s)),
            f"mo-stone-{s}",
            partial(state.choose_stone, s),
            pressed=lambda: state.stone == s,
            enabled=lambda: state.stones_left(state.current, s) > 0,
            expand=True,
        )

    stones = ft.Row(
        [stone_button(s) for s in STONES]
        + [
            form.button(
                _("Risk"), "mo-risk", state.toggle_risk, pressed=lambda: state.risk, enabled=lambda: state.may_risk(state.current)
            )
        ],
        spacing=4,
    )
    bets_error = form.error_line(lambda: state.error_at("bets"), "mo-error-bets")
    mode = form.button(
        _("Enter shown and minus cards"),
        "mo-count-mode",
        lambda: state.set_count_mode(COUNTS if state.count_mode == SHOWN else SHOWN),
        pressed=lambda: state.count_mode == SHOWN,
    )
    body = [players, stones, bets_error, _board(form, state, colours), mode]
    return form.build(
        body, footer=[form.keypad(hide_when_idle=True)], subtitle=lambda: _("{player} starts").format(player=state.starter), pin_scores=True
    )


def _player_chip(form: widgets.EntryForm, state: MembersOnlyEntry, player: str, colour: str) -> ft.Control:
    name = ft.Text(player, size=14, weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER)
    stones = ft.Text(size=11, max_lines=1)
    box = ft.Container(
        content=ft.Column([name, stones], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        border_radius=ft.BorderRadius.all(8),
        on_click=form.intent(lambda: state.choose_player(player)),
        ink=True,
    )

    padding = {edge: ft.Padding.symmetric(horizontal=CHIP_EDGE[0] - edge, vertical=CHIP_EDGE[1] - edge) for edge in (1, 3)}

    def sync():
        on = state.current == player
        box.bgcolor = colour if on else ft.Colors.SURFACE_CONTAINER_HIGHEST
        edge = 3 if on else 1
        box.border = ft.Border.all(edge, colour)
        box.padding = padding[edge]
        name.color = ft.Colors.WHITE if on else None
        stones.color = ft.Colors.WHITE if on else None
        # A dot per single stone left, a diamond for the double.
        stones.value = "●" * state.stones_left(player, "single") + " ◆" * state.stones_left(player, "double")

    form.bind(sync)
    return widgets.tagged(box, f"mo-player-{player}", label=player, button=True)


def _board(form: widgets.EntryForm, state: MembersOnlyEntry, colours: dict[str, str]) -> ft.Control:
    header = ft.Row(
        [ft.Container(width=LABEL_W)]
        + [
            ft.Text(symbol_name(s), size=9, expand=True, text_align=ft.TextAlign.CENTER, weight=ft.FontWeight.W_600)
            for s in SYMBOLS
        ],
        spacing=3,
    )
    row_labels = {COUNTS: _("Count"), SHOWN: _("Shown"), MINUS: _("Minus")}
    # The counts sit right under the symbols, so they stay in view above the keypad.
    rows = [header] + [_count_row(form, state, row, row_labels[row]) for row in (COUNTS, SHOWN, MINUS)]
    rows.append(form.error_line(state.count_error, "mo-error-counts"))
    for field in FIELDS:
        label = ft.Column(
            [
                ft.Text(field.replace("<=", "≤").replace(">=", "≥"), size=14, weight=ft.FontWeight.BOLD),
                ft.Text(_("pays {n}").format(n=PAYOUTS[field]), size=9),
            ],
            spacing=0,
            width=LABEL_W,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        rows.append(ft.Row([label] + [_cell(form, state, s, field, colours) for s in SYMBOLS], spacing=3))
    return ft.Column(rows, spacing=3)


def _cell(form: widgets.EntryForm, state: MembersOnlyEntry, symbol: str, field: str, colours) -> ft.Control:
    who = ft.Text(size=15, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE)
    extra = ft.Text(size=10, color=ft.Colors.WHITE)
    box = ft.Container(
        content=ft.Column([who, extra], spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER),
        height=CELL_H,
        border_radius=ft.BorderRadius.all(6),
        on_click=form.intent(lambda: state.tap_field(symbol, field)),
        ink=True,
    )

    def sync():
        bet = state.board.get((symbol, field))
        settled = state.settled().get((symbol, field))
        if bet is None:
            who.value, extra.value = "", ""
            box.bgcolor = ft.Colors.SURFACE_CONTAINER_HIGHEST
            box.border = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)
            return
        who.value = state.initials[bet["player"]] + ("²" if bet["stone"] == "double" else "")
        marks = [_("R")] if bet["risk"] else []
        if settled is not None:
            marks.append(f"+{settled['moved']}" if settled["won"] else "✗")  # what the track gains
        extra.value = " ".join(marks)
        box.bgcolor = colours[bet["player"]]
        faulty = state.faulty_cell == (symbol, field)
        box.border = ft.Border.all(3, ft.Colors.ERROR) if faulty else None

    form.bind(sync)
    label = _("{symbol} {field}").format(symbol=symbol_name(symbol), field=field_name(field))
    return widgets.tagged(box, f"mo-cell-{symbol}-{field}", label=label, button=True, expand=True)


def _count_row(form: widgets.EntryForm, state: MembersOnlyEntry, row: str, title: str) -> ft.Control:
    def value(symbol):
        return lambda: "" if state.values[row][symbol] is None else str(state.values[row][symbol])

    def selected(symbol):
        return lambda: state.cursor == (row, symbol)

    slots = [
        form.slot(
            identifier=f"mo-{'count' if row == COUNTS else row}-{s}",
            label=_("{row} {symbol}").format(row=title, symbol=symbol_name(s)),
            text=value(s),
            selected=selected(s),
            on_tap=partial(state.select, row, s),
            strong=True,
            expand=True,
        )
        for s in SYMBOLS
    ]
    line = ft.Row([ft.Text(title, size=11, width=LABEL_W, weight=ft.FontWeight.BOLD)] + slots, spacing=3)

    def sync():
        line.visible = row in state.count_rows

    form.bind(sync)
    return line


STATE = MembersOnlyEntry
"""The form's plain-Python state (``companion.ui.round_entry.entry_state``)."""
