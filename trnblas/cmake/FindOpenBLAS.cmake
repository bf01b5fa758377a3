# Finds OpenBLAS with its CBLAS header and defines the imported target OpenBLAS::OpenBLAS.
# Installed with trnblas so its config can re-find OpenBLAS. (Debian's own OpenBLASConfig.cmake defines
# no imported target and hard-codes the pthread variant, hence this module.)
include(FindPackageHandleStandardArgs)

set(_openblas_variants openblas-pthread openblas-openmp openblas-serial openblas)
find_path(OpenBLAS_INCLUDE_DIR NAMES cblas.h openblas_config.h PATH_SUFFIXES ${_openblas_variants})
find_library(OpenBLAS_LIBRARY NAMES openblas PATH_SUFFIXES ${_openblas_variants})
mark_as_advanced(OpenBLAS_INCLUDE_DIR OpenBLAS_LIBRARY)

if(OpenBLAS_INCLUDE_DIR AND EXISTS "${OpenBLAS_INCLUDE_DIR}/openblas_config.h")
  file(STRINGS "${OpenBLAS_INCLUDE_DIR}/openblas_config.h" _openblas_version_line
       REGEX "#define OPENBLAS_VERSION")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" OpenBLAS_VERSION "${_openblas_version_line}")
endif()

find_package_handle_standard_args(OpenBLAS
  REQUIRED_VARS OpenBLAS_LIBRARY OpenBLAS_INCLUDE_DIR
  VERSION_VAR OpenBLAS_VERSION)

if(OpenBLAS_FOUND AND NOT TARGET OpenBLAS::OpenBLAS)
  add_library(OpenBLAS::OpenBLAS UNKNOWN IMPORTED)
  set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
    IMPORTED_LOCATION "${OpenBLAS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${OpenBLAS_INCLUDE_DIR}")
endif()
