# Runs voidfarer (GAME, DATA) twice headless on the autopilot and fails unless both runs print
# the same final hash. WORK is a scratch folder. MODE:
#   deterministic  two identical runs of 300 frames
#   replay         a run of 600 frames recorded with --record; the second run --replay's it
#   save_load      a run of 600 frames quick-saving after frame 300 (--save-at 300 --save F);
#                  the second run loads F (--load F) and plays the remaining 300 frames
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(common --data ${DATA} --no-view --user-dir ${WORK}/user)
if(MODE STREQUAL "deterministic")
  set(run_1 ${common} --frames 300)
  set(run_2 ${common} --frames 300)
elseif(MODE STREQUAL "replay")
  set(run_1 ${common} --frames 600 --record ${WORK}/run.vfr)
  set(run_2 ${common} --replay ${WORK}/run.vfr)
elseif(MODE STREQUAL "save_load")
  set(run_1 ${common} --frames 600 --save-at 300 --save ${WORK}/quick.sav)
  set(run_2 ${common} --frames 300 --load ${WORK}/quick.sav)
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
foreach(run 1 2)
  execute_process(COMMAND ${GAME} ${run_${run}} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} failed (${rc}): ${run_${run}}\n${out}\n${err}")
  endif()
  if(NOT out MATCHES "final hash ([0-9a-f]+)")
    message(FATAL_ERROR "run ${run} printed no final hash:\n${out}")
  endif()
  set(hash_${run} ${CMAKE_MATCH_1})
  message(STATUS "run ${run}: final hash ${hash_${run}}")
endforeach()
if(NOT hash_1 STREQUAL hash_2)
  message(FATAL_ERROR "the runs differ (${MODE}): ${hash_1} vs ${hash_2}")
endif()
message(STATUS "both runs (${MODE}): final hash ${hash_1}")
