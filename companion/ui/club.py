"""Club evenings (issue 17): the organiser's screens and the live ranking for a big screen.

``/event`` lists the evenings and creates one; ``/event/<n>`` is the evening: its players,
the draw, each table's game with its code and QR code (on the organiser's device: a phone
that scans it scores that game, and only that one, companion.share.table), and the ranking,
which follows every table's saves in place: the saved game (read once for all the sessions
of the process) takes its table's place in the result (``EveningResult.following``), and
only that table's line and the ranking's rows change on the page. Decisions live in
``EveningState`` and ``NewEveningState``; the views only draw them. Only the host's device
organises; a session reaches the evenings through its ``LiveStore`` (its rights checked on
every read and change, each change announced).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion import i18n, rules
from companion.i18n import _, ngettext
from companion.rules import RuleError
from companion.rules.club import CLUB_GAME, ODD_PLAYERS, SIT_OUT_SCORES, PrizeRule, SitOutScore, Standing
from companion.share import qr
from companion.share.codes import grouped
from companion.share.sharing import current_table
from companion.store import StoreError
from companion.store.club import Evening, EveningResult, Evenings, prize_line, result_csv, result_html, result_json
from companion.store.protocol import GameStore
from companion.ui import widgets
from companion.ui.format import option_label, option_value, points
from companion.ui.routes import Page, Route
from companion.ui.saved_players import saved_chips, saved_players

if TYPE_CHECKING:
    from companion.store import GameRecord

EVENING_OPTIONS = ("variant", "ending", "four_jacks", "four_of_a_kind", "nat_on_card_points", "defenders_pit_bonus", "verzaakt_penalty")
"""The options of the club game (``CLUB_GAME``) an evening sets for every table (the rest keep
their defaults)."""


def evenings_of(app) -> Evenings:
    """The evenings of the session's store: through a ``LiveStore`` each read and change is
    checked against the device's rights and each change announced (companion.share.live)."""
    return app.store.evenings()  # every session's store is a LiveStore (companion.ui.app)


def organises(app) -> bool:
    """Whether this device may create evenings and draw: the host's (this machine's) own."""
    return bool(app.device.is_host and app.device.can_score)


@dataclass
class NewEveningState:
    """The form of a new evening: its name, players (one per line: typed, or a saved
    player's chip tapped) and the club's choices."""

    name: str = ""
    players_text: str = ""
    saved_players: list[str] = field(default_factory=list)
    season: str = ""
    options: dict[str, Any] = field(default_factory=lambda: {"ending": "boompje"})
    odd_players: str = "sit_out"
    sit_out: str = "average"
    sit_out_fixed: int = 0
    places: int = 3
    formule_van_4: bool = False
    booby: bool = False
    most_pits: bool = False
    fewer_nats_first: bool = False
    fixed_pairs: bool = False
    error: str | None = None
    created: Evening | None = None
    """The evening this form created: a second tap on Create (a double tap) creates no other."""

    @property
    def players(self) -> list[str]:
        return [line.strip() for line in self.players_text.splitlines() if line.strip()]

    @property
    def bench(self) -> list[str]:
        """Saved players not yet on the list."""
        players = set(self.players)
        return [name for name in self.saved_players if name not in players]

    def add_saved(self, name: str) -> None:
        """A saved player's chip: the name joins the list on a line of its own (once)."""
        if name in self.players:
            return
        typed = self.players_text.rstrip()
        self.players_text = f"{typed}\n{name}" if typed else name

    def create(self, evenings: Evenings) -> Evening | None:
        """The new evening, or None with ``error`` saying what to change."""
        if self.created is not None:
            return self.created
        try:
            evening = evenings.create(
                self.name,
                self.players,
                self.options,
                self.odd_players,
                SitOutScore(self.sit_out, self.sit_out_fixed),
                PrizeRule(self.places, self.formule_van_4, self.booby, self.most_pits, self.fewer_nats_first),
                self.season,
                self.fixed_pairs,
            )
        except (RuleError, StoreError) as err:
            self.error = err.message
            return None
        self.error = None
        self.created = evening
        return evening


