// Sketch-and-precondition least squares: QR of the sketched matrix as a right preconditioner, a
// sketch-and-solve starting point, and LSQR on the preconditioned problem.
#include "common.hpp"
#include "internal_gemm.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/monitor.hpp>
#include <trnblas/gemm.hpp>
#include <trnblas/level2.hpp>
#include <trnblas/level3.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace trnsolver {

namespace {

using namespace randomized_detail;

template <class T>
double norm2(const std::vector<T>& v) {
  double s = 0.0;
  for (T x : v) s += static_cast<double>(x) * x;
  return std::sqrt(s);
}

template <class T>
void scale(std::vector<T>& v, double f) {
  for (T& x : v) x = static_cast<T>(x * f);
}

// The preconditioned operator Ā = A·R⁻¹ (n×n upper R) and its transpose, on the dense A.
template <class T>
struct Preconditioned {
  trncore::MatrixView<const T> a;
  const DenseMatrix<T>& r;
  trncore::Options host;
  // y (m) = A·R⁻¹·x (n)
  void apply(const std::vector<T>& x, std::vector<T>& y) const {
    std::vector<T> z(x);
    trnblas::trsm<T>(Layout::col_major, Side::left, Uplo::upper, Op::no_trans, Diag::non_unit, r.rows, 1, T(1),
                     r.data.data(), r.ld(), z.data(), std::max<std::int64_t>(r.rows, 1), host);
    multiply(false, z, y);
  }
  // y (n) = R⁻ᵀ·Aᵀ·x (m)
  void apply_transpose(const std::vector<T>& x, std::vector<T>& y) const {
    multiply(true, x, y);
    trnblas::trsm<T>(Layout::col_major, Side::left, Uplo::upper, Op::trans, Diag::non_unit, r.rows, 1, T(1),
                     r.data.data(), r.ld(), y.data(), std::max<std::int64_t>(r.rows, 1), host);
  }
  // y = op(A)·x with A in either layout.
  void multiply(bool transpose, const std::vector<T>& x, std::vector<T>& y) const {
    const bool col = a.layout() == Layout::col_major;
    const Op op = (col != transpose) ? Op::no_trans : Op::trans;
    const std::int64_t rows = transpose ? a.cols() : a.rows(), inner = transpose ? a.rows() : a.cols();
    trnsolver::detail::internal_gemm(Layout::col_major, op, Op::no_trans, rows, 1, inner, T(1), a.data(), a.ld(),
                                     x.data(), std::max<std::int64_t>(inner, 1), T(0), y.data(),
                                     std::max<std::int64_t>(rows, 1), host);
  }
};

void check_lstsq(std::int64_t m, std::int64_t n, std::size_t b_size, const SketchedLstsqOptions& o,
                 const char* function) {
  check_common(o.sketch, o, function);
  if (n < 1 || m < n)
    throw trncore::InvalidArgument(function, "A is " + std::to_string(m) + "x" + std::to_string(n),
                                   "sketch-and-precondition needs a tall A with m >= n >= 1 (use lstsq otherwise)");
  if (b_size != static_cast<std::size_t>(m))
    throw trncore::DimensionMismatch(
        function, "b has " + std::to_string(b_size) + " entries for m = " + std::to_string(m), "pass b with m entries");
  if (!(o.sketch_factor >= 1.0) || !std::isfinite(o.sketch_factor) || !(o.rtol > 0.0 && o.rtol < 1.0) ||
      o.max_iterations < 1)
    throw trncore::InvalidArgument(function,
                                   "sketch_factor = " + trncore::detail::sci(o.sketch_factor) +
                                       ", rtol = " + trncore::detail::sci(o.rtol) +
                                       ", max_iterations = " + std::to_string(o.max_iterations),
                                   "use sketch_factor >= 1 (4 is typical), 0 < rtol < 1 and max_iterations >= 1");
}

}  // namespace

