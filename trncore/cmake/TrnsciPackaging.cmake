# The suite's packaging conventions, in one place.
#
# Every trnsci package uses this file: trncore includes it from its source tree, which defines the
# functions for the whole all-in-one build; a package built standalone includes the copy installed in
# trncore's config directory (the preamble of each package's CMakeLists). One definition keeps the seven packages'
# install layout, config files, version headers and pkg-config files identical.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include("${CMAKE_CURRENT_LIST_DIR}/TrnsciPython.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/TrnsciMpi.cmake")

set(TRNSCI_SANITIZE "" CACHE STRING "Sanitizers for every trnsci target, e.g. 'address;undefined'")
option(TRNSCI_WARNINGS_AS_ERRORS "Treat compiler warnings as errors in trnsci targets" OFF)

# <PKG>_BUILD_TESTS/_BENCHMARKS/_EXAMPLES default to "this package is the top-level project", or to the
# suite-wide TRNSCI_BUILD_* switch that the all-in-one build turns on. <PKG>_PYTHON (the Python bindings,
# TrnsciPython.cmake) and, for a package with an mpi/ directory, <PKG>_MPI (its mpi component,
# TrnsciMpi.cmake) default to OFF, or to the suite-wide TRNSCI_PYTHON and TRNSCI_MPI.
macro(trnsci_package_options)
  string(TOUPPER "${PROJECT_NAME}" _trnsci_upper)
  foreach(_trnsci_what TESTS BENCHMARKS EXAMPLES)
    set(_trnsci_default ${PROJECT_IS_TOP_LEVEL})
    if(DEFINED TRNSCI_BUILD_${_trnsci_what})
      set(_trnsci_default ${TRNSCI_BUILD_${_trnsci_what}})
    endif()
    option(${_trnsci_upper}_BUILD_${_trnsci_what} "Build ${PROJECT_NAME} ${_trnsci_what}" ${_trnsci_default})
  endforeach()
  set(_trnsci_default OFF)
  if(DEFINED TRNSCI_PYTHON)
    set(_trnsci_default ${TRNSCI_PYTHON})
  endif()
  option(${_trnsci_upper}_PYTHON "Build and install the ${PROJECT_NAME} Python package (pybind11, NumPy)"
         ${_trnsci_default})
  # Only packages that have a distributed component (an mpi/ directory) offer the switch.
  if(EXISTS "${PROJECT_SOURCE_DIR}/mpi/CMakeLists.txt")
    set(_trnsci_default OFF)
    if(DEFINED TRNSCI_MPI)
      set(_trnsci_default ${TRNSCI_MPI})
    endif()
    option(${_trnsci_upper}_MPI "Build and install ${PROJECT_NAME}_mpi, the distributed (MPI) component"
           ${_trnsci_default})
  endif()
endmacro()