@dataclass(frozen=True)
class TableLine:
    """One table of the round on screen: its seats, its game, whether it still plays."""

    number: int
    seats: tuple[str, ...]
    game_id: int
    deals: int
    playing: bool
    stopped: bool  # its game abandoned: it no longer holds up the round (rules.club.RoundScores)
    code: str | None
    """The table's code: a phone that joins with it scores this table's game only (None: restored from a backup)."""
    join_url: str | None
    """The address with the table's code, while the table is shared: what its QR code carries."""


class EveningState(widgets.Refusals):
    """One evening as its page shows it: the result now, what the organiser may do next, and
    the name of a late arrival typed but not yet checked in (``arriving``: kept while the
    page follows the tables' saves) and the saved players who could arrive. ``games`` is
    the session's store: stopping a table abandons its game there, checked and announced
    like any change of a game."""

    def __init__(self, evenings: Evenings, evening_id: int, games: GameStore):
        self.evenings = evenings
        self.evening_id = evening_id
        self.games = games
        self.result: EveningResult | None = None
        self.error: str | None = None
        self.arriving = ""
        self.saved_players: list[str] = []

    def load(self) -> bool:
        try:
            self.result = self.evenings.result(self.evening_id)
        except (RuleError, StoreError) as err:
            self.result = None
            self.refused(err)
            return False
        return True

    @property
    def evening(self) -> Evening:
        assert self.result is not None
        return self.result.evening

    @property
    def round_number(self) -> int:
        return len(self.evening.rounds)

    def tables(self) -> list[TableLine]:
        """The newest round's tables, each with its code and the address a phone opens to score it."""
        if not self.evening.rounds or self.result is None:
            return []
        one = self.evening.rounds[-1]
        table = current_table()
        lines = []
        scores = self.result.rounds[-1]
        for result in scores.results():
            game_id = one.game_ids[result.table.number]
            url = None
            code = one.codes.get(result.table.number)
            if table is not None and code is not None:
                url = f"{table.invitation.base_url}{Route(Page.GAME, game_id=game_id).path}?code={code}"
            stopped = result.table.number in scores.stopped
            playing = not result.over and not stopped
            lines.append(TableLine(result.table.number, result.table.seats, game_id, result.deals, playing, stopped, code, url))
        return lines

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return self.evening.rounds[-1].draw.sitting_out if self.evening.rounds else ()

    @property
    def can_draw(self) -> bool:
        return self.evening.closed_at is None and not (self.result and self.result.playing)

    @property
    def finished(self) -> bool:
        """Every table of the newest round has finished: the ranking's prizes can be shown."""
        return self.result is not None and self.result.finished

    def draw(self) -> None:
        """Draw the next round (or say, in ``error``, why not). A second tap on Draw (a double
        tap), when the round it drew is playing, does nothing."""
        if self.can_draw:
            self._change(self.evenings.draw_next)

    @property
    def bench(self) -> list[str]:
        """Saved players not checked in now (an early leaver can come back)."""
        present = set(self.evening.present)
        return [name for name in self.saved_players if name not in present]

    def check_in(self, saved: str | None = None) -> None:
        """Check in a saved player's chip tapped, or else the player typed (``arriving``: the
        field empties once they are in; a name half typed stays while a chip is tapped)."""
        if saved is not None:
            self._change(self.evenings.check_in, saved)
        elif self._change(self.evenings.check_in, self.arriving):
            self.arriving = ""

    def stop_table(self, table: int) -> None:
        """A table that will never finish stops: its game is abandoned, the round can close
        without it and its players score what sitting out scores (``play_on`` takes it back)."""
        self._change(lambda _evening, game_id: self.games.abandon(game_id), self._game_of(table))

    def play_on(self, table: int) -> None:
        """Take a stop back: the table's game goes on and counts again."""
        self._change(lambda _evening, game_id: self.games.reopen(game_id), self._game_of(table))

    def _game_of(self, table: int) -> int:
        return self.evening.rounds[-1].game_ids[table]

    def check_out(self, name: str) -> None:
        self._change(self.evenings.check_out, name)

    def close(self) -> None:
        self._change(self.evenings.close)

    def follow(self, record: GameRecord) -> bool:
        """Take in ``record``, a table's game changed elsewhere, without reading the evening
        again; False when it is none of this evening's games."""
        following = self.result.following(record) if self.result is not None else None
        if following is None:
            return False
        self.result = following
        return True

    def _change(self, change, *args) -> bool:
        try:
            change(self.evening_id, *args)
        except (RuleError, StoreError) as err:
            self.refused(err)
            return False
        self.error = None
        self.load()
        return True

    def prize_lines(self) -> list[str]:
        """The prizes in words, once every table has finished."""
        return [prize_line(prize) for prize in self.result.prizes] if self.result is not None and self.finished else []


