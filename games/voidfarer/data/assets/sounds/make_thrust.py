#!/usr/bin/env python3
"""Writes thrust.wav: an engine's rumble, 0.5 s of 22.05 kHz mono 16-bit PCM that loops without a
click (plain Python). Low-passed noise under a soft 56 Hz hum (28 periods: no seam);
the noise's loop seam is cross-faded. Deterministic (fixed seed). Run: python3 make_thrust.py
"""
import math
import random
import struct

RATE = 22050
N = RATE // 2  # 0.5 s: 27.5 hum periods would click, so the hum is 56 Hz (28 periods)
FADE = 1024
rng = random.Random(29)
noise = []
a = b = 0.0
for _ in range(N + FADE):
    a = 0.92 * a + 0.08 * rng.uniform(-1, 1)  # two one-pole low-passes: a deep rumble
    b = 0.9 * b + 0.1 * a
    noise.append(b * 4)
looped = noise[:N]
for i in range(FADE):  # the tail after N fades into the start
    w = i / FADE
    looped[i] = noise[i] * w + noise[N + i] * (1 - w)
samples = []
for i in range(N):
    hum = 0.25 * math.sin(2 * math.pi * 56 * i / RATE) + 0.1 * math.sin(2 * math.pi * 112 * i / RATE)
    samples.append(int(max(-1.0, min(1.0, 0.7 * looped[i] + hum)) * 20000))
data = struct.pack("<%dh" % len(samples), *samples)
with open("thrust.wav", "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE")
    f.write(b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16))
    f.write(b"data" + struct.pack("<I", len(data)) + data)
