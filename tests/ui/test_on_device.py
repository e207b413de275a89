"""``widgets.on_device``: a call on the device the screen does not wait for (a choice
remembered in its storage, the keyboard back in a field), and no failure (no traceback in
the server's log) when the device cannot, the page has gone or its browser does not answer."""

from __future__ import annotations

import asyncio

import pytest

from companion.ui import widgets


class Device:
    """A browser that answers every call with ``error``, or with nothing; the calls it got."""

    def __init__(self, error: Exception | None):
        self.error = error
        self.calls: list[tuple] = []

    async def set(self, key: str, value: str) -> None:
        self.calls.append((key, value))
        if self.error is not None:
            raise self.error


class Page:
    def run_task(self, handler) -> None:
        asyncio.run(handler())


@pytest.mark.parametrize(
    "error",
    [None, RuntimeError("Session closed"), RuntimeError("localStorage is not available"), TimeoutError("Timeout waiting for invokeMethod")],
    ids=["answered", "page gone", "device cannot", "no answer"],
)
def test_the_device_is_asked_and_a_refusal_or_silence_is_no_failure(error):
    device = Device(error)
    widgets.on_device(Page(), device.set, "theme", "dark")
    assert device.calls == [("theme", "dark")]


def test_a_failure_of_another_kind_is_not_hidden():
    with pytest.raises(AttributeError):
        widgets.on_device(Page(), Device(AttributeError("a defect")).set, "theme", "dark")
