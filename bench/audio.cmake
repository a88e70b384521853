# The mixer (64 voices, one second of 48 kHz stereo) against a plain loop summing the same
# buffers, and decoding the sample Ogg Vorbis music through stb_vorbis (libstb).
keel_add_bench(audio SOURCES ${src} LIBS keel::platform keel::assets_build)
target_compile_definitions(keel_bench_audio PRIVATE KEEL_SOURCE_DIR="${KEEL_ROOT}")
