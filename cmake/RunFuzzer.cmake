# Runs one libFuzzer target for SECONDS seconds. New inputs go to WORK (in the build tree);
# the seed corpus SEEDS (in the source tree) is only read.
file(MAKE_DIRECTORY ${WORK})
set(dirs ${WORK})
if(EXISTS ${SEEDS})
  list(APPEND dirs ${SEEDS})
endif()
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=2048 -print_final_stats=1 ${dirs}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzer ${FUZZER} failed (exit ${rc})")
endif()
