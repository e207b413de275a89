"""Fixtures of the sharing tests that need the real web app (tests/share/web.py)."""

from __future__ import annotations

import pytest

from tests.share.web import Served


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app as ``companion run`` serves it (this machine only, until shared), over a
    database of its own."""
    import flet as ft

    from companion.ui import app, theme
    from companion.ui.access import guarded

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLET_WEB_NO_CDN", "1")
        patch.setattr(app, "shared", app.SharedStore())
        app.shared.start(f"sqlite:///{tmp_path_factory.mktemp('served') / 'companion.sqlite3'}")
        assert app.shared.get() is not None, app.shared.problem  # opened before anything else runs
        web_app = guarded(ft.run(app.main, export_asgi_app=True, assets_dir=str(theme.web_assets_dir()), no_cdn=True), "127.0.0.1")
        with Served(web_app) as running:
            running.guard = web_app
            yield running


@pytest.fixture
def not_shared(served):
    """Every test starts and ends with the app not shared."""
    from companion.ui import session

    yield
    served.run(session.stop_sharing())
