"""Small text helpers shared by the screens, all through the translation function."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from companion.i18n import N_, _, ngettext

MONTHS = (
    N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"),
    N_("Jul"), N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"),
)  # fmt: skip
"""Month abbreviations, translated where shown (strftime would follow the server's locale)."""

OPTION_LABELS = {
    "target": N_("Target"),
    "break_ties": N_("Break ties"),
    "double_cards": N_("Double Cards"),
    "wild_15": N_("15s wild"),
    "crazy": N_("Crazy CLUBS"),
    "variant": N_("Variant"),
    "four_jacks": N_("Four jacks"),
    "four_of_a_kind": N_("Four of a kind"),
    "runs_by_colour": N_("Runs by colour"),
    "nat_on_card_points": N_("Nat on card points"),
    "defenders_pit_bonus": N_("Defenders' pit bonus"),
    "verzaakt_penalty": N_("Verzaakt penalty"),
    "ending": N_("Ending"),
    "rounds": N_("Rounds"),
}
"""The label of each ruleset option (every option of every game has one: tests/ui/test_format.py)."""

OPTION_VALUES = {
    "amsterdam": N_("Amsterdam"),
    "rotterdam": N_("Rotterdam"),
    "all": N_("all"),
    "10 and up": N_("10 and up"),
    "boompje": N_("boompje"),
    "seed": N_("seed"),
    "rounds": N_("rounds"),
    "elimination": N_("elimination"),
    "time": N_("time"),
    "limit": N_("limit"),
}
"""The words for the text values options take; numbers are shown as they are."""


def join_names(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def when(moment: datetime | None, now: datetime) -> str:
    """A timestamp as a player would say it: 'Today 14:05', 'Yesterday 20:10', '3 Mar 2026'."""
    if moment is None:
        return ""
    local = moment.astimezone(now.tzinfo) if now.tzinfo else moment.astimezone()
    days = (now.date() - local.date()).days
    clock = local.strftime("%H:%M")
    if days == 0:
        return _("Today {time}").format(time=clock)
    if days == 1:
        return _("Yesterday {time}").format(time=clock)
    return _("{day} {month} {year}").format(day=local.day, month=_(MONTHS[local.month - 1]), year=local.year)


def points(value: int) -> str:
    """A point total with a real minus sign, so negative scores read clearly."""
    return f"\u2212{-value}" if value < 0 else str(value)


def rounds_played(count: int) -> str:
    return ngettext("{n} round", "{n} rounds", count).format(n=count)


def player_count(minimum: int, maximum: int) -> str:
    """'2 to 6 players', or '4 players' for a game with one table size."""
    if minimum == maximum:
        return ngettext("{count} player", "{count} players", minimum).format(count=minimum)
    return _("{minimum} to {maximum} players").format(minimum=minimum, maximum=maximum)


def option_label(name: str) -> str:
    """The label of a ruleset option ('four_jacks' -> 'Four jacks')."""
    return _(OPTION_LABELS[name])


def option_value(value: object) -> str:
    """An option's value in words: yes/no for switches, the value itself otherwise."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return _(OPTION_VALUES[value]) if value in OPTION_VALUES else str(value)
