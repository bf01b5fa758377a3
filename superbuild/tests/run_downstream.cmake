# Packaging test for one package, run with cmake -P. Modes:
#   find_package      install the package alone into an empty prefix, move that prefix elsewhere (the
#                     install must be relocatable: no file may mention the staging path), then build and
#                     run a downstream project that finds it with find_package(<pkg> <pin> CONFIG).
#   add_subdirectory  build and run a downstream project that adds the package's source directory.
#   pkg_config        compile and run a program with only the flags pkg-config gives for the package.
# Siblings come from the superbuild's prefix (SUITE_PREFIX) in every mode.
foreach(required PKG MODE PIN WORK TRNSCI_SOURCE_ROOT SUITE_PREFIX PACKAGE_BUILD_DIR GENERATOR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_downstream: -D${required}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "run_downstream(${PKG}, ${MODE}): '${cmd}' failed (${rc})\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()

# The downstream program. In a shared build the package under test sits in its own (relocated) prefix while
# its siblings stay in SUITE_PREFIX: a library's $ORIGIN run path cannot reach across two prefixes, so the
# run names the siblings' directory (packaging.shared.origin_rpath checks the one-prefix case without it).
function(run_program program)
  if(SHARED)
    run("${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${SUITE_PREFIX}/lib" "${program}")
  else()
    run("${program}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
# Handed to the downstream configure as the environment variable, hence ":"-separated.
set(prefix_path "${SUITE_PREFIX}")
set(relocated "${WORK}/relocated")

if(MODE STREQUAL "find_package" OR MODE STREQUAL "pkg_config")
  set(staged "${WORK}/staged")
  run("${CMAKE_COMMAND}" --install "${PACKAGE_BUILD_DIR}" --prefix "${staged}")
  file(RENAME "${staged}" "${relocated}")
  file(GLOB_RECURSE installed_files LIST_DIRECTORIES false "${relocated}/*.cmake" "${relocated}/*.pc"
       "${relocated}/*.hpp")
  foreach(f IN LISTS installed_files)
    file(READ "${f}" text)
    foreach(forbidden "${staged}" "${PACKAGE_BUILD_DIR}" "${TRNSCI_SOURCE_ROOT}")
      string(FIND "${text}" "${forbidden}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "run_downstream(${PKG}): ${f} mentions ${forbidden}: the install is not relocatable")
      endif()
    endforeach()
  endforeach()
  set(prefix_path "${relocated}:${SUITE_PREFIX}")
endif()

if(MODE STREQUAL "pkg_config")
  find_program(PKG_CONFIG pkg-config REQUIRED)
  find_program(CXX NAMES c++ g++ REQUIRED)
  file(GLOB_RECURSE pc LIST_DIRECTORIES false "${relocated}/*/${PKG}.pc")
  file(GLOB_RECURSE suite_pc LIST_DIRECTORIES false "${SUITE_PREFIX}/*/trncore.pc")
  get_filename_component(pc_dir "${pc}" DIRECTORY)
  get_filename_component(suite_pc_dir "${suite_pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}:${suite_pc_dir}")
  execute_process(COMMAND "${PKG_CONFIG}" --modversion ${PKG} OUTPUT_VARIABLE pc_version
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  # Plain `--cflags --libs` (what the README shows) must link whether the install is static or shared.
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs ${PKG} OUTPUT_VARIABLE flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  if(flags MATCHES "-std=")
    message(FATAL_ERROR "run_downstream(${PKG}): pkg-config forces a language standard on consumers: ${flags}")
  endif()
  # Data directories are .pc variables; a pkg-config consumer hands them to the program at run time.
  execute_process(COMMAND "${PKG_CONFIG}" --variable=pkgdatadir ${PKG} OUTPUT_VARIABLE pkgdatadir
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  if(pkgdatadir)
    string(TOUPPER "${PKG}" upper)
    set(ENV{${upper}_DATA_DIR} "${pkgdatadir}")
  endif()
  string(FIND "${flags}" "${relocated}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "run_downstream(${PKG}): pkg-config flags do not point into ${relocated}: ${flags}")
  endif()
  configure_file("${CMAKE_CURRENT_LIST_DIR}/downstream/main.cpp.in" "${WORK}/main.cpp" @ONLY)
  separate_arguments(flag_list UNIX_COMMAND "${flags}")
  if(SHARED)
    # A shared install: the program finds the libraries by rpaths to the -L directories (what a pkg-config
    # user adds), never by LD_LIBRARY_PATH. (That the libraries find their siblings by $ORIGIN is checked by
    # packaging.shared.origin_rpath.)
    foreach(flag IN LISTS flag_list)
      if(flag MATCHES "^-L(.+)$")
        list(APPEND flag_list "-Wl,-rpath,${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endif()
  # The consumer chooses its standard (the .pc's Description states the minimum, C++20); C++23 here proves
  # nothing in the headers or flags pins it lower.
  run("${CXX}" -std=c++23 "-DEXPECTED_VERSION=\"${pc_version}\"" "${WORK}/main.cpp" -o "${WORK}/downstream" ${flag_list})
  run_program("${WORK}/downstream")
  return()
endif()

set(ENV{CMAKE_PREFIX_PATH} "${prefix_path}")
run("${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/downstream" -B "${WORK}/build" -G "${GENERATOR}"
    "-DPKG=${PKG}" "-DMODE=${MODE}" "-DPIN=${PIN}" "-DTRNSCI_SOURCE_ROOT=${TRNSCI_SOURCE_ROOT}"
    "-DEXPECTED_PREFIX=${relocated}")
run("${CMAKE_COMMAND}" --build "${WORK}/build")
run_program("${WORK}/build/downstream")
