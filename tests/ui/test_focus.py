"""``widgets.give_focus``: the keyboard back in a field after Enter took it, and no failure
(no traceback in the server's log) when the page has gone or its browser does not answer."""

from __future__ import annotations

import asyncio

import pytest

from companion.ui import widgets


class Field:
    """A text field whose browser answers the focus call with ``error``, or with nothing."""

    def __init__(self, error: Exception | None):
        self.error = error
        self.asked = 0

    async def focus(self) -> None:
        self.asked += 1
        if self.error is not None:
            raise self.error


class Page:
    def run_task(self, handler) -> None:
        asyncio.run(handler())


@pytest.mark.parametrize(
    "error",
    [None, RuntimeError("Session closed"), TimeoutError("Timeout waiting for invokeMethod focus(None) call")],
    ids=["answered", "page gone", "no answer"],
)
def test_the_field_is_asked_for_the_focus_and_a_page_gone_or_silent_is_no_failure(error):
    field = Field(error)
    widgets.give_focus(Page(), field)
    assert field.asked == 1


def test_a_failure_of_another_kind_is_not_hidden():
    with pytest.raises(AttributeError):
        widgets.give_focus(Page(), Field(AttributeError("a defect")))
