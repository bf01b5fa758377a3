# The suite's Python bindings, one extension per package (docs/python.md).
#
# A package with <PKG>_PYTHON=ON builds the importable Python package <pkg>: the pure-Python files of its
# python/<pkg>/ directory plus the pybind11 extension <pkg>._<pkg>, both placed under
# ${TRNSCI_PYTHON_BUILD_DIR}/<pkg> (so PYTHONPATH=${TRNSCI_PYTHON_BUILD_DIR} imports the build tree) and
# installed by `cmake --install` under ${CMAKE_INSTALL_PREFIX}/${TRNSCI_PYTHON_INSTALL_DIR}, the
# interpreter's own site-packages layout. The interpreter is Debian's /usr/bin/python3 unless
# Python_EXECUTABLE names another: a python3 earlier on PATH (pyenv, a venv) has no Debian NumPy/pybind11.
include_guard(GLOBAL)

# Sets the cache variable TRNSCI_PYTHON_INSTALL_DIR (unless the user set it): the interpreter's platlib
# relative to its install base. Debian's python3 gives lib/python3.X/dist-packages (searched under
# /usr/local), a venv or pyenv interpreter lib/python3.X/site-packages. The superbuild uses it too.
function(trnsci_python_install_dir interpreter)
  if(DEFINED TRNSCI_PYTHON_INSTALL_DIR)
    return()
  endif()
  execute_process(
    COMMAND "${interpreter}" -c
      "import sys, sysconfig\np = sysconfig.get_path('platlib')\nfor base in ('/usr/local', sys.prefix):\n    if p.startswith(base + '/'):\n        p = p[len(base) + 1:]\n        break\nprint(p)"
    OUTPUT_VARIABLE platlib OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  set(TRNSCI_PYTHON_INSTALL_DIR "${platlib}" CACHE STRING
      "Where `cmake --install` puts the Python packages, relative to CMAKE_INSTALL_PREFIX")
endfunction()

macro(trnsci_find_python)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The interpreter the trnsci bindings are built for")
  endif()
  find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module NumPy)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.10 CONFIG REQUIRED)
  trnsci_python_install_dir("${Python_EXECUTABLE}")
  if(NOT DEFINED TRNSCI_PYTHON_BUILD_DIR)
    set(TRNSCI_PYTHON_BUILD_DIR "${CMAKE_BINARY_DIR}/python" CACHE PATH
        "Where the build tree's Python packages are assembled (put it on PYTHONPATH)")
  endif()
  # The binding support headers (<trnsci_python/*.hpp>), from this tree or trncore's install.
  find_path(TRNSCI_PYTHON_INCLUDE_DIR trnsci_python/arrays.hpp REQUIRED NO_DEFAULT_PATH
            PATHS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../python/include"
                  "${trncore_DIR}/../../../share/trncore/python/include")
endmacro()

