# The superbuild's packaging tests (included by superbuild/CMakeLists.txt; they run after the build).
set(tests_dir "${CMAKE_CURRENT_SOURCE_DIR}/tests")
set(work_root "${CMAKE_BINARY_DIR}/packaging-tests")

foreach(pkg IN LISTS TRNSCI_PACKAGES)
  foreach(mode find_package add_subdirectory pkg_config)
    add_test(NAME packaging.${pkg}.${mode}
      COMMAND "${CMAKE_COMMAND}" -DPKG=${pkg} -DMODE=${mode} -DPIN=${TRNSCI_PIN_${pkg}}
              -DWORK=${work_root}/${pkg}-${mode} -DTRNSCI_SOURCE_ROOT=${TRNSCI_SOURCE_ROOT}
              -DSUITE_PREFIX=${TRNSCI_INSTALL_PREFIX} -DPACKAGE_BUILD_DIR=${CMAKE_BINARY_DIR}/packages/${pkg}
              -DGENERATOR=${CMAKE_GENERATOR} -DSHARED=${TRNSCI_SHARED_LIBS}
              -P "${tests_dir}/run_downstream.cmake")
  endforeach()
endforeach()

# The installed shared drop-in BLAS under the netlib testers (Debian's libblas-test) in host and ozaki
# modes: with a shared libtrnblas.so in the same prefix, the drop-in must still never call itself.
set(xblat_dir "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/blas")
if(TRNSCI_SHARED_LIBS)
  add_test(NAME packaging.shared.origin_rpath
    COMMAND "${CMAKE_COMMAND}" -DPREFIX=${TRNSCI_INSTALL_PREFIX} -DWORK=${work_root}/origin-rpath
            -P "${tests_dir}/check_origin_rpath.cmake")
endif()
if(TRNSCI_SHARED_LIBS AND EXISTS "${xblat_dir}/xblat3d")
  foreach(mode host ozaki)
    foreach(p s d)
      # Levels 1 and 2 forward to OpenBLAS through the drop-in's trampolines; their clean reports have 13
      # (xblat1) and 33 (xblat2) PASS words, as in trnblas/dropin/tests.
      add_test(NAME packaging.shared.dropin.xblat1${p}.${mode}
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=${xblat_dir}/xblat1${p}" -D EXPECT=13
                -D "LIBDIR=${TRNSCI_INSTALL_PREFIX}/lib/trnblas" -D "MODE=${mode}"
                -D "WORKDIR=${work_root}/dropin-xblat1${p}-${mode}"
                -P "${TRNSCI_SOURCE_ROOT}/trnblas/dropin/tests/run_xblat.cmake")
      add_test(NAME packaging.shared.dropin.xblat2${p}.${mode}
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=${xblat_dir}/xblat2${p}" -D "INPUT=${xblat_dir}/${p}blat2.in"
                -D "SUMMARY=${p}blat2.out" -D EXPECT=33 -D "LIBDIR=${TRNSCI_INSTALL_PREFIX}/lib/trnblas"
                -D "MODE=${mode}" -D "WORKDIR=${work_root}/dropin-xblat2${p}-${mode}"
                -P "${TRNSCI_SOURCE_ROOT}/trnblas/dropin/tests/run_xblat.cmake")
      add_test(NAME packaging.shared.dropin.xblat3${p}.${mode}
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=${xblat_dir}/xblat3${p}" -D "INPUT=${xblat_dir}/${p}blat3.in"
                -D "SUMMARY=${p}blat3.out" -D EXPECT=13 -D "LIBDIR=${TRNSCI_INSTALL_PREFIX}/lib/trnblas"
                -D "MODE=${mode}" -D "WORKDIR=${work_root}/dropin-xblat3${p}-${mode}"
                -P "${TRNSCI_SOURCE_ROOT}/trnblas/dropin/tests/run_xblat.cmake")
      add_test(NAME packaging.shared.dropin.x${p}cblat3.${mode}
        COMMAND "${CMAKE_COMMAND}" -D "PROGRAM=${xblat_dir}/x${p}cblat3" -D "INPUT=${xblat_dir}/${p}in3"
                -D EXPECT=19 -D "LIBDIR=${TRNSCI_INSTALL_PREFIX}/lib/trnblas"
                -D "MODE=${mode}" -D "WORKDIR=${work_root}/dropin-x${p}cblat3-${mode}"
                -P "${TRNSCI_SOURCE_ROOT}/trnblas/dropin/tests/run_xblat.cmake")
    endforeach()
  endforeach()
