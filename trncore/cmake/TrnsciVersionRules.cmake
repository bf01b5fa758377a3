# Included by every installed trnsci config and by the superbuild: one statement of the rule.
# trnsci's compatibility rule, the one its ConfigVersion files apply: while a package is 0.x only the
# same minor series is compatible (SameMinorVersion); from 1.0 the same major (SameMajorVersion). In both
# cases the available version must not be older than the one required.
function(trnsci_version_satisfies out available required)
  set(series "^[0-9]+")
  if(required MATCHES "^0\\.")
    set(series "^[0-9]+\\.[0-9]+")
  endif()
  string(REGEX MATCH "${series}" have "${available}")
  string(REGEX MATCH "${series}" want "${required}")
  if(have STREQUAL want AND NOT available VERSION_LESS required)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# The version a package's source tree declares in project(<pkg> VERSION x.y.z).
function(trnsci_source_version out source_dir pkg)
  file(READ "${source_dir}/CMakeLists.txt" text)
  if(NOT text MATCHES "project\\(${pkg}[ \t\r\n]+VERSION[ \t\r\n]+([0-9]+\\.[0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "superbuild: ${source_dir}/CMakeLists.txt has no project(${pkg} VERSION x.y.z)")
  endif()
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