@dataclass
class SeasonState:
    """One season's table on the evenings page: by total, or by each player's best N of the
    season's M closed evenings (``best_of``; None counts them all)."""

    evenings: Evenings
    name: str
    evening_count: int
    best_of: int | None = None

    def fewer(self) -> None:
        """Count one evening fewer per player, down to the best one."""
        self.best_of = max((self.best_of or self.evening_count) - 1, 1)

    def more(self) -> None:
        """Count one evening more per player, up to all of them."""
        if self.best_of is not None:
            self.best_of = None if self.best_of + 1 >= self.evening_count else self.best_of + 1

    def heading(self) -> str:
        if self.best_of is None:
            return ngettext("All {count} evening", "All {count} evenings", self.evening_count).format(count=self.evening_count)
        return ngettext("Best {best} of {count} evening", "Best {best} of {count} evenings", self.evening_count).format(
            best=self.best_of, count=self.evening_count
        )

    def lines(self) -> list[tuple[str, str]]:
        """Each player's line (its identifier, its words), in the season's order."""
        lines = []
        for line in self.evenings.season_table(self.name, self.best_of):
            evenings = ngettext("{count} evening", "{count} evenings", line.evenings).format(count=line.evenings)
            if self.best_of is None:
                words = _("{place}. {player}: {total} ({evenings}, average {average:.0f})").format(
                    place=line.place, player=line.player, total=points(line.total), evenings=evenings, average=line.average
                )
            else:
                words = _("{place}. {player}: {best} ({evenings}, total {total})").format(
                    place=line.place, player=line.player, best=points(line.best), evenings=evenings, total=points(line.total)
                )
            lines.append((f"season-{self.name}-{line.player}", words))
        return lines


# --- views --------------------------------------------------------------------------------


def show_list(app) -> ft.View:
    """/event: the evenings so far and, for the organiser, a new one. Built again while it
    is on screen (in another language: a language chosen, the device's coming late), the
    new evening's form keeps what was typed and chosen in it."""
    evenings = evenings_of(app)
    body: list[ft.Control] = []
    form = None
    if organises(app):
        form = widgets.on_screen(app, Route(Page.EVENTS).path, NewEveningState) or NewEveningState()
        form.saved_players, form.error = saved_players(app), None  # a refusal is said again at the next Create, in the words of now
        body += _new_evening_form(app, form)
    body.append(widgets.section_title(_("Evenings")))
    try:
        saved = evenings.evenings()
    except StoreError as err:
        saved, body = [], [*body, widgets.error_banner(err.message)]
    for evening in saved:
        body.append(
            widgets.tagged(
                ft.ListTile(
                    title=ft.Text(evening.name),
                    subtitle=ft.Text(evening.season),
                    trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
                    on_click=lambda _e=None, n=evening.id: app.go(Route(Page.EVENT, evening=n).path),
                ),
                f"evening-{evening.id}",
            )
        )
    for season_name in sorted({e.season for e in saved if e.season and e.closed_at is not None}):
        count = sum(1 for e in saved if e.season == season_name and e.closed_at is not None)
        body += _season_table(app, SeasonState(evenings, season_name, count))
    page_view = widgets.screen(app, Route(Page.EVENTS).path, _("Club evenings"), body)
    page_view.data = form
    return page_view


