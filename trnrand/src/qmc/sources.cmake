# Quasi-random sequences (Sobol, Halton, Latin hypercube). Included by trnrand/CMakeLists.txt after the library target exists.

# Joe & Kuo's direction numbers become a compiled table at build time (sobol_table.cmake, ~0.4 s), so
# the library reads no file at run time and configure stays fast. The sha256 pins the published file.
set(_trnrand_sobol_data "${CMAKE_CURRENT_LIST_DIR}/../../data/new-joe-kuo-6.21201")
set(_trnrand_sobol_license "${CMAKE_CURRENT_LIST_DIR}/../../data/LICENSE")
set(_trnrand_sobol_table "${CMAKE_CURRENT_BINARY_DIR}/generated/src/sobol_joe_kuo_table.cpp")
add_custom_command(
  OUTPUT "${_trnrand_sobol_table}"
  COMMAND "${CMAKE_COMMAND}" "-DINPUT=${_trnrand_sobol_data}" "-DLICENSE=${_trnrand_sobol_license}"
          "-DOUTPUT=${_trnrand_sobol_table}"
          "-DSHA256=93649c810951fc77ee501a97ac9d840b29066cb9bb5a70efcad7e5cee6732861"
          -P "${CMAKE_CURRENT_LIST_DIR}/sobol_table.cmake"
  DEPENDS "${_trnrand_sobol_data}" "${_trnrand_sobol_license}" "${CMAKE_CURRENT_LIST_DIR}/sobol_table.cmake"
  COMMENT "Generating the Sobol direction-number table from new-joe-kuo-6.21201"
  VERBATIM)

target_sources(trnrand PRIVATE
  "${_trnrand_sobol_table}"
  ${CMAKE_CURRENT_LIST_DIR}/checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/direction_numbers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scramble.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sobol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/halton.cpp
  ${CMAKE_CURRENT_LIST_DIR}/latin_hypercube.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qmc_names.cpp)

# The licence must travel with the tables built from the direction numbers (binary redistribution clause).
# GNUInstallDirs sets CMAKE_INSTALL_DATADIR per directory scope, so it is included here, not inherited.
include(GNUInstallDirs)
install(FILES "${_trnrand_sobol_license}" DESTINATION "${CMAKE_INSTALL_DATADIR}/trnrand"
        RENAME LICENSE.new-joe-kuo-6.21201)
