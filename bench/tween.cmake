keel_add_bench(tween SOURCES ${src} LIBS keel::tween)
