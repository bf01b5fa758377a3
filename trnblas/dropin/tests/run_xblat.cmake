# Runs one netlib BLAS test program of Debian's libblas-test against the drop-in library and checks its report.
#   -D PROGRAM=…            the test program (xblat1d, xblat3s, xdcblat3, …)
#   -D INPUT=…              its input file on stdin (optional)
#   -D SUMMARY=…            the report file it writes in its working directory (empty: the report is stdout)
#   -D EXPECT=<n>           the exact number of "PASS" words a clean report has (every subprogram's PASS lines,
#                           plus the "ROUTINES PASS COMPUTATIONAL TESTS IF …" banner of the level-2/3 programs)
#   -D LIBDIR=…             a directory whose libblas.so.3 is the drop-in library: with LD_LIBRARY_PATH on it the
#                           program loads the drop-in library *instead of* the system BLAS, so a symbol the
#                           library does not export fails the load rather than falling through to the system's
#   -D MODE=…               TRNBLAS_MODE
#   -D WORKDIR=…            fresh working directory
#   -D PRELOAD=…            optional LD_PRELOAD (the ASan runtime when the library is built with ASan)
#   -D EXPECT_FAILED=<a,b,…> optional, comma-separated: the report must instead name exactly these routines as
#                           failed (e.g. the routed ones in bf16 mode) and no other
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
set(input_args)
if(INPUT)
  set(input_args INPUT_FILE "${INPUT}")
endif()
set(env "LD_LIBRARY_PATH=${LIBDIR}" "TRNBLAS_MODE=${MODE}")
if(PRELOAD)
  list(APPEND env "LD_PRELOAD=${PRELOAD}" "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${env} "${PROGRAM}" ${input_args}
                WORKING_DIRECTORY "${WORKDIR}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(SUMMARY)
  if(NOT EXISTS "${WORKDIR}/${SUMMARY}")
    message(FATAL_ERROR "${PROGRAM} in mode ${MODE}: exit ${rc}, no report ${SUMMARY}\n${out}\n${err}")
  endif()
  file(READ "${WORKDIR}/${SUMMARY}" out)
endif()
message("${out}")
get_filename_component(name "${PROGRAM}" NAME)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${name} in mode ${MODE}: exit status ${rc}\n${err}")
endif()
if(err MATCHES "libtrnblas_blas")
  message(FATAL_ERROR "${name} in mode ${MODE}: the drop-in library reported a problem:\n${err}")
endif()
string(REGEX MATCHALL "PASS" passes "${out}")
list(LENGTH passes npass)

if(NOT EXPECT_FAILED)
  # A clean report: no failed, suspect (test ratio above the threshold), fatal or error-exit complaints.
  if(out MATCHES "FAIL|SUSPECT|FATAL|NOT CALLED|WRONG|ABANDONED" OR NOT npass EQUAL EXPECT)
    message(FATAL_ERROR "${name} in mode ${MODE}: ${npass} PASS words (a clean report has ${EXPECT}), or a "
                        "failure in the report above")
  endif()
  return()
endif()

# Expected failures: each routine in EXPECT_FAILED is reported failed, and nothing else fails.
string(REGEX MATCHALL "[A-Za-z0-9_]+ *FAILED" failed_lines "${out}")
set(failed "")
foreach(line IN LISTS failed_lines)
  string(REGEX REPLACE " *FAILED$" "" routine "${line}")
  list(APPEND failed "${routine}")
endforeach()
list(REMOVE_DUPLICATES failed)
list(SORT failed)
string(REPLACE "," ";" want "${EXPECT_FAILED}")
list(SORT want)
if(NOT "${failed}" STREQUAL "${want}")
  message(FATAL_ERROR "${name} in mode ${MODE}: reported failed: [${failed}]; expected exactly [${want}]")
endif()
message(STATUS "${name} in mode ${MODE}: failed as expected: ${failed}")
