# Runs keel-platform-hello in an Xvfb window and headless (offscreen driver) for the same frames,
# then compares the last screenshots exactly. Inputs: HELLO, XVFB_RUN, DATA, OUT.
# -profiler hides the overlay (its timings differ between runs); everything else on screen
# follows the frame number.
file(REMOVE_RECURSE ${OUT})
set(common --data ${DATA} --frames 4 --screenshot-every 4 -profiler width=640 height=360)
# Leak checking is off for these runs (LSAN_OPTIONS from the test's environment: Mesa and X11
# keep allocations past exit).
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1024x768x24" ${HELLO} ${common} -vsync
                        --out ${OUT}/window
                RESULT_VARIABLE window_rc OUTPUT_VARIABLE window_out ERROR_VARIABLE window_err)
message(STATUS "window: ${window_out}${window_err}")
if(NOT window_rc EQUAL 0)
  message(FATAL_ERROR "the Xvfb run failed (${window_rc})")
endif()
if(NOT window_out MATCHES "video driver x11")
  message(FATAL_ERROR "the Xvfb run did not use the x11 driver")
endif()
execute_process(COMMAND ${HELLO} ${common} --headless --out ${OUT}/headless
                RESULT_VARIABLE headless_rc OUTPUT_VARIABLE headless_out ERROR_VARIABLE headless_err)
message(STATUS "headless: ${headless_out}${headless_err}")
if(NOT headless_rc EQUAL 0)
  message(FATAL_ERROR "the headless run failed (${headless_rc})")
endif()
execute_process(COMMAND ${HELLO} --compare ${OUT}/window/frame_00003.png
                        ${OUT}/headless/frame_00003.png
                RESULT_VARIABLE compare_rc OUTPUT_VARIABLE compare_out ERROR_VARIABLE compare_err)
message(STATUS "compare: ${compare_out}${compare_err}")
if(NOT compare_rc EQUAL 0)
  message(FATAL_ERROR "the window's frame differs from the headless frame")
endif()
