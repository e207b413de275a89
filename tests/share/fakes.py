"""Stand-ins the share tests share."""

from __future__ import annotations


class Clock:
    """A clock the test moves by hand (``clock.now += 5``), for the table's waits."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now
