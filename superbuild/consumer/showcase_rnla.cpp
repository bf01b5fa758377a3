// The showcase's randomized-NLA part (trnsolver/randomized.hpp): one randomized SVD against LAPACK's full
// SVD, and one Hutch++ trace estimate against Hutchinson at the same matvec budget, on matrices whose
// spectra are prescribed so the exact answers are known. Prints errors and wall times.
#include <trnblas/trnblas.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/trnrand.hpp>
#include <trnsolver/trnsolver.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using trncore::Layout;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// n×c column-major with orthonormal columns: QR of a Gaussian matrix drawn from a trnrand stream.
std::vector<double> orthonormal_columns(std::int64_t n, std::int64_t c, std::uint64_t seed) {
  std::vector<double> q(static_cast<std::size_t>(n * c)), tau(static_cast<std::size_t>(c));
  trnrand::normal(trnrand::make_stream(seed), std::span<double>(q));
  trnsolver::geqrf(Layout::col_major, n, c, q.data(), n, tau.data());
  trnsolver::orgqr(Layout::col_major, n, c, c, q.data(), n, tau.data());
  return q;
}

// A = U·diag(sigma)·Vᵀ, column-major.
std::vector<double> with_spectrum(std::int64_t m, std::int64_t n, const std::vector<double>& sigma, std::uint64_t seed,
                                  bool symmetric) {
  const auto r = static_cast<std::int64_t>(sigma.size());
  std::vector<double> u = orthonormal_columns(m, r, seed), v = symmetric ? u : orthonormal_columns(n, r, seed + 1);
  for (std::int64_t j = 0; j < r; ++j)
    for (std::int64_t i = 0; i < m; ++i) u[static_cast<std::size_t>(i + j * m)] *= sigma[static_cast<std::size_t>(j)];
  std::vector<double> a(static_cast<std::size_t>(m * n));
  trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, m, n, r, 1.0, u.data(), m, v.data(), n,
                0.0, a.data(), m);
  return a;
}

// ‖A − U·diag(s)·Vᵀ‖_F for column-major factors.
double residual_fro(std::vector<double> a, std::int64_t m, std::int64_t n, const trnsolver::RsvdResult<double>& f) {
  std::vector<double> us(f.u.data);
  for (std::int64_t j = 0; j < f.rank; ++j)
    for (std::int64_t i = 0; i < m; ++i) us[static_cast<std::size_t>(i + j * m)] *= f.s[static_cast<std::size_t>(j)];
  trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, m, n, f.rank, -1.0, us.data(), m,
                f.vt.data.data(), f.rank, 1.0, a.data(), m);
  double s = 0.0;
  for (double x : a) s += x * x;
  return std::sqrt(s);
}

}  // namespace

