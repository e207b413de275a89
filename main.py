"""The app on a phone: the entry module of ``flet build apk`` / ``ipa`` ([tool.flet.app] in
pyproject.toml). The phone's host runs it with no arguments; a plain ``ft.run`` then
connects to that host (``companion run``, the computer's web server, is ``python -m companion``)."""

import flet as ft

from companion.ui.app import device_main

ft.run(device_main)
