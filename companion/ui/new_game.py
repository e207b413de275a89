"""New game: the ruleset, its options, who sits where, who deals first, and the teams.

The rules are the judge of every setup: the state asks ``ruleset.new_game`` whether the
table as chosen is allowed and shows its message when not. Teams are derived from the
seating (partners sit apart: with two teams seats 1+3 and 2+4), so reordering the seats
is how players change partners.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Sequence

import flet as ft

from companion import rules
from companion.i18n import _
from companion.rules import Option, RuleError, Ruleset
from companion.store import StoreError
from companion.ui import widgets
from companion.ui.format import option_label, option_value, player_count
from companion.ui.glyphs import undrawable_name
from companion.ui.routes import Page, Route
from companion.ui.saved_players import saved_chips, saved_players
from companion.ui.theme import side_color


def seat_teams(players: Sequence[str], team_count: int) -> dict[str, list[str]]:
    """Teams by seat: seat i plays in team i mod team_count; each team is named after its players."""
    teams = [list(players[i::team_count]) for i in range(team_count)]
    return {" & ".join(members): members for members in teams}


class NewGameState(widgets.Refusals):
    def __init__(self, saved_players: Sequence[str]):
        self.saved_players = list(saved_players)
        self.rulesets: list[Ruleset] = rules.rulesets()
        self.ruleset: Ruleset | None = None
        self.options: dict[str, Any] = {}
        self.option_text: dict[str, str] = {}
        self.option_errors: dict[str, str] = {}
        self.players: list[str] = []
        self.team_count: int | None = None
        self.name_error: str | None = None
        self.error: str | None = None

    @property
    def chosen(self) -> Ruleset:
        """The game chosen: options and seats are only asked for once there is one."""
        if self.ruleset is None:
            raise LookupError("no game is chosen yet")
        return self.ruleset

    # --- ruleset and options ------------------------------------------------------------

    def choose(self, ruleset_id: str) -> None:
        """Pick the game; its options start at their defaults, the seated players stay."""
        self.ruleset = rules.get(ruleset_id)
        self.options = {o.name: o.default for o in self.ruleset.options}
        self.option_text = {o.name: str(o.default) for o in self.ruleset.options if self._typed(o)}
        self.option_errors = {}
        self.error = None
        self._fit_teams()

    @staticmethod
    def _typed(option) -> bool:
        """Whether the option is typed in (a number in a range) rather than picked from choices."""
        return option.type is int and option.allowed is None

    @staticmethod
    def typed_beside_choices(option) -> bool:
        """Whether a number may be typed beside the option's quick choices (``Option``)."""
        return option.type is str and option.allowed is not None and option.minimum is not None

    def set_option(self, name: str, value: Any) -> None:
        """A switch or a choice chip: the value is one the option allows (a chip clears a typed number)."""
        option = self.chosen.option(name)
        self.options[name] = option.check(value)
        self.option_errors.pop(name, None)
        if self.typed_beside_choices(option):
            self.option_text[name] = ""

    def set_option_text(self, name: str, text: str) -> None:
        """A typed number: kept as typed, so a half-typed value is never lost.

        Beside quick choices an emptied field goes back to the default choice."""
        option = self.chosen.option(name)
        self.option_text[name] = text
        if self.typed_beside_choices(option) and not text.strip():
            self.set_option(name, option.default)
            return
        try:
            value = int(text.strip())
        except ValueError:
            self.option_errors[name] = _("Type a whole number.")
            return
        try:
            self.options[name] = option.check(str(value) if option.type is str else value)
        except RuleError as err:
            self.option_errors[name] = err.message
            return
        self.option_errors.pop(name, None)
        self._fit_teams()

    def spoken_again(self) -> None:
        """The language has changed: a typed number's complaint is worked out again in it,
        and those about the last name added and the last Start, which answered a tap, go."""
        for name in list(self.option_errors):
            self.set_option_text(name, self.option_text.get(name, ""))
        self.name_error = self.error = None

    @property
    def changed_options(self) -> list[str]:
        """The options set to something other than their default, in the ruleset's order."""
        if self.ruleset is None:
            return []
        return [o.name for o in self.ruleset.options if self.options.get(o.name) != o.default or o.name in self.option_errors]

    def option_choices(self, name: str) -> list[Any]:
        option = self.chosen.option(name)
        if option.type is bool:
            return [True, False]
        return list(option.allowed or ())

    # --- players and seats ----------------------------------------------------------------

    @property
    def bench(self) -> list[str]:
        """Saved profiles not yet at the table."""
        return [p for p in self.saved_players if p not in self.players]

    @property
    def seats_left(self) -> int | None:
        if self.ruleset is None:
            return None
        return self.ruleset.max_players - len(self.players)

    def add_player(self, name: str) -> bool:
        name = name.strip()
        if not name:
            self.name_error = _("Type a name first.")
        elif name in self.players:
            self.name_error = _("{name} is already at the table.").format(name=name)
        elif (unshown := undrawable_name(name)) is not None:
            self.name_error = unshown
        elif self.seats_left is not None and self.seats_left <= 0:
            self.name_error = _("{game} is for at most {count} players.").format(
                game=self.chosen.name, count=self.chosen.max_players
            )
        else:
            self.players.append(name)
            self.name_error = None
            self._fit_teams()
            return True
        return False

    def remove_player(self, name: str) -> None:
        self.players.remove(name)
        self.name_error = None
        self._fit_teams()

    def move(self, name: str, steps: int) -> None:
        """Move a player ``steps`` seats later (negative: earlier), around the table."""
        i = self.players.index(name)
        j = (i + steps) % len(self.players)
        self.players.insert(j, self.players.pop(i))

    def rotate(self) -> None:
        """The next player clockwise deals first; everyone keeps their neighbours."""
        self.players = self.players[1:] + self.players[:1]

    @property
    def dealer(self) -> str | None:
        return self.players[0] if self.players else None

    # --- teams ------------------------------------------------------------------------------

    @property
    def team_choices(self) -> list[int | None]:
        """The team shapes the rules accept for this table: None (no teams) and team counts."""
        if self.ruleset is None or not self.ruleset.min_players <= len(self.players) <= self.ruleset.max_players:
            return []
        choices: list[int | None] = []
        try:
            if self.ruleset.new_game(self.players, dict(self.options)).teams is None:
                choices.append(None)
        except RuleError:
            pass
        for count in range(2, len(self.players) // 2 + 1):
            if len(self.players) % count:
                continue
            try:
                self.ruleset.new_game(self.players, dict(self.options), seat_teams(self.players, count))
            except RuleError:
                continue
            choices.append(count)
        return choices

    def set_team_count(self, count: int | None) -> None:
        self.team_count = count

    @property
    def teams(self) -> dict[str, list[str]] | None:
        if self.team_count is None:
            return None
        return seat_teams(self.players, self.team_count)

    def _fit_teams(self) -> None:
        """Keep the team shape valid as players come and go; teams are the default where required."""
        choices = self.team_choices
        if self.team_count in choices:
            return
        self.team_count = None if None in choices or not choices else choices[0]

    # --- starting ----------------------------------------------------------------------------

    @property
    def problem(self) -> str | None:
        """Why the game cannot start yet, in the player's words; None when it can."""
        if self.ruleset is None:
            return _("Choose a game.")
        if self.option_errors:
            name, message = next(iter(self.option_errors.items()))
            return _("{option}: {message}").format(option=option_label(self.ruleset.option(name)), message=message)
        missing = self.ruleset.min_players - len(self.players)
        if missing > 0:
            return _("{game} needs {players}: add {missing} more.").format(
                game=self.ruleset.name,
                players=player_count(self.ruleset.min_players, self.ruleset.max_players),
                missing=missing,
            )
        try:
            self.ruleset.new_game(self.players, dict(self.options), self.teams)
        except RuleError as err:
            return err.message
        return None

    def start(self, store) -> int | None:
        """Create the game in the store (new names become saved profiles); its id, or None with ``error`` set."""
        if self.problem:
            self.error = self.problem
            return None
        try:
            record = store.create_game(self.chosen.id, list(self.players), options=dict(self.options), teams=self.teams)
        except (RuleError, StoreError) as err:
            self.refused(err)
            return None
        self.error = None
        return record.id


# --- view ---------------------------------------------------------------------------------


class NewGameScreen(widgets.HearsTheDatabase):
    """Renders the state and forwards every tap to it, then re-renders."""

    def __init__(self, app, state: NewGameState, own_page: bool = True, typed_name: str = "", options_open: bool = False):
        """The screen is ``layout``: in a page of its own, or (``own_page`` False) in a layer
        of home's page, built under home and shown by uncovering it (``home.Layers``)."""
        self.app = app
        self.state = state
        self.bench_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.summary_text = ft.Text()
        self.choice_chips: dict[tuple[str, object], ft.Chip] = {}
        self.name_field = ft.TextField(
            value=typed_name,
            label=_("Player name"),
            on_submit=self._add_typed,
            expand=True,
            dense=True,
        )
        self.number_fields: dict[tuple[str, str], ft.TextField] = {}
        self.options_open = options_open
        self.problem_text = ft.Text(color=ft.Colors.ON_SURFACE_VARIANT, size=13)
        self.problem = widgets.tagged(self.problem_text, "start-problem")
        self.start_button = widgets.SteadyFilledButton(
            _("Start game"),
            icon=ft.Icons.PLAY_ARROW,
            on_click=self._start,
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=18)),
        )
        # Start stays within thumb reach below the scrolling setup, with what still blocks it.
        # The screen's own bar, not the page's bottom app bar: that one is 80 px high
        # whatever it holds, and a reason of two lines pushed Start half off the screen.
        bottom_bar = ft.Container(
            ft.Column(
                [self.problem, widgets.tagged(self.start_button, "start-game")],
                spacing=6,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                tight=True,
            ),
            padding=ft.Padding.symmetric(horizontal=widgets.PAD, vertical=10),
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        )
        self.host = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True)
        self.layout = ft.Column([self.host, bottom_bar], spacing=0, expand=True)
        self.view: ft.View | None = None
        if own_page:
            self.view = widgets.screen(app, "/new", _("New game"), [])
            self.view.controls = [self.layout]
            self.view.scroll = None
        self.render()

    def render(self) -> None:
        s = self.state
        body: list[ft.Control] = [widgets.section_title(_("Game"))]
        body.append(ft.ResponsiveRow([self._ruleset_card(r) for r in s.rulesets], spacing=8, run_spacing=8))
        if s.ruleset is not None:
            body.extend(self._players())
            if s.ruleset.options:
                body.extend(self._options())
        if s.error:
            body.append(widgets.error_banner(s.error))
        self._refresh_start()
        widgets.set_body(self.host, body)

    def _summary(self) -> str:
        changed = self.state.changed_options
        if not changed:
            return _("All at their defaults")
        return _("Changed: {options}").format(options=", ".join(option_label(self.state.chosen.option(name)) for name in changed))

    def _options(self) -> list[ft.Control]:
        """Options fold away behind one line saying whether any differs from the default."""
        self.summary_text = ft.Text(self._summary(), size=12)
        self.choice_chips = {}
        header = widgets.tagged(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.TUNE, color=ft.Colors.PRIMARY),
                title=ft.Text(_("Options"), weight=ft.FontWeight.W_600),
                subtitle=self.summary_text,
                trailing=ft.Icon(ft.Icons.EXPAND_LESS if self.options_open else ft.Icons.EXPAND_MORE),
                on_click=self._toggle_options,
            ),
            "options-toggle",
        )
        rows: list[ft.Control] = [header]
        if self.options_open:
            rows += [self._option(o) for o in self.state.chosen.options]
        return [ft.Card(ft.Column(rows, spacing=0), margin=0)]

    def _toggle_options(self) -> None:
        self.options_open = not self.options_open
        self.render()

    def _refresh_start(self) -> None:
        problem = self.state.problem
        self.problem_text.value = problem or ""
        self.problem.visible = problem is not None
        self.start_button.disabled = problem is not None

    # --- pieces ---

    def _ruleset_card(self, ruleset: Ruleset) -> ft.Control:
        """A big tap target per game: its badge, name and table size; the chosen one stands out."""
        chosen = self.state.ruleset is not None and self.state.ruleset.id == ruleset.id
        return widgets.tagged(
            ft.Container(
                ft.Row(
                    [
                        widgets.game_mark(ruleset.id, 36),
                        ft.Column(
                            [
                                ft.Text(ruleset.name, weight=ft.FontWeight.W_600, size=13, max_lines=2),
                                ft.Text(player_count(ruleset.min_players, ruleset.max_players), size=11, color=ft.Colors.ON_SURFACE_VARIANT),
                            ],
                            spacing=0,
                            expand=True,
                        ),
                    ],
                    spacing=10,
                ),
                padding=ft.Padding.symmetric(horizontal=10, vertical=10),
                border_radius=14,
                bgcolor=ft.Colors.PRIMARY_CONTAINER if chosen else ft.Colors.SURFACE_CONTAINER_LOW,
                border=ft.Border.all(2 if chosen else 1, ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE_VARIANT),
                on_click=lambda: self._do(self.state.choose, ruleset.id),
                ink=True,
                col=6,
            ),
            f"ruleset-{ruleset.id}",
            button=True,
            selected=chosen,
            col=6,
        )

    def _players(self) -> list[ft.Control]:
        s = self.state
        out: list[ft.Control] = [widgets.section_title(_("Players in seating order (clockwise)"))]
        seats = []
        for i, name in enumerate(s.players):
            seats.append(self._seat(i, name))
        if seats:
            out.append(ft.Card(ft.Column(seats, spacing=0), margin=0))
            out.append(
                ft.Row(
                    [
                        ft.Text(
                            _("{name} deals first.").format(name=s.dealer),
                            size=13,
                            color=ft.Colors.ON_SURFACE_VARIANT,
                            expand=True,
                        ),
                        widgets.tagged(
                            ft.TextButton(
                                _("Next dealer"),
                                icon=ft.Icons.ROTATE_RIGHT,
                                on_click=lambda: self._do(s.rotate),
                                disabled=len(s.players) < 2,
                            ),
                            "rotate-dealer",
                        ),
                    ]
                )
            )
        if s.seats_left == 0:
            out.append(ft.Text(_("The table is full."), size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        else:
            out.append(
                ft.Row(
                    [
                        widgets.tagged(self.name_field, "player-name", expand=True),
                        widgets.tagged(
                            ft.IconButton(ft.Icons.PERSON_ADD, tooltip=_("Add player"), on_click=self._add_typed),
                            "add-player",
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                )
            )
            if s.name_error:
                out.append(widgets.tagged(ft.Text(s.name_error, color=ft.Colors.ERROR), "name-error"))
            self.show_bench()
            out.append(self.bench_row)
        out.extend(self._teams())
        return out

    def show_bench(self) -> None:
        """The saved players not yet seated, as chips; updated in place when the store opens,
        so a name being typed keeps its field's focus."""
        s = self.state
        self.bench_row.controls = saved_chips(s.bench, partial(self._do, s.add_player))
        self.bench_row.visible = bool(s.bench)

    def _seat(self, i: int, name: str) -> ft.Control:
        s = self.state
        first = i == 0
        return widgets.tagged(
            ft.ListTile(
                leading=ft.CircleAvatar(
                    content=ft.Text(str(i + 1)),
                    bgcolor=ft.Colors.PRIMARY if first else ft.Colors.SECONDARY_CONTAINER,
                    color=ft.Colors.ON_PRIMARY if first else ft.Colors.ON_SECONDARY_CONTAINER,
                    radius=16,
                ),
                title=ft.Text(name),
                subtitle=ft.Text(_("Deals first"), size=12, color=ft.Colors.PRIMARY) if first else None,
                trailing=ft.Row(
                    [
                        ft.IconButton(
                            ft.Icons.ARROW_UPWARD,
                            tooltip=_("Move {name} up").format(name=name),
                            on_click=lambda: self._do(s.move, name, -1),
                        ),
                        ft.IconButton(
                            ft.Icons.CLOSE,
                            tooltip=_("Remove {name}").format(name=name),
                            on_click=lambda: self._do(s.remove_player, name),
                        ),
                    ],
                    spacing=0,
                    tight=True,
                ),
                content_padding=ft.Padding.only(left=12, right=4),
            ),
            f"seat-{i + 1}",
        )

    def _teams(self) -> list[ft.Control]:
        s = self.state
        choices = s.team_choices
        if not choices or choices == [None]:
            return []
        out: list[ft.Control] = [widgets.section_title(_("Teams"))]
        if len(choices) > 1:
            out.append(
                ft.Row(
                    [
                        widgets.tagged(
                            ft.Chip(
                                label=ft.Text(
                                    _("No teams") if count is None else _("{count} teams").format(count=count)
                                ),
                                selected=s.team_count == count,
                                on_select=lambda _e=None, c=count: self._do(s.set_team_count, c),
                            ),
                            f"teams-{count or 'none'}",
                        )
                        for count in choices
                    ],
                    wrap=True,
                    spacing=8,
                )
            )
        if s.teams:
            for i, (team, members) in enumerate(s.teams.items()):
                out.append(
                    ft.Row(
                        [
                            ft.Icon(ft.Icons.GROUP, color=side_color(i)),
                            ft.Text(team, weight=ft.FontWeight.W_600),
                        ]
                    )
                )
            out.append(
                ft.Text(
                    _("Partners sit apart; move players up or down to change teams."),
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return out

    def _option(self, option) -> ft.Control:
        s = self.state
        label = option_label(option)
        description = ft.Text(_(option.description), size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        default = ft.Text(
            _("Default: {value}").format(value=option_value(option, option.default)), size=12, color=ft.Colors.OUTLINE
        )
        if option.type is bool:
            control = ft.Switch(
                value=bool(s.options[option.name]),
                label=label,
                on_change=lambda e: self._do(s.set_option, option.name, bool(e.control.value)),
            )
            main: list[ft.Control] = [control]
        elif option.allowed is not None:
            main = [
                ft.Text(label, weight=ft.FontWeight.W_500),
                ft.Row(
                    [
                        widgets.tagged(self._choice_chip(option, value), f"option-{option.name}-{value}")
                        for value in s.option_choices(option.name)
                    ],
                    wrap=True,
                    spacing=8,
                    run_spacing=4,
                ),
            ]
            if s.typed_beside_choices(option):
                main.append(self._number_field(option.name, _("Or type a number")))
        else:
            main = [self._number_field(option.name, label)]
        return widgets.tagged(
            ft.Container(
                ft.Column([*main, description, default], spacing=4),
                padding=ft.Padding.symmetric(horizontal=16, vertical=10),
            ),
            f"option-{option.name}",
        )

    def _choice_chip(self, option: Option, value: object) -> ft.Chip:
        s = self.state
        chip = ft.Chip(
            label=ft.Text(option_value(option, value)),
            selected=s.options[option.name] == value,
            on_select=lambda _e=None: self._do(s.set_option, option.name, value),
        )
        self.choice_chips[(option.name, value)] = chip
        return chip

    # --- intents ---

    def _do(self, intent, *args) -> None:
        intent(*args)
        self.state.error = None
        self.render()

    def _number_field(self, name: str, label: str) -> ft.TextField:
        """Typed options keep one field per ruleset, so typing never loses focus to a re-render."""
        key = (self.state.chosen.id, name)
        field = self.number_fields.get(key)
        if field is None:
            field = ft.TextField(
                label=label,
                value=self.state.option_text.get(name, ""),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e: self._set_text(name, e.control.value),
                dense=True,
            )
            self.number_fields[key] = field
        field.value = self.state.option_text.get(name, "")  # a quick choice empties it
        field.error = self.state.option_errors.get(name)
        return field

    def _set_text(self, name: str, text: str) -> None:
        """Only the field's error and the start button change while typing, and beside quick
        choices the chips and the options' summary: in place, as a rebuilt page would take
        the field's focus."""
        self.state.set_option_text(name, text)
        for (option_name, value), chip in self.choice_chips.items():
            if option_name == name:
                chip.selected = self.state.options[name] == value
        self.summary_text.value = self._summary()
        self.number_fields[(self.state.chosen.id, name)].error = self.state.option_errors.get(name)
        self._refresh_start()

    def _add_typed(self, e: ft.Event) -> None:
        typed = e.data if isinstance(e.data, str) else self.name_field.value  # Enter sends the text with it
        if self.state.add_player(typed or ""):
            self.name_field.value = ""
        self.render()
        if self.state.seats_left:
            widgets.on_device(self.app.page, self.name_field.focus)  # ready for the next name

    def database_answers(self) -> list[ft.Control]:
        """The screen no longer says that the database does not answer: Start may be tapped again."""
        if not self.state.database_answers():
            return []
        self.render()
        return [self.layout]

    def _start(self) -> None:
        if self.app.new_game_shown() is not self:  # a second tap that came before the game's page showed
            return
        game_id = self.state.start(self.app.store)
        if game_id is None:
            self.render()
            return
        self.app.go(Route(Page.GAME, game_id=game_id).path)


def show(app, before: NewGameScreen | None = None) -> ft.View:
    """The New game page; shown before the store has opened (tapped the moment home shows),
    it comes at once and the saved players join it when the store opens (``fill``). In place
    of the screen ``before``, it goes on with what was chosen and typed there."""
    screen = prepared(app) if before is None else again(app, before)
    assert screen.view is not None, "a screen built for a page of its own has one"
    screen.view.data = screen
    return screen.view


def prepared(app, own_page: bool = True) -> NewGameScreen:
    """A New game screen, in a page of its own or not (``NewGameScreen``); built before the
    store has opened, it has no saved players until ``fill``."""
    return NewGameScreen(app, NewGameState(saved_players(app) if app.store_open else []), own_page)


def again(app, before: NewGameScreen) -> NewGameScreen:
    """The screen ``before`` built again in a page of its own (the pages are built again in
    another language), going on with what was chosen and typed on it."""
    before.state.spoken_again()
    return NewGameScreen(app, before.state, typed_name=before.name_field.value or "", options_open=before.options_open)


def fill(app, screen: NewGameScreen) -> None:
    """The store has just opened: the saved players join a New game screen shown before, in
    place (a rebuilt page would take the focus from a name being typed)."""
    screen.state.saved_players = saved_players(app)
    screen.show_bench()
