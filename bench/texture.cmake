# The texture pipeline (composite, gamma-correct mip chain, BC1) against the same stb calls written
# plainly, and BC1 quality/time for Keel's fast and best modes next to stb_dxt HIGHQUAL and
# libsquish's cluster fit. Peers: stb (libstb) and libsquish, Debian packages.
find_library(KEEL_BENCH_STB_LIBRARY stb REQUIRED)
find_library(KEEL_BENCH_SQUISH_LIBRARY squish REQUIRED)
keel_add_bench(texture SOURCES ${src}
  LIBS keel::assets_build ${KEEL_BENCH_STB_LIBRARY} ${KEEL_BENCH_SQUISH_LIBRARY})
