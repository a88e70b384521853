# Peer: Box2D 2.4's b2DynamicTree (Debian libbox2d-dev), the broad phase GroupCuller is measured against.
find_package(box2d REQUIRED)
keel_add_bench(spatial SOURCES ${src} LIBS keel::spatial box2d::box2d)
