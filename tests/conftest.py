"""Settings for the whole suite.

Hypothesis' per-example deadline is a timing assertion; on a loaded 2-core machine it
fails correct code, so it is off everywhere (speed is measured in bench/ instead).

The headless Chromium for browser tests is defined once, here: Playwright's sync API
allows one instance per process, and browser tests live in more than one folder.
"""

import pytest
from hypothesis import settings

settings.register_profile("companion", deadline=None, print_blob=True)
settings.load_profile("companion")


@pytest.fixture(scope="session")
def chromium():
    from tests.browser.conftest import _need_chromium
    from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS

    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def no_flet_page_left_current():
    """A test that drives a served page from its own thread (tests/share) leaves Flet's current
    page set in that thread; a control made by a later test would then join that page, whose
    session is gone. Each test starts and ends with no current page."""
    from flet.controls.context import _context_page

    token = _context_page.set(None)
    yield
    _context_page.reset(token)
