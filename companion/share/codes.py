"""The secrets of a shared table: the join code everyone at the table may see, the host
code only the person who started the server sees, and the key each joined browser keeps.

Codes use Crockford's base-32 alphabet (digits and capitals without I, L, O and U), so a
code read aloud or typed from a screen survives the usual slips: case, spaces and dashes
do not matter, and O, I and L are read as 0, 1 and 1.
"""

from __future__ import annotations

import hmac
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
JOIN_CODE_LENGTH = 8
"""40 bits: far beyond guessing once wrong tries are slowed down (see limiter)."""
HOST_CODE_LENGTH = 26
"""130 bits: the host code is never typed, only opened as a link."""

_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})


def new_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_device_key() -> str:
    """The key a joined browser keeps to come back as the same device (never shown)."""
    return secrets.token_urlsafe(24)


def normalise(typed: str) -> str:
    """A code as typed or scanned, in the form it was issued."""
    return typed.strip().upper().translate(_READ_AS)


def matches(typed: str, code: str) -> bool:
    """Whether ``typed`` is ``code``, compared in constant time (no code: nothing matches)."""
    return bool(code) and hmac.compare_digest(normalise(typed).encode(), code.encode())


def grouped(code: str) -> str:
    """A join code as shown to people: 'K7QM-2XHD'."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))
