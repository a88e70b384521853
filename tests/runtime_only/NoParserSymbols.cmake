# Fails when the runtime-only program links any part of the text parser or a language compiler:
# the proof that a shipping game can leave them out (docs/ARCHITECTURE.md, "Runtimes and
# compilers"). Run: cmake -DBINARY=<exe> -DNM=<nm> -P NoParserSymbols.cmake
execute_process(COMMAND ${NM} -C ${BINARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${BINARY}")
endif()
string(REGEX MATCHALL "[^\n]*(keel::text::|keel::script::compile|keel::script::disassemble|keel::fsm::compile|keel::fsm::Simulator)[^\n]*"
       found "${symbols}")
if(found)
  list(LENGTH found n)
  list(SUBLIST found 0 5 first)
  string(REPLACE ";" "\n" first "${first}")
  message(FATAL_ERROR "${n} parser/compiler symbols linked into ${BINARY}, e.g.\n${first}")
endif()
string(REGEX MATCHALL "keel::script::Machine::update" machine "${symbols}")
if(NOT machine)
  message(FATAL_ERROR "no script VM symbols in ${BINARY}: is this the right program?")
endif()
message(STATUS "no parser or compiler symbols in ${BINARY}")
