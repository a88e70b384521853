keel_add_bench(ecs SOURCES ${src} LIBS keel::world)
