keel_add_bench(text SOURCES ${src} LIBS keel::text)
