"""The one clock for stored times: aware, in UTC. A module of its own so that code on the
server's start path (the shared table) reads it without loading the database libraries."""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> datetime:
    return datetime.now(timezone.utc)
