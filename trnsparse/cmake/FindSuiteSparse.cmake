# Finds SuiteSparse (Debian bookworm ships 5.x, which has no CMake config of its own) and defines one
# imported target per requested component: SuiteSparse::config (always), and e.g. SuiteSparse::cholmod,
# SuiteSparse::umfpack, SuiteSparse::klu, SuiteSparse::spqr, SuiteSparse::amd, SuiteSparse::colamd.
# Installed with trnsparse so its config can re-find SuiteSparse.
#
#   find_package(SuiteSparse REQUIRED COMPONENTS cholmod umfpack)
include(FindPackageHandleStandardArgs)

find_path(SuiteSparse_INCLUDE_DIR NAMES SuiteSparse_config.h PATH_SUFFIXES suitesparse)
find_library(SuiteSparse_config_LIBRARY NAMES suitesparseconfig)
mark_as_advanced(SuiteSparse_INCLUDE_DIR SuiteSparse_config_LIBRARY)

if(SuiteSparse_INCLUDE_DIR)
  file(STRINGS "${SuiteSparse_INCLUDE_DIR}/SuiteSparse_config.h" _suitesparse_version_lines
       REGEX "#define SUITESPARSE_(MAIN|SUB)_VERSION|#define SUITESPARSE_SUBSUB_VERSION")
  foreach(_part MAIN SUB SUBSUB)
    string(REGEX MATCH "SUITESPARSE_${_part}_VERSION +([0-9]+)" _match "${_suitesparse_version_lines}")
    set(_suitesparse_${_part} "${CMAKE_MATCH_1}")
  endforeach()
  set(SuiteSparse_VERSION "${_suitesparse_MAIN}.${_suitesparse_SUB}.${_suitesparse_SUBSUB}")
endif()

foreach(_component IN LISTS SuiteSparse_FIND_COMPONENTS)
  find_library(SuiteSparse_${_component}_LIBRARY NAMES ${_component})
  mark_as_advanced(SuiteSparse_${_component}_LIBRARY)
  if(SuiteSparse_${_component}_LIBRARY)
    set(SuiteSparse_${_component}_FOUND TRUE)
  endif()
endforeach()

find_package_handle_standard_args(SuiteSparse
  REQUIRED_VARS SuiteSparse_config_LIBRARY SuiteSparse_INCLUDE_DIR
  VERSION_VAR SuiteSparse_VERSION
  HANDLE_COMPONENTS)

if(SuiteSparse_FOUND)
  if(NOT TARGET SuiteSparse::config)
    add_library(SuiteSparse::config UNKNOWN IMPORTED)
    set_target_properties(SuiteSparse::config PROPERTIES
      IMPORTED_LOCATION "${SuiteSparse_config_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}")
  endif()
  foreach(_component IN LISTS SuiteSparse_FIND_COMPONENTS)
    if(SuiteSparse_${_component}_FOUND AND NOT TARGET SuiteSparse::${_component})
      add_library(SuiteSparse::${_component} UNKNOWN IMPORTED)
      set_target_properties(SuiteSparse::${_component} PROPERTIES
        IMPORTED_LOCATION "${SuiteSparse_${_component}_LIBRARY}"
        INTERFACE_LINK_LIBRARIES SuiteSparse::config)
    endif()
  endforeach()
endif()
