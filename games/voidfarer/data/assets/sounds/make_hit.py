#!/usr/bin/env python3
"""Writes hit.wav: a shot striking a hull, 0.14 s of 22.05 kHz mono 16-bit PCM (plain Python).

A metallic knock: a falling 180 -> 90 Hz thump under a burst of filtered noise, both decaying
fast. Deterministic (fixed seed). Run from this folder: python3 make_hit.py
"""
import math
import random
import struct

RATE = 22050
LENGTH = 0.14
rng = random.Random(13)
samples = []
noise = 0.0
phase = 0.0
for i in range(int(RATE * LENGTH)):
    t = i / RATE
    phase += 2 * math.pi * (180 - 640 * t) / RATE
    noise = 0.6 * noise + 0.4 * rng.uniform(-1, 1)  # a one-pole low-pass: less hiss
    ring = math.sin(2 * math.pi * 1320 * t) * math.exp(-t * 60)
    value = 0.55 * math.sin(phase) * math.exp(-t * 28) + 0.5 * noise * math.exp(-t * 45) + 0.2 * ring
    fade_in = min(1.0, i / 40)
    samples.append(int(max(-1.0, min(1.0, value * fade_in)) * 30000))
data = struct.pack("<%dh" % len(samples), *samples)
with open("hit.wav", "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE")
    f.write(b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16))
    f.write(b"data" + struct.pack("<I", len(data)) + data)
