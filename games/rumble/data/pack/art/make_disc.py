#!/usr/bin/env python3
"""Writes disc.png: a white disc on transparency, 64x64, anti-aliased edge (plain Python, zlib).
The fighters' heads and joints are drawn with it, tinted. Run: python3 make_disc.py"""
import struct
import zlib

N = 64
rows = []
for y in range(N):
    row = bytearray([0])  # filter: none
    for x in range(N):
        d = ((x + 0.5 - N / 2) ** 2 + (y + 0.5 - N / 2) ** 2) ** 0.5
        a = max(0.0, min(1.0, N / 2 - 1 - d + 0.5))
        row += bytes([255, 255, 255, int(a * 255 + 0.5)])
    rows.append(bytes(row))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


with open("disc.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n")
    f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0)))
    f.write(chunk(b"IDAT", zlib.compress(b"".join(rows), 9)))
    f.write(chunk(b"IEND", b""))
