# BSP point (segment) queries at 1k, 10k and 100k faces against brute force over every face.
keel_add_bench(bsp SOURCES ${src} LIBS keel::spatial)
