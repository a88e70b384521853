keel_add_bench(fsm SOURCES ${src} LIBS keel::fsm keel::fsm_compiler)
