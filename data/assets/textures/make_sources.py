#!/usr/bin/env python3
"""Writes the small generated source images of data/textures.kcmd (plain Python, no libraries).

The book's examples name JPEG files; these sources are PNGs with the same base names.
Run from this folder: python3 make_sources.py
"""
import math
import struct
import zlib


def write_png(name, width, height, pixel, channels=3):
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(int(max(0, min(255, round(v)))) for v in pixel(x, y)[:channels])
    color_type = {1: 0, 3: 2, 4: 6}[channels]

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    with open(name, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def picture(x, y, w, h):
    """A colour picture: a sky gradient, a sun and a striped ground."""
    u, v = x / w, y / h
    if v > 0.65:
        return (60 + 80 * ((x // 4) % 2), 140, 50)
    if (u - 0.7) ** 2 + (v - 0.3) ** 2 < 0.02:
        return (255, 220, 60)
    return (40 + 100 * v, 90 + 120 * v, 230)


write_png("example1.png", 48, 40, lambda x, y: picture(x, y, 48, 40))
write_png("example2.png", 32, 32, lambda x, y: picture(x, y, 32, 32))
write_png("example3color.png", 64, 64, lambda x, y: picture(x, y, 64, 64))
write_png("example3alpha.png", 64, 64,
          lambda x, y: (255 * max(0.0, 1 - math.hypot(x - 32, y - 32) / 32),) * 3)
write_png("example4.png", 32, 32, lambda x, y: (8 * x, 200 if (x + y) % 8 < 4 else 40, 8 * y))
write_png("example5.png", 64, 64,
          lambda x, y: (128 + 127 * math.sin(x / 64 * 4 * math.pi) * math.cos(y / 64 * 4 * math.pi),) * 3,
          channels=1)
write_png("checker.png", 64, 64, lambda x, y: (255,) * 3 if (x // 8 + y // 8) % 2 else (0,) * 3)
