// The routed real Level-3 routines besides GEMM: ssymm_/dsymm_, ssyrk_/dsyrk_, ssyr2k_/dsyr2k_,
// strmm_/dtrmm_ (gfortran ABI) and their cblas_ forms (row- or column-major). Each valid call with a product
// to compute runs as trnblas::gemm on the sim backend in the TRNBLAS_MODE options (one GEMM, two for syr2k),
// so it gets that mode's GEMM bound (docs/trnblas-sim.md) with the inner dimension K below:
//   symm   C = alpha*A*B + beta*C (or alpha*B*A + beta*C), the referenced triangle of A expanded to the
//          full symmetric matrix; K = m (left) or n (right)
//   syrk   C = alpha*op(A)*op(A)^T + beta*C computed on an n x n copy of C's referenced triangle, of which
//          only that triangle is stored back; K = k
//   syr2k  W = alpha*op(A)*op(B)^T + beta*C, then C = alpha*op(B)*op(A)^T + W: two GEMMs with K = k, each
//          certified on its own (bound ε1 + ε2 + ε1ε2 of the sum of magnitudes, see syr2k below)
//   trmm   B = alpha*op(A)*B (or alpha*B*op(A)) with A expanded to a full matrix (zeros outside the
//          triangle, ones on a unit diagonal, which is not read); K = m (left) or n (right)
// As for GEMM (routed_gemm.cpp): host mode, invalid arguments (OpenBLAS reports them through xerbla_, with
// reference BLAS's parameter numbers) and calls without a product (a zero dimension, k = 0, alpha = 0: C or B
// is only scaled, A and B are not referenced) go to OpenBLAS unchanged, and so does a call trnblas refuses or
// cannot certify to the mode's documented bound (certified_gemm.hpp): the output is written only after every
// GEMM of the call was certified. No routed routine concatenates operands of different magnitudes into one
// GEMM (the complex ?her2k/?herk/?hemm are not routed: the sim backend has no complex GEMM).
// ?trsm stays with OpenBLAS: a triangular solve is not a product.
#include "certified_gemm.hpp"
#include "dropin_mode.hpp"
#include "openblas.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

