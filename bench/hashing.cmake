keel_add_bench(hashing SOURCES ${src} LIBS keel::hashing)
