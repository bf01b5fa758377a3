# Packaging test of a package's mpi component, run with cmake -P: builds mpi_downstream against the suite's
# prefix with COMPONENT=mpi and runs it on 2 ranks, or with COMPONENT=none and MPI made unfindable.
foreach(required PKG PIN COMPONENT WORK SUITE_PREFIX GENERATOR MPIEXEC)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_mpi_downstream: -D${required}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "run_mpi_downstream(${PKG}, ${COMPONENT}): '${cmd}' failed (${rc})\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(args -S "${CMAKE_CURRENT_LIST_DIR}/mpi_downstream" -B "${WORK}" -G "${GENERATOR}"
         "-DCMAKE_PREFIX_PATH=${SUITE_PREFIX}" -DPKG=${PKG} -DPIN=${PIN} -DCOMPONENT=${COMPONENT})
if(COMPONENT STREQUAL "none")
  list(APPEND args -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
endif()
run("${CMAKE_COMMAND}" ${args})
run("${CMAKE_COMMAND}" --build "${WORK}")
if(COMPONENT STREQUAL "mpi")
  run("${CMAKE_COMMAND}" -E env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      "LD_LIBRARY_PATH=${SUITE_PREFIX}/lib" "${MPIEXEC}" -n 2 --oversubscribe "${WORK}/distributed")
endif()
