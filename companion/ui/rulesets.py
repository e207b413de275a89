"""Rules: each game, how many play, and its options with their defaults (issue 6 adds the full reference)."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion import rules
from companion.i18n import _
from companion.ui import widgets
from companion.ui.format import option_label, option_value, player_count


@dataclass(frozen=True)
class OptionLine:
    label: str
    default: str
    choices: str
    description: str


@dataclass(frozen=True)
class RulesetCard:
    id: str
    name: str
    players: str
    goal: str
    options: tuple[OptionLine, ...]


def choices(option) -> str:
    """What an option may be set to, in words."""
    if option.type is bool:
        return _("yes or no")
    if option.allowed is not None:
        return ", ".join(option_value(v) for v in option.allowed)
    if option.maximum is not None:
        return _("{minimum} to {maximum}").format(minimum=option.minimum, maximum=option.maximum)
    return _("{minimum} or more").format(minimum=option.minimum)


def cards() -> list[RulesetCard]:
    out = []
    for r in rules.all():
        out.append(
            RulesetCard(
                id=r.id,
                name=r.name,
                players=player_count(r.min_players, r.max_players),
                goal=_("Lowest total wins") if r.lowest_wins else _("Highest total wins"),
                options=tuple(
                    OptionLine(option_label(o.name), option_value(o.default), choices(o), _(o.description)) for o in r.options
                ),
            )
        )
    return out


def show(app) -> ft.View:
    body: list[ft.Control] = []
    for card in cards():
        lines: list[ft.Control] = [
            ft.Text(card.name, size=20, weight=ft.FontWeight.W_600),
            ft.Text(f"{card.players} · {card.goal}", color=ft.Colors.ON_SURFACE_VARIANT),
        ]
        for o in card.options:
            lines.append(
                ft.Column(
                    [
                        ft.Row(
                            [
                                ft.Text(o.label, weight=ft.FontWeight.W_600, expand=True),
                                widgets.pill(o.default, ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER),
                            ]
                        ),
                        ft.Text(o.description, size=13),
                        ft.Text(_("Choices: {choices}").format(choices=o.choices), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                    ],
                    spacing=2,
                )
            )
        body.append(
            widgets.semantic(
                f"rules-{card.id}",
                ft.Card(ft.Container(ft.Column(lines, spacing=12), padding=16), margin=0),
            )
        )
    return widgets.screen(app, "/rules", _("Rules"), body)
