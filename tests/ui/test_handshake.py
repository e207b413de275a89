"""A page says what its device remembers in a cookie of its websocket's handshake
(companion.ui.handshake): the server reads what the page's script wrote, and nothing else."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.ui import handshake
from companion.ui.handshake import COOKIE, Said, said, with_script

HOST = "192.168.1.20:8550"


def headers_with(value: object, host: str = HOST, around: tuple[str, ...] = ()) -> dict[bytes, bytes]:
    """The headers of a websocket handshake whose cookie holds ``value`` as the script writes it."""
    text = value if isinstance(value, str) else quote(json.dumps(value))
    cookie = "; ".join([*around, f"{COOKIE}={text}"])
    return {b"host": host.encode(), b"cookie": cookie.encode()}


def test_the_choice_and_the_device_languages_are_read_as_language_codes():
    headers = headers_with({"host": HOST, "chosen": "nl", "locales": ["de-DE", "en-GB", "fr"]})
    assert said(headers) == Said("nl", ["de", "en", "fr"])


def test_a_page_with_no_choice_says_so():
    assert said(headers_with({"host": HOST, "chosen": None, "locales": ["fr-BE"]})) == Said(None, ["fr"])


@pytest.mark.parametrize("theme, read", [("dark", "dark"), ("light", "light"), (None, None), ("sepia", None), (1, None)])
def test_the_theme_chosen_on_the_device_is_read_and_any_other_value_is_no_choice(theme, read):
    found = said(headers_with({"host": HOST, "chosen": None, "locales": ["nl"], "theme": theme}))
    assert found == Said(None, ["nl"], read)


def test_the_cookie_is_found_among_other_sites_cookies():
    headers = headers_with({"host": HOST, "chosen": "de", "locales": []}, around=("session=abc", 'odd="a;b', "x"))
    assert said(headers) == Said("de", [])


@pytest.mark.parametrize(
    "value",
    [
        {"host": "192.168.1.20:8551", "chosen": "nl", "locales": []},  # another Companion's page on this host set it
        {"chosen": "nl", "locales": []},
        "not%20json",
        quote(json.dumps(["nl"])),
        {"host": HOST, "chosen": 7, "locales": []},
        {"host": HOST, "chosen": "n" * 36, "locales": []},
        {"host": HOST, "chosen": "nl", "locales": "nl"},
        {"host": HOST, "chosen": "nl", "locales": ["nl", None]},
        {"host": HOST, "chosen": "nl", "locales": ["x" * 36]},
    ],
    ids=["another-address", "no-address", "not-json", "not-an-object", "choice-not-text", "choice-too-long", "locales-not-a-list", "a-locale-not-text", "a-locale-too-long"],
)
def test_a_cookie_the_script_did_not_write_for_this_address_is_not_taken(value):
    assert said(headers_with(value)) is None


def test_a_handshake_without_the_cookie_says_nothing():
    assert said({b"host": HOST.encode()}) is None
    assert said({b"host": HOST.encode(), b"cookie": b"session=abc"}) is None


@given(cookie=st.binary(max_size=300), fields=st.dictionaries(st.sampled_from(["host", "chosen", "locales", "theme"]), st.recursive(st.none() | st.text(max_size=40) | st.integers(), lambda inner: st.lists(inner, max_size=4), max_leaves=8)))
def test_whatever_a_handshake_holds_is_read_or_left_without_an_error(cookie, fields):
    """The cookie is the browser's input like any other: anything in it is a language said or nothing."""
    for headers in ({b"host": HOST.encode(), b"cookie": cookie}, headers_with({**fields, "host": HOST})):
        found = said(headers)
        assert found is None or (found.chosen is None or isinstance(found.chosen, str)) and all(isinstance(code, str) and code for code in found.locales) and found.theme in (None, *handshake.THEMES)


def test_a_page_naming_many_languages_is_read_up_to_a_limit():
    many = said(headers_with({"host": HOST, "chosen": None, "locales": ["nl"] * 1000}))
    assert many is not None and len(many.locales) == handshake.MAX_LOCALES


def test_the_script_runs_before_the_client_starts():
    page = "<html><head><script src='python.js'></script></head><body><script src='flutter_bootstrap.js' async></script></body></html>"
    changed = with_script(page)
    assert changed.index(handshake.SCRIPT) < changed.index("</head>") < changed.index("flutter_bootstrap.js")
    assert changed.replace(handshake.SCRIPT, "") == page


def test_a_page_without_a_head_is_refused_rather_than_served_without_the_script():
    with pytest.raises(ValueError):
        with_script("<html><body></body></html>")
