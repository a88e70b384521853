keel_add_bench(props SOURCES ${src} LIBS keel::props)
