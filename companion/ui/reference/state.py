"""What the rules reference screen shows: one game's rules, or every passage matching a search.

Opened from a game's scoreboard with that game's options, the passages explaining those
options are highlighted and say how the game is set ("In your game: 100"). Pure: the
texts come from ``companion.reference``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion import reference, rules
from companion.i18n import _, ngettext
from companion.reference import Passage
from companion.ui.format import option_value


@dataclass(frozen=True)
class ShownPassage:
    """A passage as the screen shows it."""

    passage: Passage
    game: str  # the game's name, shown above search results
    highlighted: bool  # explains an option of the game the screen was opened for
    setting: str | None  # how that game has the option set, in words


class ReferenceState:
    """The game shown, the search text, and the options to highlight."""

    def __init__(self, ruleset_id: str | None = None, options: Mapping[str, Any] | None = None, lang: str | None = None):
        self.game = ruleset_id or rules.IDS[0]
        self.lang = lang
        self.query = ""
        self.highlight_game = ruleset_id if options is not None else None
        self.options = dict(options or {})
        if self.highlight_game is not None:
            reference.option_passages(self.highlight_game, self.options, lang)  # RuleError on unknown options

    # --- intents ----------------------------------------------------------------------

    def set_query(self, text: str) -> None:
        self.query = text

    def choose_game(self, ruleset_id: str) -> None:
        """Show this game's rules (and end any search)."""
        rules.get(ruleset_id)
        self.game = ruleset_id
        self.query = ""

    # --- read-outs --------------------------------------------------------------------

    @property
    def searching(self) -> bool:
        return bool(reference.normalize(self.query))

    @property
    def games(self) -> list[tuple[str, str]]:
        """Every game as (id, name), for the game picker."""
        return [(ruleset.id, ruleset.name) for ruleset in rules.rulesets()]

    def passages(self) -> list[ShownPassage]:
        found = reference.search(self.query, self.lang) if self.searching else reference.sections(self.game, self.lang)
        return [self._shown(p) for p in found]

    def summary(self) -> str:
        """The line above the passages: what they are."""
        if not self.searching:
            return rules.get(self.game).name
        found = self.passages()
        count = len(found)
        if count == 0:
            return _("Nothing in the rules mentions \u201c{term}\u201d.").format(term=self.query.strip())
        if not found[0].passage.holds_every_word(self.query):
            return ngettext(
                "No passage holds every word; {n} passage holds most of \u201c{term}\u201d.",
                "No passage holds every word; {n} passages hold most of \u201c{term}\u201d.",
                count,
            ).format(n=count, term=self.query.strip())
        return ngettext(
            "{n} passage mentions \u201c{term}\u201d.", "{n} passages mention \u201c{term}\u201d.", count
        ).format(n=count, term=self.query.strip())

    def _shown(self, passage: Passage) -> ShownPassage:
        name = rules.get(passage.ruleset_id).name
        if passage.ruleset_id != self.highlight_game or passage.option not in self.options:
            return ShownPassage(passage, name, False, None)
        option = rules.get(passage.ruleset_id).option(passage.option)
        value = self.options[passage.option]
        setting = _("In your game: {value}").format(value=option_value(option, value))
        if value == option.default:
            setting = _("In your game: {value} (the default)").format(value=option_value(option, value))
        return ShownPassage(passage, name, True, setting)