# Compiler settings every trnsci target gets: C++20, the warning set, -Werror on request, sanitizers.
function(trnsci_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  # No fused multiply-add contraction anywhere: the error bounds and the bit-exact NeuronCore model assume
  # every product and sum rounds on its own. GCC already does this in ISO mode (-std=c++20); Clang's
  # default is -ffp-contract=on, which gave different (and differently bounded) results.
  target_compile_options(${target} PRIVATE -ffp-contract=off)
  if(TRNSCI_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # Installed shared libraries find their trnsci siblings beside themselves, and installed programs find
  # them in ../lib, without LD_LIBRARY_PATH (a consumer of libtrnfft.so also needs libtrnblas.so).
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  else()
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN")
  endif()
  if(TRNSCI_SANITIZE)
    list(JOIN TRNSCI_SANITIZE "," _sanitizers)
    target_compile_options(${target} PRIVATE -fsanitize=${_sanitizers} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${_sanitizers})
  endif()
endfunction()

# A shared library exports the suite's namespaces only — its API, the type info and vtables of its classes
# (exceptions cross library boundaries), and the suite's inline statics, so every library binds to one
# copy — and hides everything else it was built from: standard-library and third-party template
# instantiations, file-local helpers. (extern "C++" patterns match demangled names.) No-op when static.
function(trnsci_export_suite_symbols_only target)
  get_target_property(library_type ${target} TYPE)
  if(NOT library_type STREQUAL "SHARED_LIBRARY")
    return()
  endif()
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/generated")
  set(exports "{\n  global:\n    extern \"C++\" {\n")
  foreach(ns trncore trnrand trnblas trnfft trnsolver trnsparse trntensor)
    string(APPEND exports "      *${ns}::*;\n")
  endforeach()
  string(APPEND exports "    };\n  local: *;\n};\n")
  file(CONFIGURE OUTPUT "${gen}/${target}.map" CONTENT "${exports}")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${gen}/${target}.map")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${gen}/${target}.map")
endfunction()

# Declares the package's library target: namespaced alias, include directories for the build tree and
# the install tree, the generated <pkg>/version.hpp and its version() definition.
function(trnsci_add_library pkg)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/generated")
  string(TOUPPER "${pkg}" TRNSCI_PKG_UPPER)
  set(TRNSCI_PKG ${pkg})
  set(TRNSCI_PKG_VERSION ${PROJECT_VERSION})
  set(TRNSCI_PKG_VERSION_MAJOR ${PROJECT_VERSION_MAJOR})
  set(TRNSCI_PKG_VERSION_MINOR ${PROJECT_VERSION_MINOR})
  set(TRNSCI_PKG_VERSION_PATCH ${PROJECT_VERSION_PATCH})
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/version.hpp.in" "${gen}/include/${pkg}/version.hpp" @ONLY)
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/version.cpp.in" "${gen}/src/version.cpp" @ONLY)

  add_library(${pkg} ${ARG_SOURCES} "${gen}/src/version.cpp")
  add_library(trnsci::${pkg} ALIAS ${pkg})
  trnsci_export_suite_symbols_only(${pkg})
  # Position-independent even when static, so the libraries can be linked into shared objects (trnblas's
  # drop-in libtrnblas_blas.so.3, users' plugins).
  set_target_properties(${pkg} PROPERTIES EXPORT_NAME ${pkg} VERSION ${PROJECT_VERSION}
                                          SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
                                          POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${pkg} PUBLIC
    "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>"
    "$<BUILD_INTERFACE:${gen}/include>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  target_include_directories(${pkg} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  trnsci_target_defaults(${pkg})
endfunction()

# Installs the package: headers, library, <pkg>Targets.cmake (namespace trnsci::), <pkg>Config.cmake,
# <pkg>ConfigVersion.cmake, the find modules it ships, and <pkg>.pc. The install is relocatable.
#
#   SIBLINGS      trnsci packages it links; the config re-finds each at the version it was built with
#   THIRD_PARTY   find_dependency() argument lists, one string each, e.g. "FFTW3" or "Eigen3 3.4 NO_MODULE"
#   CMAKE_FILES   files installed beside the config, e.g. the Find<X>.cmake modules THIRD_PARTY uses
#   PC_REQUIRES   pkg-config modules of the third-party libraries it links
#   PC_LIBS       link flags for third-party libraries without a .pc file
#                 (both public — Requires/Libs — for a static library, which cannot carry them, and
#                 Requires.private/Libs.private for a shared one, so `pkg-config --libs` links either)
#   PC_CFLAGS     extra compile flags consumers need (Cflags); may use ${prefix} and the other .pc
#                 variables, so an install-relative path stays relocatable (since trncore 0.4.2)
#   PC_VARIABLES  extra .pc variables, "name=value" each, e.g. a data directory relative to ${prefix}
#                 (read with `pkg-config --variable=name`; since trncore 0.5.0)
# No -std flag goes into the .pc: the Description states the minimum standard (C++20), and a C++23
# consumer keeps its own.
function(trnsci_install_package pkg)
  cmake_parse_arguments(ARG "" "DESCRIPTION"
                        "SIBLINGS;THIRD_PARTY;CMAKE_FILES;PC_REQUIRES;PC_LIBS;PC_CFLAGS;PC_VARIABLES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "trnsci_install_package(${pkg}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(cmakedir "${CMAKE_INSTALL_LIBDIR}/cmake/${pkg}")
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/generated")

  install(TARGETS ${pkg} EXPORT ${pkg}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/include/" "${gen}/include/"
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${pkg}Targets NAMESPACE trnsci:: DESTINATION "${cmakedir}")

  # Config: siblings pinned to the exact versions this build saw, then third-party libraries.
  set(TRNSCI_PKG ${pkg})
  string(TOUPPER "${pkg}" TRNSCI_PKG_UPPER)
  set(TRNSCI_PKG_VERSION ${PROJECT_VERSION})
  set(TRNSCI_SIBLING_DEPENDENCIES "")
  set(pc_requires "")
  foreach(dep IN LISTS ARG_SIBLINGS)
    get_target_property(dep_version trnsci::${dep} TRNSCI_VERSION)
    if(NOT dep_version)
      message(FATAL_ERROR "trnsci_install_package(${pkg}): sibling '${dep}' has no TRNSCI_VERSION; "
                          "link a trnsci package target, found in-tree or through its config")
    endif()
    string(APPEND TRNSCI_SIBLING_DEPENDENCIES "_trnsci_find_sibling(${dep} ${dep_version})\n")
    list(APPEND pc_requires "${dep} >= ${dep_version}")
  endforeach()
  set(TRNSCI_THIRD_PARTY_DEPENDENCIES "")
  foreach(dep IN LISTS ARG_THIRD_PARTY)
    string(APPEND TRNSCI_THIRD_PARTY_DEPENDENCIES "find_dependency(${dep})\n")
  endforeach()
  configure_package_config_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/trnsciConfig.cmake.in"
                                "${gen}/${pkg}Config.cmake" INSTALL_DESTINATION "${cmakedir}")
  # 0.x releases may break API at every minor: only the same minor is compatible until 1.0.
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(compat SameMinorVersion)
  else()
    set(compat SameMajorVersion)
  endif()
  write_basic_package_version_file("${gen}/${pkg}ConfigVersion.cmake"
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY ${compat})
  install(FILES "${gen}/${pkg}Config.cmake" "${gen}/${pkg}ConfigVersion.cmake"
                "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TrnsciVersionRules.cmake" ${ARG_CMAKE_FILES}
          DESTINATION "${cmakedir}")

  # pkg-config: prefix computed from the .pc file's own location, so the install can be moved.
  file(RELATIVE_PATH TRNSCI_PC_PREFIX_FROM_PCDIR "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
  string(REGEX REPLACE "/$" "" TRNSCI_PC_PREFIX_FROM_PCDIR "${TRNSCI_PC_PREFIX_FROM_PCDIR}")
  set(TRNSCI_PC_DESCRIPTION "${ARG_DESCRIPTION}")
  get_target_property(library_type ${pkg} TYPE)
  if(library_type STREQUAL "STATIC_LIBRARY")
    list(APPEND pc_requires ${ARG_PC_REQUIRES})
    list(JOIN ARG_PC_LIBS " " TRNSCI_PC_LIBS_PUBLIC)
    set(TRNSCI_PC_REQUIRES_PRIVATE "")
    set(TRNSCI_PC_LIBS_PRIVATE "")
  else()
    set(TRNSCI_PC_LIBS_PUBLIC "")
    list(JOIN ARG_PC_REQUIRES ", " TRNSCI_PC_REQUIRES_PRIVATE)
    list(JOIN ARG_PC_LIBS " " TRNSCI_PC_LIBS_PRIVATE)
  endif()
  list(JOIN pc_requires ", " TRNSCI_PC_REQUIRES)
  list(JOIN ARG_PC_CFLAGS " " TRNSCI_PC_CFLAGS)
  set(TRNSCI_PC_VARIABLES "")
  foreach(var IN LISTS ARG_PC_VARIABLES)
    string(APPEND TRNSCI_PC_VARIABLES "${var}\n")
  endforeach()
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/trnsci.pc.in" "${gen}/${pkg}.pc" @ONLY)
  install(FILES "${gen}/${pkg}.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

  # Lets sibling packages configured later in the same tree pin this version.
  # Exported too, so a package configured against an installed sibling pins what it found.
  set_target_properties(${pkg} PROPERTIES TRNSCI_VERSION ${PROJECT_VERSION} EXPORT_PROPERTIES TRNSCI_VERSION)
endfunction()

# A GoogleTest executable whose cases register with ctest as <pkg>.<Suite>.<Case>. Discovery runs just
# before the tests, not at build time, so a build under sanitizers never executes test code.
#
# ADVERSARIAL marks a test of the adversarial layer (trnsci_testing/adversarial.hpp): its cases run with the
# reduced count like any test, and the whole executable is registered once more as
# <pkg>.adversarial_full.<name> with TRNSCI_ADVERSARIAL=full and the ctest label `adversarial`, which the
# ci/test run excludes (`ctest -L '^adversarial$'` runs the full counts).
function(trnsci_add_test name)
  cmake_parse_arguments(ARG "ADVERSARIAL" "" "SOURCES;LIBRARIES" ${ARGN})
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES} GTest::gmock GTest::gtest_main)
  # The suite's shared test support (<trnsci_testing/errors.hpp>, …), from this tree or trncore's install.
  find_path(TRNSCI_TESTING_INCLUDE_DIR trnsci_testing/errors.hpp REQUIRED NO_DEFAULT_PATH
            PATHS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../testing"
                  "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../share/trncore/testing")
  target_include_directories(${name} PRIVATE "${TRNSCI_TESTING_INCLUDE_DIR}")
  trnsci_target_defaults(${name})
  gtest_discover_tests(${name} TEST_PREFIX "${PROJECT_NAME}." DISCOVERY_MODE PRE_TEST)
  if(ARG_ADVERSARIAL)
    add_test(NAME ${PROJECT_NAME}.adversarial_full.${name} COMMAND ${name})
    set_tests_properties(${PROJECT_NAME}.adversarial_full.${name} PROPERTIES
      ENVIRONMENT "TRNSCI_ADVERSARIAL=full" LABELS adversarial)
  endif()
endfunction()

# The test every package has: <pkg>/version.hpp and <pkg>::version() agree with project(VERSION).
function(trnsci_add_version_test pkg)
  string(TOUPPER "${pkg}" TRNSCI_PKG_UPPER)
  set(TRNSCI_PKG ${pkg})
  set(src "${CMAKE_CURRENT_BINARY_DIR}/${pkg}_version_test.cpp")
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/version_test.cpp.in" "${src}" @ONLY)
  trnsci_add_test(${pkg}_version_test SOURCES "${src}" LIBRARIES trnsci::${pkg})
  # The expected value comes from CMake itself, not from the generated header under test.
  target_compile_definitions(${pkg}_version_test PRIVATE
    "CMAKE_PROJECT_VERSION_UNDER_TEST=\"${PROJECT_VERSION}\""
    "CMAKE_PROJECT_VERSION_MAJOR_UNDER_TEST=${PROJECT_VERSION_MAJOR}"
    "CMAKE_PROJECT_VERSION_MINOR_UNDER_TEST=${PROJECT_VERSION_MINOR}"
    "CMAKE_PROJECT_VERSION_PATCH_UNDER_TEST=${PROJECT_VERSION_PATCH}")
endfunction()

# A Google Benchmark program. Not a pass/fail test: when the package's tests are built too, ctest runs
# it once briefly as <pkg>.bench_smoke.<name>, only to prove it still runs.
function(trnsci_add_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  find_package(benchmark REQUIRED)
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES} benchmark::benchmark)
  trnsci_target_defaults(${name})
  string(TOUPPER "${PROJECT_NAME}" upper)
  if(${upper}_BUILD_TESTS)
    add_test(NAME ${PROJECT_NAME}.bench_smoke.${name} COMMAND ${name} --benchmark_min_time=0.001)
  endif()
endfunction()

# MPFR (with GMP), the correctly rounded oracle of the suite's accuracy tests, as the interface target
# trnsci_test_mpfr. Tests only: no installed library links it.
function(trnsci_require_mpfr)
  if(TARGET trnsci_test_mpfr)
    return()
  endif()
  find_path(MPFR_INCLUDE_DIR mpfr.h REQUIRED)
  find_library(MPFR_LIBRARY mpfr REQUIRED)
  find_library(GMP_LIBRARY gmp REQUIRED)
  add_library(trnsci_test_mpfr INTERFACE)
  target_include_directories(trnsci_test_mpfr INTERFACE "${MPFR_INCLUDE_DIR}")
  target_link_libraries(trnsci_test_mpfr INTERFACE "${MPFR_LIBRARY}" "${GMP_LIBRARY}")
endfunction()

# The adversarial test layer's header-only support (<trnsci_testing/adversarial.hpp>: hard-input generators,
# binary128 oracles, the violation tally) as the interface target trnsci_test_adversarial. Tests only. Found
# beside this file in a source tree (trncore/testing) or, for a package built against an installed trncore,
# under the prefix's share/trncore/testing.
function(trnsci_require_adversarial)
  if(TARGET trnsci_test_adversarial)
    return()
  endif()
  find_path(TRNSCI_TESTING_INCLUDE_DIR trnsci_testing/errors.hpp REQUIRED NO_DEFAULT_PATH
            PATHS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../testing"
                  "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../share/trncore/testing")
  # libquadmath (binary128 expq, sqrtq, …) for oracles that need more than + − × ÷. GCC finds quadmath.h on
  # its own; Clang uses libstdc++ but not GCC's private include directory, where the header lives.
  file(GLOB gcc_include_dirs "/usr/lib/gcc/${CMAKE_LIBRARY_ARCHITECTURE}/*/include")
  find_path(TRNSCI_QUADMATH_INCLUDE_DIR quadmath.h HINTS ${gcc_include_dirs} REQUIRED)
  file(GLOB gcc_lib_dirs "/usr/lib/gcc/${CMAKE_LIBRARY_ARCHITECTURE}/*")
  find_library(TRNSCI_QUADMATH_LIBRARY NAMES quadmath libquadmath.so.0 HINTS ${gcc_lib_dirs} REQUIRED)
  add_library(trnsci_test_adversarial INTERFACE)
  target_include_directories(trnsci_test_adversarial INTERFACE "${TRNSCI_TESTING_INCLUDE_DIR}")
  target_include_directories(trnsci_test_adversarial SYSTEM INTERFACE "${TRNSCI_QUADMATH_INCLUDE_DIR}")
  target_link_libraries(trnsci_test_adversarial INTERFACE "${TRNSCI_QUADMATH_LIBRARY}")
endfunction()
