"""Scoreboard of one game: totals, leader, progress, who deals, the rounds, a chart.

The state reads the game from the store and turns the rules' read-outs into what the
screen shows; it also carries the changes made from here (a new or edited round, undo,
abandon) to the store, and turns the store's refusals into a message to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import flet as ft

from companion.i18n import _, language, pgettext
from companion.rules import RuleError
from companion.share.feed import derived
from companion.store import GameRecord, StaleError, StoreError
from companion.store.errors import UnreachableError
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.chart import ScoreChart
from companion.ui.format import join_names, points, when
from companion.ui.games import Board, Track, look
from companion.ui.routes import Page, Route
from companion.ui.share_panel import share_action, show_share_action
from companion.ui.theme import side_color
from companion.ui.together import update_together

if TYPE_CHECKING:
    from companion.ui.round_entry import RoundForm

SHOWN_ROUNDS = 10
"""Rounds the scoreboard lists until a player asks for all of them: a page's size on the
server (and every update's) stays the same however many rounds it has watched."""


@dataclass(frozen=True)
class SideRow:
    """One side's line at the top: total in large type, leader mark, share of the target."""

    name: str
    total: int
    leading: bool
    progress: float | None
    note: str
    color: str
    tracks: tuple[Track, ...] = ()
    """Marker tracks the game keeps per side (``Board.tracks``)."""


@dataclass(frozen=True)
class RoundRow:
    index: int
    number: int
    scores: tuple[int, ...]
    running: tuple[int, ...]
    note: str


@dataclass(frozen=True)
class Banner:
    title: str
    text: str


class ScoreboardState(widgets.Refusals):
    def __init__(
        self, store: GameStore, game_id: int, read_only: bool = False, now: Callable[[], datetime] = lambda: datetime.now().astimezone()
    ):
        self._store = store
        self._now = now
        self.game_id = game_id
        self.read_only = read_only
        self.record: GameRecord | None = None
        self.error: str | None = None
        self.stale = False
        self.undone: list[dict] = []
        """The rounds Undo took back, the last one last: Redo puts them back in turn (a
        double tap on Undo takes back two rounds, and both can be put back)."""
        self.just_saved = False
        """The record is what the store answered this session's own change with, a moment
        ago: showing the board after it needs no read (the App clears it when shown)."""
        self._database: str | None = None
        """The store's address, as the derived read-outs are kept by (``_shared``): written out once."""

    # --- loading and changes ------------------------------------------------------------

    def load(self) -> bool:
        """Read the game as the store has it now (a message instead when it cannot). With
        nothing read yet and the database away for a moment, there is nothing to show the
        message on: the page then says it with Try again (``App._built``)."""
        try:
            self.record = self._store.open_game(self.game_id)
        except StoreError as err:
            if self.record is None and isinstance(err, UnreachableError):
                raise
            self.refused(err)
            return False
        self.error = None
        return True

    def follow(self, record) -> None:
        """Show ``record``, the game after a change saved elsewhere (read once for every session)."""
        self.record, self.error, self.stale = record, None, False

    @property
    def loaded(self) -> GameRecord:
        """The game as last read: a screen shows one only once ``load`` found it."""
        if self.record is None:
            raise LookupError("the game is not loaded")
        return self.record

    @property
    def game(self):
        return self.loaded.game

    def layout(self) -> tuple:
        """What decides which parts the scoreboard has: while it stays the same, a change
        only changes the parts' contents (``GameScreen.follow``)."""
        if self.record is None:
            return (None, self.error)
        return (
            self.status, self.can_enter, self.can_undo, self.can_edit, self.banner, bool(self.game.rounds_played), self.error,
            self.game.over, self.record.note, self.record.location,
        )

    def _change(self, call, *args) -> bool:
        """Run one store change; on refusal keep its message, and reload when the game moved on."""
        self.stale = False
        try:
            self.record = call(self.game_id, *args, expected_version=self.loaded.version)
        except StaleError as err:
            self.load()
            self.error, self.stale = err.message, True
            return False
        except (RuleError, StoreError) as err:
            self.refused(err)
            return False
        self.error = None
        self.just_saved = True
        return True

    def save(self, entry: dict, index: int | None = None) -> bool:
        """Store a new round (index None) or a corrected past round. Refused because the game
        moved on, it counts as saved when the game now holds the round as entered: the save
        before may have reached the database as its connection dropped (the page was told it
        failed), or another scorer entered the same round; saving it again would count it twice."""
        self.undone = []
        if index is None:
            saved = self._change(self._store.add_round, entry)
        else:
            saved = self._change(self._store.edit_round, index, entry)
        if not saved and self.stale and self._holds(entry, index):
            self.error, self.stale, self.just_saved = None, False, True
            return True
        return saved

    def _holds(self, entry: dict, index: int | None) -> bool:
        """Whether the game as read holds ``entry`` as its last round (index None) or at ``index``."""
        rounds = self.game.rounds
        if index is None:
            return bool(rounds) and rounds[-1] == entry
        return index < len(rounds) and rounds[index] == entry

    def undo(self) -> bool:
        """Take back the last round; it is kept in ``undone`` so it can be put back."""
        last = self.game.rounds[-1] if self.game.rounds else None
        if not self._change(self._store.undo_round):
            return False
        if last is not None:
            self.undone.append(last)
        return True

    def redo(self) -> bool:
        """Put back the round Undo took back last (kept for another try if it cannot be)."""
        if not self.undone:
            return False
        entry = self.undone.pop()
        if self._change(self._store.add_round, entry):
            return True
        self.undone.append(entry)
        return False

    def play_again(self) -> int | None:
        """A new game with the same ruleset, seats, options and teams; its id."""
        game = self.game
        try:
            record = self._store.create_game(game.ruleset.id, list(game.players), dict(game.options), game.teams)
        except (RuleError, StoreError) as err:
            self.refused(err)
            return None
        return record.id

    def abandon(self) -> bool:
        try:
            self.record = self._store.abandon(self.game_id)
        except StoreError as err:
            self.refused(err)
            return False
        return True

    def save_details(self, note: str, place: str) -> bool:
        """Keep the game's note and place (the store refuses what it cannot keep, and says why)."""
        try:
            self.record = self._store.set_details(self.game_id, note, place)
        except StoreError as err:
            self.refused(err)
            return False
        self.error = None
        return True

    def reopen(self) -> bool:
        """Take back an abandon: the game goes on where it stopped (abandoning keeps its rounds)."""
        return self._change(self._store.reopen)

    # --- what the screen shows ----------------------------------------------------------

    @property
    def dates(self) -> str:
        """When the game started, and when it ended once it has."""
        now = self._now()
        text = _("Started {when}").format(when=when(self.loaded.created_at, now))
        if self.finished and self.loaded.finished_at:
            text += " · " + _("finished {when}").format(when=when(self.loaded.finished_at, now))
        return text

    @property
    def details(self) -> list[str]:
        """The game's place and note, as far as they are set."""
        return [t for t in (self.loaded.location, self.loaded.note) if t]

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end (not abandoned, not still going)."""
        return self.status == "finished"

    @property
    def bgstats_link(self) -> str | None:
        """The link that logs the finished game in BG Stats; None before its end. Built
        when asked for (a tap): it writes the whole play out."""
        if not self.finished:
            return None
        from companion.bgstats import create_play_link

        return create_play_link(self.loaded)

    @property
    def title(self) -> str:
        return self.game.ruleset.name

    @property
    def status(self) -> str:
        return self.loaded.status

    @property
    def can_enter(self) -> bool:
        return not self.read_only and self.status == "in_progress"

    @property
    def can_undo(self) -> bool:
        return not self.read_only and self.status != "abandoned" and bool(self.game.rounds_played)

    @property
    def can_edit(self) -> bool:
        return not self.read_only and self.status != "abandoned"

    @property
    def can_reopen(self) -> bool:
        """An abandoned game is seen in the history, whose scoreboards change nothing else:
        taking back the abandon is the one change offered there."""
        return self.status == "abandoned"

    @property
    def leaders(self) -> list[str]:
        """The winners once the game is over; before, the sides sharing first place."""
        if self.game.over:
            return self.game.winners
        if not self.game.rounds_played:
            return []
        standings = self.game.standings
        best = self.game.totals[standings[0]]
        return [s for s in standings if self.game.totals[s] == best]

    @property
    def board(self) -> Board:
        """How this game's scoreboard reads (its lines that depend on the game)."""
        return look(self.game.ruleset.id).board

    @property
    def target(self) -> int | None:
        return self.board.target(self.game)

    def sides(self) -> list[SideRow]:
        return list(self._shared("sides", self._sides))

    def _sides(self) -> list[SideRow]:
        game = self.game
        totals = game.totals
        leaders = set(self.leaders)
        target = self.target
        rows = []
        for i, side in enumerate(game.sides):
            progress = None
            if target:
                progress = max(0.0, min(1.0, totals[side] / target))
            rows.append(
                SideRow(
                    name=side,
                    total=totals[side],
                    leading=side in leaders,
                    progress=progress,
                    note=self._side_note(side),
                    color=side_color(i),
                    tracks=self.board.tracks(game, side),
                )
            )
        return rows

    def _side_note(self, side: str) -> str:
        game = self.game
        note = self.board.side_note(game, side)
        if note:
            return note
        if game.teams and not all(member in side for member in game.teams[side]):
            return join_names(list(game.teams[side]))  # a team with a name of its own
        return ""

    def _shared(self, name: str, derive: Callable[[], Any]) -> Any:
        """``derive()`` for the record shown, derived once for every session that shows that
        record in this language (companion.share.feed.derived): read only."""
        if self._database is None:
            self._database = str(self._store.url)
        return derived.get(self._database, self.loaded, language(), name, derive)

    @property
    def progress(self) -> str:
        """How far the game is: the target, rounds left, or what ends it."""
        if self.status != "in_progress":
            return ""
        return self._shared("progress", lambda: self.board.progress(self.game))

    @property
    def next_up(self) -> str:
        """'Round 4 · Bob deals' plus the playing team where the game names one."""
        if self.status != "in_progress":
            return ""
        return self._shared("next_up", self._next_up)

    def _next_up(self) -> str:
        nxt = self.game.next_round
        text = _("Round {number} · {dealer} deals").format(number=nxt.number, dealer=nxt.dealer)
        if nxt.playing:
            text += " · " + _("{team} play").format(team=nxt.playing)
        return text

    def rounds(self) -> list[RoundRow]:
        return list(self._shared("rounds", self._rounds))

    def _rounds(self) -> list[RoundRow]:
        game = self.game
        notes = self.board.round_notes(game)
        running = dict.fromkeys(game.sides, 0)
        rows = []
        for i, scores in enumerate(game.round_scores):
            for side in game.sides:
                running[side] += scores.get(side, 0)
            rows.append(
                RoundRow(
                    index=i,
                    number=i + 1,
                    scores=tuple(scores.get(side, 0) for side in game.sides),
                    running=tuple(running[side] for side in game.sides),
                    note=notes[i] if i < len(notes) else "",
                )
            )
        return rows

    def chart(self) -> dict[str, list[int]]:
        """Running total of each side after every round, starting from 0 (read only)."""
        return self._shared("chart", self._chart)

    def _chart(self) -> dict[str, list[int]]:
        game = self.game
        series = {side: [0] for side in game.sides}
        for scores in game.round_scores:
            for side in game.sides:
                series[side].append(series[side][-1] + scores.get(side, 0))
        return series

    @property
    def banner(self) -> Banner | None:
        game = self.game
        if self.status == "abandoned":
            return Banner(_("Abandoned"), _("This game was stopped before its end."))
        if not game.over:
            return None
        winners = game.winners
        total = points(game.totals[winners[0]]) if winners else ""
        if len(winners) > 1:
            return Banner(
                _("Shared win!"),
                _("{names} share the win with {points} points.").format(names=join_names(winners), points=total),
            )
        title = _("{team} win!") if game.teams else _("{name} wins!")
        return Banner(
            title.format(team=winners[0], name=winners[0]),
            _("{points} points after {rounds} rounds.").format(points=total, rounds=game.rounds_played),
        )


# --- view -----------------------------------------------------------------------------------


class SideParts:
    """One side's line at the top, built once and updated in place."""

    def __init__(self, row: SideRow, large: bool):
        self.total = ft.Text(size=34 if large else 28, weight=ft.FontWeight.BOLD)
        self.pill = widgets.pill("", ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY)
        label = self.pill.content
        if not isinstance(label, ft.Text):
            raise TypeError("a pill shows a Text")
        self.pill_label = label
        self.note = ft.Text(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        self.tracks = [ft.Text(size=11) for _ in row.tracks]
        self.progress = (
            ft.ProgressBar(color=row.color, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, border_radius=4, height=6)
            if row.progress is not None
            else None
        )
        name_line: list[ft.Control] = [
            ft.Container(width=10, height=10, bgcolor=row.color, border_radius=5),
            ft.Text(row.name, size=17, weight=ft.FontWeight.W_600, expand=True),
        ]
        left: list[ft.Control] = [widgets.frozen(ft.Row(name_line, spacing=8)), self.note]
        if self.tracks:
            left.append(ft.Row([*self.tracks], wrap=True, spacing=10, run_spacing=0))
        if self.progress is not None:
            left.append(self.progress)
        self.box = ft.Container(
            ft.Row(
                [
                    ft.Column(left, spacing=6, expand=True),
                    # the pill under the total, so the name keeps the line's width
                    ft.Column([self.total, self.pill], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.END),
                ],
                spacing=12,
            ),
            padding=ft.Padding.symmetric(horizontal=16, vertical=10),
            border_radius=12,
        )
        self.control = widgets.tagged(self.box, f"total-{row.name}")

    def show(self, row: SideRow, over: bool, played: bool) -> None:
        self.total.value = points(row.total)
        self.total.color = ft.Colors.PRIMARY if row.leading else ft.Colors.ON_SURFACE
        self.pill.visible = row.leading
        self.pill_label.value = _("Winner") if over else _("Leads")
        self.note.value, self.note.visible = row.note, bool(row.note)
        for text, (symbol, value, counts) in zip(self.tracks, row.tracks):
            text.value = f"{symbol} {value}"
            text.weight = ft.FontWeight.BOLD if counts else None
            text.color = ft.Colors.PRIMARY if counts else ft.Colors.ON_SURFACE_VARIANT
        if self.progress is not None:
            self.progress.value = row.progress
        self.box.bgcolor = ft.Colors.PRIMARY_CONTAINER if row.leading and played else None
        self.control.label = f"{row.name} {row.total}"


class RoundRowParts:
    """One round's row of the rounds' table. When a new round scrolls the oldest listed one
    out, its row is filled in again for the new round, not built anew: Flet walks every
    field of a new control (a row has hundreds) for every device at every round, while a
    row filled in again sends only its new words."""

    def __init__(self, row: RoundRow, on_tap: Callable[[int], None] | None):
        self.index = row.index
        self.noted = bool(row.note)
        """Whether the row has a note under its scores (a row is refilled only with a row like it)."""
        self.number = ft.Text(width=28, color=ft.Colors.ON_SURFACE_VARIANT)
        # the running total under the points, in the same Text: one control where a column of two was three
        self.running = [ft.TextSpan(style=ft.TextStyle(size=11, color=ft.Colors.ON_SURFACE_VARIANT, weight=ft.FontWeight.NORMAL)) for _ in row.scores]
        self.scores = [ft.Text(weight=ft.FontWeight.W_600, text_align=ft.TextAlign.RIGHT, expand=True, spans=[span]) for span in self.running]
        editable = on_tap is not None
        line = ft.Row([self.number, *self.scores, *([ft.Icon(ft.Icons.EDIT, size=16, color=ft.Colors.OUTLINE)] if editable else [])], spacing=6)
        self.note = ft.Text(size=11, color=ft.Colors.TERTIARY)
        self.control = widgets.tagged(
            ft.Container(
                ft.Column([line, self.note], spacing=2) if self.noted else line,
                padding=ft.Padding.symmetric(horizontal=12, vertical=6),
                on_click=(lambda _event=None: on_tap(self.index)) if on_tap is not None else None,
                ink=editable,
                border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            ),
            "",
            settled=True,  # the table's update does not compare it: a row filled in again is sent on its own (BoardParts.parts)
            button=editable,
        )
        self.fill(row)

    def fill(self, row: RoundRow) -> None:
        """Show ``row`` (a row like this one's: as many scores, a note or none)."""
        self.index = row.index
        self.number.value = str(row.number)
        for text, span, score, running in zip(self.scores, self.running, row.scores, row.running):
            text.value = points(score)
            span.text = "\n" + points(running)
        self.note.value = row.note
        self.control.identifier = f"round-{row.number}"
        self.control.label = _("Round {number}").format(number=row.number)


UNSEEN = 0.005
"""An opacity Flutter still draws at (1 of 255; at 0 it draws nothing) and no eye sees (1% showed
the lines, faintly, on a light screen)."""


def drawn_before(sides: list[str]) -> ft.Control:
    """What the board shows for the first time later in the game, drawn under "No rounds yet"
    where no one sees it (``UNSEEN``), out of the layout, of the taps and of the screen
    reader's tree: round 1's row and the chart's lines, round 11's Show all button, and the
    game's end (its banner, the Winner pill, Send to BG Stats). A browser readies the code
    and the graphics programs that draw a thing the first time it draws it, and with a table's
    devices that was the same save on every device at once. With ten viewers on this machine
    round 1 reached the last one's screen after 1.3 s, later rounds after about 0.25 s; drawn
    before, after about 0.72 s (docs/sharing.md, "Round 1 drawn before"). Ten browsers among
    100 devices drew the game's end after 1.5 to 2.0 s in games of 30 rounds; drawn before,
    after 0.66 and 0.91 s (docs/sharing.md, "The game's end drawn before")."""
    zeros = (0,) * len(sides)
    row = RoundRowParts(RoundRow(0, 1, zeros, zeros, ""), None)
    chart = ScoreChart({side: [0, i + 1] for i, side in enumerate(sides)}, height=80)
    banner = EndBanner()
    banner.show(Banner(sides[0], sides[-1]), won=True)  # in the banner's lettering: the words do not matter
    for control in (row.control, chart.control, banner.control):
        control.identifier = None  # not the board's own
    drawn = ft.Column(
        [
            show_all_button(SHOWN_ROUNDS + 1),
            ft.Card(row.control, margin=0, clip_behavior=ft.ClipBehavior.ANTI_ALIAS),
            chart.control,
            banner.control,
            widgets.pill(_("Winner"), ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY),
            bgstats_button(),
        ],
        spacing=4,
    )
    return ft.Container(ft.Semantics(content=drawn, exclude_semantics=True), left=0, top=0, right=0, opacity=UNSEEN, ignore_interactions=True)


def show_all_button(rounds: int, on_click: Callable[[], None] | None = None) -> ft.TextButton:
    """The button that lists every round of a game with ``rounds`` rounds (the board lists the
    last SHOWN_ROUNDS)."""
    return ft.TextButton(show_all_label(rounds), icon=ft.Icons.UNFOLD_MORE, on_click=on_click)


def show_all_label(rounds: int) -> str:
    return _("Show all {count} rounds").format(count=rounds)


def bgstats_button(on_click: Callable[[], None] | None = None) -> ft.OutlinedButton:
    """The button that logs a finished game in BG Stats (``ScoreboardState.bgstats_link``)."""
    return ft.OutlinedButton(_("Send to BG Stats"), icon=ft.Icons.SEND, on_click=on_click)


class EndBanner:
    """The banner over the totals at the game's end (who won, or that it was abandoned),
    built hidden with the board and filled in when the game ends: the last round then sends
    its words, not its controls. Flet walks every field of a control that comes onto a page,
    which made the server's part of the game's last round about twice a normal round's for
    every device that follows it (docs/sharing.md, "The game's end drawn before")."""

    def __init__(self) -> None:
        self.icon = ft.Icon(ft.Icons.EMOJI_EVENTS, size=40, color=ft.Colors.ON_PRIMARY_CONTAINER)
        self.title = ft.Text(size=24, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY_CONTAINER)
        self.text = ft.Text(color=ft.Colors.ON_PRIMARY_CONTAINER)
        self.box = ft.Container(
            ft.Row([self.icon, ft.Column([self.title, self.text], spacing=2, expand=True)], spacing=16),
            border_radius=16,
            padding=16,
        )
        self.control = widgets.tagged(self.box, "winner-banner", live_region=True)

    def show(self, banner: Banner | None, won: bool) -> None:
        """Show ``banner`` (hidden when None): a trophy on the primary colour for a game won."""
        self.control.visible = banner is not None
        if banner is not None:
            self.title.value, self.text.value = banner.title, banner.text
            self.icon.icon = ft.Icons.EMOJI_EVENTS if won else ft.Icons.STOP_CIRCLE
            self.box.bgcolor = ft.Colors.PRIMARY_CONTAINER if won else ft.Colors.SURFACE_CONTAINER_HIGHEST


class BoardParts:
    """The parts of a shown scoreboard that a change of its game updates in place: the
    totals and leader, what comes next, the Enter round button, the rounds' rows and the
    chart. A page that keeps its controls never loses a tap to an update, and only what
    changed goes to the browser."""

    def __init__(self, state: ScoreboardState, continuing: Callable[[], bool] = lambda: False):
        self._continuing = continuing
        """Whether a round is half entered on this device (kept as a draft)."""
        game = state.game
        rows = state.sides()
        self.sides = [SideParts(row, large=len(game.sides) <= 4) for row in rows]
        self.totals = ft.Card(ft.Container(ft.Column([p.control for p in self.sides], spacing=4), padding=6), margin=0)
        self.lines = ft.Column(spacing=2)
        self.next_up = widgets.tagged(self.lines, "next-up")
        self.enter_button: ft.FilledButton | None = None
        self.table: ft.Column | None = None
        self.rounds_table: ft.Column | None = None
        """``table`` in its card, under the button that lists every round (set with ``table``)."""
        self.row_control: Callable[[RoundRow], RoundRowParts] | None = None
        """How ``table`` builds one round's row (set with ``table``, when the game has rounds)."""
        self.all_rounds = False
        """Whether the player asked for every round (else only the last SHOWN_ROUNDS are listed)."""
        self.show_all: ft.TextButton | None = None
        """The button that lists every round."""
        self.show_all_box: ft.Semantics | None = None
        """``show_all`` as tagged, shown when some rounds are not listed (the wrapper hides:
        a Semantics around a hidden control is drawn as an error)."""
        self.chart: ScoreChart | None = None
        self.rounds_section: ft.Column | None = None
        """The rounds' table and the chart under their headings, hidden while there are no rounds."""
        self.played_list = ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.played = widgets.Deferred(self.played_list)
        """What was played: ``rounds_section``, or "No rounds yet" before round 1. Round 1
        sends it after the top (``GameScreen.render``)."""
        self.banner = EndBanner()
        self._shown: list[tuple[RoundRow, RoundRowParts]] = []
        self.refilled: list[ft.Control] = []
        """The rows the last ``show_rounds`` filled in again, to be sent on their own (``parts``)."""
        self._show_top(state, rows)

    @property
    def parts(self) -> list[list[ft.Control]]:
        """The controls ``show`` changes, in the messages they go in (``update_together``):
        sent on their own, the rest of the page is not compared again for every device at
        every change. The top of the board goes first (the totals, what comes next, the Enter
        round button), drawn in a small frame of its own the moment it arrives; the rounds'
        table with its Show all button, the rows filled in again and the chart go after it,
        drawn together in the next (docs/sharing.md, "The top of the board first")."""
        table = [self.rounds_table] if self.rounds_table is not None else []
        chart = [self.chart.chart] if self.chart is not None else []
        enter = [self.enter_button] if self.enter_button is not None else []
        below = [*table, *self.refilled, *chart]
        return [[self.totals, self.next_up, *enter], *([below] if below else [])]

    def show(self, state: ScoreboardState, refill: bool = False) -> None:
        """Show the game ``state`` has now (its layout unchanged since these parts were built);
        ``refill``: see ``show_rounds``."""
        self._show_top(state, state.sides())
        if self.enter_button is not None:
            self.enter_button.content = self.enter_label
        if self.table is not None:
            self.show_rounds(state.rounds(), refill)
        if self.chart is not None:
            self.chart.show(state.chart())

    def _show_top(self, state: ScoreboardState, rows: list[SideRow]) -> None:
        game = state.game
        for parts, row in zip(self.sides, rows):
            parts.show(row, game.over, bool(game.rounds_played))
        lines = [t for t in (state.progress, state.next_up) if t]
        shown = [t for t in self.lines.controls if isinstance(t, ft.Text)]
        if len(shown) == len(lines):  # the same lines, their words set in place
            for text, line in zip(shown, lines):
                text.value = line
        else:
            self.lines.controls = [ft.Text(t, color=ft.Colors.ON_SURFACE_VARIANT, size=13) for t in lines]
        self.next_up.visible = bool(lines)
        label = _("Continue round {number}") if self._continuing() else _("Enter round {number}")
        self.enter_label = label.format(number=game.next_round.number) if state.can_enter else ""

    def show_rounds(self, rounds: list[RoundRow], refill: bool = False) -> None:
        """The rounds' rows, the last SHOWN_ROUNDS unless all were asked for: those
        unchanged stay, the changed and new ones are built, those scrolled out go.
        ``refill``: the rows that go are filled in again for the new ones (``refilled``),
        for a caller that sends those rows itself (a row is isolated: an update of the
        page or the table does not send what changed in it)."""
        if self.table is None or self.row_control is None or self.show_all is None or self.show_all_box is None:
            raise LookupError("the rounds' table is not built")
        listed = rounds if self.all_rounds else rounds[-SHOWN_ROUNDS:]
        first = listed[0].index if listed else 0
        kept = [shown for shown in self._shown if shown[0].index >= first]
        same = 0
        while same < min(len(listed), len(kept)) and listed[same] == kept[same][0]:
            same += 1
        spare = [parts for row, parts in self._shown if row.index < first] + [parts for _row, parts in kept[same:]] if refill else []
        self.refilled = []
        self._shown = kept[:same] + [(row, self._row(row, spare)) for row in listed[same:]]
        self.table.controls[1:] = [parts.control for _row, parts in self._shown]  # the header stays
        hidden = len(rounds) - len(listed)
        self.show_all_box.visible = hidden > 0
        self.show_all.content = show_all_label(len(rounds))

    def _row(self, row: RoundRow, spare: list[RoundRowParts]) -> RoundRowParts:
        """The row that shows ``row``: a spare one like it filled in again, else a new one."""
        for parts in spare:
            if parts.noted == bool(row.note):
                spare.remove(parts)
                parts.fill(row)
                self.refilled.append(parts.control)
                return parts
        if self.row_control is None:
            raise LookupError("the rounds' table is not built")
        return self.row_control(row)


def body_column(root: ft.Control | None) -> ft.Column:
    """The column that lists a body's sections in what ``widgets.constrained`` built."""
    row = root if isinstance(root, ft.ResponsiveRow) else None
    box = row.controls[0] if row is not None and row.controls else None
    column = box.content if isinstance(box, ft.Container) else None
    if not isinstance(column, ft.Column):
        raise TypeError("a body built by widgets.constrained is a column in a box in a row")
    return column


Shown = TypeVar("Shown", bound=ft.Control)


class GameBar:
    """The game page's app bar. Its buttons stay on the page while the page switches between
    the scoreboard and a round's form, shown or hidden there, and the back arrow and the title
    change in place: Flet walks every field of a control that comes onto a page or leaves it,
    some 1,700 Python calls for an icon button, which every save and Enter round did for
    five of them."""

    def __init__(self, app, view: ft.View, board_route: str, cancel: Callable[[], None]):
        self._app = app
        self._back = ft.IconButton(ft.Icons.ARROW_BACK)
        self._leading = widgets.tagged(self._back, "back")
        self._to_board, self._cancel = (lambda: app.back()), (lambda: cancel())
        self._share = share_action(app)
        self._board_actions = [
            self._share,
            widgets.tagged(
                ft.IconButton(ft.Icons.MENU_BOOK, tooltip=_("Rules of this game"), on_click=lambda: app.go(f"{board_route}/rules")),
                "game-rules",
            ),
            widgets.tagged(
                ft.IconButton(ft.Icons.GAVEL, tooltip=_("Referee: settle a dispute"), on_click=lambda: app.go(f"{board_route}/referee")),
                "game-referee",
            ),
        ]
        self._theme = widgets.theme_switch(app)
        bar = widgets.app_bar(view)
        bar.leading = self._leading
        bar.actions = [*self._board_actions, self._theme]

    def board(self) -> None:
        """The scoreboard's: back one page, the share, rules and referee buttons (no theme
        switch: the game's name needs the room on a phone)."""
        self._leading.identifier, self._back.tooltip, self._back.on_click = "back", _("Back"), self._to_board
        for action in self._board_actions:
            action.visible = True
        show_share_action(self._app, self._share, only_when_shared=True)
        self._theme.visible = False

    def form(self) -> None:
        """A round's form: back to the scoreboard (asking about the draft), the theme switch."""
        self._leading.identifier, self._back.tooltip, self._back.on_click = "entry-back", _("Back to the scoreboard"), self._cancel
        for action in self._board_actions:
            action.visible = False
        self._theme.visible = True


class GameScreen(widgets.HearsTheDatabase):
    """One page per game that shows either the scoreboard or a round-entry form.

    The form shows the session's draft of the round (companion.ui.round_entry.drafts):
    ``entry-notice`` says what happened to it meanwhile, with ``entry-discard``; leaving a
    draft with something entered asks ``leave-keep`` or ``leave-discard``.

    Entering and saving a round swaps the page's content in place instead of pushing and
    popping a page: Flutter then redraws only what changed, and saving shows the updated
    scoreboard at once rather than after a page transition.
    """

    def __init__(self, app, state: ScoreboardState, route: str):
        self.app = app
        self.state = state
        self.entry_index: int | None = None
        self.entry_error = ft.Container(visible=False)
        self.view = widgets.screen(app, route, _("Scoreboard"), [])
        self._bar = GameBar(app, self.view, Route(Page.GAME, game_id=state.game_id).path, self._cancel)
        self._board: BoardParts | None = None
        """The scoreboard's controls that a change updates in place."""
        self._board_root: widgets.Stowed | None = None
        """The scoreboard's body: kept, hidden, under a round-entry form, so that saving
        shows it again with only what the round changed, not a page built anew. Hidden, Flet
        does not compare it when the page is updated under the form (Enter round)."""
        self._editable: bool | None = None
        """Whether the kept board's rows were built to be tapped for a correction (``render``)."""
        self._kept: dict[tuple, ft.Control] = {}
        """The body's other controls on the page, by what they show (``render``)."""
        self._layout: tuple | None = None
        self._dates = ft.Text()
        """When the game was played, in the body's details (``_details``)."""
        self._next_round: RoundForm | None = None
        """The form the last next round was entered in: kept on the page, hidden, to show
        the round after it (``RoundForm.show``)."""
        self._in_place = False
        """Whether the board was last shown again in place (``show_board``), its changes
        all in its parts (``send``)."""
        self._rest_unsent = False
        """Whether what a followed change left for a later turn was not sent (the page had
        left the board): the board is then compared whole when it shows again."""

    def _hidden_forms(self) -> list[ft.Control]:
        """What stays on the page under the scoreboard: the next round's form, hidden."""
        if self._next_round is None:
            return []
        self._next_round.control.visible = False
        return [self._next_round.control]

    def _lay_out_board(self, board_root: widgets.Stowed) -> None:
        """The page shows the scoreboard's body, with the next round's form hidden under it."""
        board_root.visible = True
        self.view.controls = [board_root, *self._hidden_forms()]

    def show_board(self, route: str) -> None:
        self.view.route = route
        self.view.scroll = ft.ScrollMode.AUTO
        self.view.padding = 0
        self._bar.board()
        if self._board is not None and self._board_root is not None and self.state.layout() == self._layout:
            widgets.set_title(self.view, self.state.title)  # the form's title goes
            self._lay_out_board(self._board_root)
            self._board.show(self.state, refill=True)
            self._in_place = True
        else:
            self.render()

    def send(self, page: ft.Page) -> None:
        """Send the page's changes to the browser, in one message. After the board was shown
        again in place (a round saved, a form left), the page is compared with the board
        held, and the board's parts a change touches (``BoardParts.parts``) with it: not
        the board's other controls again (docs/performance.md, "A round saved on this
        device"). Else the whole page is compared."""
        board, root = self._board, self._board_root
        if self._rest_unsent or not (self._in_place and self.shows_board and board is not None and root is not None):
            page.update(self.view)
            if self.shows_board:  # the board went whole, with what was left unsent
                self._rest_unsent = False
            return
        with widgets.held([root]):
            update_together(page, [self.view, *(control for group in board.parts for control in group)])

    def rest_unsent(self) -> None:
        """What a followed change left for a later turn was not sent: the page had left the
        board (``App.follow``)."""
        self._rest_unsent = True

    def show_entry(self, route: str, index: int | None) -> None:
        """The form for the next round (index None) or for correcting round ``index``: the
        draft kept from an earlier visit, if any (companion.ui.round_entry.drafts). The next
        round shows in the form the last one was entered in, when it is built for it."""
        from companion.ui.round_entry import RoundForm

        s = self.state
        self.entry_index = index
        self._in_place = False
        draft = self.app.drafts.open(s.game_id, s.game, index, s.loaded.uuid)
        self.view.route = route
        self.view.scroll = None  # the form fills the page: inputs scroll, keypad and Save stay put
        self.view.padding = ft.Padding.symmetric(horizontal=widgets.PAD, vertical=8)
        self._bar.form()
        number = s.game.next_round.number if index is None else index + 1
        title = _("Round {number}") if index is None else _("Edit round {number}")
        widgets.set_title(self.view, title.format(number=number))
        self.entry_error.visible = False
        kept = [self._board_root] if self._board_root is not None else []
        for board in kept:
            board.visible = False
        spare = self._hidden_forms() if index is not None else []  # a past round's form goes over the next round's
        form = self._next_round if index is None else None
        if form is not None and form.show(draft.state):
            draft.state = form.state
        else:
            form = RoundForm(draft.state, self._save, self._cancel, self.app.drafts.changed)
            if index is None:
                self._next_round = form
        form.control.visible = True
        notice = [self._draft_notice(draft.notice)] if draft.notice else []
        self.view.controls = [*kept, *notice, self.entry_error, *spare, form.control]

    def _draft_notice(self, message: str) -> ft.Control:
        """What happened to the draft while it was kept (the round was taken elsewhere)."""
        discard = widgets.tagged(ft.TextButton(_("Discard"), on_click=self._discard), "entry-discard")
        return widgets.tagged(
            ft.Container(
                ft.Column([ft.Text(message, color=ft.Colors.ON_TERTIARY_CONTAINER), discard], spacing=0),
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                border_radius=12,
                padding=ft.Padding.only(left=16, right=8, top=10, bottom=2),
            ),
            "entry-notice",
            live_region=True,
        )

    @property
    def on_top(self) -> bool:
        """Whether this game's page is the page on screen: a tap that comes after the device
        has left it (a second tap on Save or Play again, sent before the first one's answer
        showed) does nothing."""
        page = self.app.page
        return page is not None and bool(page.views) and page.views[-1] is self.view

    @property
    def shows_board(self) -> bool:
        """Whether the scoreboard shows (not a round-entry form)."""
        return self._board is not None and self._board_root is not None and self._board_root.visible and bool(self.view.controls) and self.view.controls[0] is self._board_root

    def follow(self, record) -> list[list[ft.Control]]:
        """Show ``record`` (the game after a change elsewhere) on the scoreboard shown: only
        the controls whose contents changed change, so the page is not rebuilt under a tap.
        The controls to send to the browser, in the messages they go in: the board's parts a
        change touches (``BoardParts.parts``), or those ``render`` names when its layout
        changed (e.g. the game was won)."""
        self.state.follow(record)
        if self._board is None or self.state.layout() != self._layout:
            return self.render(refill=True)
        self._board.show(self.state, refill=True)
        return self._board.parts

    def render(self, refill: bool = False) -> list[list[ft.Control]]:
        """Show the game as the state has it. A scoreboard built before keeps its totals,
        rounds and chart, updated in place, while the device's right to correct rounds stays:
        a change of layout (the first round, the game won, its final round undone, reopened)
        then only shows or hides the banner (``EndBanner``) and swaps the buttons under it. The
        controls to send to the browser, in the messages they may go in: the app bar if its
        title changed, and the board's body, with
        ``refill`` (``BoardParts.show_rounds``) the rows filled in again; or the whole page
        when built anew. When the table and the chart come in place of "No rounds yet"
        (round 1), they go in a message after the rest (held back from it:
        ``widgets.sent_after``): in games of 3 rounds, round 1 reached the last of 100 devices
        after 1.7 to 1.9 s sent in one message, after 0.8 to 1.6 s sent so. The last round's
        banner came later that way (docs/sharing.md, "What was played, after the top")."""
        s = self.state
        self._layout = s.layout()
        self._in_place = False
        if s.record is None:
            self._board = self._board_root = None
            widgets.set_title(self.view, _("Scoreboard"))
            widgets.set_body(self.view, [widgets.error_banner(s.error or _("This game could not be opened."))])
            return [[self.view]]
        bar = widgets.app_bar(self.view)
        retitled = [bar] if not isinstance(bar.title, ft.Text) or bar.title.value != s.title else []  # not at a followed change
        widgets.set_title(self.view, s.title)
        rounds = s.rounds()
        board = self._board if self._board_root is not None and self._editable == s.can_edit else None  # rows are built for the rights
        earlier: dict[tuple, ft.Control] = self._kept if board is not None else {}
        if board is None:
            board = BoardParts(self.state, continuing=lambda: self.app.drafts.pending(s.game_id, s.loaded.uuid))
        else:
            board.show(s, refill)
        if board.rounds_section is None:  # built with the board, hidden until the first round, which then only fills it in
            board.chart = ScoreChart(s.chart())
            board.rounds_section = ft.Column(
                [
                    widgets.section_title(pgettext("the heading of the table of rounds played", "Rounds")),
                    self._table(rounds, board),
                    widgets.section_title(_("Scores over the game")),
                    board.chart.control,
                ],
                spacing=12,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        revealed = bool(rounds) and not board.rounds_section.visible  # the table and chart take the place of "No rounds yet"
        board.rounds_section.visible = bool(rounds)
        self._editable = s.can_edit
        self._kept = {}

        def kept(key: tuple, build: Callable[[], Shown]) -> Shown:
            """The body's control that shows ``key``: the one shown before, if any, so that a
            change of layout sends only the controls that came or went."""
            control = earlier.get(key)
            self._kept[key] = control = build() if control is None else control
            return control  # type: ignore[return-value]  # one key, one kind of control: the one its lambda builds

        body: list[ft.Control] = []
        if s.error:
            body.append(kept(("error", s.error), lambda: widgets.error_banner(s.error or "")))
        board.banner.show(s.banner, won=s.finished)
        body.append(board.banner.control)
        body.append(board.totals)
        body.append(board.next_up)
        actions: list[ft.Control] = []
        board.enter_button = None
        if s.can_enter:
            enter = kept(("enter",), lambda: self._button(widgets.SteadyFilledButton, board.enter_label, ft.Icons.EDIT_NOTE, self._enter, "enter-round"))
            board.enter_button = enter.content if isinstance(enter.content, ft.FilledButton) else None
            if board.enter_button is not None:  # kept from an earlier round: its number moved on
                board.enter_button.content = board.enter_label
            actions.append(enter)
        if s.finished and not s.read_only:
            actions.append(kept(("play-again",), lambda: self._button(widgets.SteadyFilledButton, _("Play again"), ft.Icons.REPLAY, self._play_again, "play-again")))
        if s.can_reopen:
            actions.append(kept(("reopen",), lambda: self._button(widgets.SteadyFilledButton, _("Reopen game"), ft.Icons.PLAY_ARROW, self._reopen, "reopen")))
        if s.can_undo:
            actions.append(kept(("undo",), lambda: self._button(ft.OutlinedButton, _("Undo"), ft.Icons.UNDO, self._undo, "undo")))
        if actions:
            row = kept(("actions",), lambda: ft.Row(spacing=8))
            row.controls = actions
            body.append(row)
        bgstats = kept(("bgstats",), lambda: widgets.tagged(bgstats_button(self._send_to_bgstats), "send-bgstats"))  # built hidden, as the banner
        bgstats.visible = s.finished  # its link is built only when tapped
        body.append(bgstats)
        details = ("details", s.loaded.location, s.loaded.note, self.app.device.may_change(s.game_id))
        body.append(kept(details, self._details))
        self._dates.value = s.dates  # in place: at the game's end the page takes no new button with it
        played: list[ft.Control] = [board.rounds_section]
        if not rounds:
            no_rounds = _("No rounds yet. Enter the first round when it is played.")

            coming = s.status == "in_progress"  # a game over with no rounds has no round 1 to draw before

            def empty() -> ft.Control:
                shown = widgets.empty_state(ft.Icons.SCOREBOARD, no_rounds)
                return ft.Stack([drawn_before(s.game.sides), shown], clip_behavior=ft.ClipBehavior.NONE) if coming else shown

            played.append(kept(("no rounds", coming), empty))
        board.played_list.controls = played
        body.append(board.played)
        if s.can_enter:
            body.append(
                kept(
                    ("abandon",),
                    lambda: widgets.tagged(
                        ft.TextButton(
                            _("Abandon game"),
                            icon=ft.Icons.STOP_CIRCLE_OUTLINED,
                            on_click=self._confirm_abandon,
                            style=ft.ButtonStyle(color=ft.Colors.ERROR),
                        ),
                        "abandon",
                    ),
                )
            )
        if board is self._board and self._board_root is not None:
            body_column(self._board_root.content).controls = body
            self._lay_out_board(self._board_root)
            if revealed:
                return [[*retitled, self._board_root], [board.played, *board.refilled]]
            return [[*retitled, self._board_root, *board.refilled]]
        self._board, self._board_root = board, widgets.Stowed(widgets.constrained(body))
        self._lay_out_board(self._board_root)
        return [[self.view]]

    def _button(
        self, kind: Callable[..., ft.Control], label: str, icon: ft.IconData, on_click: Callable[[], None], identifier: str
    ) -> ft.Semantics:
        """One of the large buttons under the totals: a filled one shares the row's width."""
        filled = kind is widgets.SteadyFilledButton
        padding = ft.Padding.symmetric(vertical=18) if filled else ft.Padding.symmetric(vertical=18, horizontal=16)
        button = kind(label, icon=icon, on_click=on_click, style=ft.ButtonStyle(padding=padding))
        return widgets.tagged(button, identifier, expand=True) if filled else widgets.tagged(button, identifier)

    def _enter(self) -> None:
        self.app.go(Route(Page.ENTRY, game_id=self.state.game_id).path)

    def _details(self) -> ft.Control:
        """When the game was played, its place and note, and the button that sets them."""
        s = self.state
        self._dates = ft.Text(s.dates, size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        lines: list[ft.Control] = [widgets.tagged(self._dates, "game-dates")]
        if s.loaded.location:
            lines.append(
                widgets.tagged(
                    ft.Row([ft.Icon(ft.Icons.PLACE, size=16), ft.Text(s.loaded.location, expand=True)], spacing=6),
                    "game-place",
                )
            )
        if s.loaded.note:
            lines.append(
                widgets.tagged(
                    ft.Row([ft.Icon(ft.Icons.NOTES, size=16), ft.Text(s.loaded.note, expand=True)], spacing=6),
                    "game-note",
                )
            )
        if self.app.device.may_change(s.game_id):
            label = _("Change place or note") if s.details else _("Add a place or note")
            lines.append(
                widgets.tagged(ft.TextButton(label, icon=ft.Icons.EDIT_LOCATION_ALT, on_click=self._edit_details), "edit-details")
            )
        return ft.Column(lines, spacing=4)

    def _table(self, rounds: list[RoundRow], board: BoardParts) -> ft.Control:
        s = self.state
        sides = s.game.sides
        header = ft.Row(
            [ft.Text("#", width=28, size=12, color=ft.Colors.ON_SURFACE_VARIANT)]
            + [
                ft.Text(side, expand=True, size=12, weight=ft.FontWeight.W_600, text_align=ft.TextAlign.RIGHT, color=side_color(i))
                for i, side in enumerate(sides)
            ]
            + ([ft.Container(width=20)] if s.can_edit else []),
            spacing=6,
        )
        board.table = ft.Column([widgets.frozen(ft.Container(header, padding=ft.Padding.symmetric(horizontal=12, vertical=8)))], spacing=0)
        board.row_control = self._round_row
        board.show_all = show_all_button(len(rounds), self._show_all_rounds)
        board.show_all_box = widgets.tagged(board.show_all, "all-rounds")
        board.show_rounds(rounds)
        board.rounds_table = ft.Column([board.show_all_box, ft.Card(board.table, margin=0, clip_behavior=ft.ClipBehavior.ANTI_ALIAS)], spacing=4)
        return board.rounds_table

    def _round_row(self, row: RoundRow) -> RoundRowParts:
        s = self.state
        on_tap = (lambda index: self.app.go(Route(Page.CORRECTION, game_id=s.game_id, round=index).path)) if s.can_edit else None
        return RoundRowParts(row, on_tap)

    # --- intents ---

    def _show_all_rounds(self, _event=None) -> None:
        if self._board is not None:
            self._board.all_rounds = True
            self._board.show_rounds(self.state.rounds())

    def _undo(self) -> None:
        undone = self.state.undo()
        self.render()
        if undone:
            self._offer_redo()

    def _offer_redo(self) -> None:
        """Say which round was taken back last, with Redo to put it back."""
        self.app.notify(_("Round {number} undone.").format(number=len(self.state.game.rounds) + 1), _("Redo"), self._redo)

    def _save(self, entry: dict[str, Any]) -> None:
        if self.shows_board or not self.on_top:  # the round is saved once, however often Save was tapped
            return
        board = Route(Page.GAME, game_id=self.state.game_id).path
        if self.state.save(entry, self.entry_index):
            self.app.drafts.discard(self.state.game_id, self.entry_index)
            self.app.go(board)
            return
        if self.state.stale:
            # The game moved on elsewhere: the form again, on the game as it is now, with the draft kept.
            self.app.show(self.view.route)
            return
        self.entry_error.content = widgets.error_banner(self.state.error or _("The round could not be saved."))
        self.entry_error.visible = True

    def database_answers(self) -> list[ft.Control]:
        """The round's form no longer says that the database does not answer: the round is
        still on it, to save. (The scoreboard reads the game again then: ``TableSession``.)"""
        if self.shows_board or not self.entry_error.visible or not self.state.database_answers():
            return []
        self.entry_error.visible = False
        return [self.entry_error]

    def _cancel(self) -> None:
        """Back to the scoreboard; a draft with something entered is kept or discarded as the player says."""
        draft = self.app.drafts.kept(self.state.game_id, self.entry_index)
        if draft is None or not draft.state.has_input:
            self._discard()
            return

        def leave(keep: bool):
            self.app.page.pop_dialog()
            if keep:
                self.app.go(Route(Page.GAME, game_id=self.state.game_id).path)
            else:
                self._discard()

        number = draft.state.round_number
        self.app.ask(
            ft.AlertDialog(
                title=ft.Text(_("Leave round {number}?").format(number=number)),
                content=ft.Text(_("What you entered is kept until you save it or discard it.")),
                actions=[
                    widgets.tagged(ft.TextButton(_("Discard"), on_click=lambda: leave(False)), "leave-discard"),
                    widgets.tagged(ft.FilledButton(_("Keep for later"), on_click=lambda: leave(True)), "leave-keep"),
                ],
            )
        )

    def _discard(self) -> None:
        """The draft thrown away on purpose; back to the scoreboard."""
        self.app.drafts.discard(self.state.game_id, self.entry_index)
        self.app.go(Route(Page.GAME, game_id=self.state.game_id).path)

    def _play_again(self) -> None:
        if not self.on_top:  # one new game, however often Play again was tapped
            return
        game_id = self.state.play_again()
        if game_id is None:
            self.render()
            return
        self.app.go(Route(Page.GAME, game_id=game_id).path)

    def _redo(self) -> None:
        self.state.redo()
        self.render()
        if self.state.undone:  # another round taken back: it can be put back too
            self._offer_redo()

    def _reopen(self) -> None:
        if self.state.reopen():
            self.app.go(f"/game/{self.state.game_id}")
        else:
            self.render()

    def _send_to_bgstats(self) -> None:
        from companion.ui.settings import url_launcher

        link = self.state.bgstats_link
        if link:
            widgets.on_device(self.app.page, url_launcher(self.app.page).launch_url, link)

    def _edit_details(self) -> None:
        record = self.state.loaded
        typed = {"place": record.location, "note": record.note}  # the browser sends what is typed with each change
        place = ft.TextField(
            label=_("Place"), value=record.location, dense=True, on_change=lambda e: typed.update(place=e.control.value)
        )
        note = ft.TextField(
            label=_("Note"),
            value=record.note,
            multiline=True,
            min_lines=2,
            max_lines=5,
            dense=True,
            on_change=lambda e: typed.update(note=e.control.value),
        )
        refusal = ft.Text(color=ft.Colors.ERROR)
        refusal_box = widgets.tagged(refusal, "details-refusal")
        refusal_box.visible = False  # the wrapper hides, not the text: Semantics needs visible content

        def save():
            if self.state.save_details(typed["note"] or "", typed["place"] or ""):
                self.app.page.pop_dialog()
                self.render()
                self.app.page.update()  # the dialog's handler updates the dialog, not the board under it
                return
            refusal.value, refusal_box.visible = self.state.error, True
            self.state.error = None  # said in the dialog, not again on the board

        self.app.ask(
            ft.AlertDialog(
                title=ft.Text(_("Place and note")),
                content=ft.Column(
                    [
                        widgets.tagged(place, "details-place"),
                        widgets.tagged(note, "details-note"),
                        refusal_box,
                    ],
                    tight=True,
                    spacing=12,
                ),
                actions=[
                    ft.TextButton(_("Cancel"), on_click=lambda: self.app.page.pop_dialog()),
                    widgets.tagged(ft.FilledButton(_("Save"), on_click=save), "save-details"),
                ],
            )
        )

    def _confirm_abandon(self) -> None:
        def abandon():
            self.app.page.pop_dialog()
            if self.state.abandon():
                self.app.go("/")
            else:
                self.render()

        self.app.ask(
            ft.AlertDialog(
                title=ft.Text(_("Abandon this game?")),
                content=ft.Text(_("It moves to the history as abandoned; its rounds are kept.")),
                actions=[
                    ft.TextButton(_("Keep playing"), on_click=lambda: self.app.page.pop_dialog()),
                    widgets.tagged(ft.FilledButton(_("Abandon"), on_click=abandon), "confirm-abandon"),
                ],
            )
        )
