# keel::save against (a) keel::serial writing the same fields with no pointer fix-up (the
# floor) and (b) cereal's binary archives with std::shared_ptr graphs (libcereal-dev, header-only).
find_package(cereal REQUIRED)
keel_add_bench(save SOURCES ${src} LIBS keel::save keel::serial cereal::cereal)
