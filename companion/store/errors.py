"""Errors of the store, each with a message a player can read as it is."""

from __future__ import annotations


class StoreError(Exception):
    """Something the store cannot do; ``message`` says what in the user's words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class StaleError(StoreError):
    """The game changed (on another device) since the caller last read it."""

    def __init__(self, message: str = "This round changed on another device; reload."):
        super().__init__(message)


class NotFoundError(StoreError):
    """No game or player with the given id or name."""
