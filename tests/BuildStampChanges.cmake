# Runs the stamp generator twice for the same sources and checks the two stamps differ
# (the build number always advances; the UTC time advances across seconds).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(i 1 2)
  execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${WORK}/stamp${i}.cpp -DCOUNTER=${WORK}/number
                          -DNAME=check -DVERSION=1.0 -DPROTOCOL=1 -DSOURCE_DIR=${SOURCE_DIR}
                          -P ${SCRIPT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generator failed")
  endif()
  file(READ ${WORK}/stamp${i}.cpp s${i})
endforeach()
if(s1 STREQUAL s2)
  message(FATAL_ERROR "two builds produced the same stamp")
endif()
string(FIND "${s2}" "keel_stamp_build_number = 2ULL" found)
if(found EQUAL -1)
  message(FATAL_ERROR "build number did not advance to 2:\n${s2}")
endif()
