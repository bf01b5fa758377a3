#pragma once
// The real OpenBLAS behind the drop-in library, opened privately (RTLD_LOCAL) so its symbols never
// resolve to ours: every forwarded symbol's trampoline and every call the library makes itself go here.

#include <cstddef>

namespace trnblas::dropin {

/// The address of `name` in OpenBLAS. Aborts with a message naming the library and the symbol when it is
/// missing (the drop-in library cannot work without it).
void* openblas_symbol(const char* name);

}  // namespace trnblas::dropin
