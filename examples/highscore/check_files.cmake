# Checks that the file GONE does not exist and the file KEPT does (the stale-temporary test).
if(EXISTS "${GONE}")
  message(FATAL_ERROR "still there: ${GONE}")
endif()
if(NOT EXISTS "${KEPT}")
  message(FATAL_ERROR "deleted, but it was not the table's temporary: ${KEPT}")
endif()