# trnsci_add_python_module(<pkg> SOURCES <cpp>... [PACKAGE_DIR <dir>] [LIBRARIES <target>...])
# Builds <pkg>._<pkg> from SOURCES (linking trnsci::<pkg> and LIBRARIES), copies the .py files of
# PACKAGE_DIR (default python/<pkg>) beside it, and installs both.
function(trnsci_add_python_module pkg)
  cmake_parse_arguments(ARG "" "PACKAGE_DIR" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_PACKAGE_DIR)
    set(ARG_PACKAGE_DIR "${CMAKE_CURRENT_SOURCE_DIR}/${pkg}")
  endif()
  trnsci_find_python()
  set(target ${pkg}_python)
  # NO_EXTRAS: no -flto (link time would dominate the build) and no strip; visibility stays hidden.
  pybind11_add_module(${target} MODULE NO_EXTRAS ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME _${pkg}
    LIBRARY_OUTPUT_DIRECTORY "${TRNSCI_PYTHON_BUILD_DIR}/${pkg}"
    INSTALL_RPATH "$ORIGIN/../../..")
  target_link_libraries(${target} PRIVATE trnsci::${pkg} ${ARG_LIBRARIES} Python::NumPy)
  target_include_directories(${target} PRIVATE "${TRNSCI_PYTHON_INCLUDE_DIR}")
  target_compile_definitions(${target} PRIVATE TRNSCI_PYTHON_MODULE=_${pkg})
  trnsci_target_defaults(${target})
  # Glue code: -O1 compiles pybind11's templates faster than -O3, and the numerics run in the libraries.
  target_compile_options(${target} PRIVATE -O1)
  file(GLOB py_files RELATIVE "${ARG_PACKAGE_DIR}" CONFIGURE_DEPENDS "${ARG_PACKAGE_DIR}/*.py")
  foreach(f ${py_files})
    configure_file("${ARG_PACKAGE_DIR}/${f}" "${TRNSCI_PYTHON_BUILD_DIR}/${pkg}/${f}" COPYONLY)
  endforeach()
  install(TARGETS ${target} LIBRARY DESTINATION "${TRNSCI_PYTHON_INSTALL_DIR}/${pkg}" COMPONENT python)
  install(DIRECTORY "${ARG_PACKAGE_DIR}/" DESTINATION "${TRNSCI_PYTHON_INSTALL_DIR}/${pkg}" COMPONENT python
          FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endfunction()

# trnsci_python_test_environment(<var>): the ENVIRONMENT of a test that runs the interpreter on the build
# tree's packages. Under TRNSCI_SANITIZE the (uninstrumented) interpreter preloads the sanitizer runtimes the
# extensions were built with; leak checking is off there, since CPython keeps objects alive until exit, and
# a failed allocation returns null (MemoryError, as without ASan) instead of aborting.
function(trnsci_python_test_environment var)
  set(env "PYTHONPATH=${TRNSCI_PYTHON_BUILD_DIR}" "PYTHONDONTWRITEBYTECODE=1")
  if(TRNSCI_SANITIZE)
    set(preload "")
    foreach(runtime address:libasan.so undefined:libubsan.so)
      string(REPLACE ":" ";" pair "${runtime}")
      list(GET pair 0 sanitizer)
      list(GET pair 1 library)
      if(sanitizer IN_LIST TRNSCI_SANITIZE)
        execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -print-file-name=${library}
                        OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE)
        list(APPEND preload "${path}")
      endif()
    endforeach()
    list(JOIN preload " " preload)
    list(APPEND env "LD_PRELOAD=${preload}" "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1"
                    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  endif()
  set(${var} "${env}" PARENT_SCOPE)
endfunction()

# trnsci_add_python_tests(<pkg> [DIR <dir>] [EXAMPLES <dir>])
# Registers every test_*.py of DIR (default python/tests) as the ctest <pkg>.python.<file>, run by pytest
# against the build tree, and every *.py of EXAMPLES as <pkg>.python.example.<file>. Both run in the build
# directory, so a file a test or example writes never lands in the sources.
function(trnsci_add_python_tests pkg)
  cmake_parse_arguments(ARG "" "DIR;EXAMPLES" "" ${ARGN})
  if(NOT ARG_DIR)
    set(ARG_DIR "${CMAKE_CURRENT_SOURCE_DIR}/tests")
  endif()
  trnsci_python_test_environment(env)
  list(APPEND env "TRNSCI_DATA_DIR=${PROJECT_SOURCE_DIR}/../data")
  file(GLOB tests CONFIGURE_DEPENDS "${ARG_DIR}/test_*.py")
  foreach(t ${tests})
    get_filename_component(stem "${t}" NAME_WE)
    add_test(NAME ${pkg}.python.${stem}
             COMMAND "${Python_EXECUTABLE}" -m pytest -q -p no:cacheprovider --rootdir "${ARG_DIR}" "${t}"
             WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    set_tests_properties(${pkg}.python.${stem} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 600 LABELS python)
  endforeach()
  if(ARG_EXAMPLES)
    file(GLOB examples CONFIGURE_DEPENDS "${ARG_EXAMPLES}/*.py")
    foreach(e ${examples})
      get_filename_component(stem "${e}" NAME_WE)
      add_test(NAME ${pkg}.python.example.${stem} COMMAND "${Python_EXECUTABLE}" "${e}"
               WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
      set_tests_properties(${pkg}.python.example.${stem} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 600
                                                                     LABELS python)
    endforeach()
  endif()
endfunction()
