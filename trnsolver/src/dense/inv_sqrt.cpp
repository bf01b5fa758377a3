// A^{-1/2} of an SPD matrix: from syevd, or by the coupled Newton–Schulz iteration (GEMMs only).
#include "common.hpp"
#include "internal_gemm.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/monitor.hpp>
#include <trnblas/gemm.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace trnsolver {

using namespace detail;

namespace {

// ‖I − P‖_F/√n of the n×n dense matrix P (any layout: the diagonal is where it is in both).
template <class T>
double distance_to_identity(const DenseMatrix<T>& p) {
  const std::int64_t n = p.rows;
  double s = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const double d = static_cast<double>(p(i, j)) - (i == j ? 1.0 : 0.0);
      s += d * d;
    }
  return std::sqrt(s / static_cast<double>(n));
}

// C = A·B for n×n dense matrices of one layout, on the backend and in the math mode `o` names (the host by
// default; the sim TensorEngine for Newton–Schulz's products when the caller asks for it).
template <class T>
void product(const DenseMatrix<T>& a, const DenseMatrix<T>& b, DenseMatrix<T>& c, const trncore::Options& o = {}) {
  const std::int64_t n = a.rows;
  trnsolver::detail::internal_gemm<T>(a.layout, Op::no_trans, Op::no_trans, n, n, n, T(1), a.data.data(), a.ld(),
                                      b.data.data(), b.ld(), T(0), c.data.data(), c.ld(), o);
}

}  // namespace

