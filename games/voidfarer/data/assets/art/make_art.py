#!/usr/bin/env python3
"""Draws Voidfarer's sprites and particle dot (plain Python, no libraries).

Writes, next to this script, one RGBA PNG per sprite, named after its atlas frame:
  ships/player.png, ships/fighter.png, ships/bomber.png, ships/boss.png, shots/bullet.png,
  shots/bomb.png, star.png, fallback.png (a hatched placeholder for unknown names) and white.png
  (a flat cell for HUD bars); data/art.kcmd lists them as the frames of the "sprites" Atlas, which
  keel-build packs into one texture so the view draws them all in one batch. A designer adds a
  sprite by adding a PNG and a Frame line: no code changes.
  dot.png      a 32x32 soft white dot for particles and stars (drawn additively).
Ships face +x. The art is white and gray (the view tints it with each Sprite's colour) but for
the bomb, whose definition has no colour. Run from anywhere: python3 make_art.py
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
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


def paint(w, h, shade):
    """An RGBA image of w x h: shade(u, v) -> (gray or (r, g, b), alpha 0..1) or None, with u, v
    in -1..1 across the image (+u forward)."""
    pixels = [(255, 255, 255, 0)] * (w * h)
    for py in range(h):
        for px in range(w):
            c_sum, a_sum = [0.0, 0.0, 0.0], 0.0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    u = ((px + (sx + 0.5) / SAMPLES) / w) * 2 - 1
                    v = ((py + (sy + 0.5) / SAMPLES) / h) * 2 - 1
                    s = shade(u, v)
                    if s is not None:
                        rgb = s[0] if isinstance(s[0], tuple) else (s[0],) * 3
                        for k in range(3):
                            c_sum[k] += rgb[k] * s[1]
                        a_sum += s[1]
            a = a_sum / (SAMPLES * SAMPLES)
            rgb = [c / a_sum if a_sum > 0 else 255 for c in c_sum]
            pixels[py * w + px] = (*rgb, 255 * a)
    return pixels


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
    def sprite(name, w, h, shade):
        path = os.path.join(HERE, name + ".png")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_png(path, w, h, paint(w, h, shade))

    sprite("ships/player", 64, 64, PLAYER)
    sprite("ships/fighter", 64, 64, FIGHTER)
    sprite("ships/bomber", 64, 64, BOMBER)
    sprite("ships/boss", 128, 128, boss)
    sprite("shots/bomb", 32, 32, bomb)
    sprite("shots/bullet", 32, 16, glow(0.95, 0.8, 0.35))
    sprite("star", 16, 16, star)
    sprite("fallback", 32, 32, fallback)
    sprite("white", 8, 8, lambda u, v: (255, 1.0))

    dot = [(255, 255, 255, 0)] * (32 * 32)
    for py in range(32):
        for px in range(32):
            s = soft_dot((px + 0.5) / 16 - 1, (py + 0.5) / 16 - 1)
            dot[py * 32 + px] = (255, 255, 255, 255 * s[1] if s else 0)
    write_png(os.path.join(HERE, "dot.png"), 32, 32, dot)


main()
