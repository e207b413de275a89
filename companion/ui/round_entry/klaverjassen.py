"""Klaverjassen deal entry: one team's card points, roem by taps, pit and verzaakt toggles.

The playing team's card points are selected from the start; typing them on the keypad
fills in the other team's as 162 minus (either team can be typed). A count the player
typed is never changed behind their back: when both teams' counts were typed (tables
often count both piles as a check) and they do not add up to 162, the form says so and
the player chooses which one is right. Roem is entered by
tapping what was melded (+20, +50, +100, +200, stuk) per team, so nobody adds up. Pit
gives the team all 162 card points at once. The preview says "nat" or "pit" as soon as
the numbers make it so.

Identifiers for browser tests (beside those of every form, ``companion.ui.round_entry``;
``<team>`` is the team's name, e.g. "Ann & Cy"):
``klaver-points-<team>`` card points (the playing team's is selected at the start;
the other team's fills in as 162 minus, unless typed too), ``klaver-roem-<team>-<20|50|100|200|stuk>``
add a meld (+200 only when four jacks are worth 200), ``klaver-roem-<team>-undo`` take
the last one back, ``klaver-pit-<team>`` and ``klaver-verzaakt-<team>`` toggles,
``klaver-playing-<team>`` who played this deal (preset from the deal),
``klaver-error-<team>`` the team's message, ``klaver-marks-<team>`` "NAT" / "PIT" as
soon as the entry makes it so, ``klaver-keep-<team>`` keep this team's count (shown only
while both typed counts do not add up to 162).
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Final, Literal

import flet as ft

from companion.i18n import _
from companion.rules.base import Game, RuleError
from companion.rules.klaverjassen import DEAL_POINTS, DealDetail, KlaverjassenDetail, FOUR_OF_A_KIND_ROEM, PIT_BONUS, RUN_ROEM, STUK_ROEM
from companion.ui.round_entry import widgets
from companion.ui.round_entry.state import EntryState, Keypad

STUK: Final = "stuk"
Meld = int | Literal["stuk"]
"""One tap of a roem button: the points of a meld, or the stuk."""


class KlaverjassenEntry(Keypad, EntryState):
    """One deal: card points, roem, pit and verzaakt per team, and who played."""

    def __init__(self, game: Game, index: int | None = None):
        super().__init__(game, index)
        self.teams: list[str] = list(game.sides)
        playing = self.before.next_round.playing
        assert playing is not None  # Klaverjassen names the team that must play every deal
        self.default_playing: str = playing
        self.dealer: str = self.before.next_round.dealer
        self.playing = self.default_playing
        self.card_points: dict[str, int | None] = dict.fromkeys(self.teams)
        self.typed_teams: set[str] = set()
        """Teams whose card points the player typed (the others' follow as 162 minus)."""
        self.roem: dict[str, list[Meld]] = {team: [] for team in self.teams}
        self.pit: str | None = None
        self.verzaakt: str | None = None
        self.cursor: str | None = self.playing
        if self.original is not None:
            self._prefill(self.original)

    def _prefill(self, entry: dict) -> None:
        self.playing = entry.get("playing") or self.default_playing
        for team, points in (entry.get("card_points") or {}).items():
            self.card_points[team] = points
        for team, roem in (entry.get("roem") or {}).items():
            self.roem[team] = [roem] if roem else []
        self.pit = entry.get("pit")
        self.verzaakt = entry.get("verzaakt")
        self.cursor = None

    @property
    def roem_buttons(self) -> list[Meld]:
        """The melds one tap adds; +200 only where four jacks are worth 200."""
        four_jacks = self.game.options["four_jacks"]
        values = sorted({*RUN_ROEM.values(), FOUR_OF_A_KIND_ROEM, four_jacks})
        return [*values, STUK]

    def layout(self) -> tuple:
        return (*super().layout(), tuple(self.teams), tuple(self.roem_buttons))

    # --- intents ----------------------------------------------------------------------

    def select(self, team: str) -> None:
        """Put the keypad on ``team``'s card points."""
        self.select_input(team)

    def typed(self, cursor: str) -> int | None:
        return self.card_points[cursor]

    def store_typed(self, cursor: str, value: int | None) -> None:
        if value is None:
            self.typed_teams.discard(cursor)
        else:
            self.typed_teams.add(cursor)
        self._set_points(cursor, value)

    def most_typed(self, cursor: str) -> int:
        return DEAL_POINTS

    def next(self) -> None:
        """Card points are done: the other team's follow from them."""
        self.select_input(None)

    def _set_points(self, team: str, value: int | None) -> None:
        """``team``'s card points; the other team's follow, unless the player typed them too."""
        self.card_points[team] = value
        other = self.other(team)
        if other not in self.typed_teams:
            # Never below 0, so a number over 162 is explained on the team that typed it.
            self.card_points[other] = None if value is None else max(DEAL_POINTS - value, 0)

    def keep_count(self, team: str) -> None:
        """Of two typed counts that do not add up, ``team``'s is right: the other's follows from it."""
        self.typed_teams = {team}
        self._set_points(team, self.card_points[team])

    def add_roem(self, team: str, meld: Meld) -> None:
        """One tap of a meld button: a run, four of a kind, four jacks or the stuk."""
        self.roem[team].append(meld)

    def undo_roem(self, team: str) -> None:
        if self.roem[team]:
            self.roem[team].pop()

    def toggle_pit(self, team: str) -> None:
        """Pit: the team took every trick, so it has all the card points."""
        if self.pit == team:
            self.pit = None
            return
        self.pit = team
        self.typed_teams = set()  # the pit gave these counts, not the player's typing
        self._set_points(team, DEAL_POINTS)
        self.cursor = None

    def toggle_verzaakt(self, team: str) -> None:
        self.verzaakt = None if self.verzaakt == team else team

    def choose_playing(self, team: str) -> None:
        """Override who played this deal (for houses where the chooser may pass)."""
        self.playing = team

    # --- read-outs --------------------------------------------------------------------

    def other(self, team: str) -> str:
        return self.teams[1 - self.teams.index(team)]

    @property
    def counts_disagree(self) -> bool:
        """Both teams' card points were typed and they do not add up to the deal's 162."""
        first, second = (self.card_points[team] for team in self.teams)
        return len(self.typed_teams) == 2 and first is not None and second is not None and first + second != DEAL_POINTS

    def _check(self) -> Game | RuleError | None:
        first, second = self.teams
        first_points, second_points = self.card_points[first], self.card_points[second]
        if self.counts_disagree and first_points is not None and second_points is not None:
            return RuleError(
                "{first} {first_points} and {second} {second_points} add up to {given}, not {total}: which count is right?",
                None,
                first=first,
                first_points=first_points,
                second=second,
                second_points=second_points,
                given=first_points + second_points,
                total=DEAL_POINTS,
            )
        return super()._check()

    def roem_total(self, team: str) -> int:
        return sum(STUK_ROEM if meld == STUK else meld for meld in self.roem[team])

    def entry(self) -> dict:
        entry: dict = {}
        if None not in self.card_points.values():
            entry["card_points"] = dict(self.card_points)
        roem = {team: self.roem_total(team) for team in self.teams if self.roem_total(team)}
        if roem:
            entry["roem"] = roem
        entry["pit"] = self.pit
        entry["verzaakt"] = self.verzaakt
        if self.playing != self.default_playing:
            entry["playing"] = self.playing
        return entry

    @property
    def missing(self) -> list[str]:
        # After a renege the deal may stop before the card points are known.
        if self.verzaakt is None and None in self.card_points.values():
            return [f"card_points.{self.teams[0]}"]
        return []

    def describe(self, field: str) -> str:
        return _("card points")

    @property
    def fields(self) -> list[str]:
        return [f"{part}.{team}" for team in self.teams for part in ("card_points", "roem")]

    def team_error(self, team: str) -> str | None:
        return self.error_at(f"card_points.{team}") or self.error_at(f"roem.{team}")

    def _deal(self, result: Game) -> DealDetail:
        at = self.index if self.index is not None else len(result.rounds) - 1
        detail: KlaverjassenDetail = result.detail
        return detail["deals"][at]

    def marks(self, team: str) -> list[str]:
        """Words to flag on the team's panel as soon as the entry makes them so: nat, pit."""
        result = self.result
        if result is None:
            return []
        deal = self._deal(result)
        marks = []
        if deal["nat"] and deal["playing"] == team:
            marks.append(_("nat"))
        if deal["pit"] == team and not deal["verzaakt"]:
            marks.append(_("pit"))
        return marks

    def _notes(self, result: Game) -> list[str]:
        deal = self._deal(result)
        notes = []
        if deal["verzaakt"]:
            notes.append(_("Verzaakt: {team} reneged and score nothing.").format(team=deal["verzaakt"]))
        elif deal["nat"]:
            notes.append(
                _("Nat: {team} did not score more than {other}.").format(
                    team=deal["playing"], other=self.other(deal["playing"])
                )
            )
        if deal["pit"] and not deal["verzaakt"]:
            if deal["bonus"][deal["pit"]]:
                notes.append(_("Pit: {team} took every trick, {bonus} extra.").format(team=deal["pit"], bonus=PIT_BONUS))
            else:
                notes.append(_("Pit: {team} took every trick.").format(team=deal["pit"]))
        return notes


# --- view -------------------------------------------------------------------------------


def view(state: KlaverjassenEntry, on_save, on_cancel=None) -> widgets.EntryForm:
    """Who plays, then one panel per team; the keypad shows while card points are selected."""
    form = widgets.EntryForm(state, on_save, on_cancel)
    def plays(team: str) -> Callable[[], bool]:
        return lambda: state.playing == team

    playing = ft.Row(
        [ft.Text(_("Plays:"))]
        + [
            form.button(
                team,
                f"klaver-playing-{team}",
                on_tap=partial(state.choose_playing, team),
                pressed=plays(team),
                expand=True,
            )
            for team in state.teams
        ],
        spacing=6,
    )
    panels = [_team_panel(form, state, team) for team in state.teams]
    footer = [_which_count(form, state), form.keypad(hide_when_idle=True)]
    return form.build([playing, *panels], footer=footer, subtitle=lambda: _("{dealer} deals").format(dealer=state.dealer))


def _kept_count_label(state: KlaverjassenEntry, team: str) -> str:
    return _("{team}: {points}").format(team=team, points=state.card_points[team])


def _which_count(form: widgets.EntryForm, state: KlaverjassenEntry) -> ft.Control:
    """When both typed counts do not add up to 162: one button per team, to keep its count."""
    buttons = [
        form.button(
            partial(_kept_count_label, state, team),
            f"klaver-keep-{team}",
            partial(state.keep_count, team),
            expand=True,
        )
        for team in state.teams
    ]
    row = ft.Row(buttons, spacing=6)

    def sync():
        row.visible = state.counts_disagree

    form.bind(sync)
    return row


def _team_panel(form: widgets.EntryForm, state: KlaverjassenEntry, team: str) -> ft.Control:
    def points_text():
        value = state.card_points[team]
        return "" if value is None else str(value)

    points = form.slot(
        identifier=f"klaver-points-{team}",
        label=_("Card points of {team}").format(team=team),
        text=points_text,
        selected=lambda: state.cursor == team,
        on_tap=lambda: state.select(team),
        width=76,
        strong=True,
    )
    roem_value = ft.Text(size=18, weight=ft.FontWeight.BOLD)
    roem_melds = ft.Text(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
    badge = ft.Container(
        content=ft.Text(_("plays"), size=12, color=ft.Colors.ON_PRIMARY),
        bgcolor=ft.Colors.PRIMARY,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=ft.BorderRadius.all(10),
    )

    marks = ft.Text(size=14, weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR)

    def sync():
        roem_value.value = str(state.roem_total(team))
        roem_melds.value = " + ".join(_("stuk") if m == STUK else str(m) for m in state.roem[team])
        badge.visible = state.playing == team
        marks.value = " ".join(m.upper() for m in state.marks(team))

    form.bind(sync)
    undo = ft.IconButton(
        icon=ft.Icons.UNDO,
        tooltip=_("Take back the last roem"),
        on_click=form.intent(lambda: state.undo_roem(team)),
    )
    melds = [
        form.button(
            _("stuk") if meld == STUK else f"+{meld}",
            f"klaver-roem-{team}-{meld}",
            on_tap=partial(state.add_roem, team, meld),
            expand=True,
        )
        for meld in state.roem_buttons
    ]
    flags = [
        form.button(_("Pit"), f"klaver-pit-{team}", lambda: state.toggle_pit(team), pressed=lambda: state.pit == team),
        form.button(
            _("Verzaakt"),
            f"klaver-verzaakt-{team}",
            lambda: state.toggle_verzaakt(team),
            pressed=lambda: state.verzaakt == team,
        ),
    ]
    title = ft.Row(
        [
            ft.Text(team, size=18, weight=ft.FontWeight.BOLD, expand=True),
            widgets.tagged(marks, f"klaver-marks-{team}"),
            badge,
            points,
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    roem = ft.Column(
        [ft.Row([ft.Text(_("Roem")), roem_value], spacing=6), roem_melds],
        spacing=0,
        expand=True,
    )
    return ft.Container(
        content=ft.Column(
            [
                title,
                ft.Row(melds, spacing=4),
                ft.Row([roem, widgets.tagged(undo, f"klaver-roem-{team}-undo"), *flags], spacing=4),
                form.error_line(lambda: state.team_error(team), f"klaver-error-{team}"),
            ],
            spacing=6,
        ),
        padding=ft.Padding.all(8),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=ft.BorderRadius.all(10),
    )


STATE = KlaverjassenEntry
"""The form's plain-Python state (``companion.ui.round_entry.entry_state``)."""