namespace {

using trnblas::Diag;
using trnblas::Op;
using trnblas::Side;
using trnblas::Uplo;
using trncore::Layout;
using i64 = std::int64_t;

// ---- The four routines as GEMMs (one each, two for syr2k) ----

// Element (i, j) of the logical matrix stored at p in `layout` with leading dimension ld.
template <class P>
P& at(P* p, Layout layout, i64 ld, i64 i, i64 j) {
  return layout == Layout::col_major ? p[i + j * ld] : p[i * ld + j];
}

// A zero-initialised rows x cols work matrix in `layout`.
template <class T>
struct Dense {
  Dense(Layout l, i64 r, i64 c) : layout(l), rows(r), cols(c), values(static_cast<std::size_t>(r * c), T(0)) {}
  i64 ld() const { return std::max<i64>(1, layout == Layout::col_major ? rows : cols); }
  T& operator()(i64 i, i64 j) { return at(values.data(), layout, ld(), i, j); }
  T* data() { return values.data(); }
  Layout layout;
  i64 rows, cols;
  std::vector<T> values;
};

bool in_triangle(Uplo uplo, i64 i, i64 j) { return uplo == Uplo::upper ? i <= j : i >= j; }

// Runs f(options) when a mode is routed; false (the caller forwards to OpenBLAS) in host mode, when trnblas
// threw, or when f's GEMMs could not be certified to the mode's bound (f returns false). f computes into work
// matrices and writes the caller's output only after every GEMM was certified, so a call that falls back
// reaches OpenBLAS with its output untouched.
template <class F>
bool run_routed(F&& f) {
  const auto& options = trnblas::dropin::routed_options();
  if (!options) return false;
  try {
    return f(*options);
  } catch (const std::exception& e) {
    trnblas::dropin::note_fallback(e.what());
    return false;
  }
}

using trnblas::dropin::certified_gemm;

// A work copy of the m×n output X (its stored values where beta ≠ 0 and `inside`, else 0) and the store back.
template <class T, class Inside>
Dense<T> work_copy(Layout layout, i64 m, i64 n, const T* x, i64 ldx, T beta, Inside inside) {
  Dense<T> w(layout, m, n);
  if (beta != T(0))  // beta = 0: the output is not read (BLAS), so NaN in it does not propagate
    for (i64 j = 0; j < n; ++j)
      for (i64 i = 0; i < m; ++i)
        if (inside(i, j)) w(i, j) = at(x, layout, ldx, i, j);
  return w;
}
template <class T, class Inside>
void store(Dense<T>& w, T* x, i64 ldx, Inside inside) {
  for (i64 j = 0; j < w.cols; ++j)
    for (i64 i = 0; i < w.rows; ++i)
      if (inside(i, j)) at(x, w.layout, ldx, i, j) = w(i, j);
}
const auto everywhere = [](i64, i64) { return true; };

template <class T>
bool symm(Layout layout, Side side, Uplo uplo, i64 m, i64 n, T alpha, const T* a, i64 lda, const T* b, i64 ldb, T beta,
          T* c, i64 ldc) {
  return run_routed([&](const trncore::Options& options) {
    const i64 ka = side == Side::left ? m : n;
    Dense<T> full(layout, ka, ka);  // symmetric, so the same matrix in either layout
    for (i64 j = 0; j < ka; ++j)
      for (i64 i = 0; i < ka; ++i)
        full(i, j) = in_triangle(uplo, i, j) ? at(a, layout, lda, i, j) : at(a, layout, lda, j, i);
    Dense<T> work = work_copy(layout, m, n, c, ldc, beta, everywhere);
    const bool ok = side == Side::left ? certified_gemm(options, layout, Op::no_trans, Op::no_trans, m, n, m, alpha,
                                                        full.data(), full.ld(), b, ldb, beta, work.data(), work.ld())
                                       : certified_gemm(options, layout, Op::no_trans, Op::no_trans, m, n, n, alpha, b,
                                                        ldb, full.data(), full.ld(), beta, work.data(), work.ld());
    if (ok) store(work, c, ldc, everywhere);
    return ok;
  });
}

template <class T>
bool syrk(Layout layout, Uplo uplo, Op trans, i64 n, i64 k, T alpha, const T* a, i64 lda, T beta, T* c, i64 ldc) {
  return run_routed([&](const trncore::Options& options) {
    const auto tri = [&](i64 i, i64 j) { return in_triangle(uplo, i, j); };
    Dense<T> work = work_copy(layout, n, n, c, ldc, beta, tri);
    const Op first = trans == Op::no_trans ? Op::no_trans : Op::trans;
    const Op second = trans == Op::no_trans ? Op::trans : Op::no_trans;
    if (!certified_gemm(options, layout, first, second, n, n, k, alpha, a, lda, a, lda, beta, work.data(), work.ld()))
      return false;
    store(work, c, ldc, tri);
    return true;
  });
}

// Two GEMMs, each certified on its own: W = alpha·op(A)·op(B)ᵀ + beta·C, then C = alpha·op(B)·op(A)ᵀ + W.
// (One GEMM of [op(A) op(B)]·[op(B) op(A)]ᵀ would give each row of the left factor the magnitudes of both A
// and B, and ozaki's fixed-point slices of a row are set by its largest entry: with |A| ≈ 1 and |B| ≈ 1e20 the
// A part lost 20 digits.) With ε1, ε2 the two certified bounds, |W − W*| ≤ ε1·M1 (M1 = |α||A||B|ᵀ + |β||C|)
// and the second error is ≤ ε2·(|α||B||A|ᵀ + |W|) ≤ ε2·(|α||B||A|ᵀ + (1 + ε1)M1), so C's error is
// ≤ (ε1 + ε2 + ε1ε2)·(|α||A||B|ᵀ + |α||B||A|ᵀ + |β||C|) componentwise.
template <class T>
bool syr2k(Layout layout, Uplo uplo, Op trans, i64 n, i64 k, T alpha, const T* a, i64 lda, const T* b, i64 ldb, T beta,
           T* c, i64 ldc) {
  return run_routed([&](const trncore::Options& options) {
    const auto tri = [&](i64 i, i64 j) { return in_triangle(uplo, i, j); };
    Dense<T> work = work_copy(layout, n, n, c, ldc, beta, tri);
    const Op first = trans == Op::no_trans ? Op::no_trans : Op::trans;
    const Op second = trans == Op::no_trans ? Op::trans : Op::no_trans;
    if (!certified_gemm(options, layout, first, second, n, n, k, alpha, a, lda, b, ldb, beta, work.data(), work.ld()))
      return false;
    if (!certified_gemm(options, layout, first, second, n, n, k, alpha, b, ldb, a, lda, T(1), work.data(), work.ld()))
      return false;
    store(work, c, ldc, tri);
    return true;
  });
}

template <class T>
bool trmm(Layout layout, Side side, Uplo uplo, Op transa, Diag diag, i64 m, i64 n, T alpha, const T* a, i64 lda, T* b,
          i64 ldb) {
  return run_routed([&](const trncore::Options& options) {
    const i64 ka = side == Side::left ? m : n;
    Dense<T> full(layout, ka, ka);
    for (i64 j = 0; j < ka; ++j)
      for (i64 i = 0; i < ka; ++i)
        if (i == j)
          full(i, j) = diag == Diag::unit ? T(1) : at(a, layout, lda, i, j);
        else if (in_triangle(uplo, i, j))
          full(i, j) = at(a, layout, lda, i, j);
    Dense<T> copy = work_copy(layout, m, n, static_cast<const T*>(b), ldb, T(1), everywhere);
    Dense<T> work(layout, m, n);  // beta = 0: B is overwritten, not read
    const Op op = transa == Op::no_trans ? Op::no_trans : Op::trans;
    const bool ok = side == Side::left
                        ? certified_gemm(options, layout, op, Op::no_trans, m, n, m, alpha, full.data(), full.ld(),
                                         copy.data(), copy.ld(), T(0), work.data(), work.ld())
                        : certified_gemm(options, layout, Op::no_trans, op, m, n, n, alpha, copy.data(), copy.ld(),
                                         full.data(), full.ld(), T(0), work.data(), work.ld());
    if (ok) store(work, b, ldb, everywhere);
    return ok;
  });
}

// ---- Argument decoding and BLAS's argument rules ----

i64 max1(i64 v) { return std::max<i64>(1, v); }

// Reference BLAS looks at the first character only, in either case (LSAME).
char upper(const char* c) { return *c >= 'a' && *c <= 'z' ? static_cast<char>(*c - 'a' + 'A') : *c; }
std::optional<Op> f_op(const char* c) {
  const char u = upper(c);
  if (u == 'N') return Op::no_trans;
  if (u == 'T' || u == 'C') return Op::trans;  // real data: C is T
  return std::nullopt;
}
std::optional<Uplo> f_uplo(const char* c) {
  const char u = upper(c);
  return u == 'U' ? std::optional(Uplo::upper) : u == 'L' ? std::optional(Uplo::lower) : std::nullopt;
}
std::optional<Side> f_side(const char* c) {
  const char u = upper(c);
  return u == 'L' ? std::optional(Side::left) : u == 'R' ? std::optional(Side::right) : std::nullopt;
}
std::optional<Diag> f_diag(const char* c) {
  const char u = upper(c);
  return u == 'U' ? std::optional(Diag::unit) : u == 'N' ? std::optional(Diag::non_unit) : std::nullopt;
}

// CBLAS enumerators (cblas.h's values).
std::optional<Layout> c_layout(int order) {
  return order == 102   ? std::optional(Layout::col_major)
         : order == 101 ? std::optional(Layout::row_major)
                        : std::nullopt;
}
std::optional<Op> c_op(int t) {  // real data: the conjugating forms are the plain ones
  return t == 111 || t == 114   ? std::optional(Op::no_trans)
         : t == 112 || t == 113 ? std::optional(Op::trans)
                                : std::nullopt;
}
std::optional<Uplo> c_uplo(int u) {
  return u == 121 ? std::optional(Uplo::upper) : u == 122 ? std::optional(Uplo::lower) : std::nullopt;
}
std::optional<Diag> c_diag(int d) {
  return d == 131 ? std::optional(Diag::non_unit) : d == 132 ? std::optional(Diag::unit) : std::nullopt;
}
std::optional<Side> c_side(int s) {
  return s == 141 ? std::optional(Side::left) : s == 142 ? std::optional(Side::right) : std::nullopt;
}

// The smallest valid leading dimension of a rows x cols matrix stored in `layout`.
i64 min_ld(Layout layout, i64 rows, i64 cols) { return max1(layout == Layout::col_major ? rows : cols); }

template <class F>
F real_function(const char* name) {
  return reinterpret_cast<F>(trnblas::dropin::openblas_symbol(name));
}

// ---- Fortran entry points (column-major) ----

using FLen = std::size_t;  // hidden length of a CHARACTER argument (gfortran ABI), ignored

template <class T>
using FSymm = void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*, const T*,
                       const int*, const T*, T*, const int*, FLen, FLen);
