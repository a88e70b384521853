# keel::serial against a hand-written byte-swap baseline and cereal's binary archives
# (libcereal-dev, header-only, a benchmark-only dependency).
find_package(cereal REQUIRED)
keel_add_bench(serial SOURCES ${src} LIBS keel::serial cereal::cereal)
