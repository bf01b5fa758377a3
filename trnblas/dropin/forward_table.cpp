// The addresses the generated trampolines (trampolines.S) jump through: one per forwarded symbol, filled
// from OpenBLAS when the library is loaded, before any call can reach a trampoline.
#include "openblas.hpp"

#include <cstddef>

#include "forwarded_names.inc"  // kForwardedNames[], generated from forwarded_symbols.txt

extern "C" {
__attribute__((visibility("hidden"))) void* trnblas_dropin_table[sizeof kForwardedNames / sizeof kForwardedNames[0]];
}

namespace {

__attribute__((constructor)) void resolve_forwarded_symbols() {
  for (std::size_t i = 0; i < sizeof kForwardedNames / sizeof kForwardedNames[0]; ++i)
    trnblas_dropin_table[i] = trnblas::dropin::openblas_symbol(kForwardedNames[i]);
}

}  // namespace