template <class T>
using FSyrk = void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*, const T*, T*,
                       const int*, FLen, FLen);
template <class T>
using FSyr2k = void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*, const T*,
                        const int*, const T*, T*, const int*, FLen, FLen);
template <class T>
using FTrmm = void (*)(const char*, const char*, const char*, const char*, const int*, const int*, const T*, const T*,
                       const int*, T*, const int*, FLen, FLen, FLen, FLen);

template <class T>
void f_symm(const char* name, const char* side, const char* uplo, const int* m, const int* n, const T* alpha,
            const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, FLen ls,
            FLen lu) {
  const auto s = f_side(side);
  const auto u = f_uplo(uplo);
  const bool valid =
      s && u && *m >= 0 && *n >= 0 && *lda >= max1(*s == Side::left ? *m : *n) && *ldb >= max1(*m) && *ldc >= max1(*m);
  if (valid && *m > 0 && *n > 0 && *alpha != T(0) &&
      symm<T>(Layout::col_major, *s, *u, *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc))
    return;
  static const auto real = real_function<FSymm<T>>(name);
  real(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);
}

template <class T>
void f_syrk(const char* name, const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,
            const T* a, const int* lda, const T* beta, T* c, const int* ldc, FLen lu, FLen lt) {
  const auto u = f_uplo(uplo);
  const auto t = f_op(trans);
  const bool valid = u && t && *n >= 0 && *k >= 0 && *lda >= max1(*t == Op::no_trans ? *n : *k) && *ldc >= max1(*n);
  if (valid && *n > 0 && *k > 0 && *alpha != T(0) &&
      syrk<T>(Layout::col_major, *u, *t, *n, *k, *alpha, a, *lda, *beta, c, *ldc))
    return;
  static const auto real = real_function<FSyrk<T>>(name);
  real(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);
}

