"""Player-facing wording of the rules engine, kept as English templates until it is shown.

The rules never choose a language. A sentence or phrase the referee builds from values is
kept as its English template (extracted into the catalogues: ``Phrase`` is a Babel keyword)
and the values that fill it; ``str()`` gives it in the player's current language through
``companion.i18n``. Values may themselves be phrases or name lists, translated in the same
language at the same moment. ``RuleError`` messages follow the same pattern.
"""

from __future__ import annotations

import reprlib
from typing import Any

from companion.i18n import _

QUOTED_LENGTH = 120
"""A message quotes at most this many characters of a value a player or a file gave:
enough to recognise it, never a whole 10 MB paste."""

_CONTAINERS = reprlib.Repr()  # lists and name: value pairs, a few levels and items deep
_CONTAINERS.maxlevel, _CONTAINERS.maxstring, _CONTAINERS.maxlong = 3, 40, 40


class Phrase:
    """An English template and the values for its ``{placeholders}``, translated when shown."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, **params: Any):
        self.template = template
        self.params = briefly(params)

    def __str__(self) -> str:
        text = _(self.template)
        return text.format(**self.params) if self.params else text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash((self.template, *self.params.items()))

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"


class Names(tuple[object, ...]):
    """Names (or phrases) shown as a list in the player's language: 'Ann, Bob and Cy'."""

    __slots__ = ()

    def __str__(self) -> str:
        items = [str(item) for item in self]
        if len(items) < 2:
            return "".join(items)
        return _("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def sentence(text: Any) -> str:
    """``text`` as the start of a sentence: its first letter upper case ('a single 7' -> 'A single 7')."""
    shown = str(text)
    return shown[:1].upper() + shown[1:]


class _Shown(str):
    """A value already shortened and escaped for a message; ``!r`` shows it as ``repr`` would."""

    quoted: bool

    def __new__(cls, text: str, quoted: bool) -> _Shown:
        shown = super().__new__(cls, text)
        shown.quoted = quoted
        return shown

    def __repr__(self) -> str:
        return f"'{self}'" if self.quoted else str.__str__(self)


def brief(value: Any) -> Any:
    """``value`` as a message may quote it: at most ``QUOTED_LENGTH`` characters, with
    control characters and lone surrogates escaped (they could not be printed or saved).
    Short, printable values come back unchanged."""
    if isinstance(value, (Phrase, Names, _Shown, bool)) or value is None:
        return value
    if isinstance(value, str):
        if len(value) <= QUOTED_LENGTH and value.isprintable():
            return value
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in value[:QUOTED_LENGTH])
        return _Shown(shown + ("…" if len(value) > QUOTED_LENGTH else ""), quoted=True)
    if isinstance(value, int):
        if -(10**QUOTED_LENGTH) < value < 10**QUOTED_LENGTH:
            return value
        try:
            return _Shown(str(value)[:QUOTED_LENGTH] + "…", quoted=False)
        except ValueError:  # too many digits for Python to write out at all
            return _Shown(f"~10^{int(value.bit_length() * 0.30103)}", quoted=False)
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        shown = _CONTAINERS.repr(value)
        return _Shown(shown if len(shown) <= QUOTED_LENGTH else shown[:QUOTED_LENGTH] + "…", quoted=False)
    return value


def briefly(params: dict[str, Any]) -> dict[str, Any]:
    """Every value of a message's ``params`` through ``brief``."""
    return {name: brief(value) for name, value in params.items()}
