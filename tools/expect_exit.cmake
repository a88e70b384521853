# Runs a tool and checks its exit status and output, for smoke tests of the exit-code convention
# (0 fine, 1 errors in the input, 2 usage or I/O errors; README.md):
#   cmake -DCMD="keel-fsm;check;x.fsm" -DEXIT=2 [-DMATCH=regex] [-DSETUP="cmd;args"] -P expect_exit.cmake
# SETUP, when given, runs first (e.g. to create a FIFO or a copy of a source).
if(SETUP)
  execute_process(COMMAND ${SETUP} RESULT_VARIABLE setup_rc)
  if(NOT setup_rc EQUAL 0)
    message(FATAL_ERROR "setup failed (${setup_rc}): ${SETUP}")
  endif()
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXIT}: ${CMD}")
endif()
if(MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'")
endif()