endif()

# The Python packages each package installed standalone (against the installed trncore's TrnsciPython.cmake
# and binding headers) import from the prefix's site-packages and run; with shared libraries this also
# proves the extensions' run path ($ORIGIN/../../..) reaches lib/.
if(TRNSCI_PYTHON)
  include("${TRNSCI_SOURCE_ROOT}/trncore/cmake/TrnsciPython.cmake")
  set(python /usr/bin/python3)
  trnsci_python_install_dir("${python}")
  add_test(NAME packaging.python.installed
    COMMAND "${python}" -I "${TRNSCI_SOURCE_ROOT}/cmake/check_python_install.py"
            "${TRNSCI_INSTALL_PREFIX}/${TRNSCI_PYTHON_INSTALL_DIR}" ${TRNSCI_PACKAGES})
endif()

add_test(NAME packaging.consumer.showcase_runs COMMAND "${CMAKE_BINARY_DIR}/consumer/trnsci_showcase")
# The distributed showcase on 4 ranks (2 cores: oversubscribed), small sizes.
if(TRNSCI_MPI)
  include("${TRNSCI_SOURCE_ROOT}/trncore/cmake/TrnsciMpi.cmake")
  trnsci_find_mpi()
  trnsci_mpi_test_environment(mpi_env)
  add_test(NAME packaging.consumer.showcase_mpi_runs
           COMMAND ${MPIEXEC_EXECUTABLE} -n 4 --oversubscribe "${CMAKE_BINARY_DIR}/consumer/trnsci_showcase_mpi" 600 1000)
  set_tests_properties(packaging.consumer.showcase_mpi_runs PROPERTIES ENVIRONMENT "${mpi_env}" TIMEOUT 300
                                                                        PROCESSORS 2)
endif()

# The next minor of a version: newer than the tree, so a pin the tree cannot satisfy.
function(trnsci_next_minor out version)
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _ "${version}")
  math(EXPR minor "${CMAKE_MATCH_2} + 1")
  set(${out} "${CMAKE_MATCH_1}.${minor}.0" PARENT_SCOPE)
endfunction()
string(REPLACE "." "\\." trnblas_version_re "${TRNSCI_SOURCE_VERSION_trnblas}")
string(REPLACE "." "\\." trnfft_version_re "${TRNSCI_SOURCE_VERSION_trnfft}")
string(REPLACE "." "\\." trncore_version_re "${TRNSCI_SOURCE_VERSION_trncore}")
trnsci_next_minor(trnblas_unsatisfied "${TRNSCI_SOURCE_VERSION_trnblas}")
trnsci_next_minor(trnfft_unsatisfied "${TRNSCI_SOURCE_VERSION_trnfft}")
string(REPLACE "." "\\." trnblas_unsatisfied_re "${trnblas_unsatisfied}")
string(REPLACE "." "\\." trnfft_unsatisfied_re "${trnfft_unsatisfied}")

