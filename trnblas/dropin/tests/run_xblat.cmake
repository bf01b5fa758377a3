# Runs one netlib BLAS test program (Debian's libblas-test) against the drop-in library and fails on any
# failed, suspect or fatal result. -D PROGRAM=… [-D INPUT=…] -D SUMMARY=<output file or empty for stdout>
# -D EXPECT=<number of "PASS" lines> -D LIBRARY=… -D MODE=… -D WORKDIR=…
file(MAKE_DIRECTORY "${WORKDIR}")
if(SUMMARY)
  file(REMOVE "${WORKDIR}/${SUMMARY}")
endif()
set(input_args)
if(INPUT)
  set(input_args INPUT_FILE "${INPUT}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "LD_PRELOAD=${LIBRARY}" "TRNBLAS_MODE=${MODE}" "${PROGRAM}"
                ${input_args} WORKING_DIRECTORY "${WORKDIR}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(SUMMARY)
  file(READ "${WORKDIR}/${SUMMARY}" out)
endif()
string(REGEX MATCHALL "PASS" passes "${out}")
list(LENGTH passes npass)
message("${out}")
if(NOT rc EQUAL 0 OR out MATCHES "FAIL|SUSPECT|FATAL|\\*\\*\\*\\*\\*" OR npass LESS EXPECT OR err MATCHES "libtrnblas_blas")
  message(FATAL_ERROR "${PROGRAM} in mode ${MODE}: exit ${rc}, ${npass} of ${EXPECT} PASS lines\n${err}")
endif()
