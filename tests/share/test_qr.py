"""The QR code carries the join link, and the PNG drawn for the screen is that code.

What a code carries is read back by an independent decoder (zxing-cpp, the library many
phone scanners use), not by laying out the modules again the way ``qr`` does.
"""

from __future__ import annotations

import struct
import zlib

import zxingcpp

from companion.share import qr
from companion.share.table import Invitation

LINK = "http://192.168.1.5:8550/?code=K7QM2XHD"


def scanned(pixels: list[list[bool]]) -> str | None:
    """What a scanner reads in the picture (True is black), or None when it finds no QR code."""
    height, width = len(pixels), len(pixels[0])
    grey = bytes(0 if dark else 255 for row in pixels for dark in row)
    found = zxingcpp.read_barcode(
        zxingcpp.ImageView(grey, width, height, zxingcpp.ImageFormat.Lum),
        formats=zxingcpp.BarcodeFormat.QRCode,
        try_invert=False,  # dark modules on light, as a code must be drawn
    )
    return found.text if found else None


def decode_png(data: bytes) -> list[list[bool]]:
    """The pixels of a 1-bit greyscale PNG without filters; True is black."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, colour, _c, _f, _i = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (1, 0)
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 1 + (width + 7) // 8
    rows = []
    for y in range(height):
        line = raw[y * stride : (y + 1) * stride]
        assert line[0] == 0
        bits = "".join(f"{byte:08b}" for byte in line[1:])[:width]
        rows.append([bit == "0" for bit in bits])
    return rows


def test_the_code_carries_exactly_the_join_link():
    invitation = Invitation("192.168.1.5", 8550, code="K7QM2XHD", host_code="0" * 26)
    assert invitation.join_url == LINK
    assert scanned(decode_png(qr.png(invitation.join_url))) == LINK  # the join link, not the host link


def test_the_code_has_its_quiet_zone():
    modules = qr.matrix(LINK)
    assert not any(modules[0]) and not any(modules[-1])
    assert not any(row[0] or row[-1] for row in modules)
    assert modules[qr.QUIET_ZONE][qr.QUIET_ZONE]  # the finder pattern's corner


def test_the_png_shows_every_module_as_a_square_of_pixels():
    modules = qr.matrix(LINK)
    scale = 5
    pixels = decode_png(qr.png(LINK, scale=scale))
    assert len(pixels) == len(modules) * scale
    for y, row in enumerate(pixels):
        assert row == [modules[y // scale][x // scale] for x in range(len(row))]


def test_the_terminal_drawing_scans_as_the_join_link():
    """Each character draws two modules, light where the block is (a terminal writes light
    on dark); a scanner pointed at the terminal reads the link."""
    pixels = []
    for line in qr.terminal(LINK).splitlines():
        pixels.append([char not in "█▀" for char in line])
        pixels.append([char not in "█▄" for char in line])
    assert scanned(pixels) == LINK
