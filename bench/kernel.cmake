keel_add_bench(kernel SOURCES ${src} LIBS keel::kernel)
# The peer must make real virtual calls: without this, GCC guesses the only Task type it sees in
# the file and inlines its update() into the plain loop (the kernel library cannot do that).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(keel_bench_kernel PRIVATE -fno-devirtualize-speculatively)
endif()
