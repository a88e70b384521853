keel_add_bench(particles SOURCES ${src} LIBS keel::world)
