# keel-bsp end to end on the sample meshes, and the BSP handler through keel-build:
#   cmake -DTOOL=keel-bsp -DBUILD_TOOL=keel-build -DDATA=... -DWORK=... -P smoke.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexit ${rc}\n${out}${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

function(expect pattern)
  if(NOT last_output MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${last_output}")
  endif()
endfunction()

# Build, then the packed file gives the same statistics the build reported.
run(${TOOL} build ${DATA}/rooms.obj -o ${WORK}/rooms.kbsp --split 1 4 --candidates 0)
expect("rooms.kbsp \\(([0-9]+) nodes")
run(${TOOL} stats ${DATA}/rooms.obj)
expect("nodes [0-9]+\nfaces [0-9]+\ndepth [0-9]+\nbalance [0-9.]+.*splits [0-9]+\nbuild time")
run(${TOOL} stats ${WORK}/rooms.kbsp)
expect("faces added by splits [0-9]+")

# A point through the doorway that hits the far column (18, 8.5), and one that hits nothing.
run(${TOOL} query ${WORK}/rooms.kbsp --from 1,1,1 --to 19,1,9)
expect("hit t=0\\.92222[0-9] at \\(17\\.6000, 1\\.0000")
run(${TOOL} query ${WORK}/rooms.kbsp --from 1,1,1 --to 2,1,2)
expect("no hit")
# A sphere of radius 0.5 towards the wall z = 0 touches it with its centre at z = 0.5.
run(${TOOL} query ${WORK}/rooms.kbsp --from 1.5,1,5 --to 1.5,1,-1 --radius 0.5)
expect("hit t=0\\.750000")
run(${TOOL} query ${WORK}/rooms.kbsp --eye 5,1,5)
expect("[0-9]+ faces, [0-9]+ nodes visited")

# Pictures: an SVG with lines and a PNG with its signature.
run(${TOOL} svg ${DATA}/rooms.obj -o ${WORK}/rooms.svg --png ${WORK}/rooms.png --slice 1)
file(READ ${WORK}/rooms.svg svg)
if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "<line")
  message(FATAL_ERROR "rooms.svg has no lines")
endif()
file(READ ${WORK}/rooms.png png_head LIMIT 4 HEX)
if(NOT png_head STREQUAL "89504e47")
  message(FATAL_ERROR "rooms.png is not a PNG (${png_head})")
endif()

# Bad data is exit status 1 with a located message.
file(WRITE ${WORK}/bad.kbsp "KBSP but not really a tree")
execute_process(COMMAND ${TOOL} stats ${WORK}/bad.kbsp RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_QUIET)
if(NOT rc EQUAL 1 OR NOT err MATCHES "bad.kbsp: byte [0-9]+: error")
  message(FATAL_ERROR "bad tree: exit ${rc}: ${err}")
endif()

# The BSP handler: weights from the command block, the tree read back from the pack in place.
file(MAKE_DIRECTORY ${WORK}/project/assets)
file(COPY ${DATA}/rooms.obj DESTINATION ${WORK}/project/assets)
file(WRITE ${WORK}/project/project.kproj "Project(\"bsp\");\nIntermediatePath(\"obj\");\n"
     "ImagePath(\"image\");\nPlatform(\"PC\");\nIncludePath(\"assets\");\n"
     "DataFile(\"main.kcmd\");\n")
file(WRITE ${WORK}/project/main.kcmd
     "BSP(\"rooms\", \"rooms.obj\") { Split(1, 4); Balance(1, 2); Candidates(0); }\n")
run(${BUILD_TOOL} -p ${WORK}/project/project.kproj --no-progress)
run(${TOOL} stats ${WORK}/project/image/PC/main.kpk --asset rooms)
expect("nodes [0-9]+\nfaces [0-9]+\ndepth")
run(${TOOL} query ${WORK}/project/image/PC/main.kpk --asset rooms --from 1,1,1 --to 19,1,9)
expect("hit t=0\\.92222[0-9]")
# A misspelt option is a located error in the command file.
file(WRITE ${WORK}/project/main.kcmd "BSP(\"rooms\", \"rooms.obj\") { Splits(1, 4); }\n")
execute_process(COMMAND ${BUILD_TOOL} -p ${WORK}/project/project.kproj --no-progress
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "main.kcmd:1:[0-9]+: error: unknown BSP option")
  message(FATAL_ERROR "misspelt option: exit ${rc}\n${out}${err}")
endif()
