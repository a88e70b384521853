keel_add_bench(profile SOURCES ${src} LIBS keel::profile)
