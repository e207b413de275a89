"""The QR code carries the join link, and the PNG drawn for the screen is that code."""

from __future__ import annotations

import struct
import zlib

import qrcode
from qrcode.constants import ERROR_CORRECT_M

from companion.share import qr
from companion.share.table import Invitation

LINK = "http://192.168.1.5:8550/?code=K7QM2XHD"


def reference_matrix(text: str, border: int = qr.QUIET_ZONE) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=border)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


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
    assert qr.matrix(invitation.join_url) == reference_matrix(LINK)
    assert qr.matrix(invitation.join_url) != reference_matrix(invitation.host_url)


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


def test_the_terminal_drawing_has_a_line_per_two_rows_of_modules():
    text = qr.terminal(LINK)
    lines = text.splitlines()
    modules = reference_matrix(LINK, border=2)
    assert len(lines) == (len(modules) + 1) // 2
    assert all(len(line) == len(modules) for line in lines)