template <class T>
SketchedLstsqResult<T> lstsq_sketched(trncore::MatrixView<const T> a, std::span<const T> b,
                                      const SketchedLstsqOptions& o) {
  constexpr const char* kFunction = "trnsolver::lstsq_sketched";
  const std::int64_t m = a.rows(), n = a.cols();
  check_lstsq(m, n, b.size(), o, kFunction);
  require_finite(a, kFunction);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!std::isfinite(b[i]))
      throw trncore::InvalidArgument(
          kFunction,
          "b[" + std::to_string(i) + "] = " + trncore::detail::sci(static_cast<double>(b[i])) + " is not finite",
          "pass a right-hand side of finite values");
  const trncore::Options host = host_options(o);
  const std::int64_t s =
      std::min<std::int64_t>(m, static_cast<std::int64_t>(std::ceil(o.sketch_factor * static_cast<double>(n))));

  // S·A and S·b: Ω depends only on (sketch, m, s), so the two sketches use the same S.
  SketchedLstsqResult<T> res;
  DenseMatrix<T> sa = sketch_left<T>(a, s, o.sketch, host);  // s×n
  const trncore::MatrixView<const T> bview(b.data(), m, 1, std::max<std::int64_t>(m, 1), Layout::col_major);
  DenseMatrix<T> sb = sketch_left<T>(bview, s, o.sketch, host);  // s×1
  // QR of S·A and x₀ = R⁻¹·Qᵀ·S·b in one gels call (R stays in sa's upper triangle).
  const std::int64_t info =
      gels(Layout::col_major, Op::no_trans, s, n, 1, sa.data.data(), sa.ld(), sb.data.data(), sb.ld(), host);
  if (info != 0) {
    res.info = info;
    return res;
  }
  DenseMatrix<T> r(n, n, Layout::col_major);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i <= j; ++i) r(i, j) = sa(i, j);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = sb(i, 0);  // sketch-and-solve x₀

  const Preconditioned<T> op{a, r, host};
  std::vector<T> u(static_cast<std::size_t>(m)), ax(static_cast<std::size_t>(m));
  op.multiply(false, x, ax);
  for (std::int64_t i = 0; i < m; ++i)
    u[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i)] - ax[static_cast<std::size_t>(i)];

  // LSQR (Paige & Saunders 1982, Alg. LSQR without damping) on min ‖Ā·y − u‖.
  const double bnorm = norm2(u);
  std::vector<T> y(static_cast<std::size_t>(n), T(0)), v(static_cast<std::size_t>(n)), w,
      tmp_m(static_cast<std::size_t>(m)), tmp_n(static_cast<std::size_t>(n));
  double beta = bnorm, alpha = 0.0;
  if (beta > 0.0) {
    scale(u, 1.0 / beta);
    op.apply_transpose(u, v);
    alpha = norm2(v);
    if (alpha > 0.0) scale(v, 1.0 / alpha);
  }
  w = v;
  double phibar = beta, rhobar = alpha, anorm2 = 0.0;
  bool converged = beta == 0.0 || alpha == 0.0;
  std::int64_t it = 0;
  const trncore::detail::ProgressMonitor monitor(o.monitor, kFunction);
  while (!converged && it < o.max_iterations) {
    ++it;
    op.apply(v, tmp_m);
    for (std::int64_t i = 0; i < m; ++i)
      u[static_cast<std::size_t>(i)] =
          static_cast<T>(tmp_m[static_cast<std::size_t>(i)] - alpha * u[static_cast<std::size_t>(i)]);
    beta = norm2(u);
    if (beta > 0.0) scale(u, 1.0 / beta);
    anorm2 += alpha * alpha + beta * beta;
    op.apply_transpose(u, tmp_n);
    for (std::int64_t i = 0; i < n; ++i)
      v[static_cast<std::size_t>(i)] =
          static_cast<T>(tmp_n[static_cast<std::size_t>(i)] - beta * v[static_cast<std::size_t>(i)]);
    alpha = norm2(v);
    if (alpha > 0.0) scale(v, 1.0 / alpha);
    const double rho = std::hypot(rhobar, beta), c = rhobar / rho, sn = beta / rho;
    const double theta = sn * alpha, phi = c * phibar;
    rhobar = -c * alpha;
    phibar = sn * phibar;
    for (std::int64_t i = 0; i < n; ++i) {
      y[static_cast<std::size_t>(i)] =
          static_cast<T>(y[static_cast<std::size_t>(i)] + (phi / rho) * w[static_cast<std::size_t>(i)]);
      w[static_cast<std::size_t>(i)] =
          static_cast<T>(v[static_cast<std::size_t>(i)] - (theta / rho) * w[static_cast<std::size_t>(i)]);
    }
    // ‖r_k‖ = φ̄, ‖Āᵀr_k‖ = φ̄·α·|c| (Paige & Saunders §5).
    const double rnorm = phibar, arnorm = phibar * alpha * std::fabs(c);
    converged = rnorm <= o.rtol * bnorm || arnorm <= o.rtol * std::sqrt(anorm2) * rnorm;
    if (monitor.stop_requested(it, rnorm / bnorm) && !converged) {
      res.stopped_by_monitor = true;
      break;
    }
  }
  // x = x₀ + R⁻¹·y
  trnblas::trsm<T>(Layout::col_major, Side::left, Uplo::upper, Op::no_trans, Diag::non_unit, n, 1, T(1), r.data.data(),
                   r.ld(), y.data(), n, host);
  for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] += y[static_cast<std::size_t>(i)];
  op.multiply(false, x, ax);
  for (std::int64_t i = 0; i < m; ++i)
    tmp_m[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i)] - ax[static_cast<std::size_t>(i)];
  res.residual_norm = norm2(tmp_m);
  res.x = std::move(x);
  res.iterations = it;
  res.converged = converged;
  return res;
}

template SketchedLstsqResult<float> lstsq_sketched<float>(trncore::MatrixView<const float>, std::span<const float>,
                                                          const SketchedLstsqOptions&);
template SketchedLstsqResult<double> lstsq_sketched<double>(trncore::MatrixView<const double>, std::span<const double>,
                                                            const SketchedLstsqOptions&);

}  // namespace trnsolver