template <class T>
void f_syr2k(const char* name, const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,
             const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc, FLen lu,
             FLen lt) {
  const auto u = f_uplo(uplo);
  const auto t = f_op(trans);
  const bool valid = u && t && *n >= 0 && *k >= 0 && *lda >= max1(*t == Op::no_trans ? *n : *k) &&
                     *ldb >= max1(*t == Op::no_trans ? *n : *k) && *ldc >= max1(*n);
  if (valid && *n > 0 && *k > 0 && *alpha != T(0) &&
      syr2k<T>(Layout::col_major, *u, *t, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc))
    return;
  static const auto real = real_function<FSyr2k<T>>(name);
  real(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);
}

template <class T>
void f_trmm(const char* name, const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const T* alpha, const T* a, const int* lda, T* b, const int* ldb, FLen ls, FLen lu, FLen lt,
            FLen ld) {
  const auto s = f_side(side);
  const auto u = f_uplo(uplo);
  const auto t = f_op(transa);
  const auto d = f_diag(diag);
  const bool valid =
      s && u && t && d && *m >= 0 && *n >= 0 && *lda >= max1(*s == Side::left ? *m : *n) && *ldb >= max1(*m);
  if (valid && *m > 0 && *n > 0 && *alpha != T(0) &&
      trmm<T>(Layout::col_major, *s, *u, *t, *d, *m, *n, *alpha, a, *lda, b, *ldb))
    return;
  static const auto real = real_function<FTrmm<T>>(name);
  real(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);
}

