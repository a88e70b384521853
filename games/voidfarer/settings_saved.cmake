# Settings are written back on exit and read again by the next run: a run with difficulty=hard
# on the command line leaves difficulty=hard in <user dir>/settings.cfg, and a second run with no
# settings on its command line plays at hard. Inputs: GAME, DATA, WORK.
file(REMOVE_RECURSE ${WORK})
set(common --data ${DATA} --no-view --frames 2 --progress 0 --user-dir ${WORK})
execute_process(COMMAND ${GAME} ${common} difficulty=hard pilot=Ada RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "first run failed (${rc}):\n${out}\n${err}")
endif()
file(READ ${WORK}/settings.cfg saved)
if(NOT saved MATCHES "\ndifficulty=hard" OR NOT saved MATCHES "\npilot=Ada")
  message(FATAL_ERROR "settings.cfg does not hold the run's settings:\n${saved}")
endif()
execute_process(COMMAND ${GAME} ${common} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "difficulty hard")
  message(FATAL_ERROR "the second run did not read the saved settings (${rc}):\n${out}\n${err}")
endif()
message(STATUS "settings saved and read back")
