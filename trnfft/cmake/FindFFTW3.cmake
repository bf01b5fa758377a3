# Finds FFTW 3 (double, float and, where installed, long double) and its threads libraries, and defines
# imported targets FFTW3::fftw3, FFTW3::fftw3f, FFTW3::fftw3l (tests' long-double oracle; optional),
# FFTW3::fftw3_threads and FFTW3::fftw3f_threads (each links its precision's library and the platform's
# threads). Installed with trnfft so its config can re-find FFTW.
include(FindPackageHandleStandardArgs)

find_path(FFTW3_INCLUDE_DIR fftw3.h)
find_library(FFTW3_DOUBLE_LIBRARY NAMES fftw3)
find_library(FFTW3_FLOAT_LIBRARY NAMES fftw3f)
find_library(FFTW3_LONG_DOUBLE_LIBRARY NAMES fftw3l)
find_library(FFTW3_DOUBLE_THREADS_LIBRARY NAMES fftw3_threads)
find_library(FFTW3_FLOAT_THREADS_LIBRARY NAMES fftw3f_threads)
mark_as_advanced(FFTW3_INCLUDE_DIR FFTW3_DOUBLE_LIBRARY FFTW3_FLOAT_LIBRARY FFTW3_LONG_DOUBLE_LIBRARY
                 FFTW3_DOUBLE_THREADS_LIBRARY FFTW3_FLOAT_THREADS_LIBRARY)

find_package_handle_standard_args(FFTW3
  REQUIRED_VARS FFTW3_DOUBLE_LIBRARY FFTW3_FLOAT_LIBRARY FFTW3_DOUBLE_THREADS_LIBRARY FFTW3_FLOAT_THREADS_LIBRARY
                FFTW3_INCLUDE_DIR)

if(FFTW3_FOUND)
  find_package(Threads REQUIRED)
  foreach(_fftw3_kind fftw3:DOUBLE fftw3f:FLOAT fftw3l:LONG_DOUBLE)
    string(REPLACE ":" ";" _fftw3_pair "${_fftw3_kind}")
    list(GET _fftw3_pair 0 _fftw3_target)
    list(GET _fftw3_pair 1 _fftw3_var)
    if(FFTW3_${_fftw3_var}_LIBRARY AND NOT TARGET FFTW3::${_fftw3_target})
      add_library(FFTW3::${_fftw3_target} UNKNOWN IMPORTED)
      set_target_properties(FFTW3::${_fftw3_target} PROPERTIES
        IMPORTED_LOCATION "${FFTW3_${_fftw3_var}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${FFTW3_INCLUDE_DIR}")
    endif()
    if(FFTW3_${_fftw3_var}_THREADS_LIBRARY AND NOT TARGET FFTW3::${_fftw3_target}_threads)
      add_library(FFTW3::${_fftw3_target}_threads UNKNOWN IMPORTED)
      set_target_properties(FFTW3::${_fftw3_target}_threads PROPERTIES
        IMPORTED_LOCATION "${FFTW3_${_fftw3_var}_THREADS_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${FFTW3_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "FFTW3::${_fftw3_target};Threads::Threads")
    endif()
  endforeach()
endif()