// ---- CBLAS entry points ----

template <class T>
using CSymm = void (*)(int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
template <class T>
using CSyrk = void (*)(int, int, int, int, int, T, const T*, int, T, T*, int);
template <class T>
using CSyr2k = void (*)(int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
template <class T>
using CTrmm = void (*)(int, int, int, int, int, int, int, T, const T*, int, T*, int);

template <class T>
void c_symm(const char* name, int order, int side, int uplo, int m, int n, T alpha, const T* a, int lda, const T* b,
            int ldb, T beta, T* c, int ldc) {
  const auto l = c_layout(order);
  const auto s = c_side(side);
  const auto u = c_uplo(uplo);
  const i64 ka = s == Side::left ? m : n;
  const bool valid = l && s && u && m >= 0 && n >= 0 && lda >= min_ld(*l, ka, ka) && ldb >= min_ld(*l, m, n) &&
                     ldc >= min_ld(*l, m, n);
  if (valid && m > 0 && n > 0 && alpha != T(0) && symm<T>(*l, *s, *u, m, n, alpha, a, lda, b, ldb, beta, c, ldc))
    return;
  static const auto real = real_function<CSymm<T>>(name);
  real(order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void c_syrk(const char* name, int order, int uplo, int trans, int n, int k, T alpha, const T* a, int lda, T beta, T* c,
            int ldc) {
  const auto l = c_layout(order);
  const auto u = c_uplo(uplo);
  const auto t = c_op(trans);
  const bool valid = l && u && t && n >= 0 && k >= 0 &&
                     lda >= (*t == Op::no_trans ? min_ld(*l, n, k) : min_ld(*l, k, n)) && ldc >= min_ld(*l, n, n);
  if (valid && n > 0 && k > 0 && alpha != T(0) && syrk<T>(*l, *u, *t, n, k, alpha, a, lda, beta, c, ldc)) return;
  static const auto real = real_function<CSyrk<T>>(name);
  real(order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

template <class T>
void c_syr2k(const char* name, int order, int uplo, int trans, int n, int k, T alpha, const T* a, int lda, const T* b,
             int ldb, T beta, T* c, int ldc) {
  const auto l = c_layout(order);
  const auto u = c_uplo(uplo);
  const auto t = c_op(trans);
  const bool valid = l && u && t && n >= 0 && k >= 0 &&
                     lda >= (*t == Op::no_trans ? min_ld(*l, n, k) : min_ld(*l, k, n)) &&
                     ldb >= (*t == Op::no_trans ? min_ld(*l, n, k) : min_ld(*l, k, n)) && ldc >= min_ld(*l, n, n);
  if (valid && n > 0 && k > 0 && alpha != T(0) && syr2k<T>(*l, *u, *t, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
    return;
  static const auto real = real_function<CSyr2k<T>>(name);
  real(order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void c_trmm(const char* name, int order, int side, int uplo, int transa, int diag, int m, int n, T alpha, const T* a,
            int lda, T* b, int ldb) {
  const auto l = c_layout(order);
  const auto s = c_side(side);
  const auto u = c_uplo(uplo);
  const auto t = c_op(transa);
  const auto d = c_diag(diag);
  const i64 ka = s == Side::left ? m : n;
  const bool valid = l && s && u && t && d && m >= 0 && n >= 0 && lda >= min_ld(*l, ka, ka) && ldb >= min_ld(*l, m, n);
  if (valid && m > 0 && n > 0 && alpha != T(0) && trmm<T>(*l, *s, *u, *t, *d, m, n, alpha, a, lda, b, ldb)) return;
  static const auto real = real_function<CTrmm<T>>(name);
  real(order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

}  // namespace

extern "C" {

void ssymm_(const char* side, const char* uplo, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc, FLen ls,
            FLen lu) {
  f_symm<float>("ssymm_", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);
}
void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* b, const int* ldb, const double* beta, double* c, const int* ldc, FLen ls,
            FLen lu) {
  f_symm<double>("dsymm_", side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, ls, lu);
}
void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const float* a,
            const int* lda, const float* beta, float* c, const int* ldc, FLen lu, FLen lt) {
  f_syrk<float>("ssyrk_", uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);
}
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
            const int* lda, const double* beta, double* c, const int* ldc, FLen lu, FLen lt) {
  f_syrk<double>("dsyrk_", uplo, trans, n, k, alpha, a, lda, beta, c, ldc, lu, lt);
}
void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const float* a,
             const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc, FLen lu,
             FLen lt) {
  f_syr2k<float>("ssyr2k_", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);
}
void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
             const int* lda, const double* b, const int* ldb, const double* beta, double* c, const int* ldc, FLen lu,
             FLen lt) {
  f_syr2k<double>("dsyr2k_", uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, lu, lt);
}
void strmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const float* alpha, const float* a, const int* lda, float* b, const int* ldb, FLen ls, FLen lu, FLen lt,
            FLen ld) {
  f_trmm<float>("strmm_", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);
}
void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, FLen ls, FLen lu, FLen lt,
            FLen ld) {
  f_trmm<double>("dtrmm_", side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, ls, lu, lt, ld);
}

void cblas_ssymm(int order, int side, int uplo, int m, int n, float alpha, const float* a, int lda, const float* b,
                 int ldb, float beta, float* c, int ldc) {
  c_symm<float>("cblas_ssymm", order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
void cblas_dsymm(int order, int side, int uplo, int m, int n, double alpha, const double* a, int lda, const double* b,
                 int ldb, double beta, double* c, int ldc) {
  c_symm<double>("cblas_dsymm", order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
void cblas_ssyrk(int order, int uplo, int trans, int n, int k, float alpha, const float* a, int lda, float beta,
                 float* c, int ldc) {
  c_syrk<float>("cblas_ssyrk", order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
void cblas_dsyrk(int order, int uplo, int trans, int n, int k, double alpha, const double* a, int lda, double beta,
                 double* c, int ldc) {
  c_syrk<double>("cblas_dsyrk", order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
void cblas_ssyr2k(int order, int uplo, int trans, int n, int k, float alpha, const float* a, int lda, const float* b,
                  int ldb, float beta, float* c, int ldc) {
  c_syr2k<float>("cblas_ssyr2k", order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void cblas_dsyr2k(int order, int uplo, int trans, int n, int k, double alpha, const double* a, int lda, const double* b,
                  int ldb, double beta, double* c, int ldc) {
  c_syr2k<double>("cblas_dsyr2k", order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void cblas_strmm(int order, int side, int uplo, int transa, int diag, int m, int n, float alpha, const float* a,
                 int lda, float* b, int ldb) {
  c_trmm<float>("cblas_strmm", order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
void cblas_dtrmm(int order, int side, int uplo, int transa, int diag, int m, int n, double alpha, const double* a,
                 int lda, double* b, int ldb) {
  c_trmm<double>("cblas_dtrmm", order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

}  // extern "C"
