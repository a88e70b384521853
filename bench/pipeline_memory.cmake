# Peak RSS of the keel-build and keel-pack programs, spawned as processes, on one large Blob.
keel_add_bench(pipeline_memory SOURCES ${src} LIBS keel::core)
if(TARGET keel-build AND TARGET keel-pack)
  target_compile_definitions(keel_bench_pipeline_memory PRIVATE
    KEEL_BUILD_EXE="$<TARGET_FILE:keel-build>" KEEL_PACK_EXE="$<TARGET_FILE:keel-pack>")
  add_dependencies(keel_bench_pipeline_memory keel-build keel-pack)
else()
  target_compile_definitions(keel_bench_pipeline_memory PRIVATE KEEL_BUILD_EXE="keel-build"
                                                                 KEEL_PACK_EXE="keel-pack")
endif()
