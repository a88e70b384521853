# keel-build's shared cache (issue 16): whole keel-build processes against a loopback nginx.
keel_add_bench(remote_cache SOURCES ${src} LIBS fmt::fmt)
if(TARGET keel-build)
  target_compile_definitions(keel_bench_remote_cache PRIVATE
    KEEL_BUILD_EXE="$<TARGET_FILE:keel-build>" KEEL_SAMPLE_DIR="${KEEL_ROOT}/data")
  add_dependencies(keel_bench_remote_cache keel-build)
else()
  message(STATUS "keel_bench_remote_cache needs the keel-build tool (KEEL_BUILD_TOOLS)")
  set_target_properties(keel_bench_remote_cache PROPERTIES EXCLUDE_FROM_ALL ON)
  target_compile_definitions(keel_bench_remote_cache PRIVATE KEEL_BUILD_EXE="" KEEL_SAMPLE_DIR="")
endif()
