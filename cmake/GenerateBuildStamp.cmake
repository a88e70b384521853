# Writes the build-stamp source for one link (called by keel_add_build_stamp).
# Inputs: OUT, COUNTER, NAME, VERSION, PROTOCOL, SOURCE_DIR.
set(build_number 0)
if(EXISTS ${COUNTER})
  file(READ ${COUNTER} build_number)
  string(STRIP "${build_number}" build_number)
  if(NOT build_number MATCHES "^[0-9]+$")
    set(build_number 0)
  endif()
endif()
math(EXPR build_number "${build_number} + 1")
file(WRITE ${COUNTER} "${build_number}\n")

set(revision "")
set(dirty 0)
find_program(GIT git)
if(GIT AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(dirty 1)
  endif()
endif()

string(TIMESTAMP built "%Y-%m-%dT%H:%M:%SZ" UTC)
set(user "$ENV{USER}")
if(user STREQUAL "")
  set(user "$ENV{LOGNAME}")
endif()
if(user STREQUAL "")
  execute_process(COMMAND id -un OUTPUT_VARIABLE user OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
foreach(v NAME VERSION revision user)
  string(REPLACE "\\" "\\\\" ${v} "${${v}}")
  string(REPLACE "\"" "\\\"" ${v} "${${v}}")
endforeach()

file(WRITE ${OUT}.tmp "// Generated at link time by GenerateBuildStamp.cmake. Do not edit.
extern \"C\" const char keel_stamp_project[] = \"${NAME}\";
extern \"C\" const char keel_stamp_version[] = \"${VERSION}\";
extern \"C\" const char keel_stamp_revision[] = \"${revision}\";
extern \"C\" const char keel_stamp_built_utc[] = \"${built}\";
extern \"C\" const char keel_stamp_user[] = \"${user}\";
extern \"C\" const unsigned long long keel_stamp_build_number = ${build_number}ULL;
extern \"C\" const unsigned keel_stamp_protocol = ${PROTOCOL}U;
extern \"C\" const int keel_stamp_dirty = ${dirty};
")
file(RENAME ${OUT}.tmp ${OUT})
