# Runs Voidfarer in a real X11 window under Xvfb and headless (offscreen driver) for the same ten
# frames, one simulation step per frame in both (--lockstep in the window, +autopilot as headless
# runs fly), then compares the last screenshots exactly: the window path draws what the headless
# path draws. Inputs: GAME, XVFB_RUN, COMPARE (keel-platform-hello), DATA, OUT.
file(REMOVE_RECURSE ${OUT})
set(common --data ${DATA} --frames 10 --screenshot-every 10 --progress 0)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" ${GAME} ${common} -vsync
                        +autopilot --lockstep --out ${OUT}/window --user-dir ${OUT}/user_window
                RESULT_VARIABLE window_rc OUTPUT_VARIABLE window_out ERROR_VARIABLE window_err)
message(STATUS "window: ${window_out}${window_err}")
if(NOT window_rc EQUAL 0)
  message(FATAL_ERROR "the Xvfb run failed (${window_rc})")
endif()
if(NOT window_out MATCHES "video driver x11")
  message(FATAL_ERROR "the Xvfb run did not use the x11 driver")
endif()
execute_process(COMMAND ${GAME} ${common} --headless --out ${OUT}/headless
                        --user-dir ${OUT}/user_headless
                RESULT_VARIABLE headless_rc OUTPUT_VARIABLE headless_out ERROR_VARIABLE headless_err)
message(STATUS "headless: ${headless_out}${headless_err}")
if(NOT headless_rc EQUAL 0)
  message(FATAL_ERROR "the headless run failed (${headless_rc})")
endif()
string(REGEX MATCH "final hash [0-9a-f]+" window_hash "${window_out}")
string(REGEX MATCH "final hash [0-9a-f]+" headless_hash "${headless_out}")
if(window_hash STREQUAL "" OR NOT window_hash STREQUAL headless_hash)
  message(FATAL_ERROR "the runs simulated differently: window '${window_hash}', headless '${headless_hash}'")
endif()
execute_process(COMMAND ${COMPARE} --compare ${OUT}/window/frame_00009.png
                        ${OUT}/headless/frame_00009.png
                RESULT_VARIABLE compare_rc OUTPUT_VARIABLE compare_out ERROR_VARIABLE compare_err)
message(STATUS "compare: ${compare_out}${compare_err}")
if(NOT compare_rc EQUAL 0)
  message(FATAL_ERROR "the window's frame differs from the headless frame")
endif()