def _season_table(app, state: SeasonState) -> list[ft.Control]:
    """A season's table with a control to rank it by each player's best N evenings."""
    table = ft.Column(spacing=4)

    def step(change: Callable[[], None], _e: object = None) -> None:
        change()
        draw()
        app.page.update()

    def draw() -> None:
        table.controls = [
            ft.Row(
                [
                    widgets.tagged(
                        ft.IconButton(ft.Icons.REMOVE, tooltip=_("Fewer evenings"), on_click=partial(step, state.fewer), disabled=(state.best_of or state.evening_count) <= 1),
                        f"season-{state.name}-fewer",
                    ),
                    widgets.tagged(ft.Text(state.heading(), expand=True), f"season-{state.name}-counted"),
                    widgets.tagged(
                        ft.IconButton(ft.Icons.ADD, tooltip=_("More evenings"), on_click=partial(step, state.more), disabled=state.best_of is None),
                        f"season-{state.name}-more",
                    ),
                ]
            ),
            *(widgets.tagged(ft.Text(words), identifier) for identifier, words in state.lines()),
        ]

    draw()
    return [widgets.section_title(_("Season {season}").format(season=state.name)), table]


def _new_evening_form(app, state: NewEveningState) -> list[ft.Control]:
    error = ft.Column()
    bench = ft.Row(wrap=True, spacing=8, run_spacing=8)

    def show_bench() -> None:
        bench.controls = saved_chips(state.bench, add_saved)
        bench.visible = bool(state.bench)

    def typed_players(e: ft.Event[ft.TextField]) -> None:
        """Only the chips change while typing (a saved name typed in full takes its chip
        away), in place: the field keeps its focus."""
        offered = state.bench
        state.players_text = e.control.value or ""
        if state.bench != offered:
            show_bench()
            app.page.update()

    def add_saved(name: str) -> None:
        state.add_saved(name)
        players.value = state.players_text
        show_bench()
        app.page.update()

    players = ft.TextField(label=_("Players, one per line"), value=state.players_text, multiline=True, min_lines=3, on_change=typed_players)
    show_bench()

    def text(label: str, attribute: str) -> ft.Control:
        def changed(e: ft.Event[ft.TextField]) -> None:
            setattr(state, attribute, e.control.value or "")

        return widgets.tagged(ft.TextField(label=label, value=getattr(state, attribute), on_change=changed), f"evening-{attribute}")

    def chips(label: str, key: str, choices: list[tuple[Any, str]], current, pick) -> ft.Control:
        row = ft.Row(wrap=True, spacing=8, run_spacing=4)

        def choose(value: Any, _e: object = None) -> None:
            pick(value)
            draw()

        def draw() -> None:
            row.controls = [
                widgets.tagged(
                    ft.Chip(label=ft.Text(shown), selected=current() == value, on_select=partial(choose, value)),
                    f"evening-{key}-{value}",
                )
                for value, shown in choices
            ]

        draw()
        return ft.Column([ft.Text(label, weight=ft.FontWeight.W_500), row], spacing=4)

    def create(_e=None) -> None:
        evening = state.create(evenings_of(app))
        if evening is None:
            error.controls = [widgets.error_banner(state.error or "", identifier="evening-error")]
            app.page.update()
            return
        app.go(Route(Page.EVENT, evening=evening.id).path)

    game = rules.get(CLUB_GAME)
    options = [
        chips(
            option_label(game.option(name)),
            name,
            [(value, option_value(game.option(name), value)) for value in (game.option(name).allowed or (True, False))],
            lambda n=name: state.options.get(n, game.option(n).default),
            lambda v, n=name: state.options.__setitem__(n, v),
        )
        for name in EVENING_OPTIONS
    ]
    odd = {"sit_out": _("Players sit out"), "joker": _("A joker seat")}
    sit_out = {"lowest": _("The round's lowest"), "average": _("The round's average"), "fixed": _("A fixed score")}
    return [
        widgets.section_title(_("New evening")),
        text(_("Name of the evening"), "name"),
        widgets.tagged(players, "evening-players"),
        bench,
        text(_("Season"), "season"),
        *options,
        chips(_("Players left over"), "odd", [(v, odd[v]) for v in ODD_PLAYERS], lambda: state.odd_players, lambda v: setattr(state, "odd_players", v)),
        chips(_("Score for sitting out"), "sit-out", [(v, sit_out[v]) for v in SIT_OUT_SCORES], lambda: state.sit_out, lambda v: setattr(state, "sit_out", v)),
        chips(
            _("Prizes"),
            "prizes",
            [(False, _("Places 1 to 3")), (True, _("Formule van 4"))],
            lambda: state.formule_van_4,
            lambda v: setattr(state, "formule_van_4", v),
        ),
        chips(
            _("Equal totals"),
            "ties",
            [(False, _("Share the place")), (True, _("Fewer nats ranks higher"))],
            lambda: state.fewer_nats_first,
            lambda v: setattr(state, "fewer_nats_first", v),
        ),
        widgets.tagged(
            ft.Switch(
                label=_("Fixed pairs, as listed two by two"),
                value=state.fixed_pairs,
                on_change=lambda e: setattr(state, "fixed_pairs", bool(e.control.value)),
            ),
            "evening-fixed-pairs",
        ),
        ft.Switch(label=_("Booby prize for the lowest"), value=state.booby, on_change=lambda e: setattr(state, "booby", bool(e.control.value))),
        ft.Switch(label=_("Prize for the most pits"), value=state.most_pits, on_change=lambda e: setattr(state, "most_pits", bool(e.control.value))),
        error,
        widgets.tagged(ft.FilledButton(_("Create evening"), icon=ft.Icons.ADD, on_click=create), "create-evening"),
    ]


