"""Errors of the store, each with a message a player can read as it is, in their language.

Like ``companion.rules.RuleError``, an error keeps its English template and the values for
its ``{placeholders}`` (the template is extracted into the catalogues: ``StoreError``,
``StaleError`` and ``NotFoundError`` are Babel keywords), and ``message`` translates it when
it is read, so each device reads it in its own language.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_
from companion.i18n import _
from companion.rules.text import briefly


class StoreError(Exception):
    """Something the store cannot do; ``message`` says what in the user's words (quoting
    the values briefly, see ``companion.rules.text.brief``)."""

    def __init__(self, message: str, **params: Any):
        self.template = message
        self.params = params = briefly(params)
        super().__init__(message.format(**params) if params else message)

    @property
    def message(self) -> str:
        """The sentence to show the user, in the current language."""
        text = _(self.template)
        return text.format(**self.params) if self.params else text

    @property
    def detail(self) -> str:
        """What the command line and the server's terminal say: here, the message too."""
        return self.message

    def __str__(self) -> str:
        return self.message


class UnreachableError(StoreError):
    """The database server did not answer (PostgreSQL restarting, its network gone, a login
    it refused). A device's page says so in one sentence; ``detail`` names the database and
    the driver's words, for whoever runs the server: a phone has no use for its address."""

    def __init__(self, where: Any, reason: str):
        super().__init__(N_("The database does not answer just now. Try again in a moment."))
        self.where, self.reason = where, reason

    @property
    def detail(self) -> str:
        return StoreError("Cannot reach the database at {where}: {detail}", where=self.where, detail=self.reason).message


class StaleError(StoreError):
    """The game changed (on another device) since the caller last read it."""

    def __init__(self, message: str = N_("This round changed on another device; reload."), **params: Any):
        super().__init__(message, **params)


class NotFoundError(StoreError):
    """No game or player with the given id or name."""
