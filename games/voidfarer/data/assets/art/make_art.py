#!/usr/bin/env python3
"""Draws Voidfarer's sprite sheet and particle dot (plain Python, no libraries).

Writes, next to this script:
  sprites.png  one 256x256 RGBA sheet holding every sprite (ships, shots, a star, a fallback,
               a white cell for HUD bars), already packed, so the view draws them all from one
               texture in one batch;
  dot.png      a 32x32 soft white dot for particles and stars (drawn additively);
and ../../../sprite_frames.h, the table of frame rectangles the view reads (one source of truth:
this script). Ships face +x. The art is white and gray (the view tints it with each Sprite's
colour) but for the bomb, whose definition has no colour. Run from anywhere: python3 make_art.py
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SHEET = 256
SAMPLES = 4  # 4x4 samples per pixel (anti-aliased edges)


def write_png(path, width, height, pixels):
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(max(0, min(255, int(round(v)))) for v in pixels[y * width + x])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def inside(poly, x, y):
    """Even-odd rule: is (x, y) inside the polygon (a list of points)?"""
    hit = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


class Cell:
    """A frame of the sheet: shapes painted in unit coordinates (-1..1, +x forward)."""

    def __init__(self, sheet, name, x, y, w, h):
        self.sheet, self.name, self.x, self.y, self.w, self.h = sheet, name, x, y, w, h

    def paint(self, shade):
        """shade(u, v) -> (gray or (r, g, b), alpha 0..1) or None; u, v in -1..1 across the cell."""
        for py in range(self.h):
            for px in range(self.w):
                c_sum, a_sum = [0.0, 0.0, 0.0], 0.0
                for sy in range(SAMPLES):
                    for sx in range(SAMPLES):
                        u = ((px + (sx + 0.5) / SAMPLES) / self.w) * 2 - 1
                        v = ((py + (sy + 0.5) / SAMPLES) / self.h) * 2 - 1
                        s = shade(u, v)
                        if s is not None:
                            rgb = s[0] if isinstance(s[0], tuple) else (s[0],) * 3
                            for k in range(3):
                                c_sum[k] += rgb[k] * s[1]
                            a_sum += s[1]
                a = a_sum / (SAMPLES * SAMPLES)
                rgb = [c / a_sum if a_sum > 0 else 255 for c in c_sum]
                self.sheet[(self.y + py) * SHEET + self.x + px] = (*rgb, 255 * a)


def segment_distance(x, y, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - a[0] - t * dx, y - a[1] - t * dy)


def ship(hull, details, rim=0.12):
    """A shaded hull polygon with darker detail polygons (cockpits, engines) and a light rim."""

    def shade(u, v):
        if not inside(hull, u, v):
            return None
        for poly, gray in details:
            if inside(poly, u, v):
                return (gray, 1.0)
        edge = min(segment_distance(u, v, hull[i], hull[i - 1]) for i in range(len(hull)))
        light = 200 + 55 * max(0.0, 0.5 - v * 0.5 + u * 0.3)  # lit from the front and above
        return (min(255, light) if edge > rim else 140, 1.0)

    return shade


def glow(length, width, core):
    """An elongated glow along +x: a bright core fading out (shots)."""

    def shade(u, v):
        d = math.hypot(u / length, v / width)
        if d >= 1:
            return None
        return (255 if d < core else 255 - 60 * (d - core) / (1 - core), (1 - d) ** 0.7)

    return shade


def soft_dot(u, v):
    d = math.hypot(u, v)
    return None if d >= 1 else (255, math.exp(-4.5 * d * d) * (1 - d))


def star(u, v):
    d = math.hypot(u, v)
    rays = max(0.0, 1 - abs(u) * 8) * max(0.0, 1 - abs(v)) + max(0.0, 1 - abs(v) * 8) * max(0.0, 1 - abs(u))
    a = min(1.0, math.exp(-12 * d * d) + 0.6 * rays)
    return None if a <= 0.01 else (255, a)


def bomb(u, v):
    """A glowing mine: the data gives bombs no colour, so this frame carries its own (orange)."""
    d = math.hypot(u, v)
    if d >= 0.95:
        return None
    if d < 0.5:
        return ((255, 240 - 200 * d, 120 - 200 * d), 1.0)
    return ((255, 120, 30), 0.95 if d < 0.65 else (0.95 - d) * 3.2)


def fallback(u, v):
    """Unknown sprite names: a hatched square with a border, unmistakably a placeholder."""
    if max(abs(u), abs(v)) > 0.8:
        return (255, 1.0)
    return (255 if int((u + v + 2) * 4) % 2 else 90, 1.0)


PLAYER = ship([(0.95, 0), (-0.2, 0.3), (-0.75, 0.85), (-0.55, 0.2), (-0.7, 0), (-0.55, -0.2),
               (-0.75, -0.85), (-0.2, -0.3)],
              [([(0.55, 0), (0.05, 0.13), (0.05, -0.13)], 70),
               ([(-0.7, 0.12), (-0.55, 0.12), (-0.55, -0.12), (-0.7, -0.12)], 110)])
FIGHTER = ship([(0.95, 0.12), (0.3, 0.18), (0.6, 0.7), (-0.1, 0.45), (-0.8, 0.55), (-0.55, 0),
                (-0.8, -0.55), (-0.1, -0.45), (0.6, -0.7), (0.3, -0.18), (0.95, -0.12)],
               [([(0.3, 0), (-0.05, 0.12), (-0.05, -0.12)], 60)])
BOMBER = ship([(0.7, 0.25), (0.85, 0), (0.7, -0.25), (0.2, -0.45), (0.0, -0.9), (-0.45, -0.9),
               (-0.4, -0.45), (-0.8, -0.35), (-0.8, 0.35), (-0.4, 0.45), (-0.45, 0.9), (0.0, 0.9),
               (0.2, 0.45)],
              [([(0.55, 0.15), (0.65, 0), (0.55, -0.15), (0.35, -0.15), (0.35, 0.15)], 60),
               ([(-0.3, 0.25), (0.1, 0.25), (0.1, 0.35), (-0.3, 0.35)], 120),
               ([(-0.3, -0.25), (0.1, -0.25), (0.1, -0.35), (-0.3, -0.35)], 120)])


def boss(u, v):
    """A round mothership: armour ring with gun ports, a dark inner deck, a bright core."""
    d = math.hypot(u, v)
    a = math.atan2(v, u)
    if d >= 0.95:
        return None
    if d > 0.72:
        plate = int((a + math.pi) / (2 * math.pi) * 12) % 2
        port = abs(math.sin(a * 6)) < 0.2 and d < 0.88
        return (90 if port else 230 - 40 * plate, 1.0)
    if d > 0.66:
        return (120, 1.0)
    if d > 0.3:
        spoke = abs(math.sin(a * 3)) < 0.18
        return (210 if spoke else 150, 1.0)
    return (255, 1.0)


def main():
    sheet = [(255, 255, 255, 0)] * (SHEET * SHEET)
    frames = []

    def cell(name, x, y, w, h, shade):
        Cell(sheet, name, x, y, w, h).paint(shade)
        frames.append((name, x, y, w, h))

    cell("ships/player", 0, 0, 64, 64, PLAYER)
    cell("ships/fighter", 64, 0, 64, 64, FIGHTER)
    cell("ships/bomber", 128, 0, 64, 64, BOMBER)
    cell("shots/bomb", 192, 0, 32, 32, bomb)
    cell("fallback", 224, 0, 32, 32, fallback)
    cell("shots/bullet", 192, 32, 32, 16, glow(0.95, 0.8, 0.35))
    cell("star", 224, 32, 16, 16, star)
    cell("white", 244, 36, 8, 8, lambda u, v: (255, 1.0))
    cell("ships/boss", 0, 64, 128, 128, boss)
    write_png(os.path.join(HERE, "sprites.png"), SHEET, SHEET, sheet)

    dot = [(255, 255, 255, 0)] * (32 * 32)
    for py in range(32):
        for px in range(32):
            s = soft_dot((px + 0.5) / 16 - 1, (py + 0.5) / 16 - 1)
            dot[py * 32 + px] = (255, 255, 255, 255 * s[1] if s else 0)
    write_png(os.path.join(HERE, "dot.png"), 32, 32, dot)

    header = os.path.join(HERE, "..", "..", "..", "sprite_frames.h")
    with open(header, "w") as f:
        f.write("// Generated by data/assets/art/make_art.py: the frames of the sprite sheet\n"
                "// (art/sprites.png, the pack's texture \"sprites\"), in pixels. Do not edit.\n"
                "#pragma once\n\n#include <string_view>\n\n"
                "namespace keel::voidfarer {\n\n"
                "struct SpriteFrame {\n  std::string_view name;\n  int x, y, width, height;\n};\n\n"
                f"inline constexpr int kSpriteSheetSize = {SHEET};\n"
                "// clang-format off\n"
                "inline constexpr SpriteFrame kSpriteFrames[] = {\n")
        for name, x, y, w, h in frames:
            f.write(f'    {{"{name}", {x}, {y}, {w}, {h}}},\n')
        f.write("};\n// clang-format on\n\n}  // namespace keel::voidfarer\n")


main()