def show_evening(app, evening_id: int) -> ft.View:
    """/event/<n>: the organiser's evening, and the live ranking for the big screen.

    Shown again while it is on screen (a round drawn, a check-in, a table's new code),
    the page is the same page read again: its controls are updated in place, so a late
    arrival's name being typed stays. In another language (a language chosen, the
    device's coming late) it is built anew, every word in the new language, and goes on
    with the name typed; a refusal shown is dropped, said again at the next try. A table's
    save is followed without reading the evening again (``EveningPage.follow``)."""
    route = Route(Page.EVENT, evening=evening_id).path
    kept = widgets.shown_again(app, route, EveningPage)
    if kept is not None:
        return kept
    shown = widgets.on_screen(app, route, EveningPage)  # in another language
    state = shown.state if shown is not None else EveningState(evenings_of(app), evening_id, app.store)
    state.error = None
    if not state.load():
        return widgets.screen(app, route, _("Club evening"), [widgets.error_banner(state.error or "")])
    return EveningPage(app, state, route).view


class EveningPage(widgets.FollowsGames, widgets.HearsTheDatabase, widgets.ReadAgain):
    """The controls of an evening's page, kept while it is shown: ``render`` draws the state
    into them, leaving the late arrival's field (and what is typed in it) and the ranking's
    rows in place; a table's save changes its status and the ranking (``follow``)."""

    def __init__(self, app, state: EveningState, route: str):
        self.app = app
        self.state = state
        self.head = ft.Column(spacing=12)
        self.arrivals = ft.Column(spacing=12)
        self.live = ft.Column(spacing=12)
        self.present = ft.Row(wrap=True, spacing=6)
        self.arriving = ft.TextField(expand=True, on_change=self._typed, on_submit=self._arrive)
        self.check_in = ft.OutlinedButton(on_click=self._arrive)
        self.bench = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.cards: dict[int, TableCard] = {}
        """The newest round's table cards by table number, each kept while what it shows
        stays the same (``_card_key``): a table that finishes (the organiser's page
        filled again) makes one card anew, not forty, each with its QR code."""
        self.ranking = Ranking()
        self._shape: tuple = ()
        self.language = i18n.language()
        """The language its words were built in: a page in another one is built anew."""
        self.view = widgets.screen(app, route, state.evening.name, [self.head, self.arrivals, self.live])
        self.view.data = self
        self.render()

    def read_again(self) -> None:
        self.state.load()

    def render(self) -> None:
        state = self.state
        if state.result is None:  # the evening could not be read again: say why, keep the rest
            self.head.controls = [widgets.error_banner(state.error or "", identifier="evening-error")]
            return
        self._fill_arrivals(organises(self.app) and not state.evening.fixed_pairs)
        self._fill_result()

    def _fill_result(self) -> None:
        """What the tables' games decide: the organiser's next steps, the tables, the ranking, the prizes."""
        state, app = self.state, self.app
        assert state.result is not None
        organiser = organises(app)
        self.head.controls = [widgets.error_banner(state.error, identifier="evening-error")] if state.error else []
        if organiser:
            self.head.controls += _round_actions(self, state)
        body: list[ft.Control] = []
        tables = state.tables()
        if tables:
            body.append(widgets.section_title(_("Round {number}").format(number=state.round_number)))
            open_evening = organiser and state.evening.closed_at is None
            cards = {}
            for line in tables:
                card = self.cards.get(line.number)
                if card is None or card.key != _card_key(line, open_evening):
                    card = TableCard(self, line, open_evening)
                cards[line.number] = card
                card.status.value = _status(line)
            self.cards = cards
            body += [card.control for card in cards.values()]
        if state.sitting_out:
            body.append(
                widgets.tagged(
                    ft.Text(_("Sitting out: {players}").format(players=", ".join(state.sitting_out))), "sitting-out"
                )
            )
        body.append(widgets.section_title(_("Ranking")))
        self.ranking.show(state.result.standings)
        body.append(self.ranking.control)
        prizes = state.prize_lines()
        if prizes:
            body.append(widgets.section_title(_("Prizes")))
            body += [widgets.tagged(ft.Text(line), f"prize-{i}") for i, line in enumerate(prizes)]
        if state.evening.rounds:
            body.append(ft.Row(_downloads(app, state), wrap=True, spacing=8))
        self.live.controls = body
        self._shape = _layout(tables)

    def follow(self, record: GameRecord) -> list[ft.Control] | None:
        """Show ``record``, a table's game after a save elsewhere: the controls that changed
        (none: the game is not this evening's). A save that finishes or stops a table, or
        takes the stop back, changes the page's parts (the draw, that table's card, the
        prizes): those are filled again, the other cards and the rows kept."""
        if self.state.result is None:
            return None
        if not self.state.follow(record):
            return []
        tables = self.state.tables()
        if _layout(tables) != self._shape:
            self._fill_result()
            return [self.head, self.live]
        for line in tables:
            self.cards[line.number].status.value = _status(line)
        self.ranking.show(self.state.result.standings)
        return [*(card.status for card in self.cards.values()), self.ranking.column]

    def database_answers(self) -> list[ft.Control]:
        """The organiser's page no longer says that the database does not answer."""
        if self.state.result is None or not self.state.database_answers():
            return []
        self._fill_result()
        return [self.head, self.live]

    def _fill_arrivals(self, shown: bool) -> None:
        """The late arrival's field (the same control every time) and who is present."""
        if not shown:
            self.arrivals.controls = []
            return
        self.arriving.label = _("Player arriving")
        self.arriving.value = self.state.arriving
        self.check_in.content = _("Check in")
        self.state.saved_players = saved_players(self.app)
        self.bench.controls = saved_chips(self.state.bench, self._arrive_saved)
        self.bench.visible = bool(self.state.bench)
        self.present.controls = [
            widgets.tagged(
                ft.Chip(label=ft.Text(player), tooltip=_("Leaves after this round"), on_delete=partial(self._leaves, player)),
                f"present-{player}",
            )
            for player in self.state.evening.present
        ]
        if not self.arrivals.controls:
            self.arrivals.controls = [
                ft.Row([widgets.tagged(self.arriving, "arriving-name", expand=True), widgets.tagged(self.check_in, "check-in")]),
                self.bench,
                self.present,
            ]

    def redo(self) -> None:
        self.render()
        self.app.page.update()

    def _typed(self, e: ft.Event[ft.TextField]) -> None:
        self.state.arriving = e.control.value or ""

    def _arrive(self, _e: object = None) -> None:
        self.state.check_in()
        self.redo()
        if self.state.error:  # refused: the name is typed or corrected in place
            widgets.on_device(self.app.page, self.arriving.focus)

    def _arrive_saved(self, name: str) -> None:
        self.state.check_in(name)
        self.redo()

    def _leaves(self, player: str, _e: object = None) -> None:
        self.state.check_out(player)
        self.redo()


