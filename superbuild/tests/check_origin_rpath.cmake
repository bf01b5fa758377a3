# packaging.shared.origin_rpath: in a shared install every trnsci library (and the drop-in BLAS) carries a
# $ORIGIN run path and a versioned SONAME, every trnsci library exports the suite's namespaces only, and
# a program linked only against the top of the dependency graph (trntensor -> trnblas -> trncore) runs
# without LD_LIBRARY_PATH: the dynamic loader finds the siblings through libtrntensor.so's own run path
# (an executable's DT_RUNPATH does not apply to the dependencies of its libraries).
#   -D PREFIX=<install prefix>  -D WORK=<scratch dir>  -D SOURCE=<downstream main.cpp.in>
find_program(READELF readelf REQUIRED)
find_program(CXX NAMES c++ g++ REQUIRED)
file(GLOB libs "${PREFIX}/lib/libtrn*.so")
list(LENGTH libs count)
if(count LESS 8)
  message(FATAL_ERROR "expected the 7 trnsci libraries and the drop-in in ${PREFIX}/lib, found: ${libs}")
endif()
foreach(lib IN LISTS libs)
  execute_process(COMMAND "${READELF}" -d "${lib}" OUTPUT_VARIABLE dyn COMMAND_ERROR_IS_FATAL ANY)
  if(NOT dyn MATCHES "R(UN)?PATH\\)[^\n]*\\$ORIGIN")
    message(FATAL_ERROR "${lib} has no $ORIGIN run path:\n${dyn}")
  endif()
  if(NOT dyn MATCHES "SONAME\\)[^\n]*\\.so\\.[0-9]")
    message(FATAL_ERROR "${lib} has no versioned SONAME:\n${dyn}")
  endif()
endforeach()
# Exported symbols: the suite's namespaces only (TrnsciPackaging's version script), nothing of the
# standard library or the third-party code a library was built from. The drop-in BLAS has its own list
# (reference BLAS's symbols; trnblas.dropin.exports checks it).
find_program(NM nm REQUIRED)
foreach(lib IN LISTS libs)
  if(lib MATCHES "trnblas_blas")
    continue()
  endif()
  execute_process(COMMAND "${NM}" -D -C --defined-only "${lib}" OUTPUT_VARIABLE syms COMMAND_ERROR_IS_FATAL ANY)
  string(REPLACE "\n" ";" syms "${syms}")
  set(foreign "")
  set(exported 0)
  foreach(line IN LISTS syms)
    if(line MATCHES "^[0-9a-f]+ [A-Za-z] (.*)$")
      set(sym "${CMAKE_MATCH_1}")
      math(EXPR exported "${exported} + 1")
      if(NOT sym MATCHES "trn(core|rand|blas|fft|solver|sparse|tensor)::" AND NOT sym MATCHES "^[A-Z_]+$")
        list(APPEND foreign "${sym}")
      endif()
    endif()
  endforeach()
  list(LENGTH foreign nforeign)
  if(nforeign GREATER 0)
    list(SUBLIST foreign 0 10 shown)
    string(REPLACE ";" "\n  " shown "${shown}")
    message(FATAL_ERROR "${lib} exports ${nforeign} symbols outside the suite's namespaces, e.g.\n  ${shown}")
  endif()
  message("${lib}: ${exported} exported symbols, all in the suite's namespaces")
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/main.cpp" "#include <trntensor/trntensor.hpp>\n#include <cstdio>\nint main() { std::printf(\"trntensor %s\\n\", std::string(trntensor::version()).c_str()); return 0; }\n")
execute_process(COMMAND "${CXX}" -std=c++20 "-I${PREFIX}/include" "${WORK}/main.cpp" -o "${WORK}/prog"
                        "-L${PREFIX}/lib" -Wl,--as-needed -ltrntensor "-Wl,-rpath,${PREFIX}/lib"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling against libtrntensor.so failed:\n${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH "${WORK}/prog"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a program linked only to libtrntensor.so does not run without LD_LIBRARY_PATH:\n${err}")
endif()
message("${out}")
