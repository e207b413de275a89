"""The screen stays awake while a game is open, and only then."""

from __future__ import annotations

import asyncio

from companion.ui.awake import ScreenAwake
from companion.ui.routes import parse


class FakeWakelock:
    def __init__(self, calls: list[str], refuse: bool = False):
        self.calls = calls
        self.refuse = refuse

    async def enable(self) -> None:
        self.calls.append("enable")
        if self.refuse:
            raise RuntimeError("no wakelock on this device")

    async def disable(self) -> None:
        self.calls.append("disable")


def awake(calls: list[str], made: list[FakeWakelock], refuse: bool = False) -> ScreenAwake:
    def lock():
        made.append(FakeWakelock(calls, refuse))
        return made[-1]

    return ScreenAwake(lock, lambda coroutine, *args: asyncio.run(coroutine(*args)))


def test_the_wakelock_is_held_while_a_game_is_open_and_let_go_when_leaving_it():
    calls, made = [], []
    screen = awake(calls, made)
    walk = [
        ("/", []),
        ("/history", []),
        ("/game/3", ["enable"]),
        ("/game/3/round", []),
        ("/game/3/referee", []),
        ("/game/3", []),
        ("/", ["disable"]),
        ("/table/3", ["enable"]),
        ("/history/3", ["disable"]),
    ]
    for route, expected in walk:
        before = len(calls)
        screen.follow(parse(route))
        assert calls[before:] == expected, route
    assert len(made) == 1  # one wakelock for the whole session


def test_no_wakelock_is_made_before_a_game_is_opened():
    calls, made = [], []
    screen = awake(calls, made)
    for route in ("/", "/history", "/players/Ann", "/settings", "/rules"):
        screen.follow(parse(route))
    assert made == [] and not screen.held


def test_a_device_that_refuses_the_wakelock_plays_on():
    calls, made = [], []
    screen = awake(calls, made, refuse=True)
    screen.follow(parse("/game/1"))
    screen.follow(parse("/"))
    assert calls == ["enable", "disable"]