def _downloads(app, state: EveningState) -> list[ft.Control]:
    """The result as a file on this device: CSV, JSON, or a page to print on A4 from a browser."""
    async def save(name: str, data: bytes) -> None:
        from companion.ui.settings import file_picker

        try:
            await file_picker(app.page).save_file(file_name=name, src_bytes=data)
        except Exception:  # the device's own save dialog failed: say so, never a traceback
            app.notify(_("The file could not be saved on this device."))

    def download(kind: str) -> None:
        assert state.result is not None
        if kind == "html" and organises(app):  # the table cards with each table's code, to hand out
            text = result_html(state.result, {line.number: (line.code, line.join_url) for line in state.tables() if line.code})
        else:
            text = {"csv": result_csv, "json": result_json, "html": result_html}[kind](state.result)
        app.page.run_task(save, f"evening-{state.evening_id}.{kind}", text.encode("utf-8"))

    return [
        widgets.tagged(ft.OutlinedButton(_("Ranking as CSV"), icon=ft.Icons.TABLE_VIEW, on_click=lambda _e=None: download("csv")), "download-csv"),
        widgets.tagged(ft.OutlinedButton(_("Result as JSON"), icon=ft.Icons.DATA_OBJECT, on_click=lambda _e=None: download("json")), "download-json"),
        widgets.tagged(ft.OutlinedButton(_("Page to print (A4)"), icon=ft.Icons.PRINT, on_click=lambda _e=None: download("html")), "download-print"),
    ]


