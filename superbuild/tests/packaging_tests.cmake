# The superbuild's packaging tests (included by superbuild/CMakeLists.txt; they run after the build).
set(tests_dir "${CMAKE_CURRENT_SOURCE_DIR}/tests")
set(work_root "${CMAKE_BINARY_DIR}/packaging-tests")

foreach(pkg IN LISTS TRNSCI_PACKAGES)
  foreach(mode find_package add_subdirectory pkg_config)
    add_test(NAME packaging.${pkg}.${mode}
      COMMAND "${CMAKE_COMMAND}" -DPKG=${pkg} -DMODE=${mode} -DPIN=${TRNSCI_PIN_${pkg}}
              -DWORK=${work_root}/${pkg}-${mode} -DTRNSCI_SOURCE_ROOT=${TRNSCI_SOURCE_ROOT}
              -DSUITE_PREFIX=${TRNSCI_INSTALL_PREFIX} -DPACKAGE_BUILD_DIR=${CMAKE_BINARY_DIR}/packages/${pkg}
              -DGENERATOR=${CMAKE_GENERATOR}
              -P "${tests_dir}/run_downstream.cmake")
  endforeach()
endforeach()

add_test(NAME packaging.consumer.showcase_runs COMMAND "${CMAKE_BINARY_DIR}/consumer/trnsci_showcase")

# A downstream pin the installed tree does not satisfy fails at configure time, naming package and versions.
add_test(NAME packaging.consumer.unsatisfied_pin_fails
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/consumer -DWORK=${work_root}/pin-0.2
          "-DARGS=-DCMAKE_PREFIX_PATH=${TRNSCI_INSTALL_PREFIX}|-DTRNSCI_PIN_trnblas=0.2.0"
          "-DEXPECT=package \"?trnblas\"?|requested version \"?0\\.2\\.0\"?|version: 0\\.1\\.0"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")

# A manifest pin this source tree does not satisfy stops the superbuild before anything is built.
add_test(NAME packaging.superbuild.unsatisfied_manifest_pin_fails
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR} -DWORK=${work_root}/manifest-0.2
          "-DARGS=-DTRNSCI_PIN_trnfft=0.2.0"
          "-DEXPECT=pins trnfft 0\\.2\\.0, but this tree has trnfft 0\\.1\\.0"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")

# A package refuses to load beside an incompatible version of a sibling it was built against.
add_test(NAME packaging.trnblas.refuses_incompatible_loaded_sibling
  COMMAND "${CMAKE_COMMAND}" -DSOURCE=${tests_dir}/sibling_conflict -DWORK=${work_root}/sibling-conflict
          "-DARGS=-DCMAKE_PREFIX_PATH=${tests_dir}/fixtures/trncore-0.2.0|-Dtrnblas_DIR=${TRNSCI_INSTALL_PREFIX}/lib/cmake/trnblas"
          "-DEXPECT=trnblas 0\\.1\\.0 was built against trncore 0\\.1\\.0, but trncore 0\\.2\\.0 is already loaded"
          -DGENERATOR=${CMAKE_GENERATOR}
          -P "${tests_dir}/expect_configure_failure.cmake")
