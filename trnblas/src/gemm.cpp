// trnblas::gemm: argument checks (always on), then the host (OpenBLAS CBLAS) or sim backend.
#include "sim/sim_gemm.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <climits>
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

std::string op_name(Op op) { return std::string(to_string(op)); }

// The stored shape of X when op(X) is rows×cols: X itself, or its transpose.
void check_operand(const char* name, Layout layout, Op op, std::int64_t rows, std::int64_t cols, const void* x,
                   std::int64_t ld) {
  const bool t = op != Op::no_trans;
  const std::int64_t stored_rows = t ? cols : rows, stored_cols = t ? rows : cols;
  const std::int64_t need = std::max<std::int64_t>(1, layout == Layout::row_major ? stored_cols : stored_rows);
  if (ld < need)
    throw trncore::DimensionMismatch(kFunction,
                                     std::string("ld") + name + " = " + std::to_string(ld) + " is less than " +
                                         std::to_string(need) + " (" + std::string(trncore::to_string(layout)) +
                                         ", op(" + name + ") = " + op_name(op) + ", " + name + " stored " +
                                         std::to_string(stored_rows) + "x" + std::to_string(stored_cols) + ")",
                                     std::string("pass ld") + name + " >= " + std::to_string(need));
  const std::int64_t lines = layout == Layout::row_major ? stored_rows : stored_cols;
  if (lines > 0 && ld > std::numeric_limits<std::int64_t>::max() / lines)
    throw trncore::InvalidArgument(kFunction,
                                   std::string(name) + "'s storage extent " + std::to_string(lines) + " x ld" + name +
                                       " = " + std::to_string(ld) + " overflows int64",
                                   "pass smaller sizes");
  if (x == nullptr && rows > 0 && cols > 0)
    throw trncore::InvalidArgument(kFunction,
                                   std::string(name) + " is null for a " + std::to_string(rows) + "x" +
                                       std::to_string(cols) + " operand",
                                   std::string("pass ") + name + "'s storage");
}

__extension__ typedef __int128 Wide;  // byte offsets of huge strided operands cannot overflow this

// A stored matrix as `lines` runs of `line` elements, ld apart (rows in row-major, columns in col-major).
struct Storage {
  const char* base;
  std::int64_t lines, line, ld;
};

// Floor division for a possibly negative numerator and a positive denominator.
Wide floor_div(Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Whether any element of c shares a byte with any element of a: each run of c is tested against the one
// run of a that starts last at or before the run's end (runs of a are disjoint and ordered since
// line ≤ ld), so this is exact, not a bounding-interval test: disjoint blocks of one matrix pass.
bool overlaps(const Storage& a, const Storage& c, std::size_t elem) {
  if (a.lines == 0 || a.line == 0 || c.lines == 0 || c.line == 0) return false;
  const Wide stride_a = static_cast<Wide>(a.ld) * static_cast<Wide>(elem);
  const Wide run_a = static_cast<Wide>(a.line) * static_cast<Wide>(elem);
  const Wide run_c = static_cast<Wide>(c.line) * static_cast<Wide>(elem);
  const Wide origin = static_cast<Wide>(reinterpret_cast<std::uintptr_t>(c.base)) -
                      static_cast<Wide>(reinterpret_cast<std::uintptr_t>(a.base));
  for (std::int64_t i = 0; i < c.lines; ++i) {
    const Wide x = origin + static_cast<Wide>(i) * static_cast<Wide>(c.ld) * static_cast<Wide>(elem);
    Wide j = floor_div(x + run_c - 1, stride_a);
    if (j < 0) continue;
    if (j > a.lines - 1) j = a.lines - 1;
    if (j * stride_a + run_a > x) return true;
  }
  return false;
}

// op(X) rows×cols stored in `layout`: its runs.
Storage storage_of(const void* x, Layout layout, Op op, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  const bool t = op != Op::no_trans;
  const std::int64_t sr = t ? cols : rows, sc = t ? rows : cols;
  const bool rm = layout == Layout::row_major;
  return {static_cast<const char*>(x), rm ? sr : sc, rm ? sc : sr, ld};
}

template <class T>
void check_arguments(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
                     std::int64_t lda, const T* b, std::int64_t ldb, const T* c, std::int64_t ldc,
                     const trncore::Options& options) {
  if (m < 0 || n < 0 || k < 0)
    throw trncore::InvalidArgument(kFunction,
                                   "negative size m = " + std::to_string(m) + ", n = " + std::to_string(n) +
                                       ", k = " + std::to_string(k),
                                   "pass sizes >= 0");
  trncore::validate(options, kFunction);
  if (m == 0 || n == 0) return;
  check_operand("a", layout, transa, m, k, a, lda);
  check_operand("b", layout, transb, k, n, b, ldb);
  check_operand("c", layout, Op::no_trans, m, n, c, ldc);
  // BLAS forbids C sharing storage with A or B (C is written while they are read).
  const Storage cs = storage_of(c, layout, Op::no_trans, m, n, ldc);
  const bool with_a = k > 0 && overlaps(storage_of(a, layout, transa, m, k, lda), cs, sizeof(T));
  const bool with_b = k > 0 && overlaps(storage_of(b, layout, transb, k, n, ldb), cs, sizeof(T));
  if (with_a || with_b)
    throw trncore::InvalidArgument(kFunction, std::string("C overlaps ") + (with_a ? "A" : "B"),
                                   "pass a C that shares no storage with A and B");
  if (options.backend == trncore::Backend::host) {
    for (std::int64_t v : {m, n, k, lda, ldb, ldc})
      if (v > INT_MAX)
        throw trncore::NotSupported(kFunction,
                                    "size or leading dimension " + std::to_string(v) +
                                        " exceeds OpenBLAS's 32-bit integers (" + std::to_string(INT_MAX) + ")",
                                    "split the product into blocks below 2^31");
    const auto mode = options.math_mode;
    const bool ok = mode == trncore::MathMode::automatic ||
                    (mode == trncore::MathMode::fp64 && (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>)) ||
                    (mode == trncore::MathMode::fp32 && (std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>));
    if (!ok)
      throw trncore::NotSupported(kFunction,
                                  "math mode " + std::string(trncore::to_string(mode)) +
                                      " is not a host mode for this type",
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
