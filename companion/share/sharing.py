"""Whether this server's table is shared, and with which codes: the one shared ``Table`` of
the process (None while the app is only for this machine), started and stopped here.

The screens (companion.ui.session, companion.ui.share_panel) and the guard
(companion.ui.access) ask ``current_table``; nothing here knows a screen.
"""

from __future__ import annotations

from companion.i18n import _
from companion.share import codes, qr
from companion.share.address import reachable_address
from companion.share.table import Device, Invitation, Table

_table: Table | None = None


def start_sharing(host: str, port: int) -> Table:
    """Share this server's table: new codes, reachable at ``host``'s network address."""
    global _table
    _table = Table(Invitation(reachable_address(host), port))
    return _table


def stop_sharing() -> Table | None:
    """The app is for this machine only again: the table that was shared, if any, is over."""
    global _table
    table, _table = _table, None
    return table


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
