#!/bin/sh
# Remakes the sample sounds (sox and vorbis-tools, Debian packages). Run from this folder.
set -e
sox -n -r 22050 -b 16 -c 1 laser.wav synth 0.25 sine 1800-300 fade 0 0.25 0.2 vol 0.6
sox -n -r 22050 -b 8 -c 1 explosion.wav synth 0.7 brownnoise fade 0.005 0.7 0.65 vol 0.9
tmp=$(mktemp -d)
i=0
for note in C3 E3 G3 C4 G3 E3 C3 E3; do
  i=$((i + 1))
  sox -n -r 44100 -b 16 -c 1 "$tmp/$i.wav" synth 0.5 pluck $note
done
sox "$tmp"/1.wav "$tmp"/2.wav "$tmp"/3.wav "$tmp"/4.wav "$tmp"/5.wav "$tmp"/6.wav "$tmp"/7.wav \
    "$tmp"/8.wav -b 16 -c 2 "$tmp/music.wav" vol 0.5
oggenc -Q -q 0 -o music.ogg "$tmp/music.wav"
rm -r "$tmp"
