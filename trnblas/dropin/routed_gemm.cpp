// The routed Level-3 entry points: sgemm_/dgemm_ (gfortran ABI: every argument by reference, hidden string
// lengths last) and cblas_sgemm/cblas_dgemm. Valid calls run trnblas::gemm with the TRNBLAS_MODE options;
// host mode, invalid arguments (so XERBLA reports them exactly as the reference does), calls without a
// product (m, n or k zero, alpha = 0) and calls trnblas cannot certify to the mode's documented bound
// (certified_gemm.hpp) go to OpenBLAS unchanged. trnblas's own cblas_?gemm calls inside this library are bound to OpenBLAS
// by the linker (--wrap), so routing never recurses.
#include "certified_gemm.hpp"
#include "dropin_mode.hpp"
#include "openblas.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <vector>

namespace {

using trnblas::Op;

std::optional<Op> fortran_op(char c) {
  switch (c) {
    case 'N':
    case 'n': return Op::no_trans;
    case 'T':
    case 't': return Op::trans;
    case 'C':
    case 'c': return Op::conj_trans;
    default: return std::nullopt;
  }
}

// CblasNoTrans, CblasTrans, CblasConjTrans, and CblasConjNoTrans, which OpenBLAS's CBLAS accepts as
// CblasNoTrans for real data (so it is routed rather than computed by OpenBLAS).
std::optional<Op> cblas_op(int t) {
  return t == 111 || t == 114 ? std::optional(Op::no_trans)
         : t == 112           ? std::optional(Op::trans)
         : t == 113           ? std::optional(Op::conj_trans)
                              : std::nullopt;
}

// Runs the routed GEMM; false when the call must go to OpenBLAS instead (host mode, no product, refused or
// not certified). The product goes to a work copy of C, stored into C only once certified, so a call that
// falls back reaches OpenBLAS with C untouched.
template <class T>
bool routed(trncore::Layout layout, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
            std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  const auto& options = trnblas::dropin::routed_options();
  if (!options) return false;
  // No product to compute: m = 0 or n = 0 (nothing to do), k = 0 or alpha = 0 (C = beta*C, A and B not
  // referenced, so inf/NaN in them must not reach C, as alpha*P would make them). OpenBLAS does these.
  if (m == 0 || n == 0 || k == 0 || alpha == T(0)) return false;
  const bool col = layout == trncore::Layout::col_major;
  const std::int64_t lines = col ? n : m, line = col ? m : n;  // C's stored columns (col-major) or rows
  std::vector<T> work;
  try {
    work.assign(static_cast<std::size_t>(m * n), T(0));
  } catch (const std::exception& e) {
    trnblas::dropin::note_fallback(e.what());
    return false;
  }
  if (beta != T(0))  // beta = 0: C is not read (BLAS), so NaN in it does not propagate
    for (std::int64_t l = 0; l < lines; ++l) std::copy_n(c + l * ldc, line, work.data() + l * line);
  if (!trnblas::dropin::certified_gemm(*options, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, work.data(),
                                       line))
    return false;
  for (std::int64_t l = 0; l < lines; ++l) std::copy_n(work.data() + l * line, line, c + l * ldc);
  return true;
}

// The reference DGEMM's argument rules (its INFO = 1 … 13 checks), column-major.
bool valid_fortran(std::optional<Op> ta, std::optional<Op> tb, int m, int n, int k, int lda, int ldb, int ldc) {
  if (!ta || !tb || m < 0 || n < 0 || k < 0) return false;
  const int rows_a = *ta == Op::no_trans ? m : k, rows_b = *tb == Op::no_trans ? k : n;
  return lda >= std::max(1, rows_a) && ldb >= std::max(1, rows_b) && ldc >= std::max(1, m);
}

template <class T>
using FortranGemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*, const T*,
                             const int*, const T*, const int*, const T*, T*, const int*, std::size_t, std::size_t);
template <class T>
using CblasGemm = void (*)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);