# A downstream pin the installed tree does not satisfy fails at configure time, naming package and versions.
add_test(NAME packaging.consumer.unsatisfied_pin_fails
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/consumer -DWORK=${work_root}/unsatisfied-pin
          "-DARGS=-DCMAKE_PREFIX_PATH=${TRNSCI_INSTALL_PREFIX}|-DTRNSCI_PIN_trnblas=${trnblas_unsatisfied}"
          "-DEXPECT=package \"?trnblas\"?|requested version \"?${trnblas_unsatisfied_re}\"?|version: ${trnblas_version_re}"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")

# A manifest pin this source tree does not satisfy stops the superbuild before anything is built.
add_test(NAME packaging.superbuild.unsatisfied_manifest_pin_fails
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR} -DWORK=${work_root}/unsatisfied-manifest-pin
          "-DARGS=-DTRNSCI_PIN_trnfft=${trnfft_unsatisfied}"
          "-DEXPECT=pins trnfft ${trnfft_unsatisfied_re}, but this tree has trnfft ${trnfft_version_re}"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")

# A package refuses to load beside an incompatible version of a sibling it was built against.
add_test(NAME packaging.trnblas.refuses_incompatible_loaded_sibling
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${tests_dir}/sibling_conflict -DWORK=${work_root}/sibling-conflict
          "-DARGS=-DCMAKE_PREFIX_PATH=${tests_dir}/fixtures/trncore-99.0.0|-Dtrnblas_DIR=${TRNSCI_INSTALL_PREFIX}/lib/cmake/trnblas"
          "-DEXPECT=trnblas ${trnblas_version_re} was built against trncore ${trncore_version_re}, but trncore 99\\.0\\.0 is already loaded"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")

# Docs that cannot rot: every ```cpp and ```cmake example of the READMEs and docs/*.md is compiled (and, when
# complete, run) against the install prefix; one test per Markdown file that has one. Markers and rules:
# docs_examples.cmake and docs/README.md. Editing a Markdown file re-runs this configure, so a file's first
# example registers its test.
file(GLOB docs_markdown RELATIVE "${TRNSCI_SOURCE_ROOT}" CONFIGURE_DEPENDS
     "${TRNSCI_SOURCE_ROOT}/README.md" "${TRNSCI_SOURCE_ROOT}/*/README.md" "${TRNSCI_SOURCE_ROOT}/docs/*.md")
string(REPLACE ";" "|" docs_packages "${TRNSCI_PACKAGES}")
foreach(md IN LISTS docs_markdown)
  if(md MATCHES "^[_.]")   # build trees (_build/...) and hidden directories are not documentation
    continue()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${TRNSCI_SOURCE_ROOT}/${md}")
  file(READ "${TRNSCI_SOURCE_ROOT}/${md}" text)
  if(NOT text MATCHES "(^|\n)[ \t]*```[ \t]*([cC][pP][pP]|[cC]\\+\\+|[cC][xX][xX]|[cC][mM][aA][kK][eE])")
    continue()
  endif()
  string(MAKE_C_IDENTIFIER "${md}" md_id)
  add_test(NAME packaging.docs.examples.${md}
    COMMAND "${CMAKE_COMMAND}" "-DDOC=${TRNSCI_SOURCE_ROOT}/${md}" "-DDOC_NAME=${md}"
            "-DWORK=${work_root}/docs-examples/${md_id}" "-DSUITE_PREFIX=${TRNSCI_INSTALL_PREFIX}"
            "-DGENERATOR=${CMAKE_GENERATOR}" "-DPACKAGES=${docs_packages}"
            "-DCXX_COMPILER=${CMAKE_CXX_COMPILER}" "-DBUILD_TYPE=${CMAKE_BUILD_TYPE}"
            "-DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}"
            -P "${tests_dir}/docs_examples.cmake")
  set_tests_properties(packaging.docs.examples.${md} PROPERTIES TIMEOUT 600)
endforeach()

# The mpi components (TRNSCI_MPI): found with COMPONENTS mpi from the prefix and run on 2 ranks; found without
# it, a package never looks for MPI (configured with MPI made unfindable); and asking for the component
# when MPI cannot be found fails at configure time, naming MPI.
if(TRNSCI_MPI)
  foreach(pkg trncore trnrand trnblas trnfft trnsolver trnsparse trntensor)
    foreach(component mpi none)
      add_test(NAME packaging.mpi.${pkg}.${component}
        COMMAND "${CMAKE_COMMAND}" -DPKG=${pkg} -DPIN=${TRNSCI_PIN_${pkg}} -DCOMPONENT=${component}
                -DWORK=${work_root}/mpi-${pkg}-${component} -DSUITE_PREFIX=${TRNSCI_INSTALL_PREFIX}
                -DGENERATOR=${CMAKE_GENERATOR} -DMPIEXEC=${MPIEXEC_EXECUTABLE}
                -P "${tests_dir}/run_mpi_downstream.cmake")
      set_tests_properties(packaging.mpi.${pkg}.${component} PROPERTIES TIMEOUT 300)
    endforeach()
  endforeach()
  add_test(NAME packaging.mpi.component_without_mpi_fails
    COMMAND "${CMAKE_COMMAND}" -DSOURCE=${tests_dir}/mpi_downstream -DWORK=${work_root}/mpi-unfindable
            "-DARGS=-DCMAKE_PREFIX_PATH=${TRNSCI_INSTALL_PREFIX}|-DPKG=trnblas|-DPIN=${TRNSCI_PIN_trnblas}|-DCOMPONENT=mpi|-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON"
            "-DEXPECT=trnblas|MPI"
            -DGENERATOR=${CMAKE_GENERATOR}
            -P "${tests_dir}/expect_configure_failure.cmake")
endif()
