#include "openblas.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace trnblas::dropin {

void* openblas_symbol(const char* name) {
  static void* const handle = [] {
    void* h = dlopen(TRNBLAS_DROPIN_OPENBLAS, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      std::fprintf(stderr, "libtrnblas_blas: cannot open %s (%s); it provides every routine not routed to trnblas\n",
                   TRNBLAS_DROPIN_OPENBLAS, dlerror());
      std::abort();
    }
    return h;
  }();
  void* p = dlsym(handle, name);
  if (p == nullptr) {
    std::fprintf(stderr, "libtrnblas_blas: %s has no symbol %s\n", TRNBLAS_DROPIN_OPENBLAS, name);
    std::abort();
  }
  return p;
}

}  // namespace trnblas::dropin
