"""Browser fixtures for the referee and reference screens: the bare harness app in Chromium.

The screens are served by ``tests.ui.referee.harness`` (no store, no navigation), so the
browser tests check the screens themselves; the shared helpers come from tests/browser.
"""

from __future__ import annotations

import sys

import pytest

from tests.browser.conftest import _need_chromium, free_port, phones, start_app, stop


@pytest.fixture(scope="session")
def harness_url(tmp_path_factory):
    _need_chromium()
    port = free_port()
    log = tmp_path_factory.mktemp("harness") / "harness.log"
    process = start_app([sys.executable, "-m", "tests.ui.referee.harness"], port, None, log)
    yield f"http://127.0.0.1:{port}"
    stop(process)


@pytest.fixture
def screen(chromium, harness_url, tmp_path):
    with phones(chromium, tmp_path) as open_phone:
        yield open_phone(harness_url)
