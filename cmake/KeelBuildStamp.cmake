# keel_add_build_stamp(<target> [NAME <project>] [VERSION <version>] [PROTOCOL <n>])
#
# Gives an executable a build stamp (see keel/core/build_stamp.h). The stamp is generated and
# compiled in a PRE_LINK step, so it changes exactly when the target is relinked: a no-op build
# stays a no-op and a change to any source never forces more than its own recompile plus this
# one tiny object. The build number is kept in <binary dir>/<target>.build_number.
include_guard(GLOBAL)
set(_KEEL_STAMP_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/GenerateBuildStamp.cmake)

function(keel_add_build_stamp target)
  cmake_parse_arguments(ARG "" "NAME;VERSION;PROTOCOL" "" ${ARGN})
  if(NOT ARG_NAME)
    set(ARG_NAME ${PROJECT_NAME})
  endif()
  if(NOT ARG_VERSION)
    set(ARG_VERSION ${PROJECT_VERSION})
  endif()
  if(NOT ARG_PROTOCOL)
    set(ARG_PROTOCOL 1)
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.stamp)
  set(src ${dir}/build_stamp.cpp)
  set(obj ${dir}/build_stamp.o)
  file(MAKE_DIRECTORY ${dir})
  add_custom_command(TARGET ${target} PRE_LINK
    COMMAND ${CMAKE_COMMAND} -DOUT=${src} -DCOUNTER=${dir}/build_number -DNAME=${ARG_NAME}
            -DVERSION=${ARG_VERSION} -DPROTOCOL=${ARG_PROTOCOL} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
            -P ${_KEEL_STAMP_SCRIPT}
    COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -fPIC -c ${src} -o ${obj}
    COMMENT "Stamping ${target}"
    VERBATIM)
  target_link_options(${target} PRIVATE ${obj})
endfunction()
