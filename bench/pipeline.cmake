# The build tool against ninja (/usr/bin/ninja, run as a process) on the same dependency graph.
keel_add_bench(pipeline SOURCES ${src} LIBS keel::pipeline keel::pipeline_handlers)