template <class T>
void fortran_gemm(const char* name, const char* transa, const char* transb, const int* m, const int* n, const int* k,
                  const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,
                  const int* ldc, std::size_t la, std::size_t lb) {
  const auto ta = fortran_op(*transa), tb = fortran_op(*transb);
  if (valid_fortran(ta, tb, *m, *n, *k, *lda, *ldb, *ldc) &&
      routed<T>(trncore::Layout::col_major, *ta, *tb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc))
    return;
  static const auto real = reinterpret_cast<FortranGemm<T>>(trnblas::dropin::openblas_symbol(name));
  real(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);
}

template <class T>
void c_gemm(const char* name, int order, int transa, int transb, int m, int n, int k, T alpha, const T* a, int lda,
            const T* b, int ldb, T beta, T* c, int ldc) {
  const auto ta = cblas_op(transa), tb = cblas_op(transb);
  // Invalid arguments go to OpenBLAS unrouted, so cblas_xerbla reports them as the library always did.
  if ((order == 101 || order == 102) && ta && tb && m >= 0 && n >= 0 && k >= 0) {
    const auto layout = order == 101 ? trncore::Layout::row_major : trncore::Layout::col_major;
    const int rows_a = (*ta == Op::no_trans) == (order == 102) ? m : k;  // stored rows (col-major) or columns
    const int rows_b = (*tb == Op::no_trans) == (order == 102) ? k : n;
    const int rows_c = order == 102 ? m : n;
    if (lda >= std::max(1, rows_a) && ldb >= std::max(1, rows_b) && ldc >= std::max(1, rows_c) &&
        routed<T>(layout, *ta, *tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
      return;
  }
  static const auto real = reinterpret_cast<CblasGemm<T>>(trnblas::dropin::openblas_symbol(name));
  real(order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace

extern "C" {

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc,
            std::size_t la, std::size_t lb) {
  fortran_gemm<float>("sgemm_", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);
}

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, std::size_t la, std::size_t lb) {
  fortran_gemm<double>("dgemm_", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb);
}

void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc) {
  c_gemm<float>("cblas_sgemm", order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha, const double* a, int lda,
                 const double* b, int ldb, double beta, double* c, int ldc) {
  c_gemm<double>("cblas_dgemm", order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// trnblas's own OpenBLAS calls (host gemm, the Ozaki digit products), bound here by -Wl,--wrap.
#define TRNBLAS_DROPIN_WRAP(T, name)                                                                           \
  void __wrap_##name(int order, int ta, int tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b, \
                     int ldb, T beta, T* c, int ldc) {                                                         \
    static const auto real = reinterpret_cast<CblasGemm<T>>(trnblas::dropin::openblas_symbol(#name));          \
    real(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                                         \
  }
TRNBLAS_DROPIN_WRAP(float, cblas_sgemm)
TRNBLAS_DROPIN_WRAP(double, cblas_dgemm)
#undef TRNBLAS_DROPIN_WRAP
// Complex CBLAS passes alpha and beta by pointer.
void __wrap_cblas_cgemm(int order, int ta, int tb, int m, int n, int k, const void* alpha, const void* a, int lda,
                        const void* b, int ldb, const void* beta, void* c, int ldc) {
  using F =
      void (*)(int, int, int, int, int, int, const void*, const void*, int, const void*, int, const void*, void*, int);
  static const auto real = reinterpret_cast<F>(trnblas::dropin::openblas_symbol("cblas_cgemm"));
  real(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void __wrap_cblas_zgemm(int order, int ta, int tb, int m, int n, int k, const void* alpha, const void* a, int lda,
                        const void* b, int ldb, const void* beta, void* c, int ldc) {
  using F =
      void (*)(int, int, int, int, int, int, const void*, const void*, int, const void*, int, const void*, void*, int);
  static const auto real = reinterpret_cast<F>(trnblas::dropin::openblas_symbol("cblas_zgemm"));
  real(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // extern "C"
