// trnblas::gemm: argument checks (always on), then the host (OpenBLAS CBLAS) or sim backend.
#include "checks.hpp"
#include "sim/sim_gemm.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
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
  detail::check_enums(kFunction, {detail::enum_arg("layout", layout), detail::enum_arg("transa", transa),
                                  detail::enum_arg("transb", transb)});
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
void host_gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
               std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  const CBLAS_ORDER order = layout == Layout::row_major ? CblasRowMajor : CblasColMajor;
  const auto i = [](std::int64_t v) { return static_cast<blasint>(v); };
  // OpenBLAS reads A and B even when k = 0 is passed with a null pointer in some kernels; BLAS semantics
  // (k = 0: C = beta·C) are met by the library for valid pointers, and checked above otherwise.
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c,
                i(ldc));
  else if constexpr (std::is_same_v<T, double>)
    cblas_dgemm(order, cblas_op(transa), cblas_op(transb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c,
                i(ldc));
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
  const double u =
      std::numeric_limits<R>::epsilon() / 2 * (is_complex<T> ? 4.0 : 1.0);  // complex ops: ~4u (Higham §3.6)
  const double nu = static_cast<double>(k + 2) * u;
  return nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

// What the stored operand behind op(X) (rows×cols) holds, scanned element by element (real and imaginary
// parts separately for complex data): whether any part is inf/NaN, and the smallest nonzero magnitude.
struct Scan {
  bool nonfinite = false;
  double smallest = std::numeric_limits<double>::infinity();  // of the nonzero parts; inf when all are zero
};

template <class T>
Scan scan(Layout layout, Op op, std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ld) {
  Scan s;
  const bool t = op != Op::no_trans;
  const std::int64_t sr = t ? cols : rows, sc = t ? rows : cols;
  const bool rm = layout == Layout::row_major;
  const std::int64_t lines = rm ? sr : sc, line = rm ? sc : sr;
  const auto part = [&](double v) {
    if (!std::isfinite(v))
      s.nonfinite = true;
    else if (v != 0)
      s.smallest = std::min(s.smallest, std::abs(v));
  };
  for (std::int64_t l = 0; l < lines; ++l)
    for (std::int64_t e = 0; e < line; ++e) {
      const T v = x[l * ld + e];
      if constexpr (is_complex<T>) {
        part(static_cast<double>(v.real()));
        part(static_cast<double>(v.imag()));
      } else {
        part(static_cast<double>(v));
      }
    }
  return s;
}

template <class T>
double magnitude_floor(T v) {  // min(1, smallest nonzero |part|) of a scalar; 1 for 0
  double f = 1.0;
  const auto part = [&](double x) {
    if (x != 0) f = std::min(f, std::abs(x));
  };
  if constexpr (is_complex<T>) {
    part(static_cast<double>(v.real()));
    part(static_cast<double>(v.imag()));
  } else {
    part(static_cast<double>(v));
  }
  return f;
}

template <class T>
constexpr const char* format_name() {
  return std::is_same_v<decltype(std::abs(T{})), float> ? "fp32" : "fp64";
}

// Why the host bound does not hold for this call ("" when it does). The γ_{k+2} bound is Higham's
// standard model: every rounding is relative, i.e. no operation's result leaves the normal range of T.
//  - inf/NaN in a read operand (A and B when there is a product, C when beta ≠ 0): no finite bound;
//  - underflow: every nonzero part of op(A), op(B), C is ≥ its smallest nonzero magnitude, so every product
//    of alpha, an A part and a B part is ≥ min(1,|α|)·min(1,a_min)·min(1,b_min) =: L, and every product of
//    beta and a C part is ≥ min(1,|β|)·min(1,c_min). When both are ≥ the normal minimum, only alpha·(sum)
//    can be subnormal (by cancellation in the sum); its absolute error 2^-1075 = u·2^-1022 is then ≤ u·|α|
//    |a||b| ≤ u·M_ij, which the γ_{k+2} bound already allows for that rounding (additions of subnormals are
//    exact). Otherwise a product can underflow and the relative bound fails;
//  - overflow: an inf/NaN in the result from finite inputs (an overflowing intermediate always reaches the
//    result as inf or NaN, since alpha ≠ 0).
template <class T>
std::string host_uncertified_reason(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                                    T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta,
                                    const Scan& c_in) {
  using trncore::detail::sci;
  using R = decltype(std::abs(T{}));
  const double normal_min = static_cast<double>(std::numeric_limits<R>::min());
  const std::string fmt = format_name<T>();
  if (beta != T(0) && c_in.nonfinite) return "C holds inf or NaN and is read (beta != 0)";
  if (beta != T(0) && c_in.smallest < std::numeric_limits<double>::infinity() &&
      magnitude_floor(beta) * std::min(1.0, c_in.smallest) < normal_min)
    return "beta*C can fall below " + fmt + "'s normal range (smallest nonzero |C| part " + sci(c_in.smallest) +
           ", |beta| " + sci(static_cast<double>(std::abs(beta))) + "), where the componentwise bound does not hold";
  if (k == 0 || alpha == T(0)) return "";
  const Scan sa = scan(layout, transa, m, k, a, lda), sb = scan(layout, transb, k, n, b, ldb);
  if (sa.nonfinite) return "op(A) holds inf or NaN";
  if (sb.nonfinite) return "op(B) holds inf or NaN";
  if (sa.smallest == std::numeric_limits<double>::infinity() || sb.smallest == std::numeric_limits<double>::infinity())
    return "";  // A or B is zero: every product is an exact 0
  if (magnitude_floor(alpha) * std::min(1.0, sa.smallest) * std::min(1.0, sb.smallest) < normal_min)
    return "a product alpha*a*b can fall below " + fmt + "'s normal range (smallest nonzero |op(A)| part " +
           sci(sa.smallest) + ", |op(B)| part " + sci(sb.smallest) + ", |alpha| " +
           sci(static_cast<double>(std::abs(alpha))) + "), where the componentwise bound does not hold";
  return "";
}

template <class T>
void run(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
         std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
         const trncore::Options& options, trncore::AccuracyReport* report) {
  check_arguments(layout, transa, transb, m, n, k, a, lda, b, ldb, c, ldc, options);
  trncore::AccuracyReport r;
  if (options.backend == trncore::Backend::sim) {
    if constexpr (is_complex<T>) {
      throw trncore::NotSupported(kFunction, "complex gemm has no sim algorithm yet",
                                  "use Backend::host for complex types");
    } else {
      if (m == 0 || n == 0) {
        r.target = options.target_forward_error;
        r.trajectory.push_back({"m = 0 or n = 0: nothing to compute"});
        r.certify(0.0);
      } else {
        detail::sim_gemm<T>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, r);
      }
    }
  } else {
    const bool empty = m == 0 || n == 0;
    const Scan c_in = empty || beta == T(0) ? Scan{} : scan(layout, Op::no_trans, m, n, c, ldc);
    std::string reason =
        empty ? std::string()
              : host_uncertified_reason(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c_in);
    if (!empty) host_gemm(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (!empty && reason.empty() && scan(layout, Op::no_trans, m, n, c, ldc).nonfinite)
      reason = std::string("the result overflows ") + format_name<T>() + "'s range (inf or NaN from finite inputs)";
    r.target = options.target_forward_error;
    r.trajectory.push_back({std::string("host OpenBLAS ") + (std::is_same_v<T, float>                 ? "sgemm"
                                                             : std::is_same_v<T, double>              ? "dgemm"
                                                             : std::is_same_v<T, std::complex<float>> ? "cgemm"
                                                                                                      : "zgemm")});
    r.references.push_back(
        "componentwise gamma_{k+2} bound relative to |alpha||A||B| + |beta||C| (Higham, ASNA 2nd "
        "ed., sec. 3.5)");
    r.certify(host_bound<T>(k));
    if (!reason.empty()) r.uncertify(reason);
  }
  if (report != nullptr)
    *report = std::move(r);
  else
    trncore::require_target_met(r, kFunction);
}

}  // namespace

