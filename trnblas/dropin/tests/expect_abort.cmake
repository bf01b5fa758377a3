# Runs COMMAND (a ;-list) with ENV (a ;-list of NAME=VALUE) and passes only if it exits with a failure status
# and its stderr matches EXPECT (a regex): for the drop-in library's refusal to forward into itself.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${ENV} ${COMMAND}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
if(rc EQUAL 0 OR NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected a failure with a message matching '${EXPECT}'; got exit '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "failed as expected (exit ${rc}): ${err}")
