// trnblas::gemm: argument checks (always on), then the host (OpenBLAS CBLAS) or sim backend.
#include "checks.hpp"
#include "sim/sim_gemm.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

namespace trnblas {

namespace {

constexpr const char* kFunction = "trnblas::gemm";

template <class T>
constexpr bool is_complex = !std::is_floating_point_v<T>;

template <class T>
void check_arguments(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
                     std::int64_t lda, const T* b, std::int64_t ldb, const T* c, std::int64_t ldc,
                     const trncore::Options& options) {
  detail::check_sizes(kFunction, {{"m", m}, {"n", n}, {"k", k}});
  trncore::validate(options, kFunction);
  if (m == 0 || n == 0) return;
  detail::check_matrix(kFunction, "a", layout, transa, m, k, a, lda, sizeof(T));
  detail::check_matrix(kFunction, "b", layout, transb, k, n, b, ldb, sizeof(T));
  detail::check_matrix(kFunction, "c", layout, Op::no_trans, m, n, c, ldc, sizeof(T), false);
  // BLAS forbids C sharing storage with A or B (C is written while they are read).
  const auto cs = detail::matrix_region(c, layout, Op::no_trans, m, n, ldc, sizeof(T));
  if (k > 0) {
    detail::check_no_overlap(kFunction, "C", cs, "A", detail::matrix_region(a, layout, transa, m, k, lda, sizeof(T)));
    detail::check_no_overlap(kFunction, "C", cs, "B", detail::matrix_region(b, layout, transb, k, n, ldb, sizeof(T)));
  }
  if (options.backend == trncore::Backend::host) {
    detail::check_blasint(kFunction, {{"m", m}, {"n", n}, {"k", k}, {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}});
    detail::check_host_math_mode(kFunction, options, detail::is_double_precision<T>,
                                 "use Backend::sim for reduced-precision modes, or MathMode::automatic");
  }
}

CBLAS_TRANSPOSE cblas_op(Op op) {
  return op == Op::no_trans ? CblasNoTrans : op == Op::trans ? CblasTrans : CblasConjTrans;
}

template <class T>
void host_gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
               const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  const CBLAS_ORDER order = layout == Layout::row_major ? CblasRowMajor : CblasColMajor;
  const auto i = [](std::int64_t v) { return static_cast<blasint>(v); };
  // OpenBLAS reads A and B even when k = 0 is passed with a null pointer in some kernels; BLAS semantics
  // (k = 0: C = beta·C) are met by the library for valid pointers, and checked above otherwise.
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
  else if constexpr (std::is_same_v<T, double>)
    cblas_dgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cblas_cgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), &alpha, a, i(lda), b, i(ldb), &beta, c,
                i(ldc));
  else
    cblas_zgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), &alpha, a, i(lda), b, i(ldb), &beta, c,
                i(ldc));
}

// The host bound γ_{k+2} (one rounding per product and per addition, then α and β): Higham §3.5.
template <class T>
double host_bound(std::int64_t k) {
  using R = decltype(std::abs(T{}));
  const double u = std::numeric_limits<R>::epsilon() / 2 * (is_complex<T> ? 4.0 : 1.0);  // complex ops: ~4u (Higham §3.6)
  const double nu = static_cast<double>(k + 2) * u;
  return nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

template <class T>
void run(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
         std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, const trncore::Options& options,
         trncore::AccuracyReport* report) {
  check_arguments(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc, options);
  if (options.backend == trncore::Backend::sim) {
    if constexpr (is_complex<T>) {
      throw trncore::NotSupported(kFunction, "complex gemm has no sim algorithm yet",
                                  "use Backend::host for complex types");
    } else {
      if (m == 0 || n == 0) return;
      detail::sim_gemm<T>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, report);
      return;
    }
  }
  if (m > 0 && n > 0) host_gemm(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  const double bound = host_bound<T>(k);
  const bool met = !options.target_forward_error || bound <= *options.target_forward_error;
  if (report != nullptr) {
    trncore::AccuracyReport r;
    r.target = options.target_forward_error;
    r.a_priori_bound = bound;
    r.met = met;
    r.trajectory.push_back({std::string("host OpenBLAS ") +
                            (std::is_same_v<T, float> ? "sgemm" : std::is_same_v<T, double> ? "dgemm"
                                                                : std::is_same_v<T, std::complex<float>> ? "cgemm"
                                                                                                         : "zgemm")});
    r.references.push_back("componentwise gamma_{k+2} bound relative to |alpha||A||B| + |beta||C| (Higham, ASNA 2nd "
                           "ed., sec. 3.5)");
    *report = std::move(r);
  } else if (!met) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "the host bound %.3e does not meet target_forward_error = %.3e", bound,
                  *options.target_forward_error);
    throw trncore::TargetNotMet(kFunction, msg, "loosen the target, or use Backend::sim with MathMode::ozaki");
  }
}

}  // namespace

template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const trncore::Options& options) {
  run(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, nullptr);
}

template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const trncore::Options& options, trncore::AccuracyReport& report) {
  run(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, &report);
}

template <class T>
void gemm(Op transa, Op transb, T alpha, trncore::MatrixView<const T> a, trncore::MatrixView<const T> b, T beta,
          trncore::MatrixView<T> c, const trncore::Options& options) {
  const std::int64_t m = transa == Op::no_trans ? a.rows() : a.cols();
  const std::int64_t k = transa == Op::no_trans ? a.cols() : a.rows();
  const std::int64_t kb = transb == Op::no_trans ? b.rows() : b.cols();
  const std::int64_t n = transb == Op::no_trans ? b.cols() : b.rows();
  if (a.layout() != c.layout() || b.layout() != c.layout())
    throw trncore::DimensionMismatch(kFunction, "the views' layouts differ", "pass A, B and C in one layout");
  if (k != kb || c.rows() != m || c.cols() != n)
    throw trncore::DimensionMismatch(kFunction,
                                     "op(A) is " + std::to_string(m) + "x" + std::to_string(k) + ", op(B) is " +
                                         std::to_string(kb) + "x" + std::to_string(n) + ", C is " +
                                         std::to_string(c.rows()) + "x" + std::to_string(c.cols()),
                                     "pass conforming shapes: op(A) m x k, op(B) k x n, C m x n");
  gemm(c.layout(), transa, transb, m, n, k, alpha, a.data(), a.ld(), b.data(), b.ld(), beta, c.data(), c.ld(), options);
}

#define TRNBLAS_INSTANTIATE_GEMM(T)                                                                                 \
  template void gemm<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t,       \
                        const T*, std::int64_t, T, T*, std::int64_t, const trncore::Options&);                      \
  template void gemm<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t,       \
                        const T*, std::int64_t, T, T*, std::int64_t, const trncore::Options&,                       \
                        trncore::AccuracyReport&);                                                                  \
  template void gemm<T>(Op, Op, T, trncore::MatrixView<const T>, trncore::MatrixView<const T>, T,                   \
                        trncore::MatrixView<T>, const trncore::Options&);
TRNBLAS_INSTANTIATE_GEMM(float)
TRNBLAS_INSTANTIATE_GEMM(double)
TRNBLAS_INSTANTIATE_GEMM(std::complex<float>)
TRNBLAS_INSTANTIATE_GEMM(std::complex<double>)
#undef TRNBLAS_INSTANTIATE_GEMM

}  // namespace trnblas