def _round_actions(page: EveningPage, state: EveningState) -> list[ft.Control]:
    """Draw the next round once every table has finished (or stopped); close the evening."""

    def draw(_e=None) -> None:
        state.draw()
        page.redo()

    def close(_e=None) -> None:
        state.close()
        page.redo()

    controls: list[ft.Control] = []
    if state.can_draw:
        controls.append(
            widgets.tagged(
                ft.FilledButton(_("Draw round {number}").format(number=state.round_number + 1), icon=ft.Icons.CASINO, on_click=draw),
                "draw-round",
            )
        )
    if state.finished and state.evening.closed_at is None:
        controls.append(
            widgets.tagged(ft.OutlinedButton(_("Close the evening"), icon=ft.Icons.FLAG, on_click=close), "close-evening")
        )
    return controls


class TableCard:
    """One table: its players, its code, how far it is (``status``, set by the page); the
    organiser may stop a table that will never finish (and take that back)."""

    def __init__(self, page: EveningPage, line: TableLine, organiser: bool):
        app, state = page.app, page.state
        self.key = _card_key(line, organiser)
        self.status = ft.Text(color=ft.Colors.ON_SURFACE_VARIANT)
        column: list[ft.Control] = [
            ft.Text(_("Table {number}").format(number=line.number), size=20, weight=ft.FontWeight.W_600),
            ft.Text(" \u00b7 ".join(line.seats)),
            widgets.tagged(self.status, f"table-{line.number}-status"),
            widgets.tagged(
                ft.TextButton(_("Open this table's game"), on_click=lambda _e=None: app.go(Route(Page.GAME, game_id=line.game_id).path)),
                f"open-table-{line.number}",
            ),
        ]

        def change(act: Callable[[int], None], _e: object = None) -> None:
            act(line.number)
            page.redo()

        if organiser and line.playing:
            column.append(
                widgets.tagged(
                    ft.TextButton(_("Stop this table"), icon=ft.Icons.STOP_CIRCLE, on_click=partial(change, state.stop_table)),
                    f"stop-table-{line.number}",
                )
            )
        elif organiser and line.stopped:
            column.append(
                widgets.tagged(
                    ft.TextButton(_("Play this table on"), icon=ft.Icons.UNDO, on_click=partial(change, state.play_on)),
                    f"play-on-table-{line.number}",
                )
            )
        if organiser and line.join_url and line.code:  # the code lets a phone score: the organiser shows it
            column[2:2] = [
                ft.Image(src=qr.png(line.join_url), width=160, height=160, filter_quality=ft.FilterQuality.NONE,
                         semantics_label=_("QR code to score table {number}").format(number=line.number)),
                widgets.tagged(ft.Text(_("Table code: {code}").format(code=grouped(line.code)), size=16),
                               f"table-{line.number}-code"),
                widgets.tagged(ft.Text(line.join_url, selectable=True, size=12), f"table-{line.number}-address"),
            ]
        self.control = widgets.tagged(ft.Card(ft.Container(ft.Column(column, spacing=4), padding=12), margin=0), f"table-{line.number}")


