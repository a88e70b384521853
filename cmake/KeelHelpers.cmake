# Helpers shared by every module folder. See docs/ARCHITECTURE.md ("Build").
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KEEL_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)

# Warnings and sanitizers for Keel's own targets (never forced on consumers).
add_library(keel_options INTERFACE)
add_library(keel::options ALIAS keel_options)
if(KEEL_WERROR)
  target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
target_compile_options(keel_options INTERFACE
  $<BUILD_INTERFACE:-Wall;-Wextra;-Wpedantic;-Wshadow;-Wnon-virtual-dtor;-Wold-style-cast;-Wcast-align;-Woverloaded-virtual;-Wnull-dereference;-Wimplicit-fallthrough>)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-Wno-maybe-uninitialized>)
  # GCC 12 at -O3 reports a false -Wrestrict inside libstdc++ for `"literal" + std::string&&`
  # (GCC bug 105651, fixed in 13); whether it fires depends on inlining, so it broke CI builds
  # that passed locally. Off for GCC 12 only.
  if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-Wno-restrict>)
  endif()
endif()
if(KEEL_SANITIZE)
  target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-fsanitize=address,undefined;-fno-sanitize-recover=all;-fno-omit-frame-pointer>)
  # Link options are exported too: a consumer of an instrumented static library needs the runtime.
  target_link_options(keel_options INTERFACE -fsanitize=address,undefined)
endif()
if(KEEL_TSAN)
  target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-fsanitize=thread;-fno-omit-frame-pointer>)
  target_link_options(keel_options INTERFACE -fsanitize=thread)
endif()
if(KEEL_FUZZ)
  target_compile_options(keel_options INTERFACE $<BUILD_INTERFACE:-fsanitize=fuzzer-no-link,address,undefined;-fno-sanitize-recover=all>)
  target_link_options(keel_options INTERFACE $<BUILD_INTERFACE:-fsanitize=address,undefined>)
endif()
install(TARGETS keel_options EXPORT keelTargets)

set_property(GLOBAL PROPERTY KEEL_INSTALLED_MODULES "")

