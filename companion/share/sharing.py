"""Whether this server's table is shared, and with which codes: the one shared ``Table`` of
the process (None while the app is only for this machine), started and stopped here.

The screens (companion.ui.session, companion.ui.share_panel) and the guard
(companion.ui.access) ask ``current_table``; nothing here knows a screen.
"""

from __future__ import annotations

from companion.i18n import _
from companion.share import codes, qr
from companion.share.address import reachable_address
from typing import TYPE_CHECKING, Callable

from companion.share.table import Device, Invitation, Table

if TYPE_CHECKING:
    from companion.store import Store

_table: Table | None = None
_store: Callable[[], Store] | None = None


def keep_tables_in(store: Callable[[], Store]) -> None:
    """Keep the shared table's state in the server's store (``store()`` gives it, once open),
    so that every process of the server shares it; until called, a table keeps it in memory."""
    global _store
    _store = store


def start_sharing(host: str, port: int) -> Table:
    """Share this server's table: new codes, reachable at ``host``'s network address."""
    global _table
    from companion.store.seats import Seats

    _table = Table(Invitation(reachable_address(host), port), seats=Seats(_store) if _store is not None else None)
    return _table


def stop_sharing() -> Table | None:
    """The app is for this machine only again: the table that was shared, if any, is over
    (in the database too: its device keys let nobody in again)."""
    global _table
    table, _table = _table, None
    if table is not None:
        table.stop()
    return table


def adopt(table: Table) -> None:
    """Serve ``table``, shared by the process that started this one (``--workers``)."""
    global _table
    _table = table


def current_table() -> Table | None:
    """The shared table, or None when the app is only for this machine."""
    return _table


def seated(device: Device) -> bool:
    """Whether ``device`` is at the table as it is now: this machine's own user while the
    app is not shared, else a device that joined the current table (not an earlier one)."""
    if device.is_this_machine:
        return True
    table = current_table()
    return table is not None and table.seats(device)


def confirmed(device: Device) -> bool:
    """``seated``, as the database says now, with the device's rights read again (before a
    change: the server's other processes may have ended the device or changed its rights)."""
    if device.is_this_machine:
        return True
    table = current_table()
    return table is not None and table.confirms(device)


def announcement(table: Table) -> str:
    """What ``companion run --share`` prints: how phones join, and the host's own link."""
    invitation = table.invitation
    return "\n".join(
        [
            _("Companion is sharing this table on the local network."),
            _("Phones at the table scan this code, or open {address} and type the code {code}:").format(
                address=invitation.base_url, code=codes.grouped(invitation.code)
            ),
            qr.terminal(invitation.join_url),
            _("Join link: {url}").format(url=invitation.join_url),
            _("Host link, for your own device only (it may enter rounds and let others do so):"),
            "  " + invitation.host_url,
        ]
    )
