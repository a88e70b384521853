# The build tool against ninja (/usr/bin/ninja, run as a process) on the same dependency graph.
keel_add_bench(pipeline SOURCES ${src} LIBS keel::pipeline keel::pipeline_handlers)
# BM_KeelNoOpProcess spawns the keel-build program itself, as ninja is spawned.
if(TARGET keel-build)
  target_compile_definitions(keel_bench_pipeline PRIVATE KEEL_BUILD_EXE="$<TARGET_FILE:keel-build>")
  add_dependencies(keel_bench_pipeline keel-build)
endif()
