#!/usr/bin/env python3
"""Writes music.ogg: Voidfarer's 16-second music loop (plain Python synthesis, then oggenc from
vorbis-tools). A minor at 120 beats a minute, eight bars: Am F C G | Am F G E. A soft pad of
detuned saw-like tones holds each chord, a plucked arpeggio runs in eighths (its pattern changes
in the second half), a sine bass plays on beats 1, 3 and the last half beat, a quiet noise tick
marks the off-beats. Whatever rings past the end is added back at the start, so the loop has no
seam. Deterministic (fixed seed). Run: python3 make_music.py (needs oggenc).
"""
import math
import os
import random
import struct
import subprocess
import tempfile

RATE = 22050
BEAT = 0.5
BAR = 4 * BEAT
BARS = 8
N = int(RATE * BAR * BARS)  # the loop: 16 s
TAIL = RATE * 2  # what may ring past the end
out = [0.0] * (N + TAIL)


def midi_hz(note):
    return 440.0 * 2 ** ((note - 69) / 12)


# Chords as MIDI notes (root position around middle C), one per bar.
A, F, C, G, E = 57, 53, 48, 55, 52
CHORDS = [
    (A, A + 3, A + 7), (F, F + 4, F + 7), (C + 12, C + 16, C + 19), (G, G + 4, G + 7),
    (A, A + 3, A + 7), (F, F + 4, F + 7), (G, G + 4, G + 7), (E, E + 4, E + 7),
]


def add(start, samples):
    i0 = int(start * RATE)
    for k, v in enumerate(samples):
        out[i0 + k] += v


def pad(freq, length):
    """A saw-like tone (four harmonics, two voices 0.3% apart) with soft attack and release."""
    n = int(length * RATE)
    attack, release = int(0.3 * RATE), int(0.4 * RATE)
    s = []
    for i in range(n + release):
        t = i / RATE
        v = 0.0
        for h in range(1, 5):
            v += (math.sin(2 * math.pi * freq * h * t) + math.sin(2 * math.pi * freq * 1.003 * h * t)) / (h * h)
        env = min(1.0, i / attack) if i < n else max(0.0, 1 - (i - n) / release)
        s.append(0.045 * v * env)
    return s


def pluck(freq, length=0.45):
    n = int(length * RATE)
    return [0.16 * math.exp(-i / (0.11 * RATE)) * (math.sin(2 * math.pi * freq * i / RATE)
            + 0.35 * math.sin(4 * math.pi * freq * i / RATE)) * min(1.0, i / 40) for i in range(n)]


def bass(freq, length=0.45):
    n = int(length * RATE)
    s = []
    for i in range(n):
        v = math.sin(2 * math.pi * freq * i / RATE)
        s.append(0.32 * math.tanh(1.6 * v) * math.exp(-i / (0.25 * RATE)) * min(1.0, i / 60))
    return s


rng = random.Random(7)


def tick():
    n = int(0.04 * RATE)
    prev, s = 0.0, []
    for i in range(n):
        x = rng.uniform(-1, 1)
        s.append(0.05 * (x - prev) * math.exp(-i / (0.008 * RATE)))  # a crude high-pass
        prev = x
    return s


PATTERNS = [(0, 1, 2, 1, 0, 1, 2, 3), (2, 1, 0, 1, 3, 2, 1, 2)]
for bar, chord in enumerate(CHORDS):
    start = bar * BAR
    for note in chord:
        add(start, pad(midi_hz(note), BAR))
    pattern = PATTERNS[bar // 4]
    tones = [chord[0] + 12, chord[1] + 12, chord[2] + 12, chord[0] + 24]
    for step, which in enumerate(pattern):
        add(start + step * BEAT / 2, pluck(midi_hz(tones[which])))
    root = midi_hz(chord[0] - 12)
    for beat in (0, 2, 3.5):
        add(start + beat * BEAT, bass(root))
    for beat in range(4):
        add(start + (beat + 0.5) * BEAT, tick())

for i in range(TAIL):  # fold the ringing tail into the start: a seamless loop
    out[i] += out[N + i]
loop = out[:N]
peak = max(abs(v) for v in loop)
pcm = [int(v / peak * 0.85 * 32767) for v in loop]
here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    wav = os.path.join(tmp, "music.wav")
    data = struct.pack("<%dh" % len(pcm), *pcm)
    with open(wav, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE")
        f.write(b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE * 2, 2, 16))
        f.write(b"data" + struct.pack("<I", len(data)) + data)
    subprocess.run(["oggenc", "-Q", "-q", "1", "-o", os.path.join(here, "music.ogg"), wav],
                   check=True)
