"""The app's icons for the phone's home screen: a white club (the card suit) on the app's
green, drawn here (no image library needed) with smooth edges from each shape's distance."""

from __future__ import annotations

import math
import struct
import zlib

GREEN = (0x2E, 0x7D, 0x5B)  # companion.ui.theme.SEED
WHITE = (0xFF, 0xFF, 0xFF)

LOBES = ((0.5, 0.33, 0.135), (0.355, 0.53, 0.135), (0.645, 0.53, 0.135), (0.5, 0.48, 0.07))
"""Centre and radius of each round part: three lobes and the middle that joins them."""
STEM = ((0.5, 0.36), (0.4, 0.77), (0.6, 0.77))


def icon_png(size: int, maskable: bool = False) -> bytes:
    """A ``size`` px square PNG. ``maskable``: green to every edge and the club inside the
    middle 80 % (the phone may cut the icon to a circle); else a rounded green square."""
    scale = 0.72 if maskable else 0.9
    rows = []
    for y in range(size):
        row = bytearray([0])  # PNG filter: none
        for x in range(size):
            u, v = (x + 0.5) / size, (y + 0.5) / size
            background = 1.0 if maskable else _coverage(_rounded_square(u, v), size)
            club = _coverage(_club(0.5 + (u - 0.5) / scale, 0.5 + (v - 0.5) / scale) * scale, size)
            color = [round(g + (w - g) * club) for g, w in zip(GREEN, WHITE)]
            row += bytes(color + [round(255 * background)])
        rows.append(bytes(row))
    return _png(size, b"".join(rows))


def _coverage(distance: float, size: int) -> float:
    """How much of a pixel a shape covers, from the signed distance (negative inside) of its centre."""
    return min(1.0, max(0.0, 0.5 - distance * size))


def _club(u: float, v: float) -> float:
    lobes = min(math.hypot(u - cx, v - cy) - radius for cx, cy, radius in LOBES)
    return min(lobes, _triangle(u, v, *STEM))


def _triangle(u: float, v: float, a, b, c) -> float:
    """Signed distance to a triangle's edges (negative inside; exact enough near the edges)."""
    turn = math.copysign(1.0, (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
    inward = [
        turn * ((x2 - x1) * (v - y1) - (y2 - y1) * (u - x1)) / math.hypot(x2 - x1, y2 - y1)
        for (x1, y1), (x2, y2) in ((a, b), (b, c), (c, a))
    ]  # fmt: skip
    return -min(inward)


def _rounded_square(u: float, v: float, radius: float = 0.2) -> float:
    qx, qy = abs(u - 0.5) - (0.5 - radius), abs(v - 0.5) - (0.5 - radius)
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - radius


def _png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
