"""One dispute per game settled in a real browser at phone size, and the rules reference.

Served by the bare harness app (``tests.browser.referee_harness``: no store, no navigation),
so these tests check the screens themselves; taps go through the screens' test identifiers.
"""

from __future__ import annotations

import sys

import pytest

from tests.browser.conftest import _need_chromium, free_port, phones, start_app, stop

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def harness_url(tmp_path_factory):
    _need_chromium()
    port = free_port()
    log = tmp_path_factory.mktemp("harness") / "harness.log"
    process = start_app([sys.executable, "-m", "tests.browser.referee_harness"], port, None, log)
    yield f"http://127.0.0.1:{port}"
    stop(process)


@pytest.fixture
def screen(chromium, harness_url, tmp_path):
    with phones(chromium, tmp_path) as open_phone:
        yield open_phone(harness_url)


def test_clubs_can_i_play_two_9s_on_two_7s(screen):
    screen.open("/referee/clubs")
    screen.tap("referee-clubs-pile-table")
    screen.tap("referee-clubs-card-7")
    screen.wait("referee-clubs-table-0")
    screen.tap("referee-clubs-card-7")
    screen.wait("referee-clubs-table-1")
    screen.tap("referee-clubs-pile-play")
    screen.tap("referee-clubs-card-9")
    screen.wait("referee-clubs-play-0")
    screen.tap("referee-clubs-card-9")
    screen.expect_text("referee-clubs-play", "9.*9")
    screen.expect_text("referee-clubs-verdict", "Yes, you may play this")
    screen.expect_text("referee-clubs-verdict", "does not win the trick at once")
    screen.tap("referee-clubs-card-15")
    screen.expect_text("referee-clubs-verdict", "No, you may not play this")


def test_klaverjassen_do_i_have_to_trump_my_partners_ace(screen):
    screen.open("/referee/klaverjassen")
    screen.tap("referee-klaver-trump-H")
    screen.tap("referee-klaver-card-AS")
    screen.expect_text("referee-klaver-trick", "A\u2660")
    screen.tap("referee-klaver-card-7S")
    screen.expect_text("referee-klaver-trick", "7\u2660")
    screen.tap("referee-klaver-pile-hand")
    screen.tap("referee-klaver-card-7H")
    screen.expect_text("referee-klaver-hand", "7\u2665")
    screen.tap("referee-klaver-card-KD")
    screen.expect_text("referee-klaver-hand", "K\u2666")
    screen.expect_text("referee-klaver-standing", "your partner")
    screen.expect_text("referee-klaver-amsterdam", "need not trump")
    screen.expect_text("referee-klaver-rotterdam", "must trump")


def test_members_only_what_does_my_double_stone_on_3_or_fewer_pay(screen):
    screen.open("/referee/members_only")
    screen.tap("referee-members-field-<=3")
    screen.tap("referee-members-stone-double")
    screen.expect_text("referee-members-verdict", "pays 4")
    screen.expect_text("referee-members-verdict", "Right: the bet pays 4")
    screen.tap("referee-members-shown-plus")
    screen.expect_text("referee-members-verdict", "Wrong: 4 is not 3 or fewer")
    screen.expect_text("referee-members-verdict", "lost for the rest of the game")


def test_beverbende_may_i_knock_yet(screen):
    screen.open("/referee/beverbende")
    screen.tap("referee-bever-players-minus")
    screen.expect_text("referee-bever-players", r"^\s*3\s*$")
    for seat in (1, 2):
        screen.tap(f"referee-bever-turns-{seat}-plus")
        screen.expect_text(f"referee-bever-turns-{seat}", r"^\s*1\s*$")
    screen.expect_text("referee-bever-knock", r"(?s)may not knock yet.*Player 3 not yet")
    screen.tap("referee-bever-turns-3-plus")
    screen.expect_text("referee-bever-knock", "Player 1 may knock")


def test_reference_search_and_highlighted_options(screen):
    screen.open("/reference/klaverjassen")
    screen.expect_text("reference-summary", "Klaverjassen")
    screen.expect_text("reference-setting-klaverjassen-variant", r"In your game: Amsterdam \(the default\)")
    screen.type("Search the rules", "risk stone")
    screen.expect_text("reference-summary", "3 passages mention")
    screen.wait("reference-passage-members_only-risk-stone")
