# Finds SLEEF (the SIMD Library for Evaluating Elementary Functions, https://sleef.org; Debian's
# libsleef-dev) and defines the imported target SLEEF::SLEEF. trnrand's normal fills call its vectorised
# log and cospi. Installed with trnrand so its config can re-find SLEEF (a static libtrnrand.a needs it at
# the consumer's link).
include(FindPackageHandleStandardArgs)

find_path(SLEEF_INCLUDE_DIR sleef.h)
find_library(SLEEF_LIBRARY NAMES sleef)
mark_as_advanced(SLEEF_INCLUDE_DIR SLEEF_LIBRARY)

if(SLEEF_INCLUDE_DIR AND EXISTS "${SLEEF_INCLUDE_DIR}/sleef.h")
  file(STRINGS "${SLEEF_INCLUDE_DIR}/sleef.h" _sleef_version_lines
       REGEX "^#define SLEEF_VERSION_(MAJOR|MINOR|PATCHLEVEL) [0-9]+")
  foreach(_sleef_part MAJOR MINOR PATCHLEVEL)
    string(REGEX MATCH "SLEEF_VERSION_${_sleef_part} ([0-9]+)" _sleef_match "${_sleef_version_lines}")
    set(_sleef_${_sleef_part} "${CMAKE_MATCH_1}")
  endforeach()
  if(NOT _sleef_MAJOR STREQUAL "")
    set(SLEEF_VERSION "${_sleef_MAJOR}.${_sleef_MINOR}.${_sleef_PATCHLEVEL}")
  endif()
endif()

find_package_handle_standard_args(SLEEF
  REQUIRED_VARS SLEEF_LIBRARY SLEEF_INCLUDE_DIR
  VERSION_VAR SLEEF_VERSION)

if(SLEEF_FOUND AND NOT TARGET SLEEF::SLEEF)
  add_library(SLEEF::SLEEF UNKNOWN IMPORTED)
  set_target_properties(SLEEF::SLEEF PROPERTIES
    IMPORTED_LOCATION "${SLEEF_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SLEEF_INCLUDE_DIR}")
endif()
