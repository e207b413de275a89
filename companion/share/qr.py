"""QR codes for the join address: a PNG for the screen and text for the terminal.

The ``qrcode`` package lays out the modules; the PNG is written here (black and white,
one bit per pixel) so that no imaging library is needed.
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

QUIET_ZONE = 4
"""The white margin, in modules, that scanners need around the code."""


def _laid_out(text: str, border: int) -> Any:
    """``text``'s code as the ``qrcode`` package lays it out. The package is imported here, on
    first use: it imports Pillow (about 40 ms), which neither the server's start nor the
    first page needs."""
    import qrcode  # type: ignore[import-untyped]  # qrcode ships no type information
    from qrcode.constants import ERROR_CORRECT_M  # type: ignore[import-untyped]

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=border)
    code.add_data(text)
    code.make(fit=True)
    return code


def matrix(text: str) -> list[list[bool]]:
    """The code's modules row by row, quiet zone included; True is a dark module."""
    modules: list[list[bool]] = _laid_out(text, QUIET_ZONE).get_matrix()
    return modules


def png(text: str, scale: int = 8) -> bytes:
    """A PNG of the QR code for ``text``, ``scale`` pixels per module."""
    modules = matrix(text)
    size = len(modules) * scale
    pixels = bytearray()
    for line in modules:
        bits = "".join("0" if dark else "1" for dark in line for _ in range(scale))  # 0 is black
        bits += "1" * (-len(bits) % 8)
        row = bytes([0]) + bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8))  # filter 0: none
        pixels.extend(row * scale)  # square modules
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 1, 0, 0, 0, 0)),  # 1-bit greyscale
            _chunk(b"IDAT", zlib.compress(bytes(pixels))),
            _chunk(b"IEND", b""),
        ]
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def terminal(text: str) -> str:
    """The QR code for ``text`` drawn with block characters, for printing in a terminal."""
    out = io.StringIO()
    _laid_out(text, border=2).print_ascii(out=out, invert=True)
    return out.getvalue()
