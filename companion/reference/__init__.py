"""The rules reference: each game's rules in the project's own words, in four languages.

The texts live in ``content/<lang>/<ruleset_id>.md``, one Markdown file per game and
language. Every ``## Title {#id}`` heading opens a passage that runs to the next such
heading. The ids are the same in every language, so a test can name each passage that
lacks a translation. Fixed ids: ``goal``, ``setup``, ``turn``, ``scoring`` and ``end``;
``variant-<name>`` explains a way of playing, and ``option-<name>`` explains the ruleset
option ``<name>`` (spelled exactly as in ``companion.rules.<id>``). Paragraphs that start
with ``> `` are worked examples. ``search`` finds words in any order and form (``words``).

Pure: reads only the package's own text files, once.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from companion import i18n, rules
from companion.reference import words
from companion.rules import IDS, RuleError

__all__ = ["LANGUAGES", "CORE_SECTIONS", "Passage", "sections", "search", "option_passages", "normalize"]

CONTENT_DIR = Path(__file__).parent / "content"
LANGUAGES = ("en", "nl", "de", "fr")
CORE_SECTIONS = ("goal", "setup", "turn", "scoring", "end")
OPTION_PREFIX = "option-"

_HEADING = re.compile(r"^## (?P<title>.+?) \{#(?P<id>[a-z0-9_-]+)\}\s*$")
_MARKUP = re.compile(r"[*`]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Passage:
    """One titled section of a game's rules in one language."""

    ruleset_id: str
    id: str
    title: str
    body: str
    lang: str

    @property
    def option(self) -> str | None:
        """The ruleset option this passage explains, if any."""
        return self.id[len(OPTION_PREFIX) :] if self.id.startswith(OPTION_PREFIX) else None

    @property
    def examples(self) -> tuple[str, ...]:
        """The worked examples (``> `` paragraphs), without their markers."""
        found = []
        for paragraph in self.body.split("\n\n"):
            lines = paragraph.strip().splitlines()
            if lines and all(line.startswith(">") for line in lines):
                found.append(" ".join(line.lstrip("> ").strip() for line in lines))
        return tuple(found)

    @cached_property
    def searchable(self) -> str:
        """Title and text folded by ``normalize``, worked out once per passage."""
        return normalize(f"{self.title}\n{self.body}")

    def mentions(self, term: str) -> bool:
        """Whether the title or text contains ``term``, ignoring case, accents and markup."""
        wanted = normalize(term)
        return bool(wanted) and wanted in self.searchable

    @cached_property
    def _title_stems(self) -> tuple[str, ...]:
        return tuple(words.stem(w, self.lang) for w in words.split(normalize(self.title)))

    @cached_property
    def _stems(self) -> tuple[str, ...]:
        """Every word of title and text as a stem, in reading order."""
        return tuple(words.stem(w, self.lang) for w in words.split(self.searchable))

    def holds(self, wanted: str, in_title: bool = False) -> bool:
        """Whether the text (or just the title) holds the stem ``wanted`` in some form."""
        return any(words.matches(wanted, found, self.lang) for found in (self._title_stems if in_title else self._stems))

    def words_held(self, term: str) -> int:
        """How many of the words of ``term`` the title or text holds, in any order or form."""
        return sum(self.holds(wanted) for wanted in _stems(term, self.lang))

    def holds_every_word(self, term: str) -> bool:
        wanted = _stems(term, self.lang)
        return bool(wanted) and self.words_held(term) == len(wanted)

    def side_by_side(self, wanted: Sequence[str]) -> bool:
        """Whether the stems ``wanted`` stand next to each other in this order."""
        found = self._stems
        return any(
            all(words.matches(w, found[start + i], self.lang) for i, w in enumerate(wanted))
            for start in range(len(found) - len(wanted) + 1)
        )

    def share(self, wanted: str) -> float:
        """Which part of the passage's words are the stem ``wanted``: how much it is about it."""
        return sum(words.matches(wanted, found, self.lang) for found in self._stems) / len(self._stems)


def _stems(term: str, lang: str) -> tuple[str, ...]:
    """The distinct stems of a search term's words, in the order typed."""
    return tuple(dict.fromkeys(words.stem(w, lang) for w in words.split(normalize(term))))


def normalize(text: str) -> str:
    """Text folded for searching: no accents, no case, no Markdown emphasis, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", _MARKUP.sub("", bare)).casefold().strip()


def _language(lang: str | None) -> str:
    lang = lang or i18n.language()
    return lang if lang in LANGUAGES else "en"


@lru_cache(maxsize=None)
def _load(ruleset_id: str, lang: str) -> tuple[Passage, ...]:
    text = (CONTENT_DIR / lang / f"{ruleset_id}.md").read_text(encoding="utf-8")
    passages: list[Passage] = []
    title = section_id = None
    body: list[str] = []

    def close() -> None:
        if section_id is not None:
            passages.append(Passage(ruleset_id, section_id, title, "\n".join(body).strip(), lang))

    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            close()
            title, section_id, body = heading["title"], heading["id"], []
        elif section_id is not None:
            body.append(line)
    close()
    return tuple(passages)


def sections(ruleset_id: str, lang: str | None = None) -> tuple[Passage, ...]:
    """Every passage of one game's rules, in reading order.

    ``lang`` defaults to the app's current language; an unknown language falls back to
    English, like the rest of the app.
    """
    rules.get(ruleset_id)  # RuleError names the known games
    return _load(ruleset_id, _language(lang))


def search(term: str, lang: str | None = None) -> list[Passage]:
    """Every passage of every game that holds every word of ``term``, best first.

    Words are found in any order and whatever their plural or ending
    (``companion.reference.words``), ignoring case, accents and markup. Best first: the
    title holds the words, then the words stand side by side as typed, then they make up
    more of the text; rare words weigh more than common ones ("a", "een"); then the
    registry's game order and reading order. When no passage holds every word, those
    holding the most of them (``Passage.holds_every_word`` tells); a blank term finds
    nothing.
    """
    lang = _language(lang)
    wanted = _stems(term, lang)
    every = [passage for ruleset_id in IDS for passage in sections(ruleset_id, lang)]
    held = {passage: passage.words_held(term) for passage in every}
    most = max(held.values())
    if not most:
        return []
    # A word most passages hold ("a", "een") says little about which one is meant.
    rarity = {w: math.log((len(every) + 1) / (1 + sum(p.holds(w) for p in every))) for w in wanted}

    def best_first(passage: Passage) -> tuple[float, bool, float]:
        in_title = sum(rarity[w] for w in wanted if passage.holds(w, in_title=True))
        about = sum(rarity[w] * passage.share(w) for w in wanted)
        return -in_title, not passage.side_by_side(wanted), -about

    return sorted((passage for passage in every if held[passage] == most), key=best_first)


def option_passages(ruleset_id: str, options: Mapping[str, object] | Iterable[str], lang: str | None = None) -> list[Passage]:
    """The passages explaining the named options of a game, in reading order.

    ``options`` is a game's option mapping (as ``Game.options``) or just option names;
    the scoreboard passes its game's options so the reference can highlight them.
    """
    by_option = {p.option: p for p in sections(ruleset_id, lang) if p.option}
    wanted = set(options)
    unknown = sorted(wanted - by_option.keys())
    if unknown:
        raise RuleError(
            "The rules of {game} have no option called {option}.", unknown[0], game=ruleset_id, option=repr(unknown[0])
        )
    return [passage for name, passage in by_option.items() if name in wanted]
