# Packaging test, run with cmake -P: configuring SOURCE with ARGS (a |-separated list) must FAIL, and
# its output must match every regular expression in EXPECT (a |-separated list). Proves that a bad pin
# or an incompatible sibling is refused at configure time, and for the stated reason.
foreach(required SOURCE WORK ARGS EXPECT GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "expect_configure_failure: -D${required}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
string(REPLACE "|" ";" arg_list "${ARGS}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}" -G "${GENERATOR}" ${arg_list}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}\n${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expect_configure_failure: configuring ${SOURCE} succeeded but must fail\n${all}")
endif()
string(REPLACE "|" ";" expectations "${EXPECT}")
# CMake wraps long messages; compare against the text with line breaks and indentation folded.
string(REGEX REPLACE "[ \t\r\n]+" " " folded "${all}")
foreach(expected IN LISTS expectations)
  if(NOT folded MATCHES "${expected}")
    message(FATAL_ERROR "expect_configure_failure: output lacks '${expected}'\n${all}")
  endif()
endforeach()
message("configure failed as required (exit ${rc}), with: ${EXPECT}")