template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
          std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options) {
  run(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, nullptr);
}

template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
          std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options,
          trncore::AccuracyReport& report) {
  run(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, &report);
}

template <class T>
void gemm(Op transa, Op transb, std::type_identity_t<T> alpha, trncore::MatrixView<const T> a,
          trncore::MatrixView<const T> b, std::type_identity_t<T> beta, trncore::MatrixView<T> c,
          const trncore::Options& options) {
  detail::check_enums(kFunction, {detail::enum_arg("transa", transa), detail::enum_arg("transb", transb)});
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

#define TRNBLAS_INSTANTIATE_GEMM(T)                                                                                    \
  template void gemm<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, \
                        std::int64_t, T, T*, std::int64_t, const trncore::Options&);                                   \
  template void gemm<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, \
                        std::int64_t, T, T*, std::int64_t, const trncore::Options&, trncore::AccuracyReport&);         \
  template void gemm<T>(Op, Op, T, trncore::MatrixView<const T>, trncore::MatrixView<const T>, T,                      \
                        trncore::MatrixView<T>, const trncore::Options&);
TRNBLAS_INSTANTIATE_GEMM(float)
TRNBLAS_INSTANTIATE_GEMM(double)
TRNBLAS_INSTANTIATE_GEMM(std::complex<float>)
TRNBLAS_INSTANTIATE_GEMM(std::complex<double>)
#undef TRNBLAS_INSTANTIATE_GEMM

}  // namespace trnblas
