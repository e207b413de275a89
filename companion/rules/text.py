"""Player-facing wording of the rules engine, kept as English templates until it is shown.

The rules never choose a language. A sentence or phrase the referee builds from values is
kept as its English template (extracted into the catalogues: ``Phrase`` is a Babel keyword)
and the values that fill it; ``str()`` gives it in the player's current language through
``companion.i18n``. Values may themselves be phrases or name lists, translated in the same
language at the same moment. ``RuleError`` messages follow the same pattern.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _ as translate


class Phrase:
    """An English template and the values for its ``{placeholders}``, translated when shown."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, **params: Any):
        self.template = template
        self.params = params

    def __str__(self) -> str:
        text = translate(self.template)
        return text.format(**self.params) if self.params else text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash((self.template, *self.params.items()))

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"


class Names(tuple):
    """Names (or phrases) shown as a list in the player's language: 'Ann, Bob and Cy'."""

    __slots__ = ()

    def __str__(self) -> str:
        items = [str(item) for item in self]
        if len(items) < 2:
            return "".join(items)
        return translate("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def sentence(text: Any) -> str:
    """``text`` as the start of a sentence: its first letter upper case ('a single 7' -> 'A single 7')."""
    text = str(text)
    return text[:1].upper() + text[1:]
