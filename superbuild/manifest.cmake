# The suite manifest: which packages make up this trnsci release, in dependency order, what each one
# consumes, and the version each must satisfy. Bump a package's version here in the same commit that
# bumps its project(VERSION); the superbuild refuses a tree that does not satisfy these pins.
#
# Every pin can be overridden on the command line, e.g. -DTRNSCI_PIN_trnblas=0.3.0.
set(TRNSCI_PACKAGES trncore trnrand trnblas trnfft trnsolver trnsparse trntensor)

set(TRNSCI_MANIFEST_trncore   0.9.0)
set(TRNSCI_MANIFEST_trnrand   0.8.0)
set(TRNSCI_MANIFEST_trnfft    0.9.0)
set(TRNSCI_MANIFEST_trnblas   0.7.1)
set(TRNSCI_MANIFEST_trnsolver 0.8.0)
set(TRNSCI_MANIFEST_trnsparse 0.7.0)
set(TRNSCI_MANIFEST_trntensor 0.7.0)

# The dependency graph of DESIGN.md §2 (direct trnsci dependencies only).
set(TRNSCI_REQUIRES_trncore   "")
set(TRNSCI_REQUIRES_trnrand   trncore)
set(TRNSCI_REQUIRES_trnfft    trnblas)
set(TRNSCI_REQUIRES_trnblas   trncore)
set(TRNSCI_REQUIRES_trnsolver trnblas trnrand)
set(TRNSCI_REQUIRES_trnsparse trnblas trnsolver)
set(TRNSCI_REQUIRES_trntensor trnblas)

# Pins default to the manifest on every configure (not cached, so an edited manifest takes effect in an
# existing build tree); -DTRNSCI_PIN_<pkg>=x.y.z overrides one.
foreach(_pkg IN LISTS TRNSCI_PACKAGES)
  if(NOT DEFINED TRNSCI_PIN_${_pkg})
    set(TRNSCI_PIN_${_pkg} "${TRNSCI_MANIFEST_${_pkg}}")
  endif()
endforeach()
