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
  // If the name resolves into the drop-in library itself (e.g. a libopenblas.so.0 that links to it, found
  // first on LD_LIBRARY_PATH), a forwarded call would jump to itself forever: refuse to start instead.
  static const void* const self = [] {
    Dl_info info{};
    return dladdr(&handle, &info) != 0 ? info.dli_fbase : nullptr;  // any object of this library
  }();
  Dl_info info{};
  if (self != nullptr && dladdr(p, &info) != 0 && info.dli_fbase == self) {
    std::fprintf(stderr,
                 "libtrnblas_blas: %s resolves %s to the drop-in library itself (%s): forwarding would never end; "
                 "make %s name OpenBLAS, not libtrnblas_blas\n",
                 TRNBLAS_DROPIN_OPENBLAS, name, info.dli_fname != nullptr ? info.dli_fname : "?",
                 TRNBLAS_DROPIN_OPENBLAS);
    std::abort();
  }
  return p;
}

}  // namespace trnblas::dropin
