# The book's stripper against meshoptimizer's stripifier (the peer) on the same meshes.
find_package(meshoptimizer REQUIRED)
keel_add_bench(mesh SOURCES ${src} LIBS keel::assets_build meshoptimizer::meshoptimizer)