void showcase_rnla() {
  // rsvd: 1500×1200, σ_j = e^{−j/8} (full rank), rank 40: the optimal Frobenius error is (Σ_{j≥40} σ_j²)^{1/2}.
  const std::int64_t m = 1500, n = 1200, k = 40;
  std::vector<double> sigma(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) sigma[static_cast<std::size_t>(j)] = std::exp(-static_cast<double>(j) / 8.0);
  const std::vector<double> a = with_spectrum(m, n, sigma, 2026, false);
  double optimal = 0.0, total = 0.0;
  for (std::int64_t j = 0; j < n; ++j) {
    total += sigma[static_cast<std::size_t>(j)] * sigma[static_cast<std::size_t>(j)];
    if (j >= k) optimal += sigma[static_cast<std::size_t>(j)] * sigma[static_cast<std::size_t>(j)];
  }
  optimal = std::sqrt(optimal);
  const trncore::MatrixView<const double> view(a.data(), m, n, m, Layout::col_major);

  std::printf("\ntrnsolver randomized: rank-%lld SVD of a %lldx%lld matrix with sigma_j = exp(-j/8)\n",
              static_cast<long long>(k), static_cast<long long>(m), static_cast<long long>(n));
  auto t0 = Clock::now();
  const auto full = trnsolver::svd<double>(view, trnsolver::Job::thin);
  const double t_svd = seconds_since(t0);
  trnsolver::RsvdOptions options;  // Gaussian sketch, oversampling 10, 2 power iterations, seed 0
  t0 = Clock::now();
  const auto r = trnsolver::rsvd<double>(view, k, options);
  const double t_rsvd = seconds_since(t0);
  const double err = residual_fro(a, m, n, r);
  std::printf("  LAPACK gesdd (all %lld triplets): %8.1f ms\n", static_cast<long long>(n), 1e3 * t_svd);
  std::printf("  rsvd (k=%lld, p=10, q=2):          %8.1f ms  (%.1fx faster), %lld matvecs\n",
              static_cast<long long>(k), 1e3 * t_rsvd, t_svd / t_rsvd, static_cast<long long>(r.matvecs));
  std::printf("  ||A - U S V^T||_F / ||A||_F = %.3e, optimal rank-%lld error %.3e (ratio %.4f)\n",
              err / std::sqrt(total), static_cast<long long>(k), optimal / std::sqrt(total), err / optimal);
  std::printf("  sigma_1 rsvd %.15f, LAPACK %.15f\n", r.s[0], full.s[0]);

  // Hutch++: PSD 800×800 with λ_j = (j+1)^{-2}, trace known; 60 matvecs each.
  const std::int64_t p = 800, budget = 60;
  std::vector<double> lambda(static_cast<std::size_t>(p));
  double trace = 0.0;
  for (std::int64_t j = 0; j < p; ++j)
    trace += lambda[static_cast<std::size_t>(j)] = 1.0 / static_cast<double>((j + 1) * (j + 1));
  const std::vector<double> s = with_spectrum(p, p, lambda, 7, true);
  const trncore::MatrixView<const double> sview(s.data(), p, p, p, Layout::col_major);
  const auto op = trnsolver::MatrixOperator<double>::dense(sview);
  const trnsolver::Sketch rademacher{trnsolver::SketchKind::rademacher, 1};
  t0 = Clock::now();
  const auto hpp = trnsolver::hutch_plus_plus<double>(op, budget, rademacher);
  const double t_hpp = seconds_since(t0);
  const auto h = trnsolver::hutchinson<double>(op, budget, rademacher);
  std::printf("\ntrnsolver randomized: trace of an %lldx%lld PSD matrix, lambda_j = (j+1)^-2, %lld matvecs\n",
              static_cast<long long>(p), static_cast<long long>(p), static_cast<long long>(budget));
  std::printf(
      "  exact %.10f\n  Hutch++    %.10f  relative error %.2e, standard error %.1e  (%.2f ms)\n"
      "  Hutchinson %.10f  relative error %.2e, standard error %.1e\n",
      trace, hpp.estimate, std::fabs(hpp.estimate - trace) / trace, hpp.standard_error, 1e3 * t_hpp, h.estimate,
      std::fabs(h.estimate - trace) / trace, h.standard_error);
  // One draw can be lucky: the root-mean-square relative error over 20 seeds shows the typical gap.
  double ms_hpp = 0.0, ms_h = 0.0;
  for (std::uint64_t seed = 100; seed < 120; ++seed) {
    const trnsolver::Sketch sk{trnsolver::SketchKind::rademacher, seed};
    ms_hpp += std::pow((trnsolver::hutch_plus_plus<double>(op, budget, sk).estimate - trace) / trace, 2) / 20;
    ms_h += std::pow((trnsolver::hutchinson<double>(op, budget, sk).estimate - trace) / trace, 2) / 20;
  }
  std::printf("  RMS relative error over 20 seeds: Hutch++ %.2e, Hutchinson %.2e\n", std::sqrt(ms_hpp),
              std::sqrt(ms_h));
}