def _card_key(line: TableLine, organiser: bool) -> tuple:
    """What a table's card shows but its status: a card with the same key is the same card."""
    return (line.number, line.seats, line.game_id, line.playing, line.stopped, line.code, line.join_url, organiser)


def _layout(tables: list[TableLine]) -> tuple:
    """What decides an evening page's parts (the draw and close buttons, the tables' cards,
    the prizes all follow from which tables still play): while it stays the same, a save
    changes only a table's status and the ranking."""
    return tuple((line.number, line.playing, line.stopped) for line in tables)


def _status(line: TableLine) -> str:
    if line.stopped:
        return _("stopped: its players score as sitting out")
    if line.playing:
        return ngettext("playing, {deals} deal saved", "playing, {deals} deals saved", line.deals).format(deals=line.deals)
    return _("finished")


class Ranking:
    """The evening's ranking, a row per player kept while the page is shown: a table's save
    changes and moves rows, where the whole ranking was built and sent again (a big
    screen's page, at every save of every table)."""

    def __init__(self) -> None:
        self.rows: dict[str, RankRow] = {}
        self.column = ft.Column(spacing=6)
        self.control = widgets.tagged(self.column, "ranking")

    def show(self, standings: Sequence[Standing]) -> None:
        """Show ``standings`` in the rows kept (a new player's row made), in their order."""
        rows: dict[str, RankRow] = {}
        for standing in standings:
            row = rows[standing.player] = self.rows.get(standing.player) or RankRow(standing.player)
            row.show(standing)
        self.rows = rows
        self.column.controls = [row.control for row in rows.values()]


class RankRow:
    """One player's place, nats and pits, and total."""

    def __init__(self, player: str):
        self.place = ft.Text(width=36, weight=ft.FontWeight.W_600)
        self.marks = ft.Text(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        self.total = ft.Text(weight=ft.FontWeight.BOLD)
        self.control = widgets.tagged(ft.Row([self.place, ft.Text(player, expand=True), self.marks, self.total], spacing=8), f"rank-{player}")

    def show(self, standing: Standing) -> None:
        marks = []
        if standing.nats:
            marks.append(_("nat {count}").format(count=standing.nats))
        if standing.pits:
            marks.append(_("pit {count}").format(count=standing.pits))
        self.place.value = f"{standing.place}."
        self.marks.value = " ".join(marks)
        self.total.value = points(standing.total)
        self.control.label = f"{standing.place}. {standing.player} {standing.total}"