template <class T>
InvSqrtReport inv_sqrt_spd(Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* x, std::int64_t ldx,
                           const InvSqrtOptions& options) {
  constexpr const char* f = "trnsolver::inv_sqrt_spd";
  // On the sim backend (float data) the factorization, eigensolver and Newton–Schulz products run on the
  // NeuronCore model: potrf and syevd dispatch there, the products are sim GEMMs in options' math mode.
  const bool sim = options.backend == trncore::Backend::sim;
  // What the inner calls run with: the caller's options without the monitor (this routine reports its own
  // iterations, not syevd's sweeps).
  trncore::Options inner = options;
  inner.monitor = nullptr;
  if (sim) {
    check_sizes(f, {{"n", n}});
    trncore::validate(options, f);
    if constexpr (!std::is_same_v<T, float>)
      throw trncore::NotSupported(f, "the sim backend computes in fp32 (float data only)",
                                  "pass float data, or use the host backend for double");
  } else {
    check_call<T>(f, {{"n", n}}, options);
  }
  if (options.method != InvSqrtMethod::eigh && options.method != InvSqrtMethod::newton_schulz)
    throw trncore::InvalidArgument(f,
                                   "method has the invalid value " + std::to_string(static_cast<int>(options.method)),
                                   "pass InvSqrtMethod::eigh or InvSqrtMethod::newton_schulz");
  if (!(options.tolerance >= 0.0) || std::isinf(options.tolerance))
    throw trncore::InvalidArgument(
        f, "tolerance = " + trncore::detail::sci(options.tolerance) + " is negative or not finite",
        "pass a tolerance >= 0 (0: the default, 4·n·u)");
  if (options.max_iterations < 1)
    throw trncore::InvalidArgument(f, "max_iterations = " + std::to_string(options.max_iterations) + " is below 1",
                                   "pass max_iterations >= 1");
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "x", layout, {"n", n}, {"n", n}, x, ldx, sizeof(T));
  const Uplo lower = Uplo::lower;
  check_finite(f, "a", layout, n, n, a, lda, &lower);
  InvSqrtReport report;
  report.uncertify("inv_sqrt_spd certifies no error bound: the residual ||X*A*X - I||_F/sqrt(n) is measured");
  const bool rm = layout == Layout::row_major;
  const auto at = [&](const T* p, std::int64_t ld, std::int64_t i, std::int64_t j) -> const T& {
    return p[rm ? i * ld + j : i + j * ld];
  };
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) x[rm ? i * ldx + j : i + j * ldx] = T(0);
  if (n == 0) {
    report.converged = true;
    return report;
  }
  // The symmetric matrix from A's lower triangle.
  DenseMatrix<T> s(n, n, layout);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) s(i, j) = s(j, i) = at(a, lda, i, j);
  // Positive definiteness first, by Cholesky, for both methods (one meaning of info).
  {
    DenseMatrix<T> c = s;
    report.info = potrf<T>(layout, Uplo::lower, n, c.data.data(), c.ld(), inner);
    if (report.info > 0) return report;
  }
  DenseMatrix<T> result(n, n, layout);
  if (options.method == InvSqrtMethod::eigh) {
    DenseMatrix<T> q = s;
    std::vector<T> w(static_cast<std::size_t>(n));
    if (syevd<T>(layout, EigJob::vectors, Uplo::lower, n, q.data.data(), q.ld(), w.data(), inner) != 0 ||
        !(w[0] > T(0))) {
      report.info = n + 1;
      return report;
    }
    // X = Q·diag(λ^{-1/2})·Qᵀ = V·Vᵀ with V = Q·diag(λ^{-1/4}).
    for (std::int64_t j = 0; j < n; ++j) {
      const T scale =
          static_cast<T>(1.0L / std::sqrt(std::sqrt(static_cast<long double>(w[static_cast<std::size_t>(j)]))));
      for (std::int64_t i = 0; i < n; ++i) q(i, j) *= scale;
    }
    trnsolver::detail::internal_gemm<T>(layout, Op::no_trans, Op::trans, n, n, n, T(1), q.data.data(), q.ld(),
                                        q.data.data(), q.ld(), T(0), result.data.data(), result.ld(),
                                        sim ? inner : trncore::Options{});
    report.converged = true;
  } else {
    // Coupled Newton–Schulz on A/c, c = ‖A‖_F ≥ λ_max: spectrum in (0, 1], so ‖I − A/c‖₂ < 1 and the
    // iteration converges (Higham, Functions of Matrices, Thm 6.9 and §6.7, eq. (6.35)).
    const T c = lange<T>(layout, Norm::fro, n, n, s.data.data(), s.ld());  // a reduction: host arithmetic
    DenseMatrix<T> y = s, z(n, n, layout), p(n, n, layout), t(n, n, layout), tmp(n, n, layout);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) y(i, j) /= c;
    for (std::int64_t i = 0; i < n; ++i) z(i, i) = T(1);
    const trncore::Options gemm_options = sim ? inner : trncore::Options{};
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const double tol = options.tolerance > 0 ? options.tolerance : 4.0 * static_cast<double>(n) * u;
    double previous = std::numeric_limits<double>::infinity();
    const trncore::detail::ProgressMonitor monitor(options.monitor, f);
    for (;;) {
      product(z, y, p, gemm_options);  // P = Z_k·Y_k → I
      const double r = distance_to_identity(p);
      // The monitor sees each iteration's distance (it does not see the initial one, iteration 0).
      const bool stop = report.iterations > 0 && monitor.stop_requested(report.iterations, r);
      if (r <= tol) {
        report.converged = true;
        break;
      }
      // Rounding floor: in the quadratic phase (r < 0.01) each step squares r; when it no longer halves,
      // the iterates have reached the level the products' rounding errors allow.
      if (options.tolerance == 0 && r < 0.01 && r > previous / 2) {
        report.converged = true;
        break;
      }
      if (stop) {
        report.stopped_by_monitor = true;
        break;
      }
      if (report.iterations >= options.max_iterations || !std::isfinite(r)) break;
      previous = r;
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) t(i, j) = (i == j ? T(1.5) : T(0)) - p(i, j) / T(2);
      product(y, t, tmp, gemm_options);
      std::swap(y, tmp);
      product(t, z, tmp, gemm_options);
      std::swap(z, tmp);
      ++report.iterations;
    }
    const T scale = static_cast<T>(1.0L / std::sqrt(static_cast<long double>(c)));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) result(i, j) = z(i, j) * scale;
  }
  // The residual of what is returned: ‖X·A·X − I‖_F/√n.
  DenseMatrix<T> xa(n, n, layout), xax(n, n, layout);
  product(result, s, xa);
  product(xa, result, xax);
  report.residual = distance_to_identity(xax);
  report.a_posteriori_estimate = report.residual;
  copy_matrix(layout, n, n, result.data.data(), result.ld(), x, ldx);
  return report;
}

template <class T>
InvSqrtResult<T> inv_sqrt_spd(trncore::MatrixView<const T> a, const InvSqrtOptions& options) {
  trncore::detail::check_square("trnsolver::inv_sqrt_spd", "a", a.rows(), a.cols());
  InvSqrtResult<T> out;
  out.x = DenseMatrix<T>(a.rows(), a.rows(), a.layout());
  out.report = inv_sqrt_spd<T>(a.layout(), a.rows(), a.data(), a.ld(), out.x.data.data(), out.x.ld(), options);
  return out;
}

#define TRNSOLVER_INV_SQRT(T)                                                                            \
  template InvSqrtReport inv_sqrt_spd<T>(Layout, std::int64_t, const T*, std::int64_t, T*, std::int64_t, \
                                         const InvSqrtOptions&);                                         \
  template InvSqrtResult<T> inv_sqrt_spd<T>(trncore::MatrixView<const T>, const InvSqrtOptions&);
TRNSOLVER_INV_SQRT(float)
TRNSOLVER_INV_SQRT(double)
#undef TRNSOLVER_INV_SQRT

}  // namespace trnsolver
