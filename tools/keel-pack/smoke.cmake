# keel-pack extract and merge, end to end: cmake -DTOOL=... -DDATA=... -DWORK=... -P smoke.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexit ${rc}\n${out}${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The primary chunk of "notes" is plain text: it must come out byte for byte.
run(${TOOL} extract ${DATA}/sample.kpk NOTES -o ${WORK}/notes.txt)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/notes.txt ${DATA}/notes.txt
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "extracted notes differ from testdata/notes.txt")
endif()

# A chunk by locator: face's pixels are block 3, chunk 1 (16 x 16 bytes).
run(${TOOL} extract ${DATA}/sample.kpk face --locator 3:1 -o ${WORK}/pixels.bin)
file(SIZE ${WORK}/pixels.bin pixel_bytes)
if(NOT pixel_bytes EQUAL 256)
  message(FATAL_ERROR "face pixels: ${pixel_bytes} bytes, expected 256")
endif()

# A missing asset is exit status 1.
execute_process(COMMAND ${TOOL} extract ${DATA}/sample.kpk nobody -o ${WORK}/x RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "extract of a missing asset exited ${rc}, expected 1")
endif()

# Merge two packs, then the result verifies and lists all four assets.
run(${TOOL} merge ${WORK}/merged.kpk ${DATA}/sample.kpk ${DATA}/extra.kpk)
run(${TOOL} verify ${WORK}/merged.kpk)
run(${TOOL} list ${WORK}/merged.kpk)
if(NOT last_output MATCHES "4 assets" OR NOT last_output MATCHES "tree")
  message(FATAL_ERROR "merged listing:\n${last_output}")
endif()
