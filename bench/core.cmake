keel_add_bench(core SOURCES ${src} LIBS keel::core)
