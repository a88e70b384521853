file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BUILD})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
# The package holds public headers only: internals (detail/) and test helpers (testing/) stay
# in the source tree.
file(GLOB_RECURSE installed_headers RELATIVE ${PREFIX}/include ${PREFIX}/include/keel/*.h)
foreach(h IN LISTS installed_headers)
  if(h MATCHES "/(detail|testing)/")
    message(FATAL_ERROR "internal header installed: include/${h}")
  endif()
endforeach()
if(NOT installed_headers)
  message(FATAL_ERROR "no headers installed under ${PREFIX}/include/keel")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SRC} -B ${CONSUMER_BUILD} -G Ninja
                        -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer against the installed keel failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${CONSUMER_BUILD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND ${CONSUMER_BUILD}/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "consumer said: ${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer program failed")
endif()
