"""The club evenings as a session sees them (``LiveStore.evenings``): kept apart from
``companion.share.live``, which the first page needs, as the evenings' store brings the
database libraries with it (imported once home is drawn: ``companion.ui.app``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from companion.rules.club import SeasonStanding
from companion.store.club import Evening, EveningResult, Evenings

if TYPE_CHECKING:
    from companion.store import Store


class EveningChecks(Protocol):
    """What ``LiveEvenings`` asks of its session (a ``LiveStore``): its checks, and telling the others."""

    def _may_read(self) -> None: ...

    def _may_organise(self) -> None: ...

    def _evening_changed(self, evening_id: int, players: bool) -> None: ...


class LiveEvenings(Evenings):
    """The club evenings through a session's ``LiveStore``: every read needs the device at
    the table, every change the host's device, and each change is announced once saved (a
    draw's new games reach the lists, the evening's page follows). Each method of
    ``Evenings`` is listed here, so one added later is not let through unchecked."""

    def __init__(self, store: Store, session: EveningChecks):
        super().__init__(store)
        self._session = session

    # --- reads ---------------------------------------------------------------------------

    def evening(self, evening_id: int) -> Evening:
        self._session._may_read()
        return super().evening(evening_id)

    def evenings(self, season_name: str | None = None) -> list[Evening]:
        self._session._may_read()
        return super().evenings(season_name)

    def result(self, evening_id: int) -> EveningResult:
        self._session._may_read()
        return super().result(evening_id)

    def season_table(self, season_name: str, best_of: int | None = None) -> list[SeasonStanding]:
        self._session._may_read()
        return super().season_table(season_name, best_of)

    # --- changes -------------------------------------------------------------------------

    def create(self, *args: Any, **kwargs: Any) -> Evening:
        self._session._may_organise()
        return self._changed(super().create(*args, **kwargs), players=True)

    def check_in(self, evening_id: int, name: str) -> Evening:
        self._session._may_organise()
        return self._changed(super().check_in(evening_id, name), players=True)

    def check_out(self, evening_id: int, name: str) -> Evening:
        self._session._may_organise()
        return self._changed(super().check_out(evening_id, name))

    def draw_next(self, evening_id: int, rounds: int | None = None) -> Evening:
        self._session._may_organise()
        return self._changed(super().draw_next(evening_id, rounds))

    def close(self, evening_id: int) -> Evening:
        self._session._may_organise()
        return self._changed(super().close(evening_id))

    def _changed(self, evening: Evening, players: bool = False) -> Evening:
        self._session._evening_changed(evening.id, players)
        return evening