# keel_add_module(<name> [DIR <subfolder>] [SOURCES ...] [PUBLIC_DEPS ...] [PRIVATE_DEPS ...]
#                 [TEST_DEPS ...])
# Creates library keel_<name> (alias keel::<name>), exported as keel::<name>, from the current
# folder, or from <subfolder> of it (a module's second target, e.g. keel/script/compiler ->
# keel::script_compiler).
# Sources default to every *.cpp in the folder and its detail/ folder that is not a test, fuzz or
# bench file. Public headers are the folder's *.h: installed under include/keel/<folder> and
# compiled on their own by keel_header_check (KEEL_CHECK_HEADERS). Internal headers live in
# detail/ (and test helpers in testing/): never installed.
# Unit tests (*_test.cpp) become keel_<name>_tests; fuzz targets (*_fuzz.cpp) become
# keel_<name>_<file>_fuzz with a corpus in fuzz/corpus/<file>/.
function(keel_add_module name)
  cmake_parse_arguments(ARG "" "DIR" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS;TEST_DEPS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  if(ARG_DIR)
    set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_DIR})
  endif()
  file(RELATIVE_PATH header_dir ${KEEL_ROOT} ${dir})
  if(NOT ARG_SOURCES)
    file(GLOB all_cpp CONFIGURE_DEPENDS ${dir}/*.cpp ${dir}/detail/*.cpp)
    set(ARG_SOURCES "")
    foreach(f IN LISTS all_cpp)
      if(NOT f MATCHES "_(test|fuzz|bench)\\.cpp$")
        list(APPEND ARG_SOURCES ${f})
      endif()
    endforeach()
  endif()
  file(GLOB headers CONFIGURE_DEPENDS ${dir}/*.h)
  file(GLOB detail_headers CONFIGURE_DEPENDS ${dir}/detail/*.h)
  if(ARG_SOURCES)
    add_library(keel_${name} STATIC ${ARG_SOURCES} ${headers} ${detail_headers})
    set(scope PUBLIC)
  else()
    add_library(keel_${name} INTERFACE ${headers} ${detail_headers})
    set(scope INTERFACE)
  endif()
  add_library(keel::${name} ALIAS keel_${name})
  set_target_properties(keel_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(keel_${name} ${scope}
    $<BUILD_INTERFACE:${KEEL_ROOT}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(keel_${name} ${scope} cxx_std_23)
  if(KEEL_PROFILING)
    target_compile_definitions(keel_${name} ${scope} KEEL_ENABLE_PROFILING=1)
  endif()
  if(ARG_PUBLIC_DEPS)
    target_link_libraries(keel_${name} ${scope} ${ARG_PUBLIC_DEPS})
  endif()
  if(ARG_SOURCES)
    target_link_libraries(keel_${name} PRIVATE keel::options ${ARG_PRIVATE_DEPS})
  endif()
  install(TARGETS keel_${name} EXPORT keelTargets)
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${header_dir})
  set_property(GLOBAL APPEND PROPERTY KEEL_INSTALLED_MODULES ${name})
  foreach(h IN LISTS headers)
    file(RELATIVE_PATH rel ${KEEL_ROOT} ${h})
    set_property(GLOBAL APPEND PROPERTY KEEL_PUBLIC_HEADERS "${name}|${rel}")
  endforeach()

  # Unit tests: *_test.cpp -> keel_<name>_tests (label unit). Tests where threads meet go in
  # *_thread_test.cpp -> keel_<name>_thread_tests (label tsan; one label only, because
  # gtest_discover_tests flattens a label list), which every preset runs and the tsan preset
  # builds (target keel_tsan) and runs under ThreadSanitizer.
  file(GLOB tests CONFIGURE_DEPENDS ${dir}/*_test.cpp)
  file(GLOB thread_tests CONFIGURE_DEPENDS ${dir}/*_thread_test.cpp)
  if(thread_tests)
    list(REMOVE_ITEM tests ${thread_tests})
  endif()
  if(KEEL_BUILD_TESTS AND NOT KEEL_FUZZ)
    if(tests)
      _keel_test_executable(keel_${name}_tests ${name} "unit" "${tests}" "${ARG_TEST_DEPS}")
    endif()
    if(thread_tests)
      _keel_test_executable(keel_${name}_thread_tests ${name} "tsan" "${thread_tests}"
                            "${ARG_TEST_DEPS}")
      add_dependencies(keel_tsan keel_${name}_thread_tests)
    endif()
  endif()

  # Fuzz targets.
  file(GLOB fuzzers CONFIGURE_DEPENDS ${dir}/*_fuzz.cpp)
  foreach(f IN LISTS fuzzers)
    get_filename_component(base ${f} NAME_WE)
    keel_add_fuzzer(keel_${name}_${base} ${f} keel::${name} ${ARG_TEST_DEPS})
  endforeach()
endfunction()

function(_keel_test_executable target module labels sources deps)
  add_executable(${target} ${sources})
  target_link_libraries(${target} PRIVATE keel::${module} keel::options ${deps}
                        GTest::gtest GTest::gmock GTest::gtest_main)
  target_compile_definitions(${target} PRIVATE
    KEEL_SOURCE_DIR="${KEEL_ROOT}" KEEL_TEST_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}/test_tmp")
  gtest_discover_tests(${target}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${labels}"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

if(NOT TARGET keel_tsan)
  add_custom_target(keel_tsan)
endif()

# keel_add_fuzzer(<target> <source> <libs...>)
# With KEEL_FUZZ (clang): a libFuzzer binary run for KEEL_FUZZ_SECONDS by ctest (label fuzz).
# Otherwise: the same entry point linked to fuzz/replay_main.cpp, which replays the seed corpus
# plus deterministic mutations of it (label fuzz-smoke) so every build exercises the target.
function(keel_add_fuzzer target source)
  if(NOT KEEL_BUILD_TESTS)
    return()
  endif()
  # The seed folder is named after the source file (sound_ogg_fuzz.cpp -> fuzz/corpus/sound_ogg),
  # whatever the module's target name (keel_assets_build_sound_ogg_fuzz).
  get_filename_component(corpus_name ${source} NAME_WE)
  string(REGEX REPLACE "_fuzz$" "" corpus_name ${corpus_name})
  set(corpus ${KEEL_ROOT}/fuzz/corpus/${corpus_name})
  add_executable(${target} ${source})
  target_link_libraries(${target} PRIVATE ${ARGN} keel::options)
  if(KEEL_FUZZ)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/${target}_corpus)
    add_test(NAME ${target}
      COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:${target}> -DWORK=${work} -DSEEDS=${corpus}
              -DSECONDS=${KEEL_FUZZ_SECONDS} -P ${KEEL_ROOT}/cmake/RunFuzzer.cmake)
    set_tests_properties(${target} PROPERTIES LABELS fuzz)
    add_dependencies(keel_fuzzers ${target})
  else()
    target_sources(${target} PRIVATE ${KEEL_ROOT}/fuzz/replay_main.cpp)
    add_test(NAME ${target} COMMAND ${target} ${corpus})
    set_tests_properties(${target} PROPERTIES LABELS fuzz-smoke)
  endif()
endfunction()

if(KEEL_FUZZ AND NOT TARGET keel_fuzzers)
  add_custom_target(keel_fuzzers)
endif()

# keel_add_tool(<name> SOURCES ... LIBS ...): a command-line program, installed.
function(keel_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} keel::options)
  install(TARGETS ${name})
endfunction()

# keel_add_bench(<area> SOURCES ... LIBS ...): one Google Benchmark executable per area.
function(keel_add_bench area)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(keel_bench_${area} ${ARG_SOURCES})
  target_link_libraries(keel_bench_${area} PRIVATE keel_bench_support ${ARG_LIBS} keel::options)
  set_property(GLOBAL APPEND PROPERTY KEEL_BENCHES keel_bench_${area})
endfunction()

function(keel_install_package)
  install(EXPORT keelTargets NAMESPACE keel:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)
  configure_package_config_file(${KEEL_ROOT}/cmake/keelConfig.cmake.in
    ${CMAKE_BINARY_DIR}/keelConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/keelConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/keelConfig.cmake ${CMAKE_BINARY_DIR}/keelConfigVersion.cmake
                ${KEEL_ROOT}/cmake/KeelBuildStamp.cmake ${KEEL_ROOT}/cmake/GenerateBuildStamp.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)
endfunction()

# keel_header_check(): one translation unit per public (installed) header that includes only that
# header, compiled into the object library keel_header_check, so a header that is not
# self-contained fails the build. On in the debug preset (KEEL_CHECK_HEADERS).
function(keel_header_check)
  if(NOT KEEL_CHECK_HEADERS)
    return()
  endif()
  get_property(entries GLOBAL PROPERTY KEEL_PUBLIC_HEADERS)
  set(sources "")
  set(libs "")
  foreach(entry IN LISTS entries)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 module)
    list(GET parts 1 rel)
    string(MAKE_C_IDENTIFIER "${rel}" id)
    set(tu ${CMAKE_BINARY_DIR}/header_check/${id}.cpp)
    set(content "// Generated: ${rel} compiles on its own.\n#include <${rel}>\n")
    if(EXISTS ${tu})
      file(READ ${tu} old)
    else()
      set(old "")
    endif()
    if(NOT old STREQUAL content)
      file(WRITE ${tu} "${content}")
    endif()
    list(APPEND sources ${tu})
    list(APPEND libs keel::${module})
  endforeach()
  list(REMOVE_DUPLICATES libs)
  add_library(keel_header_check OBJECT ${sources})
  target_link_libraries(keel_header_check PRIVATE ${libs} keel::options)
  # One translation unit per header is the point of this target: never merged by a unity build.
  set_target_properties(keel_header_check PROPERTIES UNITY_BUILD OFF)
endfunction()
