"""The rules texts: every passage in all four languages, every option explained, game terms kept.

A passage missing in one language, an option without a passage or a worked example that
exists in English but not in a translation fails here, named by game, language and id.
"""

from __future__ import annotations

import re

import pytest

from companion import rules
from companion.reference import CONTENT_DIR, CORE_SECTIONS, LANGUAGES, sections

GAMES = rules.IDS
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]


def ids(ruleset_id: str, lang: str) -> list[str]:
    return [p.id for p in sections(ruleset_id, lang)]


def test_every_game_has_a_file_per_language():
    found = {(path.parent.name, path.stem) for path in CONTENT_DIR.glob("*/*.md")}
    assert found == {(lang, game) for lang in LANGUAGES for game in GAMES}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_explains_setup_turn_scoring_and_end(game, lang):
    missing = [section for section in CORE_SECTIONS if section not in ids(game, lang)]
    assert not missing, f"{lang}/{game}.md lacks {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_section_ids_are_unique(game, lang):
    found = ids(game, lang)
    assert len(found) == len(set(found))


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_every_passage_is_translated_in_the_same_order(game, lang):
    english, translated = ids(game, "en"), ids(game, lang)
    assert [i for i in english if i not in translated] == [], f"{lang}/{game}.md lacks these passages"
    assert [i for i in translated if i not in english] == [], f"{lang}/{game}.md has passages English lacks"
    assert translated == english


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_every_worked_example_is_translated(game, lang):
    english = {p.id: len(p.examples) for p in sections(game, "en")}
    translated = {p.id: len(p.examples) for p in sections(game, lang)}
    assert translated == english


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_passage_is_empty(game, lang):
    empty = [p.id for p in sections(game, lang) if not p.title.strip() or len(p.body.split()) < 10]
    assert not empty


@pytest.mark.parametrize("game", GAMES)
def test_scoring_has_a_worked_example(game):
    scoring = next(p for p in sections(game, "en") if p.id == "scoring")
    assert scoring.examples


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_passage_named_after_it(game):
    option_names = [option.name for option in rules.get(game).options]
    explained = [p.option for p in sections(game, "en") if p.option]
    assert sorted(explained) == sorted(option_names)


@pytest.mark.parametrize("game", GAMES)
def test_every_option_passage_has_a_worked_example(game):
    without = [p.id for p in sections(game, "en") if p.option and not p.examples]
    assert not without


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_texts_name_an_option_in_words_never_by_its_id(game, lang):
    """A player knows an option by its label on the New game screen; "with runs_by_colour
    on" is the program's name for it. (A heading's anchor, {#option-...}, is not shown.)"""
    shown = re.sub(r"\{#[^}]*\}", "", (CONTENT_DIR / lang / f"{game}.md").read_text(encoding="utf-8"))
    named = [option.name for option in rules.get(game).options if "_" in option.name and option.name in shown]
    assert not named, f"{lang}/{game}.md names {named}"


# A soft-wrapped line must not begin with what Markdown reads as a list, a heading
# underline or a quote of its own: it would break the paragraph on screen.
BLOCK_START = re.compile(r"^(> )?(?:[+*=]|\d+[.)]|#{1,6})\s")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_wrapped_line_starts_a_markdown_block(game, lang):
    lines = (CONTENT_DIR / lang / f"{game}.md").read_text(encoding="utf-8").splitlines()
    bad = [n for n, line in enumerate(lines, 1) if BLOCK_START.match(line) and not line.startswith(("# ", "## "))]
    assert not bad, f"{lang}/{game}.md lines {bad}"


# Game terms stay as players say them at the table, loanwords included.
TERMS = [
    ("klaverjassen", "roem"),
    ("klaverjassen", "nat"),
    ("klaverjassen", "pit"),
    ("klaverjassen", "stuk"),
    ("klaverjassen", "verzaakt"),
    ("klaverjassen", "boompje"),
    ("clubs", "Double Cards"),
    ("clubs", "Crazy CLUBS"),
    ("clubs", "single"),
    ("clubs", "set"),
    ("clubs", "run"),
    ("members_only", "Big Ben"),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game", "term"), TERMS)
def test_game_terms_are_kept_in_every_language(game, term, lang):
    assert any(p.mentions(term) for p in sections(game, lang))


@pytest.mark.parametrize(
    ("lang", "game", "term"),
    [
        ("de", "members_only", "Doppelstein"),
        ("de", "members_only", "Risikostein"),
        ("nl", "members_only", "dubbele steen"),
        ("nl", "members_only", "risicosteen"),
        ("fr", "members_only", "jeton double"),
        ("en", "members_only", "double stone"),
        ("en", "members_only", "risk stone"),
        ("fr", "clubs", "Quitte ou double"),
        ("de", "clubs", "15er-Joker"),
        ("nl", "clubs", "15-joker"),
        ("nl", "beverbende", "kloppen"),
        ("de", "klaverjassen", "Trumpf"),
        ("fr", "klaverjassen", "atout"),
        ("nl", "klaverjassen", "troef"),
    ],
)
def test_local_names_of_game_pieces(lang, game, term):
    assert any(p.mentions(term) for p in sections(game, lang))



@pytest.mark.parametrize(
    ("lang", "how"),
    [
        ("en", "a play never has fewer cards than the last play"),
        ("nl", "een spel heeft nooit minder kaarten dan het laatste spel"),
        ("de", "ein Spiel hat nie weniger Karten als das letzte Spiel"),
        ("fr", "un coup n'a jamais moins de cartes que le dernier coup"),
    ],
)
def test_crazy_clubs_says_how_more_cards_is_read(lang, how):
    """The rulebook's "higher, or more cards" never lets a play have fewer cards (issue 15 point 14)."""
    crazy = next(p for p in sections("clubs", lang) if p.id == "option-crazy")
    assert crazy.mentions(how)
