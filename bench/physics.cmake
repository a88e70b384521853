# keel::world's Physics against the same Box2D 2.4 scene driven by raw Box2D calls (libbox2d-dev).
find_package(box2d REQUIRED)
keel_add_bench(physics SOURCES ${src} LIBS keel::world box2d::box2d)
