"""Read an X server screenshot (``xwd -root``) without ImageMagick: TrueColor, 24 or 32 bpp."""

from __future__ import annotations

import struct
import subprocess

import pygame

HEADER = struct.Struct(">25I")
XWD_VERSION = 7
LSB_FIRST = 0


def read_xwd(data: bytes) -> pygame.Surface:
    """The image in an XWD dump as an RGB surface (Xvfb's 24-bit screens: 24 or 32 bpp)."""
    fields = HEADER.unpack_from(data)
    header_size, version, _fmt, _depth, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask, ncolors = fields[14], fields[15], fields[16], fields[19]
    if version != XWD_VERSION or bits_per_pixel not in (24, 32):
        raise ValueError(f"xwd: version {version}, {bits_per_pixel} bpp; expected 7 and 24/32")
    if (red_mask, green_mask, blue_mask) != (0xFF0000, 0x00FF00, 0x0000FF):
        raise ValueError(f"xwd: colour masks {red_mask:#x} {green_mask:#x} {blue_mask:#x}")
    size = bits_per_pixel // 8
    start = header_size + ncolors * 12  # after the window name and the colour map
    rows = b"".join(
        data[start + y * bytes_per_line : start + y * bytes_per_line + width * size]
        for y in range(height)
    )
    # A pixel is 0x(00)RRGGBB: in memory B G R (x) when LSB first, (x) R G B when MSB first.
    pad = size - 3
    r, g, b = (2, 1, 0) if byte_order == LSB_FIRST else (pad, pad + 1, pad + 2)
    rgb = bytearray(width * height * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = rows[r::size], rows[g::size], rows[b::size]
    return pygame.image.frombuffer(bytes(rgb), (width, height), "RGB").copy()


def screenshot(display: str) -> pygame.Surface:
    """The whole screen of X display ``display``, taken by the X server (``xwd -root``)."""
    dump = subprocess.run(
        ["xwd", "-root", "-silent", "-display", display],
        check=True,
        capture_output=True,
        timeout=30,
    ).stdout
    return read_xwd(dump)
