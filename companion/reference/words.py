"""Words for searching the rules: folded text split into words, each cut to a stem per language.

Not a full stemmer: a few suffixes per language, enough that a player's word meets the
text's whatever its number or ending ("stone"/"stones", "steen"/"stenen",
"Stein"/"Steine", "jeton"/"jetons", "score"/"scoring"). Dutch and German glue words
together ("risicosteen", "Wettstein"), so there a longer word is also found inside one.
Pure: text in, stems out.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
_DOUBLE_VOWEL = re.compile(r"([aeiou])\1")
_COMPOUNDING = frozenset({"nl", "de"})
_SHORTEST_PART = 4  # a stem shorter than this ("een", "ein") is matched whole only

_SUFFIXES = {
    "de": ("ern", "en", "em", "er", "es", "e", "s"),
    "fr": ("ent", "ant", "er", "ez", "e"),
}


def split(folded: str) -> list[str]:
    """The words of text already folded by ``companion.reference.normalize``."""
    return _WORD.findall(folded)


def stem(word: str, lang: str) -> str:
    """``word`` (folded) without the endings of plural and inflection in ``lang``."""
    if word.isdigit():
        return word
    if lang == "nl":
        return _dutch(word)
    if lang == "de":
        return _cut(_cut(word, _SUFFIXES["de"]), _SUFFIXES["de"])  # "verlorener", "verlorene", "verloren"
    if lang == "fr":
        return _cut(_cut(word, ("s", "x")), _SUFFIXES["fr"])
    return _english(word)


def matches(wanted: str, found: str, lang: str) -> bool:
    """Whether the text's stem ``found`` is the player's stem ``wanted`` (or, glued, holds it)."""
    if wanted == found:
        return True
    return lang in _COMPOUNDING and len(wanted) >= _SHORTEST_PART and wanted in found


def _cut(word: str, suffixes: tuple[str, ...], keep: int = 3) -> str:
    """``word`` without the first of ``suffixes`` it ends with, if ``keep`` letters stay."""
    for suffix in suffixes:
        if suffix == "s" and word.endswith("ss"):  # "weiss", "pass": no plural
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[: -len(suffix)]
    return word


def _undouble(word: str) -> str:
    """'bett' -> 'bet', 'ball' -> 'bal': a doubled final consonant once."""
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        return word[:-1]
    return word


def _english(word: str) -> str:
    if len(word) <= 3:
        return word
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    word = _undouble(_cut(word, ("ing", "ed")))
    return _cut(word, ("e",))


def _dutch(word: str) -> str:
    if not word.endswith("een"):  # "steen" is one stone; "stenen" two
        word = _cut(word, ("en",))
    word = _cut(_cut(word, ("s",)), ("e",))
    return _DOUBLE_VOWEL.sub(r"\1", _undouble(word))
