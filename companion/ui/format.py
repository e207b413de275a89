"""Small text helpers shared by the screens, all through the translation function."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from companion.i18n import N_, _, ngettext
from companion.rules.base import Option

MONTHS = (
    N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"),
    N_("Jul"), N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"),
)  # fmt: skip
"""Month abbreviations, translated where shown (strftime would follow the server's locale)."""

NUMBER_DIGITS = 20
"""The most digits a number typed or in an address can have (game ids stay below 2^63, 19
digits); a longer one is none of ours, and ``int`` need not read it (it refuses thousands)."""


def number(text: str) -> int | None:
    """``text`` (a part of an address, a number on the command line) as a whole number: ASCII
    digits only (``isdigit`` also takes '²' and other scripts' digits, which ``int`` refuses
    or reads otherwise), not too many; else None."""
    if text.isascii() and text.isdecimal() and len(text) <= NUMBER_DIGITS:
        return int(text)
    return None


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


def option_label(option: Option) -> str:
    """The label of a ruleset option, as its game declares it ('four_jacks' -> 'Four jacks')."""
    return _(option.label)


def option_value(option: Option, value: object) -> str:
    """One of an option's values in words: yes/no for switches, the game's word for a text
    value, the value itself otherwise."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    word = option.value_word(value)
    return _(word) if word is not None else str(value)
