# keel::pack loading against a plain read of the same file, and zstd decoding against the zstd
# command (/usr/bin/zstd, Debian package zstd) on the same frame.
keel_add_bench(pack SOURCES ${src} LIBS keel::pack)
